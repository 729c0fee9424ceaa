/*
 * machine_cost.c - a machine of more than one CPU in cycles (see
 * ms_machine_cost): every CPU's stream of the replay (machine_run.c) on a
 * model of its own, from cold, then one timeline through all of them
 * (machine_timeline.c), in the recorded layout and, for the layout band,
 * in o->noise others.
 *
 * Each CPU's instructions cost what its model charges them, in the order
 * it ran them, kept as prefix sums (its clock, machine_clock.h). The lines
 * the CPUs share move between them: an access to a line another CPU wrote
 * since this one held it (flagged by the replay, coherence.c) misses this
 * core's private levels and is handed over from the writer's cache in
 * peer_latency cycles (cache.c; measured core-to-core on the A72, guessed
 * on most cores). The two parameters of the wakes, ipi_latency and
 * wfi_exit, are guesses.
 *
 * A spin-wait (a wfe/yield loop) ran as many iterations as the emulator's
 * interleaving gave it, so they are not costed: from its first wfe/yield
 * the spinner waits for the store that ends it (coherence.c finds it; the
 * timeline holds the spinner until the writer's time after it), and then
 * pays the line's move itself. The outputs count these waits.
 */
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "machine_clock.h"
#include "measure_internal.h"

#define TRACE_LIMIT 16000000

/* A CPU's per-record cycles and marks while its clock is made, one for
 * every CPU: the model folds its costs out of a ring into them (a whole
 * hs_insn_cost a record was the largest array of a machine's costing). It
 * and the clocks are kept from one costing to the next (the layouts cost
 * shorter cuts of the same streams): fresh arrays each time were a fifth
 * of a machine's costing, in page faults. */
#define RING 1024
#define MARK_UNCAL 1	/* charged by an uncalibrated parameter */
#define MARK_IRQ 2	/* taking an IRQ (in_irq) */
struct scratch {
	uint32_t *cycles;
	uint8_t *mark;
	size_t room;
	struct hs_insn_cost ring[RING];
};

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

/* A layout (cost.c's): code above `code` and data above `data` moved by delta bytes */
struct layout {
	uint64_t code, data, delta;
};

static void free_clock(struct ms_cpu_clock *c)
{
	free(c->pre);
	free(c->upre);
	free(c->ipre);
	free(c->icnt);
	free(c->w);
	memset(c, 0, sizeof(*c));
}

static void free_scratch(struct scratch *sc)
{
	free(sc->cycles);
	free(sc->mark);
	sc->cycles = NULL;
	sc->mark = NULL;
	sc->room = 0;
}

/* c emptied and sc made room for a stream of n records: -1 when out of
 * memory */
static int clock_for(struct ms_cpu_clock *c, struct scratch *sc, size_t n)
{
	if (n >= UINT32_MAX)
		return hs_fail("a stream of %zu records: a CPU's clock counts at most %u", n, UINT32_MAX - 1);
	if (sc->room < n + 1) {
		free_scratch(sc);
		sc->cycles = malloc((n + 1) * sizeof(*sc->cycles));
		sc->mark = malloc(n + 1);
		if (!sc->cycles || !sc->mark) {
			free_scratch(sc);
			return hs_fail("out of memory");
		}
		sc->room = n + 1;
	}
	if (c->room < n + 1) {
		free_clock(c);
		c->pre = malloc((n + 1) * sizeof(*c->pre));
		c->upre = malloc((n + 1) * sizeof(*c->upre));
		c->ipre = malloc((n + 1) * sizeof(*c->ipre));
		c->icnt = malloc((n + 1) * sizeof(*c->icnt));
		c->w = malloc(HS_MACHINE_MAX_WAKES * sizeof(*c->w));
		if (!c->pre || !c->upre || !c->ipre || !c->icnt || !c->w) {
			free_clock(c);
			return hs_fail("out of memory");
		}
		c->room = n + 1;
	}
	c->n = n;
	c->nw = 0;
	return 0;
}

/*
 * Which records take an IRQ: from the first instruction of an IRQ vector
 * (an exception entry at offset 0x080 of one of the table's four 0x200
 * groups: VBAR_EL1 is 2 KB aligned) to the eret that leaves that
 * exception, whatever the handler raised in between: those are marked
 * MARK_IRQ.
 */
static void in_irq(const struct hs_trace *t, uint8_t *mark)
{
	unsigned depth = 0, irq_at = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].flags & HS_T_EXC_ENTRY) {
			depth++;
			if (!irq_at && (hs_trace_pc(t, i) & 0x180) == 0x080)
				irq_at = depth;
		}
		mark[i] |= irq_at ? MARK_IRQ : 0;
		if (hs_trace_insn(t, i)->cls == A64_C_ERET) {
			depth -= depth > 0;
			if (depth < irq_at)
				irq_at = 0;
		}
	}
}

/* CPU cpu's spin-waits' iterations (after each's first wfe/yield, before
 * the read that ended it) cost nothing: the wait for the store is their
 * time (timeline), charged by no parameter. Returns how many records that
 * frees. */
static uint64_t free_spins(const struct hs_machine_run *mr, unsigned cpu, struct scratch *sc, size_t n)
{
	uint64_t freed = 0;

	for (unsigned k = 0; k < mr->nwakes; k++) {
		const struct hs_machine_wake *e = &mr->wake[k];

		if (e->kind == HS_WAKE_SPIN_END && e->cpu == cpu)
			for (uint64_t r = e->spin_from + 1; r < e->at && r < n; r++, freed++) {
				sc->cycles[r] = 0;
				sc->mark[r] &= (uint8_t)~MARK_UNCAL;
			}
	}
	return freed;
}

/* The model's costs leave its ring into the scratch arrays */
static void keep(void *ctx, size_t i, const struct hs_insn_cost *c, size_t n)
{
	struct scratch *sc = ctx;

	for (size_t k = 0; k < n; k++) {
		sc->cycles[i + k] = c[k].cycles;
		sc->mark[i + k] = c[k].events & HS_EV_UNCALIBRATED ? MARK_UNCAL : 0;
	}
}

/* CPU cpu's stream on a model of its own, from cold, in a layout: its
 * clock's cycles */
static int cost_cpu(const struct ms_options *o, const struct hs_core *core, unsigned cpu, const struct hs_trace *t,
		    struct ms_cpu_clock *c, struct scratch *sc, struct ms_machine_cost *out, const struct layout *lay)
{
	struct hs_costs costs = { .v = sc->ring, .mask = RING - 1, .fold = keep, .ctx = sc };
	struct hs_model *m;
	struct hs_model_result res;
	int rc = -1;

	if (clock_for(c, sc, t->n) || !(m = ms_model(o, core)))
		return -1;
	out->ipi_latency = param(m, "ipi_latency", &out->ipi_calibrated);
	out->wfi_exit = param(m, "wfi_exit", &out->wfi_calibrated);
	out->peer_latency = param(m, "peer_latency", &out->peer_calibrated);
	hs_model_set_layout_shift(m, lay->code, lay->delta, lay->data, lay->delta);
	if (hs_model_cold_costs(m, t, &res, &costs))
		goto out;
	out->spin_insns += free_spins(&out->run, cpu, sc, t->n);
	in_irq(t, sc->mark);
	c->pre[0] = c->upre[0] = c->ipre[0] = c->icnt[0] = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t cy = sc->cycles[i];
		unsigned irq = (sc->mark[i] & MARK_IRQ) != 0;

		c->pre[i + 1] = c->pre[i] + cy;
		c->upre[i + 1] = c->upre[i] + (sc->mark[i] & MARK_UNCAL ? cy : 0);
		c->ipre[i + 1] = c->ipre[i] + (irq ? cy : 0);
		c->icnt[i + 1] = c->icnt[i] + irq;
	}
	rc = 0;
out:
	hs_model_free(m);
	return rc;
}

/* Which records: the CPUs in mask, and with clk (the full streams'
 * clocks) those in IRQs (irq 1) or out of them (0) */
struct pick {
	unsigned mask;
	const struct ms_cpu_clock *clk;
	int irq;
};

static int picked(const struct pick *p, unsigned cpu, size_t r)
{
	return (p->mask & 1u << cpu) && (!p->clk || (int)(p->clk[cpu].icnt[r + 1] - p->clk[cpu].icnt[r]) == p->irq);
}

/* The distinct pcs (data: data lines) of the records picked from op
 * `from` on, sorted: *n of them (NULL, 0 when none or out of memory) */
static uint64_t *distinct(const struct hs_machine_run *mr, const struct hs_trace *tr, unsigned from,
			  const struct pick *pick, int data, size_t *n)
{
	struct ms_set set = { 0 };

	*n = 0;
	for (unsigned i = 0; i < mr->ncpus; i++) {
		size_t at = 0;

		for (unsigned o = 0; o < from && o < mr->nops; o++)
			at += mr->op[o][i].insns;
		for (size_t r = at; r < tr[i].n; r++)
			if (!picked(pick, i, r) || (data && !tr[i].v[r].addr))
				continue;
			else if (ms_set_add(&set, data ? tr[i].v[r].addr & ~63ULL : hs_trace_pc(&tr[i], r))) {
				ms_set_free(&set);
				return NULL;
			}
	}
	return ms_set_sorted(&set, n);
}

static uint64_t code_bytes(const struct hs_machine_run *mr, const struct hs_trace *tr, struct pick pick)
{
	size_t n;

	free(distinct(mr, tr, mr->nops > 2 ? 2 : 0, &pick, 0, &n));
	return 4 * (uint64_t)n;
}

/* Every CPU costed in a layout, and the timeline through them */
static int cost_machine(const struct ms_options *o, const struct hs_core *core, const struct hs_trace *tr,
			struct ms_cpu_clock *clk, struct scratch *sc, struct ms_machine_cost *out, const struct layout *lay)
{
	out->spin_insns = 0;
	for (unsigned i = 0; i < out->run.ncpus; i++) {
		if (cost_cpu(o, core, i, &tr[i], &clk[i], sc, out, lay))
			return -1;
	}
	out->sgi_wakes = out->timer_wakes = out->spin_waits = out->read_waits = out->order_flips = 0;
	ms_machine_timeline(out, clk, tr);
	return 0;
}

/* The means of the first n steady ops (ops 2 on) */
static void means(const struct ms_machine_cost *mc, unsigned n, struct ms_machine_means *m)
{
	unsigned from = mc->run.nops > 2 ? 2 : 0;

	memset(m, 0, sizeof(*m));
	for (unsigned o = from; o < from + n && o < mc->run.nops; o++) {
		m->latency += (double)mc->op[o].latency / n;
		m->site += (double)mc->op[o].path_site / n;
		m->other += (double)mc->op[o].path_other / n;
		m->ipi += (double)mc->op[o].path_ipi / n;
		m->exit += (double)mc->op[o].path_exit / n;
		m->irq += (double)mc->op[o].path_irq / n;
	}
}

/* The recorded means moved by what a layout does to the first few ops' */
static void moved(const struct ms_machine_means *rec, const struct ms_machine_means *rq,
		  const struct ms_machine_means *q, struct ms_machine_means *out)
{
	out->latency = rec->latency + q->latency - rq->latency;
	out->site = rec->site + q->site - rq->site;
	out->other = rec->other + q->other - rq->other;
	out->ipi = rec->ipi + q->ipi - rq->ipi;
	out->exit = rec->exit + q->exit - rq->exit;
	out->irq = rec->irq + q->irq - rq->irq;
}

/* The layout band, as cost.c makes a sampled path's: o->noise layouts
 * beyond the recorded one, split at the quantiles of the steady ops' code
 * and data lines, each the recorded means moved by what the layout does
 * to the means of the first ms_band_ops() steady ops. The recorded costs
 * stay in out->op. */
static int layouts(const struct ms_options *o, const struct hs_core *core, const struct hs_trace *tr,
		   struct ms_cpu_clock *clk, struct scratch *sc, struct ms_machine_cost *out)
{
	struct ms_machine_op *rec = malloc(sizeof(out->op));
	unsigned from = out->run.nops > 2 ? 2 : 0, sgi = out->sgi_wakes, timer = out->timer_wakes;
	unsigned spin = out->spin_waits, read = out->read_waits, flips = out->order_flips;
	uint64_t spin_insns = out->spin_insns;
	unsigned nq = ms_band_ops(out->run.nops - from);
	struct ms_machine_means rq, q;
	struct hs_trace cut[HS_MACHINE_MAX_CPUS];
	size_t np, nl;
	const struct pick all = { ~0u, NULL, 0 };
	uint64_t *pcs = distinct(&out->run, tr, from, &all, 0, &np), *lines = distinct(&out->run, tr, from, &all, 1, &nl);
	int rc = -1, n = o->noise + 1;

	means(out, out->run.nops - from, &out->layout[0]);
	means(out, nq, &rq);
	out->nlayouts = 1;
	if (!rec || !pcs || !lines) {
		hs_fail("out of memory");
		goto out;
	}
	memcpy(rec, out->op, sizeof(out->op));
	/* a layout's costing ends with the ops its means take */
	for (unsigned i = 0; i < out->run.ncpus; i++) {
		cut[i] = tr[i];
		cut[i].n = 0;
		for (unsigned op = 0; op < from + nq && op < out->run.nops; op++)
			cut[i].n += out->run.op[op][i].insns;
		cut[i].n = cut[i].n < tr[i].n ? cut[i].n : tr[i].n;
	}
	for (int k = 1; k < n && k < MS_MACHINE_MAX_LAYOUTS; k++) {
		struct layout lay = { np ? pcs[np * (size_t)k / (size_t)n] : 0,
				      nl ? lines[nl * (size_t)k / (size_t)n] : 0, ms_layout_shift(k) };

		if (cost_machine(o, core, cut, clk, sc, out, &lay))
			goto out;
		means(out, nq, &q);
		moved(&out->layout[0], &rq, &q, &out->layout[out->nlayouts++]);
	}
	memcpy(out->op, rec, sizeof(out->op));
	out->sgi_wakes = sgi;
	out->timer_wakes = timer;
	out->spin_waits = spin;
	out->read_waits = read;
	out->order_flips = flips;
	out->spin_insns = spin_insns;
	rc = 0;
out:
	free(rec);
	free(pcs);
	free(lines);
	return rc;
}

/*
 * The clock a replay takes turns by when its set asks for modelled time
 * (HS_TURNS_MODEL): each CPU's stream on a model of its own, from cold,
 * costed turn by turn as the CPU runs it, each run going on from the
 * pipeline the last one left (hs_model_run_on): a record costs what the
 * costing of the whole stream charges it, but for a stall it owes to an
 * instruction of an earlier turn (an MSR's hold, a redirect), which stays
 * on it. A wake from wfi costs the model's ipi_latency and wfi_exit.
 */
struct turn_models {
	struct hs_turn_clock clock;
	const struct ms_options *o;
	const struct hs_core *core;
	struct hs_model *m[HS_MACHINE_MAX_CPUS];
	struct hs_insn_cost *per;
	size_t room;
};

static int turn_cost(void *ctx, unsigned cpu, const struct hs_trace *t, size_t from, size_t to, uint32_t *cycles)
{
	struct turn_models *tm = ctx;
	struct hs_trace s = *t;
	struct hs_model_result res;
	int cal;

	if (cpu >= HS_MACHINE_MAX_CPUS)
		return hs_fail("cpu%u: a machine of at most %u CPUs", cpu, HS_MACHINE_MAX_CPUS);
	if (!tm->m[cpu]) {
		if (!(tm->m[cpu] = ms_model(tm->o, tm->core)))
			return -1;
		tm->clock.ipi = (uint64_t)(param(tm->m[cpu], "ipi_latency", &cal) + 0.5);
		tm->clock.exit = (uint64_t)(param(tm->m[cpu], "wfi_exit", &cal) + 0.5);
	}
	if (tm->room < to - from + 1) {
		free(tm->per);
		tm->room = 2 * (to - from + 1);
		if (!(tm->per = malloc(tm->room * sizeof(*tm->per)))) {
			tm->room = 0;
			return hs_fail("out of memory");
		}
	}
	s.v = t->v + from;
	s.n = to - from + 1;	/* and record to, the last one's successor */
	if (hs_model_run_on(tm->m[cpu], &s, &res, tm->per))
		return -1;
	for (size_t i = 0; i < to - from; i++)
		cycles[i] = tm->per[i].cycles;
	return 0;
}

int ms_machine_trace(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		     unsigned nops, struct hs_machine_run *run, struct hs_trace *tr, size_t limit)
{
	struct turn_models tm = { .clock = { .cost = turn_cost }, .o = o, .core = core };
	int rc;

	tm.clock.ctx = &tm;
	rc = hs_session_machine_trace(s, k, nops, run, tr, limit, &tm.clock);
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++)
		hs_model_free(tm.m[i]);
	free(tm.per);
	return rc;
}

/* The replay of point k, its streams in tr: its wakes must fit the run */
static int trace(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		 unsigned nops, struct hs_machine_run *run, struct hs_trace *tr)
{
	if (ms_machine_trace(o, core, s, k, nops, run, tr, TRACE_LIMIT))
		return -1;
	if (run->nwakes == HS_MACHINE_MAX_WAKES)
		return hs_fail("more than %u wakes in %u operations: ask for fewer", HS_MACHINE_MAX_WAKES, run->nops);
	return 0;
}

int ms_machine_cost(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		    unsigned nops, struct ms_machine_cost *out)
{
	struct hs_trace tr[HS_MACHINE_MAX_CPUS];
	struct ms_cpu_clock clk[HS_MACHINE_MAX_CPUS];
	struct scratch sc = { 0 };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(tr, 0, sizeof(tr));
	memset(clk, 0, sizeof(clk));
	if (trace(o, core, s, k, nops, &out->run, tr))
		goto out;
	if (cost_machine(o, core, tr, clk, &sc, out, &(struct layout){ 0, 0, 0 }))
		goto out;
	/* the parts' code, while clk holds the whole streams (layouts cuts them) */
	out->code_bytes = code_bytes(&out->run, tr, (struct pick){ ~0u, NULL, 0 });
	out->code_bytes_site = code_bytes(&out->run, tr, (struct pick){ 1u << out->run.site_cpu, clk, 0 });
	out->code_bytes_other = code_bytes(&out->run, tr, (struct pick){ ~(1u << out->run.site_cpu), clk, 0 });
	out->code_bytes_irq = code_bytes(&out->run, tr, (struct pick){ ~0u, clk, 1 });
	if (o->noise > 0 && layouts(o, core, tr, clk, &sc, out))
		goto out;
	rc = 0;
out:
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++) {
		hs_trace_free(&tr[i]);
		free_clock(&clk[i]);
	}
	free_scratch(&sc);
	return rc;
}

int ms_machine_replay(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		      unsigned nops, struct ms_machine_replay *out)
{
	memset(out, 0, sizeof(*out));
	if (!trace(o, core, s, k, nops, &out->run, out->tr))
		return 0;
	ms_machine_replay_free(out);
	return -1;
}

int ms_machine_recost(const struct ms_options *o, const struct hs_core *core, const struct ms_machine_replay *r,
		      double *latency, int *one_cpu)
{
	struct ms_machine_cost *mc = malloc(sizeof(*mc));
	struct ms_cpu_clock clk[HS_MACHINE_MAX_CPUS];
	struct scratch sc = { 0 };
	double idle[HS_MACHINE_MAX_CPUS] = { 0 };
	unsigned n = r->run.nops > MS_MACHINE_WARM_OPS ? r->run.nops - MS_MACHINE_WARM_OPS : 0;
	int rc = -1;

	memset(clk, 0, sizeof(clk));
	if (!mc)
		return hs_fail("out of memory");
	memset(mc, 0, sizeof(*mc));
	mc->run = r->run;
	if (n < 2) {
		hs_fail("%u operations replayed: no steady ones to sample", r->run.nops);
		goto out;
	}
	if (cost_machine(o, core, r->tr, clk, &sc, mc, &(struct layout){ 0, 0, 0 }))
		goto out;
	*latency = 0;
	for (unsigned j = MS_MACHINE_WARM_OPS; j < r->run.nops; j++) {
		*latency += (double)mc->op[j].latency / n;
		for (unsigned i = 0; i < r->run.ncpus; i++)
			idle[i] += (double)mc->op[j].idle[i] / n;
	}
	*one_cpu = ms_one_cpu(r->run.ncpus, idle, *latency) >= 0;
	rc = 0;
out:
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++)
		free_clock(&clk[i]);
	free_scratch(&sc);
	free(mc);
	return rc;
}

void ms_machine_replay_free(struct ms_machine_replay *r)
{
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++)
		hs_trace_free(&r->tr[i]);
}
