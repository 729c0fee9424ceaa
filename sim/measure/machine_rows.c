/*
 * machine_rows.c - a path's rows on a machine of more than one CPU (`run`
 * and `compare --smp N`): the path's booted point replayed as the machine
 * (machine_cost.c), every CPU unpinned as the workload left them, and
 * each steady operation one sample. Op 0 takes the tick that is due at a
 * point and op 1 warms the models' caches (both on every CPU), so the
 * samples are ops 2 onwards.
 *
 * The row is the operation's latency at the site's CPU - the wall time
 * `perf bench` divides by - and its sub-rows the parts of its critical
 * path, which sum to it: .waker, the site CPU's work on it (the task
 * that starts each round trip by waking the other), .ipi, the SGIs'
 * deliveries, .wfi-exit, the exits from wfi, .irq, the IRQs taken on it
 * from vector to eret (each woken CPU's IPI, through handle_arch_irq),
 * and .wakee, the other CPUs' work on it. The row also keeps each CPU's
 * idle cycles an operation. A part's uncalibrated cycles:
 * all of .ipi's and .wfi-exit's where their parameter is guessed; of the
 * work and the IRQs, the share the CPUs' whole operation has. The layout band (compare's default
 * --noise 8) is made as cost.c makes a sampled path's (machine_cost.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/machine_cost.h"
#include "measure_internal.h"

enum { P_WHOLE, P_WAKER, P_IPI, P_EXIT, P_IRQ, P_WAKEE, NPARTS };
static const char *const part_names[NPARTS] = { "", "waker", "ipi", "wfi-exit", "irq", "wakee" };

int ms_machine_point(struct hs_session *s, const char *name, unsigned *k)
{
	struct hs_machine_point mp;
	const char *skip = hs_session_skipped(s, name), *why;
	int booted;

	*k = 0;
	/* no booted state at all: the boot's own reason */
	if (!(why = hs_session_state(s, &booted)) || !booted)
		return hs_fail("no booted state: %s", why ? why : "(none)");
	for (*k = 0; *k < hs_session_npoints(s); (*k)++)
		if (!hs_session_machine(s, *k, &mp) && !strcmp(mp.name, name))
			return 0;
	if (skip)
		return hs_fail(HS_SNAP_SKIPPED "%s", skip);
	return hs_fail("the %s point is not in the booted state", name);
}

/* A CPU's work on the path, with the uncalibrated share its op has */
static double work_uncal(const struct ms_machine_op *op, unsigned cpu, uint64_t on_path)
{
	return op->busy[cpu] ? (double)on_path * (double)op->busy_uncal[cpu] / (double)op->busy[cpu] : 0;
}

/* Each sample's cycles, instructions and uncalibrated cycles, by part */
struct samples {
	double *v[NPARTS];
	double insns[NPARTS], uncal[NPARTS];
	double idle[HS_MACHINE_MAX_CPUS];
};

static void take(const struct ms_machine_cost *mc, unsigned o, unsigned j, struct samples *s)
{
	const struct ms_machine_op *op = &mc->op[o];
	const struct hs_machine_run *mr = &mc->run;
	unsigned site = mr->site_cpu;
	double other_busy = 0, other_busy_uncal = 0, busy = 0, busy_uncal = 0;

	s->v[P_WHOLE][j] = (double)op->latency;
	s->v[P_WAKER][j] = (double)op->path_site;
	s->v[P_IPI][j] = (double)op->path_ipi;
	s->v[P_EXIT][j] = (double)op->path_exit;
	s->v[P_IRQ][j] = (double)op->path_irq;
	s->v[P_WAKEE][j] = (double)op->path_other;
	for (unsigned i = 0; i < mr->ncpus; i++) {
		s->insns[P_WHOLE] += (double)mr->op[o][i].insns;
		s->insns[i == site ? P_WAKER : P_WAKEE] += (double)(mr->op[o][i].insns - op->irq_insns[i]);
		s->insns[P_IRQ] += (double)op->irq_insns[i];
		busy += (double)op->busy[i];
		busy_uncal += (double)op->busy_uncal[i];
		s->idle[i] += (double)op->idle[i];
		if (i != site) {
			other_busy += (double)op->busy[i];
			other_busy_uncal += (double)op->busy_uncal[i];
		}
	}
	s->uncal[P_WAKER] += work_uncal(op, site, op->path_site);
	s->uncal[P_WAKEE] += other_busy ? (double)op->path_other * other_busy_uncal / other_busy : 0;
	s->uncal[P_IRQ] += busy ? (double)op->path_irq * busy_uncal / busy : 0;
	s->uncal[P_IPI] += mc->ipi_calibrated ? 0 : (double)op->path_ipi;
	s->uncal[P_EXIT] += mc->wfi_calibrated ? 0 : (double)op->path_exit;
}

/* A typical result of n samples (v taken over) */
static void result(struct ms_result *r, double *v, unsigned n, double insns, double uncal)
{
	memset(r, 0, sizeof(*r));
	r->v = v;
	ms_dist_of(v, n, &r->d);
	r->insns = insns / n;
	r->r.cycles = (uint64_t)llround(r->d.mean);
	r->r.insns = (uint64_t)llround(r->insns);
	r->r.uncalibrated_cycles = (uint64_t)llround(uncal / n);
	r->noise_lo = r->noise_hi = r->d.mean;
}

/* The layout band: each part's steady mean in every layout costed */
static void band(const struct ms_machine_cost *mc, struct ms_row *row)
{
	for (unsigned l = 0; mc->nlayouts > 1 && l < mc->nlayouts; l++) {
		const struct ms_machine_means *m = &mc->layout[l];
		const double v[NPARTS] = { m->latency, m->site, m->ipi, m->exit, m->irq, m->other };

		for (int p = 0; p < NPARTS; p++) {
			struct ms_result *r = &row[p].s[MS_TYPICAL];

			r->noise_lo = l ? fmin(r->noise_lo, v[p]) : v[p];
			r->noise_hi = l ? fmax(r->noise_hi, v[p]) : v[p];
			row[p].noise_n = (int)mc->nlayouts;
		}
	}
}

static const char *guessed(int calibrated)
{
	return calibrated ? "" : " (guessed)";
}

void ms_machine_params_said(const struct ms_machine_cost *mc, char *buf, size_t len)
{
	snprintf(buf, len, "ipi_latency %.0f%s, wfi_exit %.0f%s, peer_latency %.0f%s cycles", mc->ipi_latency,
		 guessed(mc->ipi_calibrated), mc->wfi_exit, guessed(mc->wfi_calibrated), mc->peer_latency,
		 guessed(mc->peer_calibrated));
}

void ms_machine_waits_said(const struct ms_machine_cost *mc, const char *sep, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	if (mc->read_waits && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%u read%s waited for another CPU's store (a lock handed over, "
				      "a spin's end)", sep, mc->read_waits, mc->read_waits > 1 ? "s" : "");
	/* the flips say this order is not a machine's: where to get one */
	if (mc->order_flips && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%u of them (sampled ops) reached a lock before the other CPU "
				      "took it: a machine would have run the two critical sections the other way round; "
				      "the replay keeps the order its turns took, holding this CPU until the release%s",
				      sep, mc->order_flips, mc->run.turns == HS_TURNS_MODEL ? "" :
				      " (--turns model replays in the order a machine's cores take)");
	if (mc->spin_waits && n < len)
		snprintf(buf + n, len - n, "%s%u spin-wait%s (wfe/yield) ended by a store: %llu instructions of their "
			 "iterations (as many as the replay's turns gave) left uncosted", sep, mc->spin_waits,
			 mc->spin_waits > 1 ? "s" : "", (unsigned long long)mc->spin_insns);
}

int ms_one_cpu(unsigned ncpus, const double *idle, double whole)
{
	unsigned ran = 0, cpu = 0;

	for (unsigned i = 0; i < ncpus; i++)
		if (idle[i] < whole - 0.5) {
			ran++;
			cpu = i;
		}
	return ran == 1 && ncpus > 1 ? (int)cpu : -1;
}

/* "; every sampled round trip ran on cpuK alone" when one CPU did all
 * the work (ms_one_cpu): unpinned, where the kernel kept both sides of
 * the round trip - its choice, which holds from the point on; pinned,
 * what taskset asked for. */
static void one_cpu_said(const struct ms_machine_cost *mc, const struct samples *s, unsigned n, int pinned,
			 char *buf, size_t len)
{
	double whole = 0, idle[HS_MACHINE_MAX_CPUS];
	int cpu;

	for (unsigned j = 0; j < n; j++)
		whole += s->v[P_WHOLE][j];
	for (unsigned i = 0; i < mc->run.ncpus; i++)
		idle[i] = s->idle[i] / n;
	if ((cpu = ms_one_cpu(mc->run.ncpus, idle, whole / n)) >= 0)
		snprintf(buf, len, "; every sampled round trip ran on cpu%d alone%s", cpu,
			 pinned ? "" : ": unpinned, the kernel kept both processes there (its choice at the point "
					   "holds)");
}

static int rows_of(const struct ms_machine_cost *mc, struct ms_row *row, const char *prefix, int pinned)
{
	char state[800];
	unsigned n = mc->run.nops > MS_MACHINE_WARM_OPS ? mc->run.nops - MS_MACHINE_WARM_OPS : 0;
	struct samples s;

	memset(&s, 0, sizeof(s));
	if (n < 2)
		return hs_fail("%u operations replayed: no steady ones to sample", mc->run.nops);
	for (int p = 0; p < NPARTS; p++)
		if (!(s.v[p] = calloc(n, sizeof(double)))) {
			for (int q = 0; q < p; q++)
				free(s.v[q]);
			return hs_fail("out of memory");
		}
	for (unsigned j = 0; j < n; j++)
		take(mc, MS_MACHINE_WARM_OPS + j, j, &s);
	snprintf(state, sizeof(state), "%s; ", prefix);
	ms_machine_params_said(mc, state + strlen(state), sizeof(state) - strlen(state));
	ms_machine_waits_said(mc, "; ", state + strlen(state), sizeof(state) - strlen(state));
	one_cpu_said(mc, &s, n, pinned, state + strlen(state), sizeof(state) - strlen(state));
	row[P_WHOLE].code_bytes = mc->code_bytes;
	row[P_WAKER].code_bytes = mc->code_bytes_site;
	row[P_WAKEE].code_bytes = mc->code_bytes_other;
	row[P_IRQ].code_bytes = mc->code_bytes_irq;
	s.uncal[P_WHOLE] = s.uncal[P_WAKER] + s.uncal[P_IPI] + s.uncal[P_EXIT] + s.uncal[P_IRQ] + s.uncal[P_WAKEE];
	row[P_WHOLE].ncpus = mc->run.ncpus;
	row[P_WHOLE].order_flips = mc->order_flips;
	for (unsigned i = 0; i < mc->run.ncpus; i++)
		row[P_WHOLE].idle[i] = s.idle[i] / n;
	for (int p = 0; p < NPARTS; p++) {
		result(&row[p].s[MS_TYPICAL], s.v[p], n, s.insns[p], s.uncal[p]);
		row[p].insns = (uint64_t)llround(row[p].s[MS_TYPICAL].insns);
		row[p].nsamples = n;
		row[p].booted = 1;
		row[p].ok = 1;
		snprintf(row[p].state, sizeof(row[p].state), "%s", state);
	}
	band(mc, row);
	return 0;
}

int ms_machine_rows(const struct ms_options *o, const struct hs_patched *pt, const struct hs_path_def *d,
		    struct hs_session *s, struct ms_image *out)
{
	const struct hs_op_def *op = &d->boot.op;
	unsigned k, nops = MS_MACHINE_WARM_OPS + (o->samples ? o->samples : op->samples);
	const struct hs_path_set *set = ms_set_of(o, d);
	struct ms_machine_cost *mc = NULL;
	struct ms_row *row;
	char state[600], snap[HS_SNAPSHOT_NAME];
	int booted, first = out->nrows;

	if (out->nrows + NPARTS > MS_MAX_ROWS)
		return hs_fail("too many result rows");
	for (int p = 0; p < NPARTS; p++) {
		row = &out->rows[out->nrows++];
		memset(row, 0, sizeof(*row));
		snprintf(row->name, sizeof(row->name), p ? "%s.%s" : "%s", d->name, part_names[p]);
		row->path = d->name;
		row->def = d;
		row->core = pt->core;
		row->part = p > 0;
	}
	row = &out->rows[first];
	hs_session_snapshot(s, snap);
	/* no snapshot: the machine did not boot (its row says why) */
	snprintf(state, sizeof(state), "%s; a machine of %u CPUs (%s%s), the workload %s, "
		 "replayed from the point%s (ops %u on sampled)", hs_session_state(s, &booted),
		 set->ncpus ? set->ncpus : 1, snap[0] ? "snapshot " : "not booted", snap,
		 set->taskset ? "pinned" : "unpinned",
		 hs_turns_said(set->turns), MS_MACHINE_WARM_OPS);
	if (!d->boot.point || !d->boot.machine) {
		char those[200];

		out->nrows = first + 1;
		hs_path_machine_names(those, sizeof(those));
		snprintf(row->why, sizeof(row->why), "%s%s)", !d->boot.point ? "this path has no booted form: a "
			 "machine is booted (" : "this path runs one CPU: its operation is not a round trip between "
			 "processes a machine replays unpinned (", those);
		snprintf(row->state, sizeof(row->state), "%s", state);
		return 0;
	}
	if (nops > HS_MACHINE_MAX_OPS)
		nops = HS_MACHINE_MAX_OPS;
	if (!(mc = malloc(sizeof(*mc))))
		return hs_fail("out of memory");
	if (!ms_machine_point(s, d->boot.point->name, &k) && !ms_machine_cost(o, pt->core, s, k, nops, mc) && !rows_of(mc, row, state, set->taskset != 0)) {
		free(mc);
		return 0;
	}
	/* this path cannot run as a machine: its row says why, the rest go on */
	out->nrows = first + 1;
	snprintf(row->why, sizeof(row->why), "%s", hs_errmsg());
	snprintf(row->state, sizeof(row->state), "%s", state);
	free(mc);
	return 0;
}
