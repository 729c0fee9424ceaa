/*
 * machine_run.c - the booted machine replayed from a point, every CPU
 * (hs_session_machine_run, paths.h): one runner a CPU, all over the first
 * runner's RAM, the SGIs one writes pending at the others' interfaces.
 *
 * One CPU runs at a time, interleaved as QEMU 7.2's round-robin vCPU
 * thread interleaves them under -icount (accel/tcg/tcg-accel-ops-rr.c,
 * -icount.c): in rounds, each beginning with the timers whose deadline
 * has passed, then each CPU in index order that can run - one that was
 * running, or a halted one an interrupt is pending for, resumed past its
 * wfi - for the instructions to the machine's next timer deadline (all of
 * them: 7.2 does not share them out), its turn ended early when it halts
 * in a wfi with nothing to take, or when it writes its timer so that it
 * becomes the machine's earliest deadline (QEMU's timer list kicks every
 * CPU: booted_timer.c). A kicked CPU - every one when QEMU resumes the
 * machine - begins a round of its own: a deadline reached in the turn
 * before it has fired by then. An operation ends when any CPU reaches the
 * site: unpinned, the task that loops there may move to another CPU. The
 * machine has one clock, its instruction count over every CPU, as QEMU's;
 * when no CPU can run it moves to the earliest timer deadline. `hotsim
 * validate --smp N` checks the result against QEMU's own streams, CPU by
 * CPU. The same machine can take other turns (enum hs_turns): a CPU's turn
 * ended at each SGI it sends, or turns by modelled time
 * (machine_turns.c).
 */
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/backend_booted.h"
#include "paths/machine_internal.h"

#define RUN_BUDGET 20000000ULL	/* instructions a turn may run to an op's end */


/* Every CPU halted with nothing to take (all_cpu_threads_idle). */
static int idle(const struct machine *m)
{
	for (unsigned i = 0; i < m->n; i++)
		if (!m->halted[i] || hs_bt_wakeable(m->cpu[i]))
			return 0;
	return 1;
}

/* The latest counter value a CPU of the machine has read: the site's
 * (x9, point.h), or later a running CPU's that stopped right after its
 * own read (QEMU ran it after the site's read, before the site's CPU
 * reached the site). */
static uint64_t latest_read(const struct hs_snap_point *pt, const struct hs_snap_cpu *c, const struct machine *m)
{
	/* a program's site reads no counter before it (point.h) */
	uint64_t read = pt->kind == HS_POINT_CALL ? 0 : pt->regs.x[9];

	for (unsigned i = 0; i < m->n; i++) {
		const uint32_t *w = c[i].flags ? NULL : hs_rt_host(m->cpu[i], c[i].regs.pc - 4, 4);
		unsigned rt = w && a64_is_mrs_cntvct(*w) ? a64_rt(*w) : 31;

		if (rt < 31 && c[i].regs.x[rt] > read)
			read = c[i].regs.x[rt];
	}
	return read;
}

/* The machine's clock when QEMU resumes it at the point, in ns: known to
 * the instruction where validation saved the machine there (clock_ns).
 * Otherwise: when the site's CPU stops with every other one idle - halted,
 * nothing pending at its GIC (QEMU's all_cpu_threads_idle) - QEMU's main
 * loop moves the clock to the earliest timer deadline ahead before the
 * stop takes hold (its icount warp; the deadline's own timer has not run:
 * it fires as the machine resumes); with another CPU running or about to
 * wake the clock stays where the CPUs last read it, somewhere in that
 * 16 ns tick: its middle is taken. One CPU's point has its own deadline
 * (the snapshot's counter). */
static uint64_t resume_ns(const struct hs_snap_point *pt, const struct hs_snap_cpu *c, const struct machine *m)
{
	uint64_t read = latest_read(pt, c, m), at = UINT64_MAX, period = 1000000000ULL / pt->regs.cntfrq;
	int idle = 1;

	if (pt->clock_ns)
		return pt->clock_ns;
	for (unsigned i = 0; i < m->n; i++) {
		if ((c[i].regs.cntv_ctl & 7) == 1 && c[i].regs.cntv_cval > read && c[i].regs.cntv_cval < at)
			at = c[i].regs.cntv_cval;
		if (!(c[i].flags & HS_SNAP_CPU_STOPPED))
			idle &= (c[i].flags & HS_SNAP_CPU_HALTED) && !(c[i].gic.pending & c[i].gic.enable);
	}
	if (idle && at != UINT64_MAX)
		return at * period;
	return read * period + period / 2;
}

/* Every CPU at point k: the site's is the state's runner (entered as for
 * a path), the others runners over its RAM with their own registers. */
static int enter(struct hs_boot_state *b, unsigned k, struct machine *m)
{
	unsigned n;
	const struct hs_snap_cpu *c = hs_snap_cpus(&b->snap, k, &n);

	memset(m, 0, sizeof(*m));
	m->n = c ? n : 1;
	m->site = b->snap.pts[k].site;
	if (b->snap.pts[k].kind == HS_POINT_CALL)
		m->site_mm = HS_TTBR_BADDR(b->snap.pts[k].regs.ttbr0);
	for (unsigned i = 0; c && i < n; i++)
		if (c[i].flags & HS_SNAP_CPU_STOPPED)
			m->site_cpu = i;
	if (hs_bt_enter(b->r, k))
		return -1;
	m->cpu[m->site_cpu] = b->r;
	m->arrived[m->site_cpu] = 1;
	for (unsigned i = 0, p = 0; c && i < n; i++) {
		if (i == m->site_cpu)
			continue;
		if (!b->peers[p] && !(b->peers[p] = hs_runner_booted_peer(b->r, b->core)))
			return -1;
		if (hs_bt_enter_cpu(b->peers[p], k, &c[i].regs))
			return -1;
		m->cpu[i] = b->peers[p++];
		if ((m->halted[i] = !!(c[i].flags & HS_SNAP_CPU_HALTED)))
			hs_bt_halt(m->cpu[i]);
	}
	if (m->n > 1) {
		uint64_t ns = resume_ns(&b->snap.pts[k], c, m);

		for (unsigned i = 0; i < m->n; i++) {
			hs_bt_set_clock(m->cpu[i], ns);
			hs_bt_set_gic(m->cpu[i], c[i].gic.pending, c[i].gic.active);
		}
		hs_bt_machine(m->cpu, m->n);
	}
	return 0;
}

/* A halted CPU resumes past its wfi (a snapshot's halted CPU is there),
 * and the run notes who woke it. */
static void resume(struct machine *m, unsigned i, struct hs_machine_run *out)
{
	struct hs_runner *r = m->cpu[i];
	uint64_t pc = hs_rt_reg(r, UC_ARM64_REG_PC);
	const uint32_t *w = hs_rt_host(r, pc, 4);
	unsigned from;
	uint64_t at;

	if (out->nwakes < HS_MACHINE_MAX_WAKES) {
		struct hs_machine_wake *e = &out->wake[out->nwakes++];

		*e = (struct hs_machine_wake){ .kind = HS_WAKE_TIMER, .cpu = i, .at = hs_rt_icount(r) - m->base[i] };
		if (hs_bt_woken_by(r, &from, &at) && from < m->n) {
			e->kind = HS_WAKE_SGI;
			e->from = from;
			e->from_at = at - m->base[from];
		}
	}

	if (m->halted[i] && w && a64_is_wfi(*w))
		hs_rt_set_reg(r, UC_ARM64_REG_PC, pc + 4);
	m->halted[i] = 0;
	hs_bt_resume(r);
}

/* CPU c's turn's records in the lines the CPUs share: its reads of
 * another CPU's stores join their clocks, in the order they happened */
#define MAX_READS 4096
static int reads(struct hs_coherence *lines, unsigned c, struct hs_trace *t, size_t from,
		 struct hs_machine_run *out, struct hs_release *rel)
{
	int n = hs_coherence_note(lines, c, t, from, rel, MAX_READS);

	for (int i = 0; i < n && out->nwakes < HS_MACHINE_MAX_WAKES; i++)
		out->wake[out->nwakes++] = (struct hs_machine_wake){
			.kind = rel[i].spin ? HS_WAKE_SPIN_END : HS_WAKE_LOCK, .cpu = c, .from = rel[i].writer,
			.at = rel[i].at, .from_at = rel[i].wrote, .spin_from = rel[i].spin_from,
			.from_took = rel[i].took };
	return n < 0 ? -1 : 0;
}

static void take_op(const struct machine *m, unsigned at, struct hs_machine_run *out, uint64_t *last,
		    struct hs_bt_counts *was)
{
	out->end_cpu[out->nops] = at;
	for (unsigned i = 0; i < m->n; i++) {
		struct hs_machine_cpu_op *o = &out->op[out->nops][i];
		struct hs_bt_counts now;

		hs_bt_counts(m->cpu[i], &now);
		o->insns = hs_rt_icount(m->cpu[i]) - last[i];
		o->sgis = now.sgis - was[i].sgis;
		o->irqs = now.irqs - was[i].irqs;
		o->halts = now.halts - was[i].halts;
		last[i] = hs_rt_icount(m->cpu[i]);
		was[i] = now;
	}
	out->nops++;
}

int hs_boot_state_machine_run(struct hs_boot_state *b, unsigned k, unsigned nops, struct hs_machine_run *out)
{
	return hs_boot_state_machine_trace(b, k, nops, out, NULL, 0, NULL);
}

/* One CPU's turn of a pass: up to budget instructions, ended early by a
 * halt; at the site (on any CPU: the task may have moved) an operation
 * ends and the turn goes on. */
static int turn(struct hs_boot_state *b, unsigned k, struct machine *m, unsigned c, uint64_t budget,
		struct hs_machine_run *out, unsigned nops, struct hs_trace *tr, uint64_t *last,
		struct hs_bt_counts *was)
{
	struct hs_runner *r = m->cpu[c];

	if (m->halted[c])
		resume(m, c, out);
	hs_bt_slice(r, budget);
	while (out->nops < nops) {
		uint64_t pc = hs_rt_reg(r, UC_ARM64_REG_PC), before = hs_rt_icount(r);
		int arrived = m->arrived[c];
		struct hs_run run = { .what = b->snap.pts[k].name, .pc = pc, .budget = RUN_BUDGET,
				      .stop = m->site, .stop_mm = m->site_mm,
				      .stop_hits = pc == m->site && m->arrived[c] ? 2 : 1,
				      .trace = tr ? &tr[c] : NULL };

		m->arrived[c] = 0;
		if (hs_rt_run(r, &run))
			return hs_fail("cpu%u, op %u: %s (an operation here is a run from the site back to it)",
				       c, out->nops, hs_errmsg());
		if (hs_bt_halted(r)) {
			m->halted[c] = 1;
			return 0;
		}
		if (hs_bt_yielded(r)) {
			/* a turn that ran out at the site it had arrived at, before
			 * passing it, has that arrival still to pass */
			if (hs_rt_icount(r) == before)
				m->arrived[c] = arrived;
			return 0;
		}
		/* stopped before the site's instruction: it did not run */
		hs_rt_uncount(r);
		m->arrived[c] = 1;
		take_op(m, c, out, last, was);
	}
	return 0;
}


/* CPU c's turn of up to budget instructions, then the lines it read */
int hs_machine_take_turn(struct pass *p, struct machine *m, unsigned c, uint64_t budget)
{
	size_t from = p->tr ? p->tr[c].n : 0;

	if (turn(p->b, p->k, m, c, budget > INT32_MAX ? INT32_MAX : budget, p->out, p->nops, p->tr, p->last, p->was))
		return -1;
	/* the turns in the order they ran: the lines they share */
	return p->lines ? reads(p->lines, c, &p->tr[c], from, p->out, p->rel) : 0;
}

/* Every CPU halted with nothing to take: QEMU's main loop moves the
 * clock to the next deadline and runs its timer */
int hs_machine_warp(const struct pass *p, struct machine *m)
{
	if (hs_bt_warp_idle(m->cpu[0]))
		return 0;
	return hs_fail("the %s point: every CPU halted with no interrupt to come (op %u)",
		       p->b->snap.pts[p->k].name, p->out->nops);
}

/* QEMU's rounds (rr_cpu_thread_fn): the timers due run, then each CPU in
 * index order from where the last round stopped, up to one whose exit was
 * requested (a kick requests every CPU's: resuming the machine, a timer
 * write that kicks); that one begins the next round */
static int qemu_turns(struct pass *p, struct machine *m)
{
	for (unsigned i = 0; i < m->n; i++)
		m->exit_req[i] = 1;
	for (unsigned c = 0; p->out->nops < p->nops;) {
		hs_bt_round(m->cpu[0]);
		for (; c < m->n && !m->exit_req[c] && p->out->nops < p->nops; c++) {
			uint64_t budget = hs_bt_until_deadline(m->cpu[0]);

			if (!budget || (m->halted[c] && !hs_bt_wakeable(m->cpu[c])))
				continue;
			if (hs_machine_take_turn(p, m, c, budget))
				return -1;
			if (hs_bt_kicked(m->cpu[c]))
				for (unsigned i = 0; i < m->n; i++)
					m->exit_req[i] = i != c;
		}
		if (c < m->n) {
			m->exit_req[c] = 0;
			continue;
		}
		c = 0;
		if (idle(m)) {
			/* the interrupt the timer raises kicks every CPU */
			if (hs_machine_warp(p, m))
				return -1;
			for (unsigned i = 0; i < m->n; i++)
				m->exit_req[i] = 1;
		}
	}
	return 0;
}

int hs_boot_state_machine_trace(struct hs_boot_state *b, unsigned k, unsigned nops, struct hs_machine_run *out,
				struct hs_trace *tr, size_t limit, const struct hs_turn_clock *clock)
{
	struct machine m;
	struct pass p = { .b = b, .k = k, .out = out, .tr = tr };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (k >= hs_boot_state_npoints(b))
		return hs_fail("no booted point %u (the state has %u)", k, hs_boot_state_npoints(b));
	if (enter(b, k, &m))
		return -1;
	out->ncpus = m.n;
	out->site_cpu = m.site_cpu;
	out->turns = b->set && m.n > 1 ? b->set->turns : HS_TURNS_QEMU;
	if (out->turns == HS_TURNS_MODEL && (!tr || !clock))
		return hs_fail("turns by modelled time: a replay traced on a clock (hs_session_machine_trace)");
	if (tr && (!(p.lines = hs_coherence_new()) || !(p.rel = malloc(MAX_READS * sizeof(*p.rel))))) {
		hs_coherence_free(p.lines);
		return hs_fail("out of memory");
	}
	for (unsigned i = 0; i < m.n; i++) {
		hs_bt_end_turn_at_sgi(m.cpu[i], out->turns != HS_TURNS_QEMU);
		p.last[i] = m.base[i] = hs_rt_icount(m.cpu[i]);
		hs_bt_counts(m.cpu[i], &p.was[i]);
		if (tr)
			hs_trace_init(&tr[i], hs_rt_dcache(m.cpu[i]), limit);
	}
	p.nops = nops > HS_MACHINE_MAX_OPS ? HS_MACHINE_MAX_OPS : nops;
	if (!(out->turns == HS_TURNS_MODEL ? hs_machine_model_turns(&p, &m, clock) : qemu_turns(&p, &m)))
		rc = 0;
	hs_coherence_free(p.lines);
	free(p.rel);
	return rc;
}
