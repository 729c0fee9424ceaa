/*
 * report_table.c - the text table. compare: identity, warnings, a summary
 * line, the results that moved (largest change first), how many did not,
 * and per-state totals - what a reviewer pastes into an email reply, so
 * every line fits RP_TEXT_WIDTH (72) columns: prose is wrapped, and the
 * compare row keeps cycles, delta, instructions and the patched image's
 * uncalibrated share (code bytes and both uncal% are in markdown and JSON).
 * run: every result of the one image, in registry order.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

/* 17+3+5+6+7+5+7+9+5 columns and 8 spaces: 72. Row names are kept to 17
 * characters (registry and sub-row names); a longer one, an extra path's,
 * widens the column for the whole table. */
#define CMP_HEAD "%-*s %-3s %-5s %6s %7s %5s %7s %9s %5s\n"

static int name_w = 17;

int rp_name_width(void)
{
	return name_w;
}

/* The name column: 17 (compare) or 18 (run), or the longest name. */
static void set_name_width(const struct ms_compare *c)
{
	name_w = c->patched ? 17 : 18;
	for (int i = 0; i < c->npairs; i++)
		if ((int)strlen(c->pairs[i].name) > name_w)
			name_w = (int)strlen(c->pairs[i].name);
}

/*
 * Where each core's state came from: the first booted row's account, or
 * why it fell back to synthesized state; rows that have no booted form
 * are named once. The patched image's is said only when it differs.
 */
static void state_lines(FILE *f, const char *role, const struct ms_image *m, const struct ms_image *other)
{
	const char *done[16], *synth[16];
	int ndone = 0, nsynth = 0;
	char line[1000];

	for (int i = 0; i < m->nrows; i++) {
		const struct ms_row *r = &m->rows[i];
		const struct hs_path_def *d = hs_path_find(r->path);
		int seen = 0, same = 0;

		/* a path with no booted form: said once, by path */
		if (d && !d->boot.point) {
			for (int k = 0; k < nsynth; k++)
				seen |= !strcmp(synth[k], d->name);
			if (!seen && nsynth < 16)
				synth[nsynth++] = d->name;
			continue;
		}
		for (int k = 0; k < ndone; k++)
			seen |= !strcmp(done[k], r->cpu);
		if (seen || ndone == 16 || !r->state[0])
			continue;
		done[ndone++] = r->cpu;
		for (int k = 0; other && k < other->nrows && !same; k++)
			same = !strcmp(other->rows[k].cpu, r->cpu) && !strcmp(other->rows[k].state, r->state);
		if (same)
			continue;
		snprintf(line, sizeof(line), "%s: %s", r->cpu, r->state);
		rp_wrap(f, role, "           ", line, RP_TEXT_WIDTH);
	}
	for (int k = 0; k < nsynth && !other; k++) {
		snprintf(line, sizeof(line), "%s rows: synthesized state (no booted form)", synth[k]);
		rp_wrap(f, role, "           ", line, RP_TEXT_WIDTH);
	}
}

static void image_lines(FILE *f, const char *role, const struct hs_image *img)
{
	char id[256];

	fprintf(f, "  %-8s %s\n", role, img->path);
	rp_wrap(f, "           ", "           ", rp_identity(id, sizeof(id), img), RP_TEXT_WIDTH);
}

static void run_line(FILE *f, const struct ms_pair *p, int warm)
{
	const struct hs_model_result *r = ms_pair_result(p, 0, warm);
	char unc[16];

	snprintf(unc, sizeof(unc), "%.1f", rp_uncal_pct(r));
	fprintf(f, "%-*s %-4s %-5s %10llu %8llu %10llu %6s\n", name_w, p->name, p->cpu, warm ? "warm" : "cold",
		(unsigned long long)r->cycles, (unsigned long long)p->base->insns,
		(unsigned long long)p->base->code_bytes, unc);
}

static void compare_line(FILE *f, const struct ms_pair *p, int warm)
{
	const struct hs_model_result *rb = ms_pair_result(p, 0, warm), *rp = ms_pair_result(p, 1, warm);
	char ins[32], unc[16], pct[16];

	snprintf(ins, sizeof(ins), "%llu/%llu", (unsigned long long)p->base->insns,
		 (unsigned long long)p->patched->insns);
	snprintf(unc, sizeof(unc), "%.1f", rp_uncal_pct(rp));
	snprintf(pct, sizeof(pct), "%+.2f%%", ms_delta_pct(rb->cycles, rp->cycles));
	fprintf(f, "%-*s %-3s %-5s %6llu %7llu %+5lld %7s %9s %5s\n", name_w, p->name, p->cpu,
		warm ? "warm" : "cold", (unsigned long long)rb->cycles, (unsigned long long)rp->cycles,
		ms_pair_delta(p, warm), pct, ins, unc);
}

static void not_run_line(FILE *f, const struct ms_compare *c, const struct ms_pair *p)
{
	const char *why = !c->patched ? "cannot run" : !p->base ? "absent in base" :
			  !p->patched ? "absent in patched" : "cannot run";

	if (c->patched)
		fprintf(f, "%-*s %-3s %-5s %6s  (%s, see below)\n", name_w, p->name, p->cpu, "", "n/a", why);
	else
		fprintf(f, "%-*s %-4s %-5s %10s  (%s, see below)\n", name_w, p->name, p->cpu, "", "n/a", why);
}

static void why_line(FILE *f, const struct ms_pair *p, const char *fmt, const char *a, const char *b)
{
	char line[1200];
	int n = snprintf(line, sizeof(line), "%s on %s: ", p->name, p->cpu);

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
	for (int warm = 1; warm >= 0; warm--) {
		uint64_t b, p;
		char pct[16];

		if (!(warm ? c->want_warm : c->want_cold))
			continue;
		ms_compare_total(c, warm, &b, &p);
		snprintf(pct, sizeof(pct), "%+.2f%%", ms_delta_pct(b, p));
		fprintf(f, "%-*s %-3s %-5s %6llu %7llu %+5lld %7s\n", name_w, "total", "all", warm ? "warm" : "cold",
			(unsigned long long)b, (unsigned long long)p, (long long)p - (long long)b, pct);
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
	state_lines(f, "  state    ", c->base, NULL);
	if (c->patched)
		state_lines(f, "  state    ", c->patched, c->base);
	fprintf(f, "  deterministic: the same inputs give byte-identical output\n");
	for (int i = 0; i < c->nwarnings; i++)
		rp_wrap(f, "  warning: ", "           ", c->warnings[i], RP_TEXT_WIDTH);
	fprintf(f, "\n");
	if (c->patched) {
		rp_wrap(f, "summary: ", "         ", rp_summary(sum, sizeof(sum), c), RP_TEXT_WIDTH);
		fprintf(f, "\n" CMP_HEAD, name_w, "path", "cpu", "state", "base", "patched", "delta", "delta%",
			"insns b/p", "uncal");
	} else {
		fprintf(f, "%-*s %-4s %-5s %10s %8s %10s %6s\n", name_w, "path", "cpu", "state", "cycles",
			"insns", "code bytes", "uncal%");
	}
}

void rp_table(FILE *f, const struct ms_compare *c, int all)
{
	int folded = 0;
	char note[512];

	header(f, c);
	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];

		if (!ms_pair_ok(c, p)) {
			not_run_line(f, c, p);
			continue;
		}
		if (c->patched && !all && !ms_pair_moved(c, p)) {
			folded += c->want_warm + c->want_cold;
			continue;
		}
		for (int warm = 1; warm >= 0; warm--) {
			if (!(warm ? c->want_warm : c->want_cold))
				continue;
			if (c->patched)
				compare_line(f, p, warm);
			else
				run_line(f, p, warm);
		}
	}
	if (folded)
		fprintf(f, "(%d unchanged results not shown; --all lists them)\n", folded);
	if (c->patched)
		totals(f, c);
	why_lines(f, c);
	fprintf(f, "\n");
	rp_wrap(f, "", "", rp_footnote(note, sizeof(note), c, c->patched ? "uncal" : "uncal%"), RP_TEXT_WIDTH);
}
