/*
 * report_explain.c - the --explain and --timeline views as text: where a
 * delta (or one image's cycles) comes from - stall causes, per function
 * (sim/measure/explain.c aligns them), annotated instructions of the
 * functions that moved most (like perf annotate) - and the pipeline
 * timeline (like llvm-mca -timeline).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/a64.h"
#include "report.h"

#define MAX_FN 512

static void annotate(FILE *f, const char *role, const struct ms_detail *d, const char *fn, long *lines,
		     long limit)
{
	static struct ms_insn_note a[512];
	int na = ms_annotate(d, fn, a, 512);
	char text[80], where[112];

	if (!na)
		return;
	fprintf(f, "  %s: %s\n", role, fn);
	fprintf(f, "    %6s %5s  %-12s %-34s %s\n", "cycles", "execs", "worst stall", "where", "instruction");
	for (int i = 0; i < na; i++) {
		char st[24] = "";

		if (*lines >= limit) {
			fprintf(f, "    ... (raise --limit)\n");
			return;
		}
		a64_disasm(a[i].word, a[i].pc, text, sizeof(text));
		if (a[i].stall)
			snprintf(st, sizeof(st), "%s %u", a[i].why, a[i].stall);
		fprintf(f, "    %6.0f %5.1f  %-12s %-34s %s\n", a[i].cycles, a[i].n, st,
			hs_addr_fmt(d->pt->img, a[i].pc, where, sizeof(where)), text);
		(*lines)++;
	}
}

static void stall_table(FILE *f, const struct ms_detail *b, const struct ms_detail *p)
{
	if (!p) {
		fprintf(f, "\n  stall cycles by cause   %8s\n", "cycles");
		for (int s = 0; s < HS_NSTALLS; s++)
			fprintf(f, "    %-20s %8llu\n", hs_stall_names[s], (unsigned long long)b->res.stall[s]);
		fprintf(f, "    %-20s %8llu\n", "(uncalibrated)",
			(unsigned long long)b->res.uncalibrated_cycles);
		return;
	}
	fprintf(f, "\n  stall cycles by cause   %8s %8s %8s\n", "base", "patched", "delta");
	for (int s = 0; s < HS_NSTALLS; s++)
		fprintf(f, "    %-20s %8llu %8llu %+8lld\n", hs_stall_names[s],
			(unsigned long long)b->res.stall[s], (unsigned long long)p->res.stall[s],
			(long long)p->res.stall[s] - (long long)b->res.stall[s]);
	fprintf(f, "    %-20s %8llu %8llu %+8lld\n", "(uncalibrated)",
		(unsigned long long)b->res.uncalibrated_cycles, (unsigned long long)p->res.uncalibrated_cycles,
		(long long)p->res.uncalibrated_cycles - (long long)b->res.uncalibrated_cycles);
}

void rp_explain_text(FILE *f, const struct ms_detail *b, const struct ms_detail *p, long limit, int moved)
{
	static struct ms_fn_cost t[MAX_FN];
	int n = ms_explain_functions(b, p, t, MAX_FN);
	long lines = 0;

	char over[48];

	if (b->ncount > 1)
		snprintf(over, sizeof(over), "the mean per op over %u ops", b->ncount);
	else
		snprintf(over, sizeof(over), "one op");
	if (p)
		fprintf(f, "\nexplain %s on %s (%s, %s): base %llu cycles, patched %llu "
			"cycles, delta %+lld (%+.2f%%)\n",
			b->run.def->name, b->pt->core->name, ms_state_names[b->state], over,
			(unsigned long long)b->res.cycles, (unsigned long long)p->res.cycles,
			(long long)p->res.cycles - (long long)b->res.cycles,
			ms_delta_pct((double)b->res.cycles, (double)p->res.cycles));
	else
		fprintf(f, "\nexplain %s on %s (%s, %s): %llu cycles\n", b->run.def->name,
			b->pt->core->name, ms_state_names[b->state], over, (unsigned long long)b->res.cycles);
	if (p)
		fprintf(f, "  instructions %llu -> %llu; mispredicts %u -> %u; cache misses I %u -> %u, D %u -> %u\n",
			(unsigned long long)b->res.insns, (unsigned long long)p->res.insns, b->res.mispredicts,
			p->res.mispredicts, b->res.icache_misses, p->res.icache_misses, b->res.dcache_misses,
			p->res.dcache_misses);
	else
		fprintf(f, "  instructions %llu; mispredicts %u; cache misses I %u, D %u\n",
			(unsigned long long)b->res.insns, b->res.mispredicts, b->res.icache_misses,
			b->res.dcache_misses);
	stall_table(f, b, p);
	fprintf(f, "\n  per function (compiler suffixes ignored%s)\n",
		p ? "; inlined code counts where it now lives" : "");
	if (p)
		fprintf(f, "    %-36s %13s %15s %8s\n", "function", "insns b/p", "cycles b/p", "delta");
	else
		fprintf(f, "    %-36s %13s %15s\n", "function", "insns", "cycles");
	for (int i = 0; i < n && lines < limit; i++, lines++) {
		char ins[32], cyc[32];

		if (moved && p && fabs(ms_fn_delta(&t[i])) < 0.05) {
			fprintf(f, "    ... %d functions that did not move\n", n - i);
			n = i;
			break;
		}
		if (!p) {
			fprintf(f, "    %-36s %13.1f %15.1f\n", t[i].name, t[i].insns[0], t[i].cycles[0]);
			continue;
		}
		snprintf(ins, sizeof(ins), "%.1f/%.1f", t[i].insns[0], t[i].insns[1]);
		snprintf(cyc, sizeof(cyc), "%.1f/%.1f", t[i].cycles[0], t[i].cycles[1]);
		fprintf(f, "    %-36s %13s %15s %+8.1f%s\n", t[i].name, ins, cyc, ms_fn_delta(&t[i]),
			!t[i].insns[0] ? "  (only in patched)" :
			!t[i].insns[1] ? "  (gone: inlined or not on the path)" : "");
	}
	if (n > limit)
		fprintf(f, "    ... %d more functions (raise --limit)\n", n - (int)limit);
	fprintf(f, "\n  per instruction, for the functions that %s most\n", p ? "moved" : "cost");
	for (int i = 0; i < n && i < (p ? 3 : 2) && lines < limit; i++) {
		if (p && fabs(ms_fn_delta(&t[i])) < 0.05)
			break;
		annotate(f, p ? "base" : "image", b, t[i].name, &lines, limit);
		if (p)
			annotate(f, "patched", p, t[i].name, &lines, limit);
	}
}

static void timeline(FILE *f, const char *label, const struct ms_detail *d, size_t from, size_t to)
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
		a64_disasm(hs_trace_insn(&d->run.tr, i)->word, hs_trace_pc(&d->run.tr, i), text, sizeof(text));
		fprintf(f, "[%4zu] %-30.30s %-28.28s |%s\n", i,
			hs_addr_fmt(img, hs_trace_pc(&d->run.tr, i), where, sizeof(where)), text, line);
	}
}

void rp_details_text(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	for (int i = 0; d->explain && i < d->ncores; i++)
		rp_explain_text(f, &d->ex[i][0], c->patched ? &d->ex[i][1] : NULL, d->limit, 0);
	for (int k = 0; d->timeline && k < (c->patched ? 2 : 1); k++) {
		char label[64];

		const struct ms_detail *t = &d->tl[k];
		size_t at = t->ncount ? t->count[0].begin : 0;

		/* the window within the first operation the detail counts */
		snprintf(label, sizeof(label), "%s, %s", !c->patched ? "image" : k ? "patched" : "base",
			 ms_state_names[d->state]);
		timeline(f, label, t, at + d->win.from, at + d->win.to);
	}
}
