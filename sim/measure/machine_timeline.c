/*
 * machine_timeline.c - a machine's CPU clocks joined into one timeline
 * (ms_machine_timeline), and each operation walked back along it.
 *
 * A CPU halted in wfi resumes when the SGI that woke it arrives - the
 * sender's time at the instruction that wrote ICC_SGI1R_EL1, plus
 * ipi_latency (the GIC's delivery to the other core) - and then wfi_exit
 * cycles later (back to its vector); until then it is idle. A wait is
 * known once its sender's time is: the sender resumed before it sent, and
 * the replay notes wakes in the order they happened, so one pass in that
 * order settles every CPU's clock. A CPU its own timer woke waits nothing
 * (the replay's clock is in instructions, not cycles; the steady round
 * trips have no such wake). A read that had to wait for another CPU's
 * store waits for the writer's time just after it, where that is later.
 * An operation's latency is the site CPU's time from one return to the
 * site to the next; its critical path is walked back through the wakes,
 * in parts (critical_path), the IRQs the CPUs took on it (from vector to
 * eret) a part of their own.
 */
#include "machine_clock.h"

static uint64_t time_at(const struct ms_cpu_clock *c, uint64_t i)
{
	unsigned lo = 0, hi = c->nw;

	/* the waits at or before record i: they are in order of their records */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (c->w[mid].at <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return c->pre[i < c->n ? i : c->n] + (lo ? c->w[lo - 1].before + c->w[lo - 1].cycles : 0);
}

/* CPU c waits w at its record w.at, after the waits it has */
static void add_wait(struct ms_cpu_clock *c, struct ms_cpu_wait w)
{
	w.before = c->nw ? c->w[c->nw - 1].before + c->w[c->nw - 1].cycles : 0;
	c->w[c->nw++] = w;
}

/* Whether a lock wait at e is one of the sampled ops' (past each CPU's
 * warm-up records, warm[]) and came before the other CPU took the lock,
 * not while it held it */
static int flipped(const uint64_t *warm, const struct ms_cpu_clock *clk, const struct hs_machine_wake *e,
		   uint64_t now)
{
	return e->kind == HS_WAKE_LOCK && e->from_took && e->at >= warm[e->cpu] &&
	       now < time_at(&clk[e->from], e->from_took - 1);
}

/* The wakes in the order they happened: each one's wait */
static void timeline(struct ms_machine_cost *out, struct ms_cpu_clock *clk)
{
	const struct hs_machine_run *mr = &out->run;
	uint64_t ipi = (uint64_t)(out->ipi_latency + 0.5), exit = (uint64_t)(out->wfi_exit + 0.5);
	uint64_t warm[HS_MACHINE_MAX_CPUS] = { 0 };

	for (unsigned o = 0; o < MS_MACHINE_WARM_OPS && o < mr->nops; o++)
		for (unsigned i = 0; i < mr->ncpus && i < HS_MACHINE_MAX_CPUS; i++)
			warm[i] += mr->op[o][i].insns;
	for (unsigned k = 0; k < mr->nwakes; k++) {
		const struct hs_machine_wake *e = &mr->wake[k];
		struct ms_cpu_clock *c = &clk[e->cpu];
		uint64_t now = time_at(c, e->at), wake = now;

		if (e->kind == HS_WAKE_TIMER) {
			out->timer_wakes++;
			continue;
		}
		if (e->kind != HS_WAKE_SGI) {
			/* no delivery, no exit: the read waits for the store (the
			 * writer's time after it) where the writer's clock is later;
			 * the line's move is the read's own cost */
			uint64_t sent = time_at(&clk[e->from], e->from_at + 1);

			out->spin_waits += e->kind == HS_WAKE_SPIN_END;
			if (sent > now) {
				out->read_waits++;
				out->order_flips += (unsigned)flipped(warm, clk, e, now);
				add_wait(c, (struct ms_cpu_wait){ .at = e->at, .cycles = sent - now, .now = now,
								  .sent = sent, .arrive = sent, .from = e->from });
			}
			continue;
		}
		/* the SGI leaves at the sender's time at its msr and arrives
		 * ipi later; a CPU that halted first goes on then, after its
		 * exit from wfi */
		uint64_t sent = time_at(&clk[e->from], e->from_at), arrive = sent + ipi;

		out->sgi_wakes++;
		wake = arrive > wake ? arrive : wake;
		add_wait(c, (struct ms_cpu_wait){ .at = e->at, .cycles = wake + exit - now, .now = now,
						  .sent = sent, .arrive = arrive, .from = e->from });
	}
}

/* The first record of c at or after time x (c->n if none) */
static size_t record_at(const struct ms_cpu_clock *c, uint64_t x)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (time_at(c, mid) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* c's cycles taking IRQs between its times a and b (record boundaries) */
static uint64_t irq_between(const struct ms_cpu_clock *c, uint64_t a, uint64_t b)
{
	return c->ipre[record_at(c, b)] - c->ipre[record_at(c, a)];
}

/* The latest wait of c that ended in (from, t]: NULL if none */
static const struct ms_cpu_wait *wait_before(const struct ms_cpu_clock *c, uint64_t from, uint64_t t)
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
 * t0, walked back: a CPU's work back to the wait it came out of (the IRQs
 * it took in it apart); that wait's exit from wfi; if the SGI's arrival
 * held it (the CPU had halted first), the delivery, and on from the
 * sender's time at its SGI; else the CPU's own work before it. Each cycle
 * of the op is in one part.
 */
static void critical_path(struct ms_machine_op *op, const struct ms_cpu_clock *clk, unsigned site, uint64_t t0,
			  uint64_t t)
{
	unsigned cpu = site;

	for (unsigned hops = 0; t > t0 && hops < 2 * HS_MACHINE_MAX_WAKES; hops++) {
		const struct ms_cpu_wait *w = wait_before(&clk[cpu], t0, t);
		uint64_t end = w ? w->now + w->cycles : t0, ready, irq = irq_between(&clk[cpu], end, t);

		*(cpu == site ? &op->path_site : &op->path_other) += t - end - irq;
		op->path_irq += irq;
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

/* Per operation: its latency - from the site to the site again, on
 * whichever CPU the task reached it - each CPU's busy and idle cycles and
 * its accesses to lines another CPU wrote */
static void per_op(struct ms_machine_cost *out, const struct ms_cpu_clock *clk, const struct hs_trace *tr)
{
	const struct hs_machine_run *mr = &out->run;
	uint64_t end[HS_MACHINE_MAX_CPUS] = { 0 }, t0 = time_at(&clk[mr->site_cpu], 0);

	for (unsigned o = 0; o < mr->nops; o++) {
		struct ms_machine_op *op = &out->op[o];
		unsigned e;
		uint64_t t;

		op->path_site = op->path_other = op->path_ipi = op->path_exit = op->path_irq = 0;
		for (unsigned i = 0; i < mr->ncpus; i++) {
			const struct ms_cpu_clock *c = &clk[i];
			uint64_t from = end[i], to = end[i] + mr->op[o][i].insns;
			uint64_t busy = c->pre[to < c->n ? to : c->n] - c->pre[from < c->n ? from : c->n];

			op->busy[i] = busy;
			op->busy_uncal[i] = c->upre[to < c->n ? to : c->n] - c->upre[from < c->n ? from : c->n];
			op->remote[i] = remote_in(&tr[i], from, to);
			op->irq_insns[i] = c->icnt[to < c->n ? to : c->n] - c->icnt[from < c->n ? from : c->n];
			end[i] = to;
		}
		e = mr->end_cpu[o];
		t = time_at(&clk[e], end[e]);
		op->latency = t - t0;
		/* the op's wall time a CPU did not run (a CPU that runs nothing
		 * in it idles all of it) */
		for (unsigned i = 0; i < mr->ncpus; i++)
			op->idle[i] = op->latency > op->busy[i] ? op->latency - op->busy[i] : 0;
		critical_path(op, clk, e, t0, t);
		t0 = t;
	}
}

void ms_machine_timeline(struct ms_machine_cost *out, struct ms_cpu_clock *clk, const struct hs_trace *tr)
{
	timeline(out, clk);
	per_op(out, clk, tr);
}
