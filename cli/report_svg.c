/*
 * report_svg.c - pictures a reviewer would rather look at: base vs patched
 * bars per path and core with the delta, and a pipeline timeline. Plain SVG
 * 1.1 text, fixed layout, no timestamps: byte-identical for equal inputs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/a64.h"
#include "report.h"

#define W 960
#define LABEL_W 200
#define BAR_AREA 560
#define ROW_H 34

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void header(FILE *f, int w, int h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n", w, h, w, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

/* The first state the comparison shows: typical, else warm, else cold. */
static enum ms_state shown_state(const struct ms_compare *c)
{
	for (int st = 0; st < MS_NSTATES; st++)
		if (c->want[st])
			return (enum ms_state)st;
	return MS_TYPICAL;
}

static int x_of(double v, double max)
{
	return LABEL_W + (int)((double)BAR_AREA * v / max + 0.5);
}

/* A bar, its layout band behind it (lighter) and its interval (whiskers). */
static void bar(FILE *f, const struct ms_result *r, double max, int y, const char *fill, const char *band)
{
	int x0 = x_of(r->noise_lo, max), x1 = x_of(r->noise_hi, max);

	if (x1 > x0)
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\"/>\n", x0, y - 2,
			x1 - x0, band);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"%s\"/>\n", LABEL_W, y,
		x_of(r->d.mean, max) - LABEL_W, fill);
	if (r->d.n > 1) {
		int lo = x_of(r->d.mean - r->d.ci95, max), hi = x_of(r->d.mean + r->d.ci95, max);

		fprintf(f, "<path d=\"M%d %dH%dM%d %dV%dM%d %dV%d\" stroke=\"#000000\" fill=\"none\"/>\n",
			lo, y + 6, hi, lo, y + 2, y + 10, hi, y + 2, y + 10);
	}
}

int rp_svg(const char *path, const struct ms_compare *c)
{
	FILE *f = fopen(path, "w");
	enum ms_state st = shown_state(c);
	double max = 1;
	int n = 0, y;

	if (!f)
		return -1;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (!ms_pair_ok(c, p))
			continue;
		for (int side = 0; side < 2; side++) {
			const struct ms_result *r = ms_pair_result(p, side, st);

			max = fmax(max, fmax(r->noise_hi, r->d.mean + r->d.ci95));
		}
		n++;
	}
	max *= 1.02;
	header(f, W, 110 + n * ROW_H + 30);
	fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">hotsim compare: %s cycles "
		"per operation, per path and core</text>\n", ms_state_names[st]);
	fprintf(f, "<text x=\"10\" y=\"42\">base: ");
	esc(f, c->base->img->path);
	fprintf(f, " (%s)</text>\n", c->base->img->version);
	fprintf(f, "<text x=\"10\" y=\"58\">patched: ");
	esc(f, c->patched->img->path);
	fprintf(f, " (%s)</text>\n", c->patched->img->version);
	fprintf(f, "<rect x=\"10\" y=\"68\" width=\"12\" height=\"10\" fill=\"#9e9e9e\"/><text x=\"26\" "
		"y=\"77\">base</text>\n");
	fprintf(f, "<rect x=\"70\" y=\"68\" width=\"12\" height=\"10\" fill=\"#1565c0\"/><text x=\"86\" "
		"y=\"77\">patched</text>\n");
	fprintf(f, "<rect x=\"160\" y=\"68\" width=\"12\" height=\"10\" fill=\"#e0e0e0\"/><text x=\"176\" "
		"y=\"77\">layout band (range over the layouts)</text>\n");
	fprintf(f, "<path d=\"M450 73H470M450 69V77M470 69V77\" stroke=\"#000000\" fill=\"none\"/><text "
		"x=\"476\" y=\"77\">95%% interval of the mean</text>\n");
	fprintf(f, "<text x=\"10\" y=\"95\">(I) improved, (R) regressed: significant (Welch, 95%%) and beyond "
		"the layout band; otherwise within noise</text>\n");
	y = 110;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct ms_result *b, *q;
		struct ms_move mv;

		if (!ms_pair_ok(c, p))
			continue;
		b = ms_pair_result(p, 0, st);
		q = ms_pair_result(p, 1, st);
		ms_pair_move(c, p, st, &mv);
		fprintf(f, "<text x=\"10\" y=\"%d\">", y + 18);
		esc(f, p->name);
		fprintf(f, " %s</text>\n", p->core->name);
		bar(f, b, max, y + 3, "#9e9e9e", "#e0e0e0");
		bar(f, q, max, y + 17, "#1565c0", "#bbdefb");
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%.0f -&gt; %.0f (%+.2f%%) %s</text>\n",
			LABEL_W + BAR_AREA + 8, y + 18,
			mv.verdict == MS_REGRESSED ? "#c62828" : mv.verdict == MS_IMPROVED ? "#2e7d32" : "#000000",
			b->d.mean, q->d.mean, fabs(mv.pct) < 0.005 ? 0.0 : mv.pct,
			mv.verdict == MS_SAME || mv.verdict == MS_PART || mv.verdict == MS_UNJUDGED ? "" :
			mv.verdict == MS_WITHIN ? "within noise" : rp_verdict(mv.verdict));
		y += ROW_H;
	}
	fprintf(f, "<text x=\"10\" y=\"%d\" fill=\"#555555\">deterministic: same inputs, byte-identical output</text>\n", y + 18);
	fprintf(f, "</svg>\n");
	return fclose(f) ? -1 : 0;
}

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
	header(f, lx + (int)tmax * cw + 20, h);
	fprintf(f, "<text x=\"10\" y=\"18\" font-weight=\"bold\">timeline: %s on %s, records %zu..%zu</text>\n",
		d->run.def->name, d->pt->core->name, from, to);
	fprintf(f, "<rect x=\"10\" y=\"26\" width=\"16\" height=\"10\" fill=\"#ffcc80\"/><text x=\"30\" "
		"y=\"35\">waiting (a stall: operand, pipe, miss, barrier)</text>\n");
	fprintf(f, "<rect x=\"330\" y=\"26\" width=\"16\" height=\"10\" fill=\"#1565c0\"/><text x=\"350\" "
		"y=\"35\">issued, until its result is ready (latency)</text>\n");
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
		char text[80];

		a64_disasm(hs_trace_insn(&d->run.tr, i)->word, hs_trace_pc(&d->run.tr, i), text, sizeof(text));
		fprintf(f, "<text x=\"4\" y=\"%d\">[%zu] ", y + 11, i - from);
		esc(f, text);
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
