/*
 * report_svg.c - the pictures: `compare --svg FILE` answers what moved, a
 * forest of the changes in percent (report_svg_forest.c) and with
 * --svg-bars the absolute cycles (report_svg_bars.c); with --timeline a
 * path's pipeline too (report_svg_timeline.c). Here: the compare
 * picture's rows, columns and head, and text that fits. A picture is as
 * wide as its longest text (measured in the font's advance) and no text
 * passes its right edge. Plain SVG 1.1, fixed formatting, no timestamps:
 * byte-identical for equal inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_svg.h"

/* DejaVu Sans Mono, fontconfig's "monospace" on Debian, advances 0.602 em
 * (7.22 px at 12 px); 0.61 leaves room for another monospace font's. */
#define ADVANCE 0.61
#define ELLIPSIS "\xe2\x80\xa6"

void svg_esc(FILE *f, const char *s)
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

void svg_head(FILE *f, int w, int h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n", w, h, w, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

/* characters, not bytes: a UTF-8 continuation byte starts none */
static int chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* where character k of s starts (its end when s is shorter) */
static size_t char_at(const char *s, int k)
{
	size_t i = 0;

	for (int seen = 0; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && seen++ == k)
			break;
	return i;
}

double svg_text_w(const char *s, int px)
{
	return chars(s) * px * ADVANCE;
}

int svg_chars_in(double width, int px)
{
	return (int)floor(width / (px * ADVANCE));
}

const char *svg_fit(char *buf, size_t len, const char *s, int n, int keep_tail)
{
	int have = chars(s);

	if (have <= n || n < 2)
		snprintf(buf, len, "%s", s);
	else if (keep_tail)
		snprintf(buf, len, ELLIPSIS "%s", s + char_at(s, have - (n - 1)));
	else
		snprintf(buf, len, "%.*s" ELLIPSIS, (int)char_at(s, n - 1), s);
	return buf;
}

double svg_step(double raw)
{
	double mag = pow(10, floor(log10(raw)));

	return mag * (raw <= mag ? 1 : raw <= 2 * mag ? 2 : raw <= 5 * mag ? 5 : 10);
}

void svg_text(FILE *f, double x, double y, const char *attrs, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, *attrs ? " " : "", attrs);
	svg_esc(f, s);
	fprintf(f, "</text>\n");
}

double svg_wrap(FILE *f, double x, double y, double width, int line_h, int px, const char *attrs, const char *s)
{
	int max = svg_chars_in(width, px);
	char line[400];

	while (*s) {
		int n = (int)strlen(s), cut = n;

		if (chars(s) > max) {
			cut = (int)char_at(s, max);
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut)	/* one word longer than the line */
				cut = (int)char_at(s, max);
		}
		snprintf(line, sizeof(line), "%.*s", cut, s);
		svg_text(f, x, y, attrs, line);
		y += line_h;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return y;
}

/* --- the rows and their columns ------------------------------------------ */

static const struct ms_row *a_side(const struct ms_pair *p)
{
	return p->base ? p->base : p->patched;
}

/* Shown as the table shows it: moved, or cannot run, or everything (all). */
static int shown(const struct ms_compare *c, const struct ms_pair *p, int all)
{
	return !ms_pair_ok(c, p) || all || ms_pair_moved(c, p);
}

/* Is p a sub-row of whole row w (sched-pipe.switch of sched-pipe, same core)? */
static int part_of(const struct ms_pair *p, const struct ms_pair *w)
{
	return a_side(p)->part && !a_side(w)->part && p->core == w->core && !strcmp(a_side(p)->path, w->name);
}

static const struct ms_pair *whole_of(const struct ms_compare *c, const struct ms_pair *p)
{
	for (int i = 0; a_side(p)->part && i < c->npairs; i++)
		if (part_of(p, &c->pairs[i]))
			return &c->pairs[i];
	return NULL;
}

/* A pair's rows: one per state shown, or one n/a row. */
static void add(struct svg_rows *r, const struct ms_compare *c, const struct ms_pair *p, int indent)
{
	for (int st = 0; st < MS_NSTATES; st++) {
		if (!c->want[st])
			continue;
		r->v[r->n++] = (struct svg_row){ p, (enum ms_state)st, a_side(p)->part, indent };
		if (!ms_pair_ok(c, p))
			return;
	}
}

/*
 * The table's order, but a sub-row is drawn indented under its whole row
 * (the table sorts it among all rows by its own change): the parts say
 * where the row's move came from, and read so without searching. Shown,
 * not left out, because they are in the table too; they carry no verdict
 * (measure.h, MS_PART), so they are lighter and have no band. A sub-row
 * whose whole row is not shown stays at its own place.
 */
int svg_rows(struct svg_rows *r, const struct ms_compare *c, int all)
{
	memset(r, 0, sizeof(*r));
	for (int st = 0; st < MS_NSTATES; st++)
		r->nstates += c->want[st];
	r->v = calloc((size_t)c->npairs * MS_NSTATES + 1, sizeof(*r->v));
	if (!r->v)
		return -1;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]], *w;

		if (!shown(c, p, all)) {
			r->folded += r->nstates;
			continue;
		}
		w = whole_of(c, p);
		if (w && shown(c, w, all))
			continue;	/* drawn under w */
		add(r, c, p, 0);
		for (int k = 0; !a_side(p)->part && k < c->npairs; k++) {
			const struct ms_pair *q = &c->pairs[c->order[k]];

			if (part_of(q, p) && shown(c, q, all))
				add(r, c, q, 1);
		}
	}
	return 0;
}

/* The name column's text of a row, cut to the layout's column (l NULL:
 * whole) */
static const char *row_name(char *buf, size_t len, const struct svg_layout *l, const struct svg_row *r)
{
	/* the indent is two characters of the column (drawn as an offset:
	 * SVG collapses leading spaces) */
	return svg_fit(buf, len, r->p->name, l ? l->name_chars - 2 * r->indent : 64, 0);
}

void svg_columns(struct svg_layout *l, const struct svg_rows *r, int name_chars)
{
	double em = 12 * ADVANCE;
	int cpu = 3;

	for (int i = 0; i < r->n; i++)
		cpu = chars(r->v[i].p->core->name) > cpu ? chars(r->v[i].p->core->name) : cpu;
	l->name_chars = name_chars;
	l->x_cpu = SVG_PAD + (name_chars + 1) * em;
	l->x_state = r->nstates > 1 ? l->x_cpu + (cpu + 1) * em : 0;
	l->x_plot = (l->x_state ? l->x_state + (int)strlen("typical") * em : l->x_cpu + cpu * em) + SVG_GAP;
}

void svg_row_label(FILE *f, const struct svg_layout *l, const struct svg_row *r, int state, double y,
		   const char *attrs)
{
	char name[64];

	svg_text(f, SVG_PAD + 2 * r->indent * 12 * ADVANCE, y, attrs, row_name(name, sizeof(name), l, r));
	svg_text(f, l->x_cpu, y, attrs, r->p->core->name);
	if (l->x_state && state)
		svg_text(f, l->x_state, y, attrs, ms_state_names[r->st]);
}

/* --- the compare picture --------------------------------------------------- */

/* "base:    FILE (version)", the file cut at its start only when the line
 * would pass the picture's edge (w 0: never) */
static const char *image_line(char *buf, size_t len, const char *role, const struct hs_image *img, int w)
{
	char file[400];
	int room = w ? svg_chars_in(w - 2 * SVG_PAD, 12) - chars(role) - chars(img->version) - 3 : 400;

	snprintf(buf, len, "%s %s (%s)", role, svg_fit(file, sizeof(file), img->path, room, 1), img->version);
	return buf;
}

/* The width the content asks for; the name column cut only past SVG_MAX_W. */
static void layout(struct svg_layout *l, const struct svg_rows *r, const struct ms_compare *c, int bars)
{
	char buf[600];
	int name = 4;
	double need;

	for (int i = 0; i < r->n; i++) {
		int n = chars(row_name(buf, sizeof(buf), NULL, &r->v[i])) + 2 * r->v[i].indent;

		name = n > name ? n : name;
	}
	for (;;) {
		svg_columns(l, r, name);
		need = fmax(svg_forest_width(l, r, c), bars ? svg_bars_width(l) : 0);
		if (need <= SVG_MAX_W || name <= 12)
			break;
		name--;
	}
	need = fmax(need, svg_text_w(image_line(buf, sizeof(buf), "base:   ", c->base->img, 0), 12) + 2 * SVG_PAD);
	need = fmax(need, svg_text_w(image_line(buf, sizeof(buf), "patched:", c->patched->img, 0), 12) + 2 * SVG_PAD);
	l->w = (int)ceil(fmin(fmax(need, SVG_MIN_W), SVG_MAX_W));
}

/* What is compared, and the answer in one line: how many regressed */
static double title(FILE *f, const struct ms_compare *c, int w)
{
	const struct ms_summary *s = &c->summary;
	char line[600];
	double y;
	int n;

	y = svg_wrap(f, SVG_PAD, 24, w - 2 * SVG_PAD, 20, 15, "font-size=\"15\" font-weight=\"bold\"",
		     "hotsim compare: how each result moved, patched against base");
	svg_text(f, SVG_PAD, y, "", image_line(line, sizeof(line), "base:   ", c->base->img, w));
	svg_text(f, SVG_PAD, y + 16, "", image_line(line, sizeof(line), "patched:", c->patched->img, w));
	n = snprintf(line, sizeof(line), "%u regressed (R), %u improved (I) of %u results, %u moved", s->regressed,
		     s->improved, s->results, s->moved);
	if (s->not_run)
		snprintf(line + n, sizeof(line) - (size_t)n, "; %u not run (n/a)", s->not_run);
	return svg_wrap(f, SVG_PAD, y + 38, w - 2 * SVG_PAD, 16, 12, s->regressed ? "font-weight=\"bold\" fill=\""
			INK_R "\"" : "font-weight=\"bold\"", line) + 10;
}

int rp_svg(const char *path, const struct ms_compare *c, int all, int bars)
{
	struct svg_rows r;
	struct svg_layout l;
	char *body = NULL;
	size_t len = 0;
	FILE *m, *f;
	double y;
	int rc = -1;

	if (svg_rows(&r, c, all))
		return -1;
	layout(&l, &r, c, bars);
	/* drawn first, to know the picture's height for its head */
	m = open_memstream(&body, &len);
	if (m) {
		y = svg_forest(m, &l, &r, c, title(m, c, l.w));
		if (bars && r.n)
			y = svg_bars(m, &l, &r, c, y + 8);
		svg_text(m, SVG_PAD, y + 14, "fill=\"#555555\"", "deterministic: same inputs, byte-identical output");
		if (!fclose(m) && (f = fopen(path, "w"))) {
			svg_head(f, l.w, (int)ceil(y + 24));
			fwrite(body, 1, len, f);
			fprintf(f, "</svg>\n");
			rc = fclose(f) ? -1 : 0;
		}
	}
	free(body);
	free(r.v);
	return rc;
}
