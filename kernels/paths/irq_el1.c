/*
 * irq_el1.c - irq-el1: an IRQ taken while the kernel runs (task A in kernel code with
 * IRQs on): vector entry el1h_64_irq, kernel_entry, el1h_64_irq_handler ->
 * el1_interrupt -> do_interrupt_handler -> the root handler through
 * handle_arch_irq (gic_handle_irq acks INTID 27, the virtual timer, through
 * the emulated GICv3 CPU interface and EOIs it), then kernel_exit to eret.
 * Below the root handler, the irq domain's flow handler is stubbed.
 */
#include "irq_split.h"

/* booted: ticks while the kernel clears user memory for A (read() of
 * /dev/zero, the workload's hs_at_zero phase); each sample the tick that
 * comes when the guest stops at the clearing function (its clock jumps to
 * the deadline) */
static const struct hs_boot_point point = {
	.name = "zero", .kind = HS_POINT_SVC, .site = "hs_at_zero",
};

static const char *const stubs[] = {
	"generic_handle_domain_irq",	/* the handler body below the root handler */
	NULL
};

static const char *const landmarks[] = {
	"el1h_64_irq", "el1h_64_irq_handler", "el1_interrupt", "do_interrupt_handler",
	"gic_handle_irq@irq-gic-v3.c", "irq_enter_rcu", "irq_exit_rcu", NULL
};

static const char *const boot_landmarks[] = {
	"handle_percpu_devid_irq", "arch_timer_handler_virt", "hrtimer_interrupt",
	"update_process_times", "sched_tick|scheduler_tick", "gic_eoi_irq@irq-gic-v3.c", NULL
};

const struct hs_path_def hs_path_irq_el1 = {
	.name = "irq-el1",
	.summary = "IRQ taken at EL1: vector entry to eret, GICv3 root handler via handle_arch_irq",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_IRQ,
	.from_el = 1,
	.intid = 27,		/* EL1 virtual timer PPI */
	.stubs = stubs,
	.landmarks = landmarks,
	/* booted: the tick while the kernel clears user memory for A */
	.boot = { .point = &point, .split = hs_irq_split, .landmarks = boot_landmarks,
		  .op = { .kind = HS_OP_IRQ, .from_el = 1, .warp = "__arch_clear_user|__clear_user",
			  .warmup = 4, .samples = 40 } },
	.tick = 1,	/* the tick as a running kernel takes it: projections add it */
};
