/*
 * irq_el1.c - irq-el1: an IRQ taken while the kernel runs (task A in kernel code with
 * IRQs on): vector entry el1h_64_irq, kernel_entry, el1h_64_irq_handler ->
 * el1_interrupt -> do_interrupt_handler -> the root handler through
 * handle_arch_irq (gic_handle_irq acks INTID 27, the virtual timer, through
 * the emulated GICv3 CPU interface and EOIs it), then kernel_exit to eret.
 * Below the root handler, the irq domain's flow handler is stubbed.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* read() of /dev/zero, 256 KiB at a time (the kernel clears user memory),
 * for SPIN_TICKS of the counter: the ticks come while the kernel runs */
#define SPIN_TICKS 1250000	/* 20 ms of the 62.5 MHz counter */
#define ZERO_CHUNK (256 << 10)

static char zero_buf[ZERO_CHUNK];

HS_SITE(hs_at_zero);

static void warm(struct hs_wl *w)
{
	hs_sys_fn(w->zero, (long)zero_buf, sizeof(zero_buf), SYS_read);
}

static void run(struct hs_wl *w, long ops)
{
	(void)ops;
	hs_at_zero_fn(w->zero, (long)zero_buf, sizeof(zero_buf), SYS_read);
	for (uint64_t t0 = hs_wl_counter(); hs_wl_counter() - t0 < SPIN_TICKS;)
		hs_sys_fn(w->zero, (long)zero_buf, sizeof(zero_buf), SYS_read);
}

/* 32 warm reads: each clears 256 KiB */
HS_USER_OP(zero, .order = 50, .warmup = 32, .warm = warm, .run = run);
#else
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
#endif
