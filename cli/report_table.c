/*
 * report_table.c - the text table. compare: identity, warnings, a summary
 * line, the results that moved (largest change first), how many did not,
 * and per-state totals - what a reviewer pastes. run: every result of the
 * one image, in registry order.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

static double uncal_pct(const struct hs_model_result *r)
{
	return r->cycles ? 100.0 * (double)r->uncalibrated_cycles / (double)r->cycles : 0.0;
}

static void image_line(FILE *f, const char *role, const struct hs_image *img)
{
	fprintf(f, "  %-8s %s: Linux %s, %s, build id %.12s\n", role, img->path,
		img->version[0] ? img->version : "?", img->compiler[0] ? img->compiler : "?",
		img->build_id[0] ? img->build_id : "none");
}

/*
 * Where each core's state came from: the first booted row's account, or
 * why it fell back to synthesized state; rows that have no booted form
 * are named once.
 */
static void state_lines(FILE *f, const char *role, const struct ms_image *m, const struct ms_image *other)
{
	const char *done[16];
	int ndone = 0, synth_only = 0;

	for (int i = 0; i < m->nrows; i++) {
		const struct ms_row *r = &m->rows[i];
		int seen = 0, same = 0;

		if (!r->booted && strstr(r->state, "no booted form")) {
			synth_only = 1;
			continue;
		}
		for (int k = 0; k < ndone; k++)
			seen |= !strcmp(done[k], r->cpu);
		if (seen || ndone == 16 || !r->state[0])
			continue;
		done[ndone++] = r->cpu;
		/* the patched image's state, when it is the base's, is said once */
		for (int k = 0; other && k < other->nrows && !same; k++)
			same = !strcmp(other->rows[k].cpu, r->cpu) && !strcmp(other->rows[k].state, r->state);
		if (!same)
			fprintf(f, "  %-8s %s: %s\n", role, r->cpu, r->state);
	}
	if (synth_only && !other)
		fprintf(f, "  %-8s percpu rows: synthesized state (no booted form)\n", role);
}

static void run_line(FILE *f, const struct ms_pair *p, int warm)
{
	const struct hs_model_result *r = ms_pair_result(p, 0, warm);
	char unc[16];

	snprintf(unc, sizeof(unc), "%.1f", uncal_pct(r));
	fprintf(f, "%-22s %-4s %-5s %10llu %8llu %10llu %6s\n", p->name, p->cpu, warm ? "warm" : "cold",
		(unsigned long long)r->cycles, (unsigned long long)p->base->insns,
		(unsigned long long)p->base->code_bytes, unc);
}

static void compare_line(FILE *f, const struct ms_pair *p, int warm)
{
	const struct hs_model_result *rb = ms_pair_result(p, 0, warm), *rp = ms_pair_result(p, 1, warm);
	char ins[32], code[32], unc[32];

	snprintf(ins, sizeof(ins), "%llu/%llu", (unsigned long long)p->base->insns,
		 (unsigned long long)p->patched->insns);
	snprintf(code, sizeof(code), "%llu/%llu", (unsigned long long)p->base->code_bytes,
		 (unsigned long long)p->patched->code_bytes);
	snprintf(unc, sizeof(unc), "%.1f/%.1f", uncal_pct(rb), uncal_pct(rp));
	fprintf(f, "%-22s %-4s %-5s %9llu %9llu %+8lld %+8.2f%% %13s %13s %11s\n", p->name, p->cpu,
		warm ? "warm" : "cold", (unsigned long long)rb->cycles, (unsigned long long)rp->cycles,
		ms_pair_delta(p, warm), ms_delta_pct(rb->cycles, rp->cycles), ins, code, unc);
}

static void not_run_line(FILE *f, const struct ms_compare *c, const struct ms_pair *p)
{
	const char *why = !c->patched ? "cannot run" : !p->base ? "absent in base" :
			  !p->patched ? "absent in patched" : "cannot run";

	fprintf(f, "%-22s %-4s %-5s %9s  (%s, see below)\n", p->name, p->cpu, "", "n/a", why);
}

static void summary_line(FILE *f, const struct ms_compare *c)
{
	const struct ms_summary *s = &c->summary;
	int ncores = 0, nrows = 0;

	for (int i = 0; i < c->npairs; i++) {
		int first_cpu = 1, first_row = 1;

		for (int k = 0; k < i; k++) {
			first_cpu &= strcmp(c->pairs[k].cpu, c->pairs[i].cpu) != 0;
			first_row &= strcmp(c->pairs[k].name, c->pairs[i].name) != 0;
		}
		ncores += first_cpu;
		nrows += first_row;
	}
	fprintf(f, "summary: %u results (%d rows x %d cores x %s), %u moved: %u faster, %u slower",
		s->results, nrows, ncores, c->want_warm && c->want_cold ? "warm+cold" :
		c->want_warm ? "warm" : "cold", s->moved, s->faster, s->slower);
	if (s->largest)
		fprintf(f, "; largest %s %s %s %+lld cycles (%+.2f%%)", s->largest->name, s->largest->cpu,
			s->largest_warm ? "warm" : "cold", s->largest_delta,
			ms_delta_pct(ms_pair_result(s->largest, 0, s->largest_warm)->cycles,
				     ms_pair_result(s->largest, 1, s->largest_warm)->cycles));
	if (s->not_run)
		fprintf(f, "; %u not run (see below)", s->not_run);
	fprintf(f, "\n\n");
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
			fprintf(f, "  %s on %s: cannot run on %s: %s\n", p->name, p->cpu,
				c->patched ? "base" : "this image", p->base->why);
		if (p->patched && !p->patched->ok)
			fprintf(f, "  %s on %s: cannot run on patched: %s\n", p->name, p->cpu, p->patched->why);
		if (c->patched && !p->base)
			fprintf(f, "  %s on %s: only in patched (the base image has no such site/path)\n",
				p->name, p->cpu);
		if (c->patched && !p->patched)
			fprintf(f, "  %s on %s: only in base (the patched image has no such site/path)\n",
				p->name, p->cpu);
	}
}

static void totals(FILE *f, const struct ms_compare *c)
{
	for (int warm = 1; warm >= 0; warm--) {
		uint64_t b, p;

		if (!(warm ? c->want_warm : c->want_cold))
			continue;
		ms_compare_total(c, warm, &b, &p);
		fprintf(f, "%-22s %-4s %-5s %9llu %9llu %+8lld %+8.2f%%\n", "total", "all",
			warm ? "warm" : "cold", (unsigned long long)b, (unsigned long long)p,
			(long long)p - (long long)b, ms_delta_pct(b, p));
	}
}

void rp_table(FILE *f, const struct ms_compare *c, int all)
{
	int folded = 0;

	fprintf(f, "hotsim %s\n", c->patched ? "compare" : "run");
	if (c->patched) {
		image_line(f, "base", c->base->img);
		image_line(f, "patched", c->patched->img);
	} else {
		image_line(f, "image", c->base->img);
	}
	state_lines(f, "state", c->base, NULL);
	if (c->patched)
		state_lines(f, "state", c->patched, c->base);
	fprintf(f, "  deterministic: the same inputs give byte-identical output (no run-to-run variance)\n");
	for (int i = 0; i < c->nwarnings; i++)
		fprintf(f, "  warning: %s\n", c->warnings[i]);
	fprintf(f, "\n");
	if (c->patched) {
		summary_line(f, c);
		fprintf(f, "%-22s %-4s %-5s %9s %9s %8s %9s %13s %13s %11s\n", "path", "cpu", "state",
			"base", "patched", "delta", "delta%", "insns b/p", "code b/p", "uncal% b/p");
	} else {
		fprintf(f, "%-22s %-4s %-5s %10s %8s %10s %6s\n", "path", "cpu", "state", "cycles",
			"insns", "code bytes", "uncal%");
	}
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
	fprintf(f, "\ncycles: %s%s%s; uncal%%: share of cycles charged by uncalibrated parameters (hotsim models)%s\n",
		c->want_warm ? "warm = repeated until the cost converges" : "",
		c->want_warm && c->want_cold ? ", " : "",
		c->want_cold ? "cold = caches, TLBs and predictors flushed" : "",
		c->patched ? "; total: sum of the results above and folded" : "");
}
