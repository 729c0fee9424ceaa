/*
 * report_table.c - the text table. compare: identity, warnings, a summary
 * line, the results that moved (largest change first) with the interval
 * of their difference and their verdict, how many did not, and per-state
 * totals; then each whole row's samples (mean, interval, range, count,
 * instructions) - what a reviewer pastes into an email reply, so every
 * line fits RP_TEXT_WIDTH (72) columns: prose is wrapped (code bytes and
 * the uncalibrated shares are in markdown and JSON). run: every result of
 * the one image, in registry order, with its interval.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

/* 17+3+7+6+7+6+7+6+3 columns and 8 spaces: 70. Row names are kept to 17
 * characters (registry and sub-row names); a longer one, an extra path's,
 * widens the column for the whole table. */
#define CMP_HEAD "%-*s %-3s %-7s %6s %7s %6s %7s %6s %s\n"
#define RUN_HEAD "%-*s %-4s %-7s %8s %6s %7s %10s %6s\n"

static int name_w = 17;

int rp_name_width(void)
{
	return name_w;
}

/* The name column: 17 (compare) or 18 (run), or the longest name. */
static void set_name_width(const struct ms_compare *c)
{
	name_w = c->patched ? 17 : 17;
	for (int i = 0; i < c->npairs; i++)
		if ((int)strlen(c->pairs[i].name) > name_w)
			name_w = (int)strlen(c->pairs[i].name);
}

/* Whether image m has a row of core whose state is st */
static int has_state(const struct ms_image *m, const struct hs_core *core, const char *st)
{
	for (int k = 0; m && k < m->nrows; k++)
		if (m->rows[k].core == core && !strcmp(m->rows[k].state, st))
			return 1;
	return 0;
}

/*
 * Where each core's state came from: the first booted row's account, or
 * why it fell back to synthesized state - once a boot, so a program's
 * rows beside hotsim's own (--path sched-pipe,perf.sched-pipe) have a
 * line of their own; rows that have no booted form are named once. The patched image's is said only when it differs (two
 * machines' boots, each its own snapshot), and then both say whose it is:
 * m is the image said, other the one beside it, patched whether m is it.
 */
static void state_lines(FILE *f, const struct ms_image *m, const struct ms_image *other, int patched)
{
	const char *done[16], *done_prog[16], *synth[16];
	int ndone = 0, nsynth = 0;
	char line[1000];

	for (int i = 0; i < m->nrows; i++) {
		const struct ms_row *r = &m->rows[i];
		const struct hs_path_def *d = hs_path_find(r->path);
		const char *prog = r->def ? hs_path_program(r->def) : NULL;
		int seen = 0, differs;

		/* a path with no booted form: said once, by path */
		if (d && !d->boot.point) {
			for (int k = 0; k < nsynth; k++)
				seen |= !strcmp(synth[k], d->name);
			if (!seen && nsynth < 16)
				synth[nsynth++] = d->name;
			continue;
		}
		for (int k = 0; k < ndone; k++)
			seen |= !strcmp(done[k], r->core->name) && done_prog[k] == prog;
		if (seen || ndone == 16 || !r->state[0])
			continue;
		done_prog[ndone] = prog;
		done[ndone++] = r->core->name;
		differs = other && !has_state(other, r->core, r->state);
		if (patched && !differs)
			continue;
		snprintf(line, sizeof(line), "%s%s: %s", r->core->name, !differs ? "" : patched ? ", patched" : ", base",
			 r->state);
		rp_wrap(f, "  state    ", "           ", line, RP_TEXT_WIDTH);
	}
	for (int k = 0; k < nsynth && !patched; k++) {
		snprintf(line, sizeof(line), "%s rows: synthesized state (no booted form)", synth[k]);
		rp_wrap(f, "  state    ", "           ", line, RP_TEXT_WIDTH);
	}
}

static void image_lines(FILE *f, const char *role, const struct hs_image *img)
{
	char id[256];

	fprintf(f, "  %-8s %s\n", role, img->path);
	rp_wrap(f, "           ", "           ", rp_identity(id, sizeof(id), img), RP_TEXT_WIDTH);
}

/* The interval's half-width, "-" for one draw: cycles, or % of base. */
static const char *ci_text(char *buf, size_t len, double hw, int tested, double base)
{
	if (!tested)
		snprintf(buf, len, "-");
	else if (base)
		snprintf(buf, len, "%.2f%%", 100.0 * hw / base);
	else
		snprintf(buf, len, "%.0f", hw);
	return buf;
}

const char *rp_verdict(enum ms_verdict v)
{
	static const char *const words[] = { "", "~", "(I)", "(R)", ".", "-" };

	return words[v];
}

static void run_line(FILE *f, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *r = ms_pair_result(p, 0, st);
	char unc[16], ci[16], cyc[24], ins[24], cb[24];

	snprintf(unc, sizeof(unc), "%.1f", rp_uncal_pct(&r->r));
	snprintf(cyc, sizeof(cyc), "%.0f", r->d.mean);
	snprintf(ins, sizeof(ins), "%.0f", r->insns);
	snprintf(cb, sizeof(cb), "%llu", (unsigned long long)p->base->code_bytes);
	ci_text(ci, sizeof(ci), r->d.ci95, r->d.n > 1, 0);
	fprintf(f, RUN_HEAD, name_w, p->name, p->core->name, ms_state_names[st], cyc, ci, ins, cb, unc);
}

static void compare_line(FILE *f, const struct ms_compare *c, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *rb = ms_pair_result(p, 0, st), *rp = ms_pair_result(p, 1, st);
	struct ms_move mv;
	char pct[16], ci[16], b[24], q[24], d[24];

	ms_pair_move(c, p, st, &mv);
	snprintf(b, sizeof(b), "%.0f", rb->d.mean);
	snprintf(q, sizeof(q), "%.0f", rp->d.mean);
	snprintf(d, sizeof(d), "%+lld", llround(rp->d.mean) - llround(rb->d.mean));
	snprintf(pct, sizeof(pct), "%+.2f%%", mv.pct);
	ci_text(ci, sizeof(ci), mv.ci95, mv.tested, rb->d.mean);
	fprintf(f, CMP_HEAD, name_w, p->name, p->core->name, ms_state_names[st], b, q, d, pct, ci,
		rp_verdict(mv.verdict));
}

static void not_run_line(FILE *f, const struct ms_compare *c, const struct ms_pair *p)
{
	const char *why = !c->patched ? "cannot run" : !p->base ? "absent in base" :
			  !p->patched ? "absent in patched" : "cannot run";

	if (c->patched)
		fprintf(f, "%-*s %-3s %-5s %6s  (%s, see below)\n", name_w, p->name, p->core->name, "", "n/a", why);
	else
		fprintf(f, "%-*s %-4s %-5s %10s  (%s, see below)\n", name_w, p->name, p->core->name, "", "n/a", why);
}

static void why_line(FILE *f, const struct ms_pair *p, const char *fmt, const char *a, const char *b)
{
	char line[1200];
	int n = snprintf(line, sizeof(line), "%s on %s: ", p->name, p->core->name);

	snprintf(line + n, sizeof(line) - (size_t)n, fmt, a, b);
	rp_wrap(f, "  ", "    ", line, RP_TEXT_WIDTH);
}

static void why_lines(FILE *f, const struct ms_compare *c)
{
	int any = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];

		if (ms_pair_ok(c, p))
			continue;
		if (!any++)
			fprintf(f, "\n");
		if (p->base && !p->base->ok)
			why_line(f, p, "cannot run on %s: %s", c->patched ? "base" : "this image", p->base->why);
		if (p->patched && !p->patched->ok)
			why_line(f, p, "cannot run on patched: %s%s", p->patched->why, "");
		if (c->patched && !p->base)
			why_line(f, p, "only in patched (the base image has no such site/path)%s%s", "", "");
		if (c->patched && !p->patched)
			why_line(f, p, "only in base (the patched image has no such site/path)%s%s", "", "");
	}
}

static void totals(FILE *f, const struct ms_compare *c)
{
	for (int st = 0; st < MS_NSTATES; st++) {
		double b, p;
		char pct[16], bb[24], pp[24], dd[24];

		if (!c->want[st])
			continue;
		ms_compare_total(c, (enum ms_state)st, &b, &p);
		snprintf(pct, sizeof(pct), "%+.2f%%", ms_delta_pct(b, p));
		snprintf(bb, sizeof(bb), "%.0f", b);
		snprintf(pp, sizeof(pp), "%.0f", p);
		snprintf(dd, sizeof(dd), "%+lld", llround(p) - llround(b));
		fprintf(f, CMP_HEAD, name_w, "total", "all", ms_state_names[st], bb, pp, dd, pct, "", "");
	}
}

/* Each whole row's samples: mean, interval, range, count, instructions -
 * what the one number above stands for - and a machine's idle CPUs. */
static void sample_line(FILE *f, const char *lead, const struct ms_row *row, const struct ms_result *r)
{
	char line[400];
	size_t n;

	if (r->d.n < 2)
		n = (size_t)snprintf(line, sizeof(line), "%.0f cycles, one draw; %.0f insns", r->d.mean, r->insns);
	else
		n = (size_t)snprintf(line, sizeof(line), "%.0f +-%.0f cycles, %llu..%llu (median %llu), n %u; %.0f insns",
				     r->d.mean, r->d.ci95, (unsigned long long)r->d.min, (unsigned long long)r->d.max,
				     (unsigned long long)r->d.median, r->d.n, r->insns);
	for (unsigned i = 0; i < row->ncpus && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%scpu%u %.0f%s", i ? ", " : "; each CPU idle: ", i,
				      row->idle[i], i + 1 == row->ncpus ? " cycles" : "");
	rp_wrap(f, lead, "      ", line, RP_TEXT_WIDTH);
}

static void samples_block(FILE *f, const struct ms_compare *c)
{
	int any = 0;

	if (!c->want[MS_TYPICAL])
		return;
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];
		char lead[96];

		/* whole rows that moved (compare) or every whole row (run) */
		if (!ms_pair_ok(c, p) || strcmp(p->name, p->base->path) || p->base->sites ||
		    (c->patched && !ms_pair_moved(c, p)))
			continue;
		if (!any++)
			fprintf(f, "\nsamples (typical, per operation): mean +-95%%, range, count\n");
		if (!c->patched) {
			snprintf(lead, sizeof(lead), "  %s %s: ", p->name, p->core->name);
			sample_line(f, lead, p->base, ms_pair_result(p, 0, MS_TYPICAL));
			continue;
		}
		fprintf(f, "  %s %s\n", p->name, p->core->name);
		sample_line(f, "    base     ", p->base, ms_pair_result(p, 0, MS_TYPICAL));
		sample_line(f, "    patched  ", p->patched, ms_pair_result(p, 1, MS_TYPICAL));
	}
}

static void header(FILE *f, const struct ms_compare *c)
{
	char sum[512];

	set_name_width(c);
	fprintf(f, "hotsim %s\n", c->patched ? "compare" : "run");
	if (c->patched) {
		image_lines(f, "base", c->base->img);
		image_lines(f, "patched", c->patched->img);
	} else {
		image_lines(f, "image", c->base->img);
	}
	state_lines(f, c->base, c->patched, 0);
	if (c->patched)
		state_lines(f, c->patched, c->base, 1);
	fprintf(f, "  deterministic: the same inputs give byte-identical output\n");
	for (int i = 0; i < c->nwarnings; i++)
		rp_wrap(f, "  warning: ", "           ", c->warnings[i], RP_TEXT_WIDTH);
	fprintf(f, "\n");
	if (c->patched) {
		rp_wrap(f, "summary: ", "         ", rp_summary(sum, sizeof(sum), c), RP_TEXT_WIDTH);
		fprintf(f, "\n" CMP_HEAD, name_w, "path", "cpu", "state", "base", "patched", "delta", "delta%",
			"+-95%", "sig");
	} else {
		fprintf(f, RUN_HEAD, name_w, "path", "cpu", "state", "cycles", "+-95", "insns", "code bytes",
			"uncal%");
	}
}

void rp_table(FILE *f, const struct ms_compare *c, int all)
{
	int folded = 0;
	char note[1024];

	header(f, c);
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];

		if (!ms_pair_ok(c, p)) {
			not_run_line(f, c, p);
			continue;
		}
		if (c->patched && !all && !ms_pair_moved(c, p)) {
			for (int st = 0; st < MS_NSTATES; st++)
				folded += c->want[st];
			continue;
		}
		for (int st = 0; st < MS_NSTATES; st++) {
			if (!c->want[st])
				continue;
			if (c->patched)
				compare_line(f, c, p, (enum ms_state)st);
			else
				run_line(f, p, (enum ms_state)st);
		}
	}
	if (folded)
		fprintf(f, "(%d unchanged results not shown; --all lists them)\n", folded);
	if (c->patched)
		totals(f, c);
	why_lines(f, c);
	samples_block(f, c);
	fprintf(f, "\n");
	rp_wrap(f, "", "", rp_footnote(note, sizeof(note), c, c->patched ? NULL : "uncal%"), RP_TEXT_WIDTH);
}
