/*
 * machine_turns.c - a machine's replay taking turns by modelled time
 * (HS_TURNS_MODEL, hs_machine_model_turns): the CPU whose clock is the
 * earliest runs next, a quantum at a time, each turn's records charged to
 * its clock by the caller's models as they run.
 */
#include <stdlib.h>

#include "hotsim/err.h"
#include "emu/backend_booted.h"
#include "paths/machine_internal.h"

/*
 * Turns by modelled time (HS_TURNS_MODEL): the CPU whose clock is the
 * earliest runs next, for a quantum, and its turn's records are charged
 * to its clock as they run (the caller's models), record by record, with
 * the joins the machine's timeline makes (machine_timeline.c): a read of
 * a line another CPU stored to later in modelled time waits for that
 * store, and a CPU an SGI woke from wfi resumes ipi cycles after the
 * sender's SGI and exit cycles more; one its timer woke, at the earliest
 * running CPU's time (the latest CPU's when every one idled). A turn ends
 * at each SGI its CPU sends, so the CPU it woke can run before the sender
 * goes on. Two CPUs racing for a lock reach it in the order their
 * modelled times put them, to within a quantum: the branch the kernel
 * takes there is the one a machine of these cores would.
 */
/* instructions a turn: a race is decided to within it. lat_unix's round
 * trip moves by 0.2% between 4 and 16 (state --point unix --ops 64:
 * 35,165 to 35,172 cycles on four A53s, 21,007 to 21,044 on two A72s),
 * 1% at 32 and 3% at 64. */
#define QUANTUM 16
struct clocks {
	uint64_t *t[HS_SNAP_MAX_CPUS];	/* CPU i's time before each of its records */
	size_t room[HS_SNAP_MAX_CPUS];
	size_t done[HS_SNAP_MAX_CPUS];	/* its records costed: all but the last */
	unsigned wake[HS_SNAP_MAX_CPUS];	/* the wakes looked at for it */
	uint32_t *cy;
	size_t cyroom;
};

static void free_clocks(struct clocks *k)
{
	for (unsigned i = 0; i < HS_SNAP_MAX_CPUS; i++)
		free(k->t[i]);
	free(k->cy);
}

/* Room for n + 1 times of CPU c, and the cycles of ncy records */
static int clock_room(struct clocks *k, unsigned c, size_t n, size_t ncy)
{
	if (k->room[c] < n + 1) {
		size_t r = 2 * (n + 1);
		uint64_t *t = realloc(k->t[c], r * sizeof(*t));

		if (!t)
			return hs_fail("out of memory");
		if (!k->room[c])
			t[0] = 0;
		k->t[c] = t;
		k->room[c] = r;
	}
	if (k->cyroom < ncy) {
		free(k->cy);
		k->cyroom = 2 * ncy;
		if (!(k->cy = malloc(k->cyroom * sizeof(*k->cy)))) {
			k->cyroom = 0;
			return hs_fail("out of memory");
		}
	}
	return 0;
}

/* CPU c's time now: before its first record not costed yet */
static uint64_t now_of(const struct clocks *k, unsigned c)
{
	return k->room[c] ? k->t[c][k->done[c]] : 0;
}

/* When halted CPU i can resume: from the SGI that woke it, else (its
 * timer) the earliest running CPU's time, or the latest's */
static uint64_t resumes_at(const struct clocks *k, const struct machine *m, unsigned i,
			   const struct hs_turn_clock *clk)
{
	uint64_t own = now_of(k, i), run = UINT64_MAX, late = 0, sent, at;
	unsigned from;

	if (hs_bt_woken_by(m->cpu[i], &from, &at) && from < m->n) {
		at -= m->base[from];
		sent = k->room[from] ? k->t[from][at < k->done[from] ? at : k->done[from]] : 0;
		return (sent + clk->ipi > own ? sent + clk->ipi : own) + clk->exit;
	}
	for (unsigned j = 0; j < m->n; j++) {
		uint64_t t = now_of(k, j);

		late = t > late ? t : late;
		if (!m->halted[j] && t < run)
			run = t;
	}
	at = run != UINT64_MAX ? run : late;
	return at > own ? at : own;
}

/*
 * CPU c's records from its first not costed to all but its last, on its
 * clock from t0 (the last record waits for the next: a branch's outcome is
 * its successor's pc); then each read among them that came before the
 * store it read waits for it, as the timeline's would.
 */
static int charge(struct clocks *k, struct pass *p, unsigned c, uint64_t t0, const struct hs_turn_clock *clk)
{
	size_t from = k->done[c], to = p->tr[c].n ? p->tr[c].n - 1 : 0;

	if (to <= from)
		return 0;
	if (clock_room(k, c, to, to - from) || clk->cost(clk->ctx, c, &p->tr[c], from, to, k->cy))
		return -1;
	k->t[c][from] = t0;
	for (size_t r = from; r < to; r++)
		k->t[c][r + 1] = k->t[c][r] + k->cy[r - from];
	k->done[c] = to;
	for (; k->wake[c] < p->out->nwakes; k->wake[c]++) {
		const struct hs_machine_wake *e = &p->out->wake[k->wake[c]];
		uint64_t sent, now;

		if (e->cpu != c || (e->kind != HS_WAKE_LOCK && e->kind != HS_WAKE_SPIN_END))
			continue;
		if (e->at >= to)
			break;
		if (e->at < from || e->from >= p->out->ncpus || e->from_at + 1 > k->done[e->from])
			continue;
		sent = k->t[e->from][e->from_at + 1];
		now = k->t[c][e->at];
		if (sent > now)
			for (size_t r = e->at; r <= to; r++)
				k->t[c][r] += sent - now;
	}
	return 0;
}

int hs_machine_model_turns(struct pass *p, struct machine *m, const struct hs_turn_clock *clk)
{
	struct clocks k = { 0 };
	int rc = -1;

	while (p->out->nops < p->nops) {
		uint64_t best = UINT64_MAX, budget;
		unsigned c = m->n;

		hs_bt_round(m->cpu[0]);
		for (unsigned i = 0; i < m->n; i++) {
			uint64_t t;

			if (m->halted[i] && !hs_bt_wakeable(m->cpu[i]))
				continue;
			t = m->halted[i] ? resumes_at(&k, m, i, clk) : now_of(&k, i);
			if (t < best) {
				best = t;
				c = i;
			}
		}
		if (c == m->n) {
			if (hs_machine_warp(p, m))
				goto out;
			continue;
		}
		if (!(budget = hs_bt_until_deadline(m->cpu[0])))
			continue;
		if (hs_machine_take_turn(p, m, c, budget < QUANTUM ? budget : QUANTUM) || charge(&k, p, c, best, clk))
			goto out;
	}
	rc = 0;
out:
	free_clocks(&k);
	return rc;
}

