/*
 * report_svg_timeline.c - `--timeline PATH` as a picture (with --svg):
 * a window of the path's instructions, each a row, its stall (waiting)
 * and its issue-to-result latency as bars on a cycle axis.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "hotsim/a64.h"
#include "report.h"
#include "report_svg.h"

#define LEGEND1 "waiting (a stall: operand, pipe, miss, barrier)"
#define LEGEND2 "issued, until its result is ready (latency)"

static uint64_t stall_of(const struct hs_insn_cost *c)
{
	uint64_t s = 0;

	for (int k = 0; k < HS_NSTALLS; k++)
		s += c->stall[k];
	return s > c->cycles ? c->cycles : s;
}

int rp_timeline_svg(const char *path, const struct ms_detail *d, size_t from, size_t to)
{
	FILE *f = fopen(path, "w");
	uint64_t t0 = UINT64_MAX, tmax = 1;
	const int cw = 8, rh = 16, lx = 300, top = 64;
	/* the second legend item after the first one's text */
	const int x2 = (int)ceil(30 + svg_text_w(LEGEND1, 12) + 16);
	int h;

	if (!f)
		return -1;
	if (to > d->run.tr.n)
		to = d->run.tr.n;
	if (from >= to)
		from = to ? to - 1 : 0;
	/* the picture starts at the window's first cycle: the earliest stall
	 * or issue in it (out of order, a later record may issue first) */
	for (size_t i = from; i < to; i++) {
		uint64_t st = stall_of(&d->per[i]), s = d->per[i].issue > st ? d->per[i].issue - st : 0;

		t0 = s < t0 ? s : t0;
	}
	if (t0 == UINT64_MAX)
		t0 = 0;
	for (size_t i = from; i < to; i++) {
		uint64_t end = d->per[i].issue + (d->per[i].lat ? d->per[i].lat : 1) - t0;

		tmax = end > tmax ? end : tmax;
	}
	if (tmax > 400)
		tmax = 400;	/* bounded picture */
	h = top + (int)(to - from) * rh + 20;
	/* at least as wide as the legend: a short window's cycles are not */
	svg_head(f, (int)fmax(lx + (int)tmax * cw + 20, ceil(x2 + 20 + svg_text_w(LEGEND2, 12) + SVG_PAD)), h);
	fprintf(f, "<text x=\"10\" y=\"18\" font-weight=\"bold\">timeline: %s on %s, records %zu..%zu</text>\n",
		d->run.def->name, d->pt->core->name, from, to);
	fprintf(f, "<rect x=\"10\" y=\"26\" width=\"16\" height=\"10\" fill=\"#ffcc80\"/><text x=\"30\" "
		"y=\"35\">" LEGEND1 "</text>\n");
	fprintf(f, "<rect x=\"%d\" y=\"26\" width=\"16\" height=\"10\" fill=\"#1565c0\"/><text x=\"%d\" "
		"y=\"35\">" LEGEND2 "</text>\n", x2, x2 + 20);
	/* the cycle axis: a tick and its number every 10 cycles */
	for (uint64_t k = 0; k <= tmax; k += 10)
		fprintf(f, "<path d=\"M%d %dV%d\" stroke=\"#bdbdbd\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">%llu</text>\n",
			lx + (int)k * cw, top - 8, h - 20, lx + (int)k * cw + 2, top - 10, (unsigned long long)k);
	fprintf(f, "<text x=\"4\" y=\"%d\" font-size=\"10\">cycle (from %llu)</text>\n", top - 10,
		(unsigned long long)t0);
	for (size_t i = from; i < to; i++) {
		const struct hs_insn_cost *c = &d->per[i];
		int y = top + (int)(i - from) * rh;
		uint64_t x0 = c->issue - t0, st = stall_of(c);
		char text[80], line[112], fit[112];

		a64_disasm(hs_trace_insn(&d->run.tr, i)->word, hs_trace_pc(&d->run.tr, i), text, sizeof(text));
		/* the disassembly ends before the bars start */
		snprintf(line, sizeof(line), "[%zu] %s", i - from, text);
		fprintf(f, "<text x=\"4\" y=\"%d\">", y + 11);
		svg_esc(f, svg_fit(fit, sizeof(fit), line, svg_chars_in(lx - 8, 12), 0));
		fprintf(f, "</text>\n");
		if (x0 >= tmax)
			continue;
		if (st && x0 >= st)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffcc80\"/>\n",
				lx + (int)(x0 - st) * cw, y + 2, (int)st * cw, rh - 4);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#1565c0\"/>\n",
			lx + (int)x0 * cw, y + 2, (int)(c->lat ? c->lat : 1) * cw, rh - 4);
	}
	fprintf(f, "</svg>\n");
	return fclose(f) ? -1 : 0;
}
