/*
 * machine.c - the booted machine at a session's points, every CPU of it
 * (hs_session_machine, paths.h), from the snapshot (vm/snapshot.h).
 */
#include <string.h>

#include "hotsim/err.h"
#include "paths/path_internal.h"

static void cpu_from(struct hs_machine_cpu *m, const struct hs_snap_regs *r)
{
	m->el = (unsigned)(r->pstate >> 2 & 3);
	m->pc = r->pc;
	m->sp_el0 = r->sp_el0;
}

unsigned hs_boot_state_npoints(const struct hs_boot_state *b)
{
	return b->ok ? b->snap.h.npoints : 0;
}

int hs_boot_state_machine(const struct hs_boot_state *b, unsigned k, struct hs_machine_point *out)
{
	const struct hs_snap_cpu *c;
	unsigned n;

	memset(out, 0, sizeof(*out));
	if (k >= hs_boot_state_npoints(b))
		return hs_fail("no booted point %u (the state has %u)", k, hs_boot_state_npoints(b));
	out->name = b->snap.pts[k].name;
	for (unsigned i = 0; i < b->pts.n; i++)
		if (!strncmp(b->pts.v[i].name, out->name, sizeof(b->snap.pts[k].name)))
			out->site = b->pts.v[i].site;
	c = hs_snap_cpus(&b->snap, k, &n);
	if (!c) {
		/* one CPU: the point's registers are the machine */
		out->ncpus = 1;
		out->cpu[0].stopped = 1;
		cpu_from(&out->cpu[0], &b->snap.pts[k].regs);
		return 0;
	}
	out->ncpus = n < HS_MACHINE_MAX_CPUS ? n : HS_MACHINE_MAX_CPUS;
	for (unsigned i = 0; i < out->ncpus; i++) {
		struct hs_machine_cpu *m = &out->cpu[i];
		const struct hs_snap_gic *g = &c[i].gic;

		m->index = c[i].index;
		m->stopped = !!(c[i].flags & HS_SNAP_CPU_STOPPED);
		m->halted = !!(c[i].flags & HS_SNAP_CPU_HALTED);
		cpu_from(m, &c[i].regs);
		m->has_gic = 1;
		m->waker = g->waker;
		m->enabled = g->enable;
		m->pending = g->pending;
		m->active = g->active;
		m->has_icc = (int)g->has_icc;
		m->icc_pmr = g->icc_pmr;
		m->icc_ap1r0 = g->icc_ap1r0;
	}
	return 0;
}

/* enum hs_turns's names (--turns) and what a state line says of each */
static const struct {
	const char *name, *said;
} turns[] = {
	[HS_TURNS_QEMU] = { "qemu", "" },
	[HS_TURNS_WAKEE] = { "wakee", " with the woken CPU first (--turns wakee)" },
	[HS_TURNS_MODEL] = { "model", " taking turns by modelled time (--turns model)" },
};

const char *hs_turns_name(enum hs_turns t)
{
	return (unsigned)t < sizeof(turns) / sizeof(turns[0]) ? turns[t].name : "?";
}

const char *hs_turns_said(enum hs_turns t)
{
	return (unsigned)t < sizeof(turns) / sizeof(turns[0]) ? turns[t].said : "";
}

int hs_turns_named(const char *name, enum hs_turns *t)
{
	for (unsigned i = 0; i < sizeof(turns) / sizeof(turns[0]); i++)
		if (name && !strcmp(name, turns[i].name)) {
			*t = (enum hs_turns)i;
			return 0;
		}
	return -1;
}
