/*
 * machine_cost.c - a machine of more than one CPU in cycles (see
 * ms_machine_cost): every CPU's stream of the replay (machine_run.c) on a
 * model of its own, then one timeline through all of them.
 *
 * Each CPU's instructions cost what its model charges them, in the order
 * it ran them. A CPU halted in wfi resumes when the SGI that woke it
 * arrives - the sender's time at the instruction that wrote
 * ICC_SGI1R_EL1, plus ipi_latency (the GIC's delivery to the other core)
 * - and then wfi_exit cycles later (back to its vector); until then it is
 * idle. A wait is known once its sender's time is: the sender resumed
 * before it sent, and the replay notes wakes in the order they happened,
 * so one pass in that order settles every CPU's clock. A CPU its own
 * timer woke waits nothing (the replay's clock is in instructions, not
 * cycles; the steady round trips have no such wake). An operation's
 * latency is the site CPU's time from one return to the site to the
 * next: for the unpinned ping-pong, the round trip with both hops of the
 * IPI on its critical path, and with what each CPU does after its SGI
 * (returning, reading, idling) off it; the latency's critical path is
 * walked back through the wakes, in parts (critical_path).
 *
 * The lines the CPUs share move between them: an access to a line
 * another CPU wrote since this one held it (flagged by the replay,
 * coherence.c) misses this core's private levels and is served by the
 * shared one (cache.c). The two parameters are guesses.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "measure_internal.h"

#define TRACE_LIMIT 16000000

/* A wake that waited: at record `at` the CPU, free to go on at `now`,
 * went on at `now + cycles` - the SGI sent at `sent` by CPU `from`
 * arrived at `arrive`, then wfi_exit. */
struct wait {
	uint64_t at, cycles;
	uint64_t now, sent, arrive;
	unsigned from;
};

/* One CPU's clock: its instructions' cycles so far (pre[i]: before
 * record i) and the waits at its wakes, in order. */
struct clock {
	uint64_t *pre;
	size_t n;
	struct wait *w;
	unsigned nw;
};

static uint64_t time_at(const struct clock *c, uint64_t i)
{
	uint64_t t = c->pre[i < c->n ? i : c->n];

	for (unsigned k = 0; k < c->nw && c->w[k].at <= i; k++)
		t += c->w[k].cycles;
	return t;
}

static double param(const struct hs_model *m, const char *name, int *calibrated)
{
	for (size_t i = 0; i < hs_model_nparams(m); i++) {
		const struct hs_param *p = hs_model_param(m, i);

		if (!strcmp(p->name, name)) {
			*calibrated = p->calibrated;
			return p->value;
		}
	}
	*calibrated = 0;
	return 0;
}

/* CPU c's stream on a model of its own, from cold: its clock's cycles */
static int cost_cpu(const struct ms_options *o, const struct hs_core *core, const struct hs_trace *t,
		    struct clock *c, struct ms_machine_cost *out)
{
	struct hs_model *m = ms_model(o, core);
	struct hs_insn_cost *per = malloc((t->n ? t->n : 1) * sizeof(*per));
	struct hs_model_result res;
	int rc = -1;

	c->pre = malloc((t->n + 1) * sizeof(*c->pre));
	c->w = malloc(HS_MACHINE_MAX_WAKES * sizeof(*c->w));
	c->n = t->n;
	if (!m || !per || !c->pre || !c->w) {
		if (m)
			hs_fail("out of memory");
		goto out;
	}
	out->ipi_latency = param(m, "ipi_latency", &out->ipi_calibrated);
	out->wfi_exit = param(m, "wfi_exit", &out->wfi_calibrated);
	if (hs_model_run(m, t, &res, per))
		goto out;
	c->pre[0] = 0;
	for (size_t i = 0; i < t->n; i++)
		c->pre[i + 1] = c->pre[i] + per[i].cycles;
	rc = 0;
out:
	free(per);
	hs_model_free(m);
	return rc;
}

/* The wakes in the order they happened: each one's wait */
static void timeline(struct ms_machine_cost *out, struct clock *clk)
{
	const struct hs_machine_run *mr = &out->run;
	uint64_t ipi = (uint64_t)(out->ipi_latency + 0.5), exit = (uint64_t)(out->wfi_exit + 0.5);

	for (unsigned k = 0; k < mr->nwakes; k++) {
		const struct hs_machine_wake *e = &mr->wake[k];
		struct clock *c = &clk[e->cpu];
		uint64_t now = time_at(c, e->at), wake = now;

		if (e->from == HS_MACHINE_TIMER) {
			out->timer_wakes++;
			continue;
		}
		out->sgi_wakes++;
		if (time_at(&clk[e->from], e->from_at) + ipi > wake)
			wake = time_at(&clk[e->from], e->from_at) + ipi;
		c->w[c->nw] = (struct wait){ .at = e->at, .cycles = wake + exit - now, .now = now,
					     .sent = time_at(&clk[e->from], e->from_at),
					     .arrive = time_at(&clk[e->from], e->from_at) + ipi, .from = e->from };
		c->nw++;
	}
}

/* The latest wait of c that ended in (from, t]: NULL if none */
static const struct wait *wait_before(const struct clock *c, uint64_t from, uint64_t t)
{
	for (unsigned k = c->nw; k-- > 0;) {
		uint64_t end = c->w[k].now + c->w[k].cycles;

		if (end <= t)
			return end > from ? &c->w[k] : NULL;
	}
	return NULL;
}

/*
 * The critical path of the op that ends at the site CPU at t and began at
 * t0, walked back: a CPU's work back to the wait it came out of; that
 * wait's exit from wfi; if the SGI's arrival held it (the CPU had halted
 * first), the delivery, and on from the sender's time at its SGI; else
 * the CPU's own work before it. Each cycle of the op is in one part.
 */
static void critical_path(struct ms_machine_op *op, const struct clock *clk, unsigned site, uint64_t t0,
			  uint64_t t)
{
	unsigned cpu = site;

	for (unsigned hops = 0; t > t0 && hops < 2 * HS_MACHINE_MAX_WAKES; hops++) {
		const struct wait *w = wait_before(&clk[cpu], t0, t);
		uint64_t end = w ? w->now + w->cycles : t0, ready;

		*(cpu == site ? &op->path_site : &op->path_other) += t - end;
		if (!w)
			return;
		ready = w->arrive > w->now ? w->arrive : w->now;
		if (ready <= t0) {
			op->path_exit += end - t0;
			return;
		}
		op->path_exit += end - ready;
		if (w->arrive <= w->now) {
			t = w->now;
			continue;
		}
		if (w->sent <= t0) {
			op->path_ipi += w->arrive - t0;
			return;
		}
		op->path_ipi += w->arrive - w->sent;
		/* the sender's clock at its SGI (its time, not this CPU's) */
		t = w->sent;
		cpu = w->from;
	}
}

static unsigned remote_in(const struct hs_trace *t, uint64_t from, uint64_t to)
{
	unsigned n = 0;

	for (uint64_t i = from; i < to && i < t->n; i++)
		n += !!(t->v[i].flags & HS_T_REMOTE);
	return n;
}

/* Per operation: the site CPU's latency, each CPU's busy and idle cycles
 * and its accesses to lines another CPU wrote */
static void per_op(struct ms_machine_cost *out, const struct clock *clk, const struct hs_trace *tr)
{
	const struct hs_machine_run *mr = &out->run;
	uint64_t end[HS_MACHINE_MAX_CPUS] = { 0 };

	for (unsigned o = 0; o < mr->nops; o++) {
		struct ms_machine_op *op = &out->op[o];

		for (unsigned i = 0; i < mr->ncpus; i++) {
			const struct clock *c = &clk[i];
			uint64_t from = end[i], to = end[i] + mr->op[o][i].insns;
			uint64_t busy = c->pre[to < c->n ? to : c->n] - c->pre[from < c->n ? from : c->n];

			op->busy[i] = busy;
			op->idle[i] = time_at(c, to) - time_at(c, from) - busy;
			op->remote[i] = remote_in(&tr[i], from, to);
			if (i == mr->site_cpu) {
				op->latency = time_at(c, to) - time_at(c, from);
				critical_path(op, clk, i, time_at(c, from), time_at(c, to));
			}
			end[i] = to;
		}
	}
}

int ms_machine_cost(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		    unsigned nops, struct ms_machine_cost *out)
{
	struct hs_trace tr[HS_MACHINE_MAX_CPUS];
	struct clock clk[HS_MACHINE_MAX_CPUS];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(tr, 0, sizeof(tr));
	memset(clk, 0, sizeof(clk));
	if (hs_session_machine_trace(s, k, nops, &out->run, tr, TRACE_LIMIT))
		goto out;
	if (out->run.nwakes == HS_MACHINE_MAX_WAKES) {
		hs_fail("more than %u wakes in %u operations: ask for fewer", HS_MACHINE_MAX_WAKES, out->run.nops);
		goto out;
	}
	for (unsigned i = 0; i < out->run.ncpus; i++)
		if (cost_cpu(o, core, &tr[i], &clk[i], out))
			goto out;
	timeline(out, clk);
	per_op(out, clk, tr);
	rc = 0;
out:
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++) {
		hs_trace_free(&tr[i]);
		free(clk[i].pre);
		free(clk[i].w);
	}
	return rc;
}
