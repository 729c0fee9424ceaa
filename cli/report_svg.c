/*
 * report_svg.c - pictures a reviewer would rather look at: base vs patched
 * bars per path and core with the delta, and a pipeline timeline. Plain SVG
 * 1.1 text, fixed layout, no timestamps: byte-identical for equal inputs.
 */
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

int rp_svg(const char *path, const struct ms_compare *c)
{
	FILE *f = fopen(path, "w");
	uint64_t max = 1;
	int n = 0, y;

	if (!f)
		return -1;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct hs_model_result *b, *q;

		if (!p->base || !p->patched || !p->base->ok || !p->patched->ok)
			continue;
		b = c->want_warm ? &p->base->warm : &p->base->cold;
		q = c->want_warm ? &p->patched->warm : &p->patched->cold;
		max = b->cycles > max ? b->cycles : max;
		max = q->cycles > max ? q->cycles : max;
		n++;
	}
	header(f, W, 90 + n * ROW_H + 30);
	fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">hotsim compare: %s cycles per path and core</text>\n",
		c->want_warm ? "warm" : "cold");
	fprintf(f, "<text x=\"10\" y=\"42\">base: ");
	esc(f, c->base->img->path);
	fprintf(f, " (%s)</text>\n", c->base->img->version);
	fprintf(f, "<text x=\"10\" y=\"58\">patched: ");
	esc(f, c->patched->img->path);
	fprintf(f, " (%s)</text>\n", c->patched->img->version);
	fprintf(f, "<rect x=\"640\" y=\"66\" width=\"12\" height=\"10\" fill=\"#9e9e9e\"/><text x=\"656\" y=\"75\">base</text>\n");
	fprintf(f, "<rect x=\"700\" y=\"66\" width=\"12\" height=\"10\" fill=\"#1565c0\"/><text x=\"716\" y=\"75\">patched</text>\n");
	y = 90;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct hs_model_result *b, *q;
		double pct;
		int wb, wq;

		if (!p->base || !p->patched || !p->base->ok || !p->patched->ok)
			continue;
		b = c->want_warm ? &p->base->warm : &p->base->cold;
		q = c->want_warm ? &p->patched->warm : &p->patched->cold;
		wb = (int)((double)BAR_AREA * (double)b->cycles / (double)max + 0.5);
		wq = (int)((double)BAR_AREA * (double)q->cycles / (double)max + 0.5);
		pct = ms_delta_pct(b->cycles, q->cycles);
		fprintf(f, "<text x=\"10\" y=\"%d\">", y + 18);
		esc(f, p->name);
		fprintf(f, " %s</text>\n", p->cpu);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"#9e9e9e\"/>\n", LABEL_W, y + 3, wb);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"#1565c0\"/>\n", LABEL_W, y + 16, wq);
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%llu -&gt; %llu (%+.2f%%)</text>\n",
			LABEL_W + BAR_AREA + 8, y + 18,
			pct > 0.005 ? "#c62828" : pct < -0.005 ? "#2e7d32" : "#000000",
			(unsigned long long)b->cycles, (unsigned long long)q->cycles,
			pct > -0.005 && pct < 0.005 ? 0.0 : pct);
		y += ROW_H;
	}
	fprintf(f, "<text x=\"10\" y=\"%d\" fill=\"#555555\">deterministic: same inputs, byte-identical output</text>\n", y + 18);
	fprintf(f, "</svg>\n");
	return fclose(f) ? -1 : 0;
}

int rp_timeline_svg(const char *path, const struct ms_detail *d, size_t from, size_t to)
{
	FILE *f = fopen(path, "w");
	uint64_t t0, tmax = 1;
	const int cw = 8, rh = 16, lx = 420;
	int h;

	if (!f)
		return -1;
	if (to > d->run.tr.n)
		to = d->run.tr.n;
	if (from >= to)
		from = to ? to - 1 : 0;
	t0 = from < to ? d->per[from].issue : 0;
	for (size_t i = from; i < to; i++) {
		uint64_t end = d->per[i].issue + (d->per[i].lat ? d->per[i].lat : 1) - t0;

		tmax = end > tmax ? end : tmax;
	}
	if (tmax > 400)
		tmax = 400;	/* bounded picture */
	h = 40 + (int)(to - from) * rh + 20;
	header(f, lx + (int)tmax * cw + 20, h);
	fprintf(f, "<text x=\"10\" y=\"20\" font-weight=\"bold\">timeline: %s on %s, records %zu..%zu (cycle = %d px)</text>\n",
		d->run.def->name, d->pt->core->name, from, to, cw);
	for (size_t i = from; i < to; i++) {
		const struct hs_insn_cost *c = &d->per[i];
		int y = 30 + (int)(i - from) * rh;
		uint64_t x0 = c->issue - t0;
		char text[80];

		a64_disasm(hs_trace_insn(&d->run.tr, i)->word, d->run.tr.v[i].pc, text, sizeof(text));
		fprintf(f, "<text x=\"4\" y=\"%d\">[%zu] ", y + 11, i);
		esc(f, text);
		fprintf(f, "</text>\n");
		if (x0 >= tmax)
			continue;
		if (c->stall[HS_ST_DEP] + c->stall[HS_ST_STRUCT] + c->stall[HS_ST_BRANCH] +
			    c->stall[HS_ST_ICACHE] + c->stall[HS_ST_DCACHE] + c->stall[HS_ST_TLB] +
			    c->stall[HS_ST_SERIAL] && x0 > 0)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffcc80\"/>\n",
				lx + (int)(x0 - (x0 > c->cycles ? c->cycles : x0)) * cw, y + 2,
				(int)(x0 > c->cycles ? c->cycles : x0) * cw, rh - 4);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#1565c0\"/>\n",
			lx + (int)x0 * cw, y + 2, (int)(c->lat ? c->lat : 1) * cw, rh - 4);
	}
	fprintf(f, "</svg>\n");
	return fclose(f) ? -1 : 0;
}
