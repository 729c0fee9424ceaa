/*
 * session.c - what the path definitions share: build state, enter an
 * exception as the hardware would, switch tasks through yield(), check
 * landmarks, and the registry lookup.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "a64/encode.h"
#include "hotsim/err.h"
#include "paths/path_internal.h"

#define PATH_BUDGET 2000000ULL

/* eret to EL0 returns to hs_rt_user_exit(): a user-space address (bit 55
 * clear, so el0_interrupt() does not take it for a kernel pc and harden
 * the predictor). */
#define USER_SP 0x0000ffffd0000000ULL

void hs_path_note(struct hs_path_run *out, const char *fmt, ...)
{
	va_list ap;

	if (out->nnotes >= HS_ARRAY_SIZE(out->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(out->notes[out->nnotes++], sizeof(out->notes[0]), fmt, ap);
	va_end(ap);
}

/*
 * VBAR_EL1 as boot leaves it: the canonical vectors, or on cores that need a
 * Spectre-BHB mitigation the matching 2 KiB slot of __bp_harden_el1_vectors
 * (arm64_get_bp_hardening_vector(): LOOP, FW, CLEAR_INSN in that order).
 */
uint64_t hs_path_vectors(const struct hs_image *img, const struct hs_core *core, char *desc, size_t len)
{
	const struct hs_sym *v = hs_sym_exact(img, "vectors");
	const struct hs_sym *bp = hs_sym_exact(img, "__bp_harden_el1_vectors");
	int slot = -1;

	switch (hs_spectre_bhb(core)) {
	case HS_MIT_LOOP: slot = 0; break;
	case HS_MIT_FIRMWARE: slot = 1; break;
	case HS_MIT_INSN: slot = 2; break;
	default: break;
	}
	if (slot >= 0 && bp) {
		snprintf(desc, len, "__bp_harden_el1_vectors+0x%x", 0x800 * slot);
		return bp->addr + 0x800ULL * (unsigned)slot;
	}
	snprintf(desc, len, "vectors");
	return v ? v->addr : 0;
}

/*
 * Spectre-v2 on a core the firmware mitigates (the A72's on a board with
 * TF-A, the A73's WA1): boot's install_bp_hardening_cb() keeps the SMC that
 * asks the firmware for it in every CPU's bp_hardening_data.fn, which
 * check_and_switch_context() calls on every switch to another mm (and
 * el0_ia() on a user jump to a kernel address). fn is the struct's second
 * word, after the hyp vector slot (an enum: offset 8 in every kernel since
 * 5.10); the kernel is entered at EL1, so boot leaves the slot unset. The
 * platform's conduit is SMC (platform.c).
 */
#define BP_HARDENING_FN 8
uint64_t hs_path_bp_hardening(const struct hs_image *img, const struct hs_core *core, uint64_t *var)
{
	const struct hs_sym *d = hs_sym_exact(img, "bp_hardening_data");
	const struct hs_sym *fn = hs_sym_exact(img, "call_smc_arch_workaround_1");
	struct hs_spectre s;

	hs_spectre_eval(core, &s);
	if (s.v2 != HS_MIT_FIRMWARE || !d || !fn)
		return 0;
	*var = d->addr + BP_HARDENING_FN;
	return fn->addr;
}

static uint64_t vector_base(const struct hs_path_ctx *c, char *desc, size_t len)
{
	return hs_path_vectors(c->img, c->pt->core, desc, len);
}

/* offsetof(task_struct, thread_info.flags): the first load from tsk (x28)
 * in ret_to_user ("ldr x19, [tsk, #TSK_TI_FLAGS]"). */
static int ti_flags_offset(const struct hs_path_ctx *c, uint64_t *off)
{
	const struct hs_sym *f = hs_sym_exact(c->img, "ret_to_user");

	if (!f)
		return hs_fail("%s: no ret_to_user", c->img->path);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t w = 0;

		hs_read32(c->img, c->pt->mem, f->addr + 4 * i, &w);
		/* ldr xt, [x28, #imm12*8] */
		if (a64_is_ldr_x_uimm(w) && a64_rn(w) == 28) {
			*off = a64_uimm12(w) * 8ULL;
			return 0;
		}
	}
	return hs_fail("%s: ret_to_user does not start with a load of TSK_TI_FLAGS", c->img->path);
}

static void set_spsr_el1(struct hs_runner *r, uint64_t v)
{
	uc_arm64_cp_reg cp = { .op0 = 3, .op1 = 0, .crn = 4, .crm = 0, .op2 = 0, .val = v };

	(void)r;
	hs_rt_set_cp(r, &cp);
}

/* Enter the exception (registers as the hardware leaves them) and describe
 * the run; nothing executes yet. */
/* The vector an exception is taken to: the level it comes from, its kind. */
static unsigned vector_offset(const struct hs_path_def *d)
{
	return (d->from_el == 0 ? 0x400u : 0x200u) + (d->exc == HS_EXC_IRQ ? 0x80u : 0x00u);
}

static int exception_prepare(struct hs_path_ctx *c, const struct hs_path_def *d,
			     struct hs_path_run *out, struct hs_run *runp)
{
	char vdesc[64], where[128];
	uint64_t vbar = vector_base(c, vdesc, sizeof(vdesc)), pstate;
	unsigned vector = vector_offset(d);
	const struct hs_sym *target;
	struct hs_run run = { .what = d->name, .budget = c->budget, .trace = &out->tr };
	uint32_t w = 0;
	int64_t off;

	if (!vbar)
		return hs_fail("%s: no vectors symbol", c->img->path);
	/* name the handler the vector branches to, for reports */
	target = NULL;
	for (unsigned i = 0; i < 32 && !target; i++) {
		uint64_t at = vbar + vector + 4 * i;

		hs_read32(c->img, c->pt->mem, at, &w);
		/* the first branch out of the vector table names the handler */
		if (a64_is_b(w) && a64_branch_imm_offset(w, &off) &&
		    (uint64_t)(at + (uint64_t)off - vbar) >= 0x800)
			target = hs_sym_at(c->img, at + (uint64_t)off);
	}
	snprintf(out->entry_desc, sizeof(out->entry_desc), "%s+0x%x%s%s%s", vdesc, vector,
		 target ? " (" : "", target ? target->name : "", target ? ")" : "");
	(void)where;

	/* What the exception entry does in hardware: save pc and pstate, mask
	 * DAIF, enter EL1h on SP_EL1. The interrupted context had IRQs on. */
	if (d->from_el == 0) {
		uint64_t flags_off = 0, task = c->ks.task[0];

		/* "no pending work": the user task returns with no TIF work */
		if (ti_flags_offset(c, &flags_off) || hs_rt_write64(c->r, task + flags_off, 0))
			return -1;
		hs_rt_set_reg(c->r, UC_ARM64_REG_SP_EL0, USER_SP);
		hs_rt_set_reg(c->r, UC_ARM64_REG_SP, c->ks.stack[0] + c->ks.off.thread_size);
		hs_rt_set_reg(c->r, UC_ARM64_REG_ELR_EL1, hs_rt_user_exit(c->r));
		set_spsr_el1(c->r, 0x0);		/* EL0t, DAIF clear */
		run.stop = hs_rt_user_exit(c->r);
	} else {
		hs_rt_set_reg(c->r, UC_ARM64_REG_ELR_EL1, HS_EXIT_VA);
		set_spsr_el1(c->r, 0x5);		/* EL1h, DAIF clear */
		run.stop = HS_EXIT_VA;
	}
	pstate = hs_rt_reg(c->r, UC_ARM64_REG_PSTATE);
	hs_rt_set_reg(c->r, UC_ARM64_REG_PSTATE, (pstate & ~0x3cfULL) | 0x3c5);
	if (d->exc == HS_EXC_IRQ) {
		hs_rt_gic_raise(c->r, d->intid);
	} else {
		/* svc #0: ESR_EL1.EC = 0x15 (SVC64), IL; the caller's registers */
		uc_arm64_cp_reg esr = { .op0 = 3, .op1 = 0, .crn = 5, .crm = 2, .op2 = 0,
					.val = (0x15ULL << 26) | (1ULL << 25) };

		hs_rt_set_cp(c->r, &esr);
		for (unsigned i = 0; i < 6; i++)
			hs_rt_set_x(c->r, i, d->args[i]);
		hs_rt_set_x(c->r, 8, (uint64_t)(int64_t)d->syscall);
	}
	run.pc = vbar + vector;
	out->entry = run.pc;
	*runp = run;
	return 0;
}

int hs_path_exception(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out)
{
	struct hs_run run;

	if (exception_prepare(c, d, out, &run) || hs_rt_run(c->r, &run))
		return -1;
	if (out->tr.n)
		out->tr.v[0].flags |= HS_T_EXC_ENTRY;	/* the models charge the entry */
	return 0;
}

/* The address a call of `callee` from one of `callers` returns to. */
static uint64_t return_site(const struct hs_path_ctx *c, const char *const *callers,
			    const char *callee)
{
	const struct hs_sym *t = hs_sym_lookup(c->img, callee, NULL);

	if (!t)
		return 0;
	for (int i = 0; callers[i]; i++) {
		const struct hs_sym *f = hs_sym_lookup(c->img, callers[i], NULL);

		for (uint64_t a = f ? f->addr : 0; f && a < f->addr + f->size; a += 4) {
			uint32_t w = 0;
			int64_t off;

			hs_read32(c->img, c->pt->mem, a, &w);
			if (a64_is_bl(w) && a64_branch_imm_offset(w, &off) &&
			    a + (uint64_t)off == t->addr)
				return a + 4;
		}
	}
	return 0;
}

/*
 * Task A (current) yields; the trace starts at __schedule and ends when task
 * B, which was sleeping in __schedule, is back out of schedule() in its own
 * do_sched_yield().
 */
static int switch_prepare(struct hs_path_ctx *c, const struct hs_path_def *d,
			  struct hs_path_run *out, struct hs_run *runp)
{
	static const char *const callers[] = { "do_sched_yield", "yield", NULL };
	const struct hs_sym *s = hs_sym_lookup(c->img, "__schedule", NULL);
	struct hs_run run = { .what = d->name, .budget = c->budget, .trace = &out->tr };

	if (!s)
		return hs_fail("%s: no __schedule", c->img->path);
	run.stop = return_site(c, callers, "schedule");
	if (!run.stop)
		return hs_fail("%s: no call of schedule() in do_sched_yield()/yield()", c->img->path);
	run.stop_sp_min = c->ks.stack[1];	/* B's stack lies above A's */
	run.trace_from = s->addr;
	run.pc = hs_rt_reg(c->r, UC_ARM64_REG_PC);
	out->entry = s->addr;
	snprintf(out->entry_desc, sizeof(out->entry_desc), "%s (task A yields to task B)", s->name);
	*runp = run;
	return 0;
}

static int hs_path_switch(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out)
{
	struct hs_run run;

	if (switch_prepare(c, d, out, &run))
		return -1;
	return hs_rt_run(c->r, &run);
}

/* The run a path would do, set up and not executed (benchmarks). */
static int hs_path_prepare(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out,
			   struct hs_run *run)
{
	switch (d->kind) {
	case HS_PATH_EXCEPTION: return exception_prepare(c, d, out, run);
	case HS_PATH_SWITCH: return switch_prepare(c, d, out, run);
	case HS_PATH_BOOTED:
	default: return hs_fail("%s is not a single emulated run", d->name);
	}
}

static int visited(const struct hs_trace *t, const struct hs_sym *s)
{
	for (size_t i = 0; i < t->n; i++)
		if (hs_trace_pc(t, i) >= s->addr && hs_trace_pc(t, i) < s->addr + (s->size ? s->size : 4))
			return 1;
	return 0;
}

static void check_list(const char *const *list, const struct hs_image *img, struct hs_path_run *out)
{
	for (int i = 0; list && list[i]; i++) {
		const char *note = NULL, *spec = list[i];
		const struct hs_sym *s = NULL;
		char alt[96];

		/* "a|b": the names one function has had across versions */
		while (!s && *spec) {
			size_t n = strcspn(spec, "|");

			snprintf(alt, sizeof(alt), "%.*s", (int)n, spec);
			s = hs_sym_spec(img, alt, &note);
			spec += n + (spec[n] == '|');
		}
		if (!s)
			hs_path_note(out, "%s: not a function in this image (inlined or absent)", list[i]);
		else if (!visited(&out->tr, s))
			hs_path_note(out, "%s: in the image but not on this path", s->name);
		else if (note)
			hs_path_note(out, "%s", note);
	}
}

static void check_landmarks(const struct hs_path_def *d, const struct hs_image *img,
			    struct hs_path_run *out)
{
	check_list(d->landmarks, img, out);
	if (out->booted)
		check_list(d->boot.landmarks, img, out);
}

struct hs_session {
	struct hs_path_ctx c;
	int ok;
	char why[768];		/* when !ok: why no synthesized path can run on this image */
	enum hs_state_source src;
	struct hs_boot_state boot;
	int refused;		/* the core cannot run this image at all (why) */
	char boot_why[700];	/* when !boot.ok: why there is no booted state */
};

struct hs_session *hs_session_new(const struct hs_patched *pt, enum hs_state_source src,
				  const struct hs_path_set *set)
{
	struct hs_session *s = hs_calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->src = src;
	s->c.img = pt->img;
	s->c.pt = pt;
	s->c.budget = PATH_BUDGET;
	/* a core that cannot translate the image's pages cannot run it at all */
	if (!hs_mmfr0_has_granule(hs_core_idreg(pt->core, HS_ID_AA64MMFR0_EL1), pt->img->page_size)) {
		snprintf(s->why, sizeof(s->why), "the image uses %uK pages and %s has no %uK granule "
			 "(ID_AA64MMFR0_EL1 0x%llx in its core file)", pt->img->page_size >> 10,
			 pt->core->full, pt->img->page_size >> 10,
			 (unsigned long long)hs_core_idreg(pt->core, HS_ID_AA64MMFR0_EL1));
		snprintf(s->boot_why, sizeof(s->boot_why), "%.690s", s->why);
		s->refused = 1;
		return s;
	}
	if (src != HS_SRC_SYNTH && hs_boot_state_init(&s->boot, pt, set)) {
		snprintf(s->boot_why, sizeof(s->boot_why), "%s", hs_errmsg());
		hs_boot_state_free(&s->boot);
	}
	if (src == HS_SRC_SYNTH)
		snprintf(s->boot_why, sizeof(s->boot_why), "synthesized state was asked for");
	if (src == HS_SRC_BOOTED)
		snprintf(s->why, sizeof(s->why), "no booted state: %s", s->boot_why);
	/* synthesized state is built when a path first needs it */
	return s;
}

/* hotsim's own boot-like state, once per session; -1 only for internal
 * failures (a state that cannot be built is s->why). */
static int synth_state(struct hs_session *s)
{
	if (s->c.r || s->src == HS_SRC_BOOTED || s->refused)
		return 0;
	s->c.r = hs_runner_new(s->c.pt->img, s->c.pt->mem, s->c.pt->core);
	if (!s->c.r)
		return -1;
	if (hs_kstate_boot(s->c.r, &s->c.ks) || hs_rtconst_settle(s->c.r, &s->c.pt->rep) ||
	    hs_rt_snapshot(s->c.r)) {
		snprintf(s->why, sizeof(s->why), "%s", hs_errmsg());
		return 0;
	}
	s->ok = 1;
	return 0;
}

/* A booted run is next: the synthesized state a path without a booted
 * form (percpu) built goes - a distro image's is ~100 MB (its memory
 * image, the copy it restores from, a Unicorn of its own) and would stay
 * beside the booted replay's largest stream. Built again if another such
 * path comes; no run outlives the next one (paths.h). */
static void drop_synth_state(struct hs_session *s)
{
	if (!s->c.r)
		return;
	hs_runner_free(s->c.r);
	s->c.r = NULL;
	memset(&s->c.ks, 0, sizeof(s->c.ks));
	s->ok = 0;
	s->why[0] = 0;
}

const char *hs_session_state(const struct hs_session *s, int *booted)
{
	*booted = s->boot.ok;
	return s->boot.ok ? s->boot.desc : s->boot_why;
}

unsigned hs_session_state_notes(const struct hs_session *s, const char **notes, unsigned max)
{
	unsigned n = 0;

	for (; s->boot.ok && n < s->boot.nnotes && n < max; n++)
		notes[n] = s->boot.notes[n];
	return n;
}

unsigned hs_session_npoints(const struct hs_session *s)
{
	return hs_boot_state_npoints(&s->boot);
}

const char *hs_session_skipped(const struct hs_session *s, const char *point)
{
	return hs_snap_skipped(&s->boot.snap, point);
}

void hs_session_snapshot(const struct hs_session *s, char name[HS_SNAPSHOT_NAME])
{
	name[0] = 0;
	if (s->boot.ok)
		snprintf(name, HS_SNAPSHOT_NAME, "%08llx", (unsigned long long)(s->boot.snap.h.checksum >> 32));
}

int hs_session_machine(const struct hs_session *s, unsigned k, struct hs_machine_point *out)
{
	return hs_boot_state_machine(&s->boot, k, out);
}

int hs_session_machine_run(struct hs_session *s, unsigned k, unsigned nops, struct hs_machine_run *out)
{
	return hs_boot_state_machine_run(&s->boot, k, nops, out);
}

int hs_session_machine_trace(struct hs_session *s, unsigned k, unsigned nops, struct hs_machine_run *out,
			     struct hs_trace *tr, size_t limit, const struct hs_turn_clock *clock)
{
	return hs_boot_state_machine_trace(&s->boot, k, nops, out, tr, limit, clock);
}

void hs_session_free(struct hs_session *s)
{
	if (!s)
		return;
	hs_runner_free(s->c.r);
	hs_boot_state_free(&s->boot);
	free(s);
}

/* d's booted form, into out (which the caller has initialised). */
static int run_booted(struct hs_session *s, const struct hs_path_def *d, size_t trace_limit,
		      unsigned samples, struct hs_path_run *out)
{
	const struct hs_op_def *op = &d->boot.op;
	size_t whole = (size_t)(op->warmup + (samples ? samples : op->samples)) * op->max_insns;

	/* the replay follows one CPU: a machine of more only shows its state */
	if (s->boot.snap.h.ncpus > 1) {
		snprintf(out->why, sizeof(out->why), "the replay runs a machine of one CPU; this "
			 "state's has %u (hotsim state shows them)", s->boot.snap.h.ncpus);
		return 0;
	}
	/* a path whose ops are long (fork) holds them all */
	if (whole > trace_limit)
		trace_limit = whole;
	out->r = s->boot.r;
	hs_trace_init(&out->tr, hs_rt_dcache(s->boot.r), trace_limit);
	if (hs_path_booted(&s->boot, d, samples, out)) {
		snprintf(out->why, sizeof(out->why), "%s", hs_errmsg());
		return 0;
	}
	check_landmarks(d, s->c.img, out);
	out->ok = 1;
	return 0;
}

int hs_path_run(struct hs_session *s, const struct hs_path_def *d, const struct hs_run_opts *o,
		struct hs_path_run *out)
{
	static const struct hs_run_opts defaults;
	size_t trace_limit;
	struct hs_path_ctx c;
	int rc = 0;

	if (!o)
		o = &defaults;
	trace_limit = o->trace_limit ? o->trace_limit : 4000000;

	memset(out, 0, sizeof(*out));
	out->def = d;
	if (s->refused) {
		snprintf(out->why, sizeof(out->why), "%s", s->why);
		snprintf(out->state, sizeof(out->state), "none: %s", s->why);
		return 0;
	}
	if (s->boot.ok && d->boot.point) {
		drop_synth_state(s);
		return run_booted(s, d, trace_limit, o->samples, out);
	}
	if (d->kind != HS_PATH_BOOTED && synth_state(s))
		return -1;
	c = s->c;	/* runs may change their copy of the state */
	c.pins = o->pins;
	if (d->kind == HS_PATH_BOOTED) {
		snprintf(out->why, sizeof(out->why), "needs the booted state: %s", s->boot_why);
		return 0;
	}
	if (!s->c.r) {
		snprintf(out->why, sizeof(out->why), "%s",
			 !d->boot.point ? "this path runs on synthesized state only" : s->why);
		return 0;
	}
	snprintf(out->state, sizeof(out->state), "synthesized: %s",
		 !d->boot.point ? "this path has no booted form" : s->boot_why);
	out->r = c.r;
	hs_trace_init(&out->tr, hs_rt_dcache(c.r), trace_limit);
	if (!s->ok) {
		snprintf(out->why, sizeof(out->why), "%s", s->why);
		return 0;
	}
	if (hs_rt_restore(c.r))
		return -1;
	out->setup_insns = c.ks.setup_insns;
	if (c.ks.off.btf_checked)
		hs_path_note(out, "layout facts found in the code and data agree with BTF");
	for (int i = 0; d->stubs && d->stubs[i]; i++)
		if (hs_rt_stub(c.r, d->stubs[i], 0))
			goto cannot;
	switch (d->kind) {
	case HS_PATH_EXCEPTION: rc = hs_path_exception(&c, d, out); break;
	case HS_PATH_SWITCH: rc = hs_path_switch(&c, d, out); break;
	case HS_PATH_CUSTOM: rc = d->run(&c, d, out); break;
	case HS_PATH_BOOTED: rc = hs_fail("%s needs the booted state", d->name); break;
	}
	if (rc)
		goto cannot;
	out->ks = malloc(sizeof(*out->ks));
	if (out->ks)
		*out->ks = c.ks;
	check_landmarks(d, c.img, out);
	out->ok = 1;
	return 0;
cannot:
	snprintf(out->why, sizeof(out->why), "%s", hs_errmsg());
	out->ok = 0;
	return 0;
}

int hs_session_prepare(struct hs_session *s, const struct hs_path_def *d, struct hs_path_run *out,
		       struct hs_run *run, struct hs_runner **r)
{
	struct hs_path_ctx c;

	if (synth_state(s))
		return -1;
	c = s->c;
	if (!s->ok)
		return hs_fail("%s", s->why);
	if (hs_rt_restore(c.r))
		return -1;
	for (int i = 0; d->stubs && d->stubs[i]; i++)
		if (hs_rt_stub(c.r, d->stubs[i], 0))
			return -1;
	*r = c.r;
	return hs_path_prepare(&c, d, out, run);
}

int hs_path_run_alone(const struct hs_path_def *d, const struct hs_patched *pt, enum hs_state_source src,
		      const struct hs_run_opts *o, struct hs_path_run *out)
{
	struct hs_session *s = hs_session_new(pt, src, o->set);

	memset(out, 0, sizeof(*out));
	if (!s)
		return -1;
	if (hs_path_run(s, d, o, out)) {
		hs_session_free(s);
		return -1;
	}
	/* the run's trace decodes through its runner: hand it over */
	if (out->r == s->boot.r)
		s->boot.r = NULL;
	else
		s->c.r = NULL;
	out->owns_runner = 1;
	hs_session_free(s);
	return 0;
}

void hs_path_run_free(struct hs_path_run *out)
{
	free(out->part_of);
	free(out->ops);
	hs_trace_free(&out->tr);
	if (out->owns_runner)
		hs_runner_free(out->r);
	free(out->ks);
	if (out->census) {
		hs_pcpu_census_free(out->census);
		free(out->census);
	}
	memset(out, 0, sizeof(*out));
}
