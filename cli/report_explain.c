/*
 * report_explain.c - where a delta comes from: stall causes, then per
 * function (aligned by name across the two images, compiler suffixes
 * ignored, so inlined code shows up where it now lives), then annotated
 * instructions of the functions that moved most (like perf annotate); and
 * the text pipeline timeline (like llvm-mca -timeline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/a64.h"
#include "report.h"

#define MAX_FN 512

struct fn_cost {
	char name[80];		/* without .isra/.constprop suffixes */
	uint64_t insns[2], cycles[2];
};

static void base_name(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	buf[strcspn(buf, ".")] = 0;
}

static int fn_index(struct fn_cost *t, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(t[i].name, name))
			return i;
	if (*n == MAX_FN)
		return -1;
	memset(&t[*n], 0, sizeof(t[0]));
	snprintf(t[*n].name, sizeof(t[0].name), "%s", name);
	return (*n)++;
}

static void accumulate(struct fn_cost *t, int *n, const struct ms_detail *d, int side)
{
	const struct hs_image *img = d->pt->img;
	char name[80];

	for (size_t i = 0; i < d->run.tr.n; i++) {
		const struct hs_sym *s = hs_sym_at(img, d->run.tr.v[i].pc);
		int k;

		base_name(s ? s->name : "?", name, sizeof(name));
		k = fn_index(t, n, name);
		if (k < 0)
			continue;
		t[k].insns[side]++;
		t[k].cycles[side] += d->per[i].cycles;
	}
}

static long long fn_delta(const struct fn_cost *f)
{
	return (long long)f->cycles[1] - (long long)f->cycles[0];
}

static int by_delta(const void *a, const void *b)
{
	long long x = fn_delta(a), y = fn_delta(b);
	long long ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(((const struct fn_cost *)a)->name, ((const struct fn_cost *)b)->name);
}

static const char *main_stall(const struct hs_insn_cost *c, unsigned *cyc)
{
	int best = -1;

	*cyc = 0;
	for (int s = 0; s < HS_NSTALLS; s++)
		if (c->stall[s] > *cyc) {
			*cyc = c->stall[s];
			best = s;
		}
	return best < 0 ? "" : hs_stall_names[best];
}

/* Per static instruction of one function: executions and cycles. */
static void annotate(FILE *f, const char *role, const struct ms_detail *d, const char *fn, long *lines,
		     long limit)
{
	const struct hs_image *img = d->pt->img;
	struct { uint64_t pc; unsigned n; uint64_t cycles; unsigned stall; const char *why; } a[512];
	int na = 0;
	char name[80], text[80], where[112];

	for (size_t i = 0; i < d->run.tr.n; i++) {
		const struct hs_sym *s = hs_sym_at(img, d->run.tr.v[i].pc);
		int k;
		unsigned st;
		const char *why;

		base_name(s ? s->name : "?", name, sizeof(name));
		if (strcmp(name, fn))
			continue;
		for (k = 0; k < na && a[k].pc != d->run.tr.v[i].pc; k++)
			;
		if (k == na) {
			if (na == 512)
				continue;
			memset(&a[na], 0, sizeof(a[0]));
			a[na].pc = d->run.tr.v[i].pc;
			a[na].why = "";
			na++;
		}
		a[k].n++;
		a[k].cycles += d->per[i].cycles;
		why = main_stall(&d->per[i], &st);
		if (st > a[k].stall) {
			a[k].stall = st;
			a[k].why = why;
		}
	}
	if (!na)
		return;
	/* by address */
	for (int i = 1; i < na; i++)
		for (int j = i; j > 0 && a[j].pc < a[j - 1].pc; j--) {
			__typeof__(a[0]) t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
	fprintf(f, "  %s: %s\n", role, fn);
	fprintf(f, "    %6s %5s  %-12s %-34s %s\n", "cycles", "execs", "worst stall", "where", "instruction");
	for (int i = 0; i < na; i++) {
		uint32_t w = 0;
		char st[24] = "";

		if (*lines >= limit) {
			fprintf(f, "    ... (raise --limit)\n");
			return;
		}
		for (size_t k = 0; k < d->run.tr.n; k++)
			if (d->run.tr.v[k].pc == a[i].pc) {
				w = hs_trace_insn(&d->run.tr, k)->word;
				break;
			}
		a64_disasm(w, a[i].pc, text, sizeof(text));
		if (a[i].stall)
			snprintf(st, sizeof(st), "%s %u", a[i].why, a[i].stall);
		fprintf(f, "    %6llu %5u  %-12s %-34s %s\n", (unsigned long long)a[i].cycles, a[i].n, st,
			hs_addr_fmt(img, a[i].pc, where, sizeof(where)), text);
		(*lines)++;
	}
}

void rp_explain(FILE *f, const struct ms_detail *b, const struct ms_detail *p, long limit)
{
	static struct fn_cost t[MAX_FN];
	int n = 0;
	long lines = 0;

	fprintf(f, "\nexplain %s on %s: base %llu cycles, patched %llu cycles, delta %+lld (%+.2f%%)\n",
		b->run.def->name, b->pt->core->name, (unsigned long long)b->res.cycles,
		(unsigned long long)p->res.cycles, (long long)p->res.cycles - (long long)b->res.cycles,
		rp_delta_pct(b->res.cycles, p->res.cycles));
	fprintf(f, "  instructions %llu -> %llu; mispredicts %u -> %u; cache misses I %u -> %u, D %u -> %u\n",
		(unsigned long long)b->res.insns, (unsigned long long)p->res.insns, b->res.mispredicts,
		p->res.mispredicts, b->res.icache_misses, p->res.icache_misses, b->res.dcache_misses,
		p->res.dcache_misses);
	fprintf(f, "\n  stall cycles by cause   %8s %8s %8s\n", "base", "patched", "delta");
	for (int s = 0; s < HS_NSTALLS; s++)
		fprintf(f, "    %-20s %8llu %8llu %+8lld\n", hs_stall_names[s],
			(unsigned long long)b->res.stall[s], (unsigned long long)p->res.stall[s],
			(long long)p->res.stall[s] - (long long)b->res.stall[s]);
	fprintf(f, "    %-20s %8llu %8llu %+8lld\n", "(uncalibrated)",
		(unsigned long long)b->res.uncalibrated_cycles, (unsigned long long)p->res.uncalibrated_cycles,
		(long long)p->res.uncalibrated_cycles - (long long)b->res.uncalibrated_cycles);

	accumulate(t, &n, b, 0);
	accumulate(t, &n, p, 1);
	qsort(t, (size_t)n, sizeof(t[0]), by_delta);
	fprintf(f, "\n  per function (compiler suffixes ignored; inlined code counts where it now lives)\n");
	fprintf(f, "    %-36s %13s %15s %8s\n", "function", "insns b/p", "cycles b/p", "delta");
	for (int i = 0; i < n && lines < limit; i++, lines++) {
		char ins[32], cyc[32];

		snprintf(ins, sizeof(ins), "%llu/%llu", (unsigned long long)t[i].insns[0],
			 (unsigned long long)t[i].insns[1]);
		snprintf(cyc, sizeof(cyc), "%llu/%llu", (unsigned long long)t[i].cycles[0],
			 (unsigned long long)t[i].cycles[1]);
		fprintf(f, "    %-36s %13s %15s %+8lld%s\n", t[i].name, ins, cyc, fn_delta(&t[i]),
			!t[i].insns[0] ? "  (only in patched)" : !t[i].insns[1] ? "  (gone: inlined or not on the path)" : "");
	}
	fprintf(f, "\n  per instruction, for the functions that moved most\n");
	for (int i = 0; i < n && i < 3 && lines < limit; i++) {
		if (!fn_delta(&t[i]))
			break;
		annotate(f, "base", b, t[i].name, &lines, limit);
		annotate(f, "patched", p, t[i].name, &lines, limit);
	}
}

static int by_cycles(const void *a, const void *b)
{
	const struct fn_cost *x = a, *y = b;

	if (x->cycles[0] != y->cycles[0])
		return x->cycles[0] > y->cycles[0] ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* One image (hotsim run --explain): where its cycles go. */
void rp_explain_one(FILE *f, const struct ms_detail *d, long limit)
{
	static struct fn_cost t[MAX_FN];
	int n = 0;
	long lines = 0;

	fprintf(f, "\nexplain %s on %s: %llu cycles, %llu instructions, %u mispredicts, "
		"cache misses I %u, D %u\n", d->run.def->name, d->pt->core->name,
		(unsigned long long)d->res.cycles, (unsigned long long)d->res.insns, d->res.mispredicts,
		d->res.icache_misses, d->res.dcache_misses);
	fprintf(f, "\n  stall cycles by cause   %8s\n", "cycles");
	for (int s = 0; s < HS_NSTALLS; s++)
		fprintf(f, "    %-20s %8llu\n", hs_stall_names[s], (unsigned long long)d->res.stall[s]);
	fprintf(f, "    %-20s %8llu\n", "(uncalibrated)", (unsigned long long)d->res.uncalibrated_cycles);
	accumulate(t, &n, d, 0);
	qsort(t, (size_t)n, sizeof(t[0]), by_cycles);
	fprintf(f, "\n  per function (compiler suffixes ignored)\n");
	fprintf(f, "    %-40s %8s %8s\n", "function", "insns", "cycles");
	for (int i = 0; i < n && lines < limit; i++, lines++)
		fprintf(f, "    %-40s %8llu %8llu\n", t[i].name, (unsigned long long)t[i].insns[0],
			(unsigned long long)t[i].cycles[0]);
	if (n > limit)
		fprintf(f, "    ... (raise --limit)\n");
	fprintf(f, "\n  per instruction, for the costliest functions\n");
	for (int i = 0; i < n && i < 2; i++)
		annotate(f, "image", d, t[i].name, &lines, limit);
}

void rp_timeline(FILE *f, const char *label, const struct ms_detail *d, size_t from, size_t to)
{
	const struct hs_image *img = d->pt->img;
	enum { COLS = 100 };
	uint64_t t0;
	char text[64], where[96], line[COLS + 1];

	if (to > d->run.tr.n)
		to = d->run.tr.n;
	if (from >= to) {
		fprintf(f, "timeline: empty window\n");
		return;
	}
	t0 = d->per[from].issue;
	fprintf(f, "\ntimeline: %s on %s (%s), records %zu..%zu, cycle 0 = %llu\n", d->run.def->name,
		d->pt->core->name, label, from, to - 1, (unsigned long long)t0);
	fprintf(f, "  '=' waiting (stall), 'I' issue, 'e' result pending (latency); %d cycles shown\n", COLS);
	for (size_t i = from; i < to; i++) {
		const struct hs_insn_cost *c = &d->per[i];
		uint64_t x = c->issue - t0, stall = 0;

		for (int s = 0; s < HS_NSTALLS; s++)
			stall += c->stall[s];
		memset(line, ' ', COLS);
		line[COLS] = 0;
		for (uint64_t k = x > stall ? x - stall : 0; k < x && k < COLS; k++)
			line[k] = '=';
		if (x < COLS)
			line[x] = 'I';
		for (uint64_t k = x + 1; k < x + (c->lat ? c->lat : 1) && k < COLS; k++)
			line[k] = 'e';
		for (int k = COLS - 1; k >= 0 && line[k] == ' '; k--)
			line[k] = 0;
		a64_disasm(hs_trace_insn(&d->run.tr, i)->word, d->run.tr.v[i].pc, text, sizeof(text));
		fprintf(f, "[%4zu] %-30.30s %-28.28s |%s\n", i,
			hs_addr_fmt(img, d->run.tr.v[i].pc, where, sizeof(where)), text, line);
	}
}
