/*
 * machine_run.c - the booted machine replayed from a point, every CPU
 * (hs_session_machine_run, paths.h): one runner a CPU, all over the first
 * runner's RAM, the SGIs one writes pending at the others' interfaces.
 *
 * One CPU runs at a time. The CPU at the site runs until it halts in a
 * wfi with nothing to take; then the next CPU (by index, after it) that an
 * interrupt is pending for resumes past its wfi. That is where QEMU's
 * round-robin vCPU thread switches for a ping-pong between CPUs: a CPU
 * that wakes another goes on until it idles (measured with the recording
 * plugin on the 7.2 baseline, 2 CPUs: two switches a round trip, one at
 * each CPU's halt). When every CPU is halted, QEMU moves the clock to the
 * earliest timer deadline; here the CPUs in index order (each keeps its
 * own clock, from the point's counter).
 */
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/backend_booted.h"
#include "paths/path_internal.h"

#define SLICE_BUDGET 20000000ULL	/* instructions a CPU runs before it halts */

struct machine {
	struct hs_runner *cpu[HS_SNAP_MAX_CPUS];	/* by QEMU's index */
	unsigned n, site_cpu;
	int halted[HS_SNAP_MAX_CPUS];
	uint64_t site;
};

/* Every CPU at point k: the site's is the state's runner (entered as for
 * a path), the others runners over its RAM with their own registers. */
static int enter(struct hs_boot_state *b, unsigned k, struct machine *m)
{
	unsigned n;
	const struct hs_snap_cpu *c = hs_snap_cpus(&b->snap, k, &n);

	memset(m, 0, sizeof(*m));
	m->n = c ? n : 1;
	m->site = b->snap.pts[k].site;
	for (unsigned i = 0; c && i < n; i++)
		if (c[i].flags & HS_SNAP_CPU_STOPPED)
			m->site_cpu = i;
	if (hs_bt_enter(b->r, k))
		return -1;
	m->cpu[m->site_cpu] = b->r;
	for (unsigned i = 0, p = 0; c && i < n; i++) {
		if (i == m->site_cpu)
			continue;
		if (!b->peers[p] && !(b->peers[p] = hs_runner_booted_peer(b->r, b->core)))
			return -1;
		if (hs_bt_enter_cpu(b->peers[p], k, &c[i].regs))
			return -1;
		m->cpu[i] = b->peers[p++];
		m->halted[i] = !!(c[i].flags & HS_SNAP_CPU_HALTED);
	}
	if (m->n > 1)
		hs_bt_machine(m->cpu, m->n);
	return 0;
}

/* The CPU to run after cur halted: the next with an interrupt pending, or
 * one that was never halted; every CPU halted: the first whose timer the
 * clock can be moved to. -1: none. */
static int next_cpu(struct machine *m, unsigned cur)
{
	for (unsigned d = 1; d <= m->n; d++) {
		unsigned i = (cur + d) % m->n;

		if (!m->halted[i] || hs_bt_wakeable(m->cpu[i]))
			return (int)i;
	}
	for (unsigned i = 0; i < m->n; i++)
		if (hs_bt_warp_idle(m->cpu[i]))
			return (int)i;
	return -1;
}

/* A halted CPU resumes past its wfi (a snapshot's halted CPU is there). */
static void resume(struct machine *m, unsigned i)
{
	struct hs_runner *r = m->cpu[i];
	uint64_t pc = hs_rt_reg(r, UC_ARM64_REG_PC);
	const uint32_t *w = hs_rt_host(r, pc, 4);

	if (m->halted[i] && w && a64_is_wfi(*w))
		hs_rt_set_reg(r, UC_ARM64_REG_PC, pc + 4);
	m->halted[i] = 0;
	hs_bt_resume(r);
}

static void take_op(const struct machine *m, struct hs_machine_run *out, uint64_t *last,
		    struct hs_bt_counts *was)
{
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
	struct machine m;
	uint64_t last[HS_SNAP_MAX_CPUS];
	struct hs_bt_counts was[HS_SNAP_MAX_CPUS];
	unsigned cur;
	char where[128];

	memset(out, 0, sizeof(*out));
	if (k >= hs_boot_state_npoints(b))
		return hs_fail("no booted point %u (the state has %u)", k, hs_boot_state_npoints(b));
	if (enter(b, k, &m))
		return -1;
	out->ncpus = m.n;
	out->site_cpu = cur = m.site_cpu;
	for (unsigned i = 0; i < m.n; i++) {
		last[i] = hs_rt_icount(m.cpu[i]);
		hs_bt_counts(m.cpu[i], &was[i]);
	}
	if (nops > HS_MACHINE_MAX_OPS)
		nops = HS_MACHINE_MAX_OPS;
	while (out->nops < nops) {
		struct hs_runner *r = m.cpu[cur];
		uint64_t pc = hs_rt_reg(r, UC_ARM64_REG_PC);
		int at_site = cur == m.site_cpu;
		struct hs_run run = { .what = b->snap.pts[k].name, .pc = pc, .budget = SLICE_BUDGET,
				      .stop = at_site ? m.site : 0, .stop_hits = at_site && pc == m.site ? 2 : 1 };
		int next;

		if (hs_rt_run(r, &run))
			return hs_fail("cpu%u, op %u: %s (an operation here is a run from the site back to it)",
				       cur, out->nops, hs_errmsg());
		if (!hs_bt_halted(r)) {
			if (!at_site)
				return hs_fail("cpu%u left the run at %s", cur,
					       hs_addr_fmt(hs_rt_image(r), hs_rt_reg(r, UC_ARM64_REG_PC), where,
							   sizeof(where)));
			take_op(&m, out, last, was);
			continue;
		}
		m.halted[cur] = 1;
		if ((next = next_cpu(&m, cur)) < 0)
			return hs_fail("the %s point: every CPU halted with no interrupt to come (op %u)",
				       b->snap.pts[k].name, out->nops);
		resume(&m, (unsigned)next);
		cur = (unsigned)next;
	}
	return 0;
}
