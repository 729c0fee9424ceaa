/*
 * kstate.c - boot-like kernel state by running the kernel's own code
 * (see kstate.h for the sequence and why).
 */
#include <stdio.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "a64/encode.h"
#include "hotsim/err.h"
#include "elf/ksyms.h"
#include "emu/kstate.h"

#define SETUP_BUDGET 4000000ULL
#define PCPU_DYN_SIZE (128ULL << 10)

/* cpu_context: x19..x28, fp, sp, pc (arch/arm64/include/asm/processor.h) */
#define CTX_X19 0
#define CTX_X20 8
#define CTX_FP 80
#define CTX_SP 88
#define CTX_PC 96

/* include/linux/sched.h, stable since 4.x */
#define PF_IDLE			0x00000002u
#define PF_FORKNOEXEC		0x00000040u
#define PF_KTHREAD		0x00200000u
#define PF_NO_SETAFFINITY	0x04000000u
#define HS_SCS_SIZE		1024	/* SCS_SIZE (include/linux/scs.h) */

static const struct hs_sym *need(const struct hs_image *img, const char *name)
{
	const struct hs_sym *s = hs_sym_lookup(img, name, NULL);

	if (!s)
		hs_fail("%s: no symbol %s (needed to build kernel state)", img->path, name);
	return s;
}

/* CPU 0's address of a per-CPU variable; 0 if the symbol is not per-CPU. */
static uint64_t hs_kstate_percpu(const struct hs_kstate *ks, const struct hs_image *img, const char *sym)
{
	const struct hs_sym *s = hs_sym_exact(img, sym);

	if (!s || s->addr < ks->pcpu_start || s->addr >= ks->pcpu_start + ks->pcpu_size)
		return 0;
	return s->addr + ks->pcpu_offset;
}

static int write_mask(struct hs_runner *r, const struct hs_image *img, const char *name)
{
	const struct hs_sym *s = need(img, name);
	uint8_t *p;

	if (!s)
		return -1;
	p = hs_rt_host(r, s->addr, s->size ? s->size : 8);
	if (!p)
		return hs_fail("%s: %s is outside the image", img->path, name);
	memset(p, 0, s->size ? s->size : 8);
	p[0] = 1;	/* CPU 0 only */
	return 0;
}

static int hs_kstate_percpu_areas(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	const struct hs_sym *start = need(img, "__per_cpu_start"), *end = need(img, "__per_cpu_end"),
			    *load = hs_ksym(img, "per-cpu load"), *offs = need(img, "__per_cpu_offset"),
			    *nr = need(img, "nr_cpu_ids");
	void *src;

	if (!start || !end || !load || !offs || !nr)
		return -1;
	ks->pcpu_start = start->addr;
	ks->pcpu_size = (end->addr - start->addr + 4095) & ~4095ULL;
	src = hs_rt_host(r, load->addr, end->addr - start->addr);
	if (!src)
		return hs_fail("%s: .data..percpu is outside the image", img->path);
	ks->pcpu_chunk = hs_rt_alloc(r, ks->pcpu_size + PCPU_DYN_SIZE, 4096);
	if (!ks->pcpu_chunk)
		return -1;
	memcpy(hs_rt_host(r, ks->pcpu_chunk, end->addr - start->addr), src, end->addr - start->addr);
	ks->pcpu_offset = ks->pcpu_chunk - ks->pcpu_start;
	/* Every CPU's offset points at CPU 0's area: only CPU 0 is possible,
	 * and a stray for_each_cpu reads sane memory rather than address 0. */
	for (uint64_t i = 0; i < (offs->size ? offs->size / 8 : 1); i++)
		if (hs_rt_write64(r, offs->addr + 8 * i, ks->pcpu_offset))
			return -1;
	ks->shims.pcpu_dyn_base = ks->pcpu_start + ks->pcpu_size;
	ks->shims.pcpu_dyn_size = PCPU_DYN_SIZE;
	if (write_mask(r, img, "__cpu_possible_mask") || write_mask(r, img, "__cpu_present_mask") ||
	    write_mask(r, img, "__cpu_active_mask") || hs_rt_write32(r, nr->addr, 1))
		return -1;
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDR_EL1, ks->pcpu_offset);
	/* set_cpu_online(0, true) keeps __num_online_cpus in step (5.6+);
	 * before that the mask is all there is */
	if (hs_sym_lookup(img, "set_cpu_online", NULL)) {
		const struct hs_sym *m = need(img, "__cpu_online_mask");

		if (!m || !hs_rt_host(r, m->addr, m->size ? m->size : 8))
			return -1;
		memset(hs_rt_host(r, m->addr, m->size ? m->size : 8), 0, m->size ? m->size : 8);
		return hs_rt_call(r, "state setup: set_cpu_online(0, true)",
				  hs_sym_lookup(img, "set_cpu_online", NULL)->addr,
				  (uint64_t[2]){ 0, 1 }, 2, 0, SETUP_BUDGET, NULL);
	}
	return write_mask(r, img, "__cpu_online_mask");
}

/* One call of a kernel function on init_task's stack, as current. */
static int call_as_init(struct hs_runner *r, struct hs_kstate *ks, const char *fn,
			const uint64_t *args, int n, uint64_t *ret)
{
	const struct hs_image *img = hs_rt_image(r);
	const struct hs_sym *f = need(img, fn), *top = hs_ksym(img, "init stack end");
	char what[96];

	if (!f || !top)
		return -1;
	snprintf(what, sizeof(what), "state setup: %s()", fn);
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL0, ks->init_task);
	hs_rt_set_reg(r, UC_ARM64_REG_X29, 0);
	/* a shadow call stack kernel: init_task's, as head.S loads it
	 * (scs_load_current); each call leaves it as it found it */
	if (ks->scs_init)
		hs_rt_set_reg(r, UC_ARM64_REG_X18, ks->scs_init);
	return hs_rt_call(r, what, f->addr, args, n, top->addr - ks->off.pt_regs_size, SETUP_BUDGET,
			  ret);
}

/*
 * offsetof(task_struct, flags): the one 32-bit slot of init_task that holds
 * PF_KTHREAD as the image initialises it and gains PF_NO_SETAFFINITY when
 * sched_init() makes it the idle task (init_idle()). Found by comparing the
 * two copies, so no layout is assumed.
 */
static int find_task_flags(struct hs_runner *r, struct hs_kstate *ks)
{
	const uint8_t *pre = hs_rt_host(r, ks->init_template, ks->off.task_size);
	const uint8_t *post = hs_rt_host(r, ks->init_task, ks->off.task_size);
	int found = 0;

	for (uint64_t o = 0; pre && post && o + 4 <= ks->off.task_size; o += 4) {
		uint32_t a, b;

		memcpy(&a, pre + o, 4);
		memcpy(&b, post + o, 4);
		if ((a & PF_KTHREAD) && !(a & PF_NO_SETAFFINITY) && (b & PF_NO_SETAFFINITY) &&
		    !((a ^ b) & ~(PF_IDLE | PF_NO_SETAFFINITY))) {
			if (found++)
				return hs_fail("state setup: two candidates for task_struct.flags (0x%llx, 0x%llx)",
					       (unsigned long long)ks->task_flags, (unsigned long long)o);
			ks->task_flags = o;
		}
	}
	if (!found)
		return hs_fail("state setup: sched_init() did not make init_task the idle task "
			       "(no task_struct.flags slot gained PF_NO_SETAFFINITY)");
	return 0;
}

/*
 * The shadow call stack (CONFIG_SHADOW_CALL_STACK: x18, grown upwards by
 * every non-leaf function's prologue). init_task's is the image's
 * init_shadow_call_stack, which its thread_info's scs_base and scs_sp both
 * hold as the image initialises them: two consecutive words with that
 * value at the start of init_task (thread_info is its first member) are
 * the two fields, so no layout is assumed.
 */
static int find_scs(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_sym *scs = hs_sym_exact(hs_rt_image(r), "init_shadow_call_stack");
	const uint8_t *ti = hs_rt_host(r, ks->init_template, 128);

	if (!scs)
		return 0;	/* no shadow call stack */
	for (unsigned off = 0; ti && off + 16 <= 128; off += 8) {
		uint64_t a, b;

		memcpy(&a, ti + off, 8);
		memcpy(&b, ti + off + 8, 8);
		if (a == scs->addr && b == scs->addr) {
			ks->scs_init = scs->addr;
			ks->scs_field = off;
			return 0;
		}
	}
	return hs_fail("%s: init_task's thread_info does not hold init_shadow_call_stack "
		       "(scs_base, scs_sp)", hs_rt_image(r)->path);
}

/* A shadow call stack of its own for a task hotsim makes (scs_alloc()):
 * SCS_SIZE, 1 KiB since Linux 5.8 (include/linux/scs.h). */
static int task_scs(struct hs_runner *r, struct hs_kstate *ks, uint64_t task)
{
	uint64_t s = hs_rt_alloc(r, HS_SCS_SIZE, 8);

	if (!s)
		return -1;
	return hs_rt_write64(r, task + ks->scs_field, s) || hs_rt_write64(r, task + ks->scs_field + 8, s);
}

/* init_irq_scs(): the per-CPU shadow stack IRQ entry switches to */
static int irq_scs(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	uint64_t p = hs_kstate_percpu(ks, img, "irq_shadow_call_stack_ptr"), s;

	if (!p)
		return hs_fail("%s: a shadow call stack kernel without a per-CPU irq_shadow_call_stack_ptr",
			       img->path);
	s = hs_rt_alloc(r, HS_SCS_SIZE, 8);
	return s ? hs_rt_write64(r, p, s) : -1;
}

static int hs_kstate_sched_init(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	const struct hs_sym *it = need(img, "init_task");
	uint64_t irqp;

	if (!it)
		return -1;
	ks->init_task = it->addr;
	if (hs_kshims_install(r, &ks->shims) || call_as_init(r, ks, "sched_init", NULL, 0, NULL))
		return -1;
	/* init_irq_stacks(): a THREAD_SIZE IRQ stack, THREAD_ALIGN-aligned
	 * like a vmap'ed one (the overflow check in the vectors relies on it) */
	ks->irq_stack = hs_rt_alloc(r, ks->off.thread_size, 2 * ks->off.thread_size);
	irqp = hs_kstate_percpu(ks, img, "irq_stack_ptr");
	if (!ks->irq_stack || !irqp)
		return ks->irq_stack ? hs_fail("%s: no per-CPU irq_stack_ptr", img->path) : -1;
	if (hs_rt_write64(r, irqp, ks->irq_stack))
		return -1;
	return ks->scs_init ? irq_scs(r, ks) : 0;
}

/*
 * start_kernel()'s time set-up after sched_init(): the timer wheel, the
 * per-CPU hrtimer bases and timekeeping on its default clocksource
 * (jiffies; no clock device is probed). Since 6.12 the fair server arms an
 * hrtimer on the first enqueue, which reads the clock (ktime_get).
 */
static int hs_kstate_time_init(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	const struct hs_sym *timers = hs_ksym(img, "timers init");

	if (!timers)
		return -1;
	if (call_as_init(r, ks, timers->name, NULL, 0, NULL) ||
	    call_as_init(r, ks, "hrtimers_init", NULL, 0, NULL) ||
	    call_as_init(r, ks, "timekeeping_init", NULL, 0, NULL))
		return -1;
	return 0;
}

/* A task body on the harness page: loop { yield(); } */
static uint64_t loop_body(struct hs_runner *r, uint64_t fn, uint64_t *call_pc)
{
	uint32_t code[6];
	uint64_t at;

	code[0] = a64_gen_ldr_lit64(16, 16);	/* ldr x16, lit (+16) */
	code[1] = a64_gen_blr(16);		/* blr x16 */
	code[2] = a64_gen_b(8, 0);		/* b code[0] */
	code[3] = A64_NOP;
	code[4] = (uint32_t)fn;			/* lit: .quad fn */
	code[5] = (uint32_t)(fn >> 32);
	at = hs_rt_harness(r, code, 6);
	if (call_pc)
		*call_pc = at + 4;
	return at;
}

/*
 * The state is what it claims: A is current (at its yield call), and B is
 * asleep where a switched-out task sleeps - its saved pc is the return from
 * cpu_switch_to() into __switch_to() (or wherever the scheduler inlined it),
 * its saved sp on its own stack.
 */
static int verify_switched(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	uint64_t cur = hs_rt_reg(r, UC_ARM64_REG_SP_EL0), ctx = ks->task[1] + ks->off.task_cpu_context;
	uint64_t pc = 0, sp = 0;
	const struct hs_sym *f;
	char where[128];

	if (cur != ks->task[0])
		return hs_fail("state setup: task A is not current after the switches (current 0x%llx)",
			       (unsigned long long)cur);
	if (hs_rt_read64(r, ctx + CTX_PC, &pc) || hs_rt_read64(r, ctx + CTX_SP, &sp))
		return -1;
	f = hs_sym_at(img, pc);
	if (pc == hs_sym_lookup(img, "ret_from_fork", NULL)->addr || !f ||
	    (!strstr(f->name, "schedule") && !strstr(f->name, "switch")))
		return hs_fail("state setup: task B never ran and slept in the scheduler "
			       "(saved pc %s)", hs_addr_fmt(img, pc, where, sizeof(where)));
	if (sp < ks->stack[1] || sp >= ks->stack[1] + ks->off.thread_size)
		return hs_fail("state setup: task B's saved sp 0x%llx is off its stack",
			       (unsigned long long)sp);
	return 0;
}

static int hs_kstate_tasks(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	const struct hs_sym *yield = need(img, "yield"), *rff = need(img, "ret_from_fork"),
			    *sched = need(img, "schedule"), *top = hs_ksym(img, "init stack end");
	uint64_t ts = ks->off.thread_size, idle_body, ret;
	struct hs_run run = { 0 };

	if (!yield || !rff || !sched || !top)
		return -1;
	for (int i = 0; i < 2; i++) {
		uint64_t t = hs_rt_alloc(r, ks->off.task_size, 64), st, ctx, arg;
		void *tmpl;

		st = hs_rt_alloc(r, ts, 2 * ts);
		if (!t || !st)
			return -1;
		/* dup_task_struct(current): a byte copy of init_task as sched_init()
		 * left it (load weight and slice set), its own stack with the
		 * end-of-stack magic; then copy_process()'s flag fix-up (the child
		 * is not the idle task) */
		tmpl = hs_rt_host(r, ks->init_task, ks->off.task_size);
		if (!tmpl)
			return hs_fail("state setup: init_task outside the image");
		memcpy(hs_rt_host(r, t, ks->off.task_size), tmpl, ks->off.task_size);
		if (hs_rt_write64(r, t + ks->off.task_stack, st) ||
		    (ks->scs_init && task_scs(r, ks, t)) ||
		    call_as_init(r, ks, "set_task_stack_end_magic", &t, 1, NULL))
			return -1;
		{
			uint32_t *fl = hs_rt_host(r, t + ks->task_flags, 4);

			*fl = (*fl & ~(PF_IDLE | PF_NO_SETAFFINITY)) | PF_FORKNOEXEC;
		}
		arg = 0;
		if (call_as_init(r, ks, "sched_fork", (uint64_t[2]){ arg, t }, 2, &ret))
			return -1;
		if (ret)
			return hs_fail("state setup: sched_fork() returned %lld", (long long)ret);
		/* copy_thread() for a kernel thread */
		ctx = t + ks->off.task_cpu_context;
		if (hs_rt_write64(r, ctx + CTX_X19, loop_body(r, yield->addr, &ks->loop_call[i])) ||
		    hs_rt_write64(r, ctx + CTX_X20, 0) || hs_rt_write64(r, ctx + CTX_FP, 0) ||
		    hs_rt_write64(r, ctx + CTX_SP, st + ts - ks->off.pt_regs_size) ||
		    hs_rt_write64(r, ctx + CTX_PC, rff->addr))
			return -1;
		if (call_as_init(r, ks, "wake_up_new_task", &t, 1, NULL))
			return -1;
		ks->task[i] = t;
		ks->stack[i] = st;
	}
	/* The idle task schedules; A and B then alternate through yield().
	 * Stop when A is about to yield for the third time: both tasks have
	 * by then slept inside __schedule() and come back out of it. */
	idle_body = loop_body(r, sched->addr, NULL);
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL0, ks->init_task);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, top->addr - ks->off.pt_regs_size);
	run.what = "state setup: first switches between two tasks";
	run.pc = idle_body;
	run.stop = ks->loop_call[0];
	run.stop_hits = 3;
	run.budget = SETUP_BUDGET;
	if (hs_rt_run(r, &run))
		return -1;
	return verify_switched(r, ks);
}

int hs_kstate_boot(struct hs_runner *r, struct hs_kstate *ks)
{
	const struct hs_image *img = hs_rt_image(r);
	uint64_t start = hs_rt_icount(r);
	const struct hs_sym *it;

	memset(ks, 0, sizeof(*ks));
	/* setup_arch() leaves debug and SError exceptions unmasked and IRQ/FIQ
	 * masked (local_daif_restore(DAIF_PROCCTX_NOIRQ)); Unicorn resets with
	 * all four masked, which 7.x's __switch_to() WARNs about */
	hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, (hs_rt_reg(r, UC_ARM64_REG_PSTATE) & ~0x3c0ULL) | 0xc0);
	if (hs_offsets_find(img, hs_rt_host(r, img->base, img->span), &ks->off) ||
	    hs_kstate_percpu_areas(r, ks))
		return -1;
	it = need(img, "init_task");
	if (!it)
		return -1;
	/* keep init_task as the image initialises it, before sched_init makes
	 * it the idle task: forked tasks copy this */
	ks->init_template = hs_rt_alloc(r, ks->off.task_size, 64);
	if (!ks->init_template)
		return -1;
	memcpy(hs_rt_host(r, ks->init_template, ks->off.task_size),
	       hs_rt_host(r, it->addr, ks->off.task_size), ks->off.task_size);
	ks->init_task = it->addr;
	if (find_scs(r, ks))
		return -1;
	/* start_kernel(): set_task_stack_end_magic(&init_task) comes first */
	if (call_as_init(r, ks, "set_task_stack_end_magic", &ks->init_task, 1, NULL) ||
	    hs_kstate_sched_init(r, ks) || hs_kstate_time_init(r, ks) || find_task_flags(r, ks) ||
	    hs_kstate_tasks(r, ks))
		return -1;
	ks->setup_insns = (unsigned)(hs_rt_icount(r) - start);
	return 0;
}
