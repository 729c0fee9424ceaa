/*
 * irq_el0.c - irq-el0: the same IRQ taken from user space (AArch64 EL0): el0t_64_irq,
 * kernel_entry 0, el0t_64_irq_handler -> el0_interrupt, the root handler
 * through handle_arch_irq, then ret_to_user with no pending work and
 * kernel_exit 0 to eret. On cores with a Spectre-BHB mitigation the vector
 * is the hardened one boot installs (firmware call on A73).
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* A getpid() at the site, then A spins in user space through the label
 * hs_tick_el0 for SPIN_TICKS of the counter (more than two ticks at HZ
 * 100), where the replay takes each tick */
#define SPIN_TICKS 1250000	/* 20 ms of the 62.5 MHz counter */

HS_SITE(hs_at_spin);
__asm__(".text\n.balign 16\n.globl hs_tick_el0\n"
	".type hs_tick_el0_fn, %function\n"
	"hs_tick_el0_fn:\n"
	"hs_tick_el0:\n"
	"	nop\n"
	"	ret\n"
	".size hs_tick_el0_fn, . - hs_tick_el0_fn\n");
void hs_tick_el0_fn(void);

static void run(struct hs_wl *w, long ops)
{
	volatile uint64_t spins = 0;

	(void)w;
	(void)ops;
	hs_at_spin_fn(0, 0, 0, SYS_getpid);
	for (uint64_t t0 = hs_wl_counter(); hs_wl_counter() - t0 < SPIN_TICKS;) {
		hs_tick_el0_fn();
		spins++;
	}
}

HS_USER_OP(spin, .order = 40, .run = run);
#else
#include "irq_split.h"

/* booted: ticks while A spins in user space (the workload's hs_at_spin
 * phase); each sample the tick that comes when the guest stops at the
 * spin's label hs_tick_el0 (its clock jumps to the deadline) */
static const struct hs_boot_point point = {
	.name = "spin", .kind = HS_POINT_SVC, .site = "hs_at_spin",
};

static const char *const stubs[] = {
	"generic_handle_domain_irq",
	NULL
};

static const char *const landmarks[] = {
	"el0t_64_irq", "el0t_64_irq_handler", "gic_handle_irq@irq-gic-v3.c", "irq_enter_rcu", "irq_exit_rcu",
	"ret_to_user", NULL
};

static const char *const boot_landmarks[] = {
	"handle_percpu_devid_irq", "arch_timer_handler_virt", "hrtimer_interrupt",
	"update_process_times", "sched_tick|scheduler_tick", "gic_eoi_irq@irq-gic-v3.c", NULL
};

const struct hs_path_def hs_path_irq_el0 = {
	.name = "irq-el0",
	.summary = "IRQ taken from EL0: vector entry to eret, ret_to_user with no pending work",
	.kind = HS_PATH_EXCEPTION,
	.exc = HS_EXC_IRQ,
	.from_el = 0,
	.intid = 27,
	.stubs = stubs,
	.landmarks = landmarks,
	/* booted: the tick while A runs in user space */
	.boot = { .point = &point, .split = hs_irq_split, .landmarks = boot_landmarks,
		  .op = { .kind = HS_OP_IRQ, .from_el = 0, .warp = "hs_tick_el0", .warmup = 4,
			  .samples = 40 } },
};
#endif
