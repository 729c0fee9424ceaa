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
 * (returning, reading, idling) off it.
 *
 * What is not here yet: the caches are each core's own, so a line the
 * other core wrote hits where a real core misses to the other's cache or
 * the shared level (coherence), and the two parameters are guesses.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "measure_internal.h"

#define TRACE_LIMIT 16000000

struct wait {
	uint64_t at, cycles;
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
		c->w[c->nw].at = e->at;
		c->w[c->nw++].cycles = wake + exit - now;
	}
}

/* Per operation: the site CPU's latency, each CPU's busy and idle cycles */
static void per_op(struct ms_machine_cost *out, const struct clock *clk)
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
			if (i == mr->site_cpu)
				op->latency = time_at(c, to) - time_at(c, from);
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
	per_op(out, clk);
	rc = 0;
out:
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++) {
		hs_trace_free(&tr[i]);
		free(clk[i].pre);
		free(clk[i].w);
	}
	return rc;
}
