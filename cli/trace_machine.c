/*
 * trace_machine.c - `hotsim trace VMLINUX PATH --smp N`: a round trip on
 * a machine of N CPUs, every CPU's stream. The machine is replayed from
 * the path's point exactly as its rows replay it (ms_machine_trace,
 * every CPU over shared memory, interleaved as QEMU's round robin runs
 * them); each operation is shown CPU by CPU, each CPU's records in the
 * order it ran them, marked where it left wfi (whose SGI, or its timer),
 * where it sent an SGI that woke another, and where it read a line another
 * CPU had just written (a lock released, a spin ended) - the events the
 * machine's timeline joins the CPUs at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/machine_cost.h"
#include "hotsim/paths.h"
#include "hotsim/trace.h"
#include "json.h"

struct walk {
	const struct cli_machine_trace *t;
	const struct ms_options *o;
	const struct hs_image *img;
	int ncores;
};

/* A wake seen from one CPU's stream: at its record pos, the wake w, seen
 * by the woken CPU (or the reader) or by its sender (or the writer). */
struct mark {
	uint64_t pos;
	unsigned w;
	int sender;
};

static int by_pos(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->w < y->w ? -1 : x->w > y->w;
}

static const char *const wake_kinds[] = {
	[HS_WAKE_SGI] = "sgi", [HS_WAKE_TIMER] = "timer", [HS_WAKE_LOCK] = "lock", [HS_WAKE_SPIN_END] = "spin",
};

/* The record of the other CPU's instruction the wake names: an SGI's
 * count is the one after the sender's write (msr icc_sgi1r_el1), a
 * line's the store itself. */
static uint64_t from_record(const struct hs_machine_wake *w)
{
	return w->kind == HS_WAKE_SGI ? w->from_at - 1 : w->from_at;
}

/* The marks in cpu c's records [from, to), in record order; *n of them */
static struct mark *marks_of(const struct hs_machine_run *mr, unsigned c, uint64_t from, uint64_t to, size_t *n)
{
	struct mark *v = malloc((2 * (size_t)mr->nwakes + 1) * sizeof(*v));

	*n = 0;
	for (unsigned i = 0; v && i < mr->nwakes; i++) {
		const struct hs_machine_wake *w = &mr->wake[i];

		if (w->cpu == c && w->at >= from && w->at < to)
			v[(*n)++] = (struct mark){ w->at, i, 0 };
		if (w->kind == HS_WAKE_SGI && w->from == c && w->from_at && from_record(w) >= from &&
		    from_record(w) < to)
			v[(*n)++] = (struct mark){ from_record(w), i, 1 };
	}
	if (v)
		qsort(v, *n, sizeof(*v), by_pos);
	return v;
}

static void text_mark(const struct hs_machine_wake *w, unsigned c, int sender)
{
	if (sender)
		printf("# cpu%u sends the SGI that wakes cpu%u (there at its record %llu)\n", c, w->cpu,
		       (unsigned long long)w->at);
	else if (w->kind == HS_WAKE_SGI)
		printf("# cpu%u leaves wfi: cpu%u's SGI woke it (sent at cpu%u's record %llu)\n", c, w->from,
		       w->from, (unsigned long long)from_record(w));
	else if (w->kind == HS_WAKE_TIMER)
		printf("# cpu%u leaves wfi: its own timer's interrupt woke it\n", c);
	else
		printf("# cpu%u reads a line cpu%u wrote at its record %llu (%s)\n", c, w->from,
		       (unsigned long long)from_record(w), w->kind == HS_WAKE_LOCK ? "a lock it released" :
		       "the store that ends this spin");
}

static void json_mark(struct json *j, const struct hs_machine_wake *w, const struct mark *m)
{
	json_begin_obj(j, NULL);
	json_uint(j, "record", m->pos);
	json_str(j, "kind", wake_kinds[w->kind]);
	if (m->sender) {
		json_str(j, "role", "sender");
		json_uint(j, "to_cpu", w->cpu);
		json_uint(j, "to_record", w->at);
	} else if (w->kind != HS_WAKE_TIMER) {
		json_uint(j, "from_cpu", w->from);
		json_uint(j, "from_record", from_record(w));
	}
	json_end_obj(j);
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* CPU c's records [from, to) of operation o, at most limit of them */
static int cpu_op(const struct walk *wk, const struct hs_machine_run *mr, const struct hs_trace *tr, unsigned o,
		  unsigned c, uint64_t from, uint64_t to)
{
	const struct hs_machine_cpu_op *co = &mr->op[o][c];
	struct json *j = wk->t->json;
	uint64_t shown = to - from < (uint64_t)wk->t->limit ? to - from : (uint64_t)wk->t->limit;
	size_t n, k = 0;
	struct mark *mk = marks_of(mr, c, from, from + shown, &n);

	if (!mk)
		return hs_fail("out of memory");
	if (j) {
		json_begin_obj(j, NULL);
		json_uint(j, "cpu", c);
		json_uint(j, "instructions", co->insns);
		json_uint(j, "sgis_sent", co->sgis);
		json_uint(j, "irqs_taken", co->irqs);
		json_uint(j, "wfi_halts", co->halts);
		json_uint(j, "first_record", from);
		json_begin_arr(j, "stream");
		for (uint64_t i = from; i < from + shown; i++)
			cli_trace_json(j, wk->img, tr, i);
		json_end_arr(j);
		json_bool(j, "truncated", to - from > shown);
		json_begin_arr(j, "marks");
		for (; k < n; k++)
			json_mark(j, &mr->wake[mk[k].w], &mk[k]);
		json_end_arr(j);
		json_end_obj(j);
	} else {
		printf("## op %u, cpu%u%s: %llu instructions, %u SGI%s sent, %u IRQ%s taken, %u wfi halt%s%s\n", o, c,
		       mr->end_cpu[o] == c ? " (its return to the site ends the op)" : "",
		       (unsigned long long)co->insns, co->sgis, plural(co->sgis), co->irqs, plural(co->irqs), co->halts,
		       plural(co->halts), co->insns ? "" : " (idle)");
		for (uint64_t i = from; i < from + shown; i++) {
			for (; k < n && mk[k].pos == i; k++)
				text_mark(&mr->wake[mk[k].w], c, mk[k].sender);
			cli_trace_line(wk->img, tr, i);
		}
		if (to - from > shown)
			printf("# ... %llu more instructions on cpu%u (raise --limit)\n",
			       (unsigned long long)(to - from - shown), c);
	}
	free(mk);
	return 0;
}

/* Operations [first, mr->nops) of the replay, each CPU's part in turn */
static int ops(const struct walk *wk, const struct hs_machine_run *mr, const struct hs_trace *tr, unsigned first)
{
	uint64_t at[HS_MACHINE_MAX_CPUS] = { 0 };
	struct json *j = wk->t->json;

	if (j)
		json_begin_arr(j, "ops");
	for (unsigned o = 0; o < mr->nops; o++) {
		if (o >= first && j) {
			json_begin_obj(j, NULL);
			json_uint(j, "op", o);
			json_bool(j, "warmup", o < MS_MACHINE_WARM_OPS);
			json_uint(j, "end_cpu", mr->end_cpu[o]);
			json_begin_arr(j, "cpus");
		} else if (o >= first) {
			printf("# op %u (%s)\n", o, o < MS_MACHINE_WARM_OPS ? "warm-up" : "sample");
		}
		for (unsigned c = 0; c < mr->ncpus; c++) {
			uint64_t to = at[c] + mr->op[o][c].insns;

			to = to < tr[c].n ? to : tr[c].n;
			if (o >= first && cpu_op(wk, mr, &tr[c], o, c, at[c], to))
				return -1;
			at[c] = to;
		}
		if (o >= first && j) {
			json_end_arr(j);
			json_end_obj(j);
		}
	}
	if (j)
		json_end_arr(j);
	return 0;
}

static void heading(const struct walk *wk, const struct hs_patched *pt, struct hs_session *s,
		    const struct hs_machine_run *mr, unsigned first)
{
	const struct hs_path_def *d = wk->t->d;
	const struct hs_path_set *set = cli_path_set();
	char snap[HS_SNAPSHOT_NAME];
	int booted;
	const char *state = hs_session_state(s, &booted);

	hs_session_snapshot(s, snap);
	if (wk->t->json) {
		json_begin_obj(wk->t->json, NULL);
		json_str(wk->t->json, "cpu", pt->core->name);
		json_str(wk->t->json, "state", state);
		json_str(wk->t->json, "snapshot", snap);
		json_uint(wk->t->json, "site_cpu", mr->site_cpu);
		json_bool(wk->t->json, "pinned", set->taskset != 0);
		json_str(wk->t->json, "turns", hs_turns_name(mr->turns));
		return;
	}
	printf("%s# %s on %s (%s): a machine of %u CPUs (snapshot %s), the workload %s, replayed from the %s "
	       "point%s, every CPU; op%s %u", wk->ncores ? "\n" : "", d->name, pt->core->name, pt->core->full,
	       mr->ncpus, snap, set->taskset ? "pinned" : "unpinned", d->boot.point->name, hs_turns_said(mr->turns),
	       first + 1 < mr->nops ? "s" : "", first);
	if (first + 1 < mr->nops)
		printf("-%u", mr->nops - 1);
	printf(" (0-%u warm-up)\n# state: %s\n", MS_MACHINE_WARM_OPS - 1, state);
}

static int machine_stage(void *ctx, const struct hs_patched *pt, struct hs_session *s)
{
	struct walk *wk = ctx;
	const struct cli_machine_trace *t = wk->t;
	unsigned k, nops = t->op >= 0 ? (unsigned)t->op + 1 : MS_MACHINE_WARM_OPS + 1;
	unsigned first = t->op >= 0 ? (unsigned)t->op : 0;
	struct hs_trace tr[HS_MACHINE_MAX_CPUS];
	struct hs_machine_run *mr;
	int rc = -1;

	if (ms_machine_point(s, t->d->boot.point->name, &k))
		return hs_fail("%s on %s: %s", t->d->name, pt->core->name, hs_errmsg());
	if (!(mr = malloc(sizeof(*mr))))
		return hs_fail("out of memory");
	memset(tr, 0, sizeof(tr));
	if (ms_machine_trace(wk->o, pt->core, s, k, nops, mr, tr, MS_TRACE_CAP)) {
		hs_fail("%s on %s, a machine of %u CPUs: %s", t->d->name, pt->core->name, t->smp, hs_errmsg());
		goto out;
	}
	if (first >= mr->nops) {
		hs_fail("%s: --op %u, but the machine's run has %u operations (0..%d)", t->d->name, first, mr->nops,
			(int)mr->nops - 1);
		goto out;
	}
	heading(wk, pt, s, mr, first);
	wk->ncores++;
	if (ops(wk, mr, tr, first))
		goto out;
	if (t->json)
		json_end_obj(t->json);
	rc = 0;
out:
	for (unsigned i = 0; i < HS_MACHINE_MAX_CPUS; i++)
		hs_trace_free(&tr[i]);
	free(mr);
	return rc;
}

int cli_machine_path(const struct hs_path_def *d)
{
	char those[200];

	if (d->boot.point && d->boot.machine)
		return 0;
	return hs_fail("%s runs one CPU: --smp traces a round trip between processes a machine replays (%s)",
		       d->name, hs_path_machine_names(those, sizeof(those)));
}

int cli_trace_machine(const struct hs_image *img, const struct opt_cpus *cpus, const struct cli_machine_trace *t)
{
	struct opt_paths one = { .v = { t->d }, .n = 1 };
	struct hs_path_set set = *cli_path_set();
	struct ms_options m;
	struct walk wk = { .t = t, .o = &m, .img = img };

	if (cli_machine_path(t->d))
		return -1;
	cli_walk_options(&m, cpus, &one, HS_SRC_BOOTED);
	set.ncpus = t->smp;
	if (cli_turns(t->turns, t->smp, &set))
		return -1;
	m.set = &set;
	return ms_walk(img, &m, &(struct ms_stages){ .ctx = &wk, .state = machine_stage });
}
