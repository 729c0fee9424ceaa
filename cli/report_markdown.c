/*
 * report_markdown.c - `--format markdown`: the comparison as a pull-request
 * comment (GitHub-flavoured markdown): a summary line, the images, a table
 * of the results that moved, the unchanged ones folded in a <details> block,
 * the totals, and the explain of the largest move folded as well. run: the
 * one image's table. Cells are escaped; the shape is the same every time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

#define CMP_COLS "| path | cpu | state | base | patched | delta | delta% | ±95% | sig | n b/p | insns b/p | code b/p | uncal% b/p |\n" \
		 "|---|---|---|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|\n"
#define RUN_COLS "| path | cpu | state | cycles | ±95 | n | insns | code bytes | uncal% |\n" \
		 "|---|---|---|---:|---:|---:|---:|---:|---:|\n"

/* Text in a table cell or a list item: nothing that ends a cell or opens HTML. */
void rp_md_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

static void image_item(FILE *f, const char *role, const struct hs_image *img)
{
	char id[256];

	fprintf(f, "- %s: `", role);
	rp_md_esc(f, img->path);
	fputs("`: ", f);
	rp_md_esc(f, rp_identity(id, sizeof(id), img));
	fputc('\n', f);
}

static void compare_row(FILE *f, const struct ms_compare *c, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *rb = ms_pair_result(p, 0, st), *rp = ms_pair_result(p, 1, st);
	struct ms_move mv;
	char ci[16] = "-";

	ms_pair_move(c, p, st, &mv);
	if (mv.tested && rb->d.mean)
		snprintf(ci, sizeof(ci), "%.2f%%", 100.0 * mv.ci95 / rb->d.mean);
	fprintf(f, "| %s | %s | %s | %.0f | %.0f | %+lld | %+.2f%% | %s | %s | %u/%u | %.0f/%.0f | %llu/%llu "
		"| %.1f/%.1f |\n",
		p->name, p->core->name, ms_state_names[st], rb->d.mean, rp->d.mean,
		llround(rp->d.mean) - llround(rb->d.mean), mv.pct, ci, rp_verdict(mv.verdict), rb->d.n, rp->d.n,
		rb->insns, rp->insns, (unsigned long long)p->base->code_bytes,
		(unsigned long long)p->patched->code_bytes, rp_uncal_pct(&rb->r), rp_uncal_pct(&rp->r));
}

static void run_row(FILE *f, const struct ms_pair *p, enum ms_state st)
{
	const struct ms_result *r = ms_pair_result(p, 0, st);
	char ci[16] = "-";

	if (r->d.n > 1)
		snprintf(ci, sizeof(ci), "%.0f", r->d.ci95);
	fprintf(f, "| %s | %s | %s | %.0f | %s | %u | %.0f | %llu | %.1f |\n", p->name, p->core->name,
		ms_state_names[st], r->d.mean, ci, r->d.n, r->insns, (unsigned long long)p->base->code_bytes,
		rp_uncal_pct(&r->r));
}

static void not_run_row(FILE *f, const struct ms_compare *c, const struct ms_pair *p)
{
	const char *why = !c->patched ? "cannot run" : !p->base ? "absent in base" :
			  !p->patched ? "absent in patched" : "cannot run";

	if (c->patched)
		fprintf(f, "| %s | %s | | n/a | n/a | | %s | | | | | | |\n", p->name, p->core->name, why);
	else
		fprintf(f, "| %s | %s | | n/a | | | %s | | |\n", p->name, p->core->name, why);
}

/* The rows of pairs that moved (moved = 1) or did not (0), in table order. */
static int rows(FILE *f, const struct ms_compare *c, int moved)
{
	int n = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];

		if (!ms_pair_ok(c, p)) {
			if (moved)
				not_run_row(f, c, p);
			continue;
		}
		if (c->patched && ms_pair_moved(c, p) != moved)
			continue;
		for (int st = 0; st < MS_NSTATES; st++) {
			if (!c->want[st])
				continue;
			if (c->patched)
				compare_row(f, c, p, (enum ms_state)st);
			else
				run_row(f, p, (enum ms_state)st);
			n++;
		}
	}
	return n;
}

static void totals(FILE *f, const struct ms_compare *c)
{
	for (int st = 0; st < MS_NSTATES; st++) {
		double b, p;

		if (!c->want[st])
			continue;
		ms_compare_total(c, (enum ms_state)st, &b, &p);
		fprintf(f, "| **total** | all | %s | %.0f | %.0f | %+lld | %+.2f%% | | | | | | |\n",
			ms_state_names[st], b, p, llround(p) - llround(b), ms_delta_pct(b, p));
	}
}

static int unchanged(const struct ms_compare *c)
{
	int n = 0;

	for (int i = 0; i < c->npairs; i++)
		if (ms_pair_ok(c, &c->pairs[i]) && !ms_pair_moved(c, &c->pairs[i]))
			for (int st = 0; st < MS_NSTATES; st++)
				n += c->want[st];
	return n;
}

static void why_items(FILE *f, const struct ms_compare *c)
{
	int any = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[i];
		const struct ms_row *r[2] = { p->base, p->patched };

		if (ms_pair_ok(c, p))
			continue;
		if (!any++)
			fprintf(f, "\nNot run:\n\n");
		for (int k = 0; k < 2; k++) {
			fprintf(f, "- %s on %s: ", p->name, p->core->name);
			if (!r[k]) {
				fprintf(f, "only in %s\n", k ? "base" : "patched");
			} else if (!r[k]->ok) {
				fprintf(f, "cannot run on %s: ", !c->patched ? "this image" : k ? "patched" : "base");
				rp_md_esc(f, r[k]->why);
				fputc('\n', f);
			} else {
				fprintf(f, "runs on %s\n", k ? "patched" : "base");
			}
			if (!c->patched)
				break;
		}
	}
}

/* A machine's whole rows (--smp N): where each side's state came from -
 * its CPUs, the guessed costs between them - and each CPU's idle cycles an
 * operation, which the row's wall time holds (the text's samples lines). */
static void machine_items(FILE *f, const struct ms_compare *c)
{
	int any = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];
		const struct ms_row *r[2] = { p->base, p->patched };

		if (!ms_pair_ok(c, p) || !p->base->ncpus)
			continue;
		if (!any++)
			fprintf(f, "\nMachines (a row is the round trip's wall time; each CPU's idle cycles an operation):\n\n");
		for (int k = 0; k < (c->patched ? 2 : 1); k++) {
			fprintf(f, "- %s on %s%s: idle", p->name, p->core->name, !c->patched ? "" : k ? ", patched" : ", base");
			for (unsigned n = 0; n < r[k]->ncpus; n++)
				fprintf(f, "%s cpu%u %.0f", n ? "," : "", n, r[k]->idle[n]);
			fputs("; ", f);
			rp_md_esc(f, r[k]->state);
			fputc('\n', f);
		}
	}
}

/* --explain / --timeline (or the largest move's explain) as preformatted text */
static void details(FILE *f, const struct ms_compare *c, const struct rp_details *d)
{
	if (!d || (!d->explain && !d->timeline))
		return;
	fprintf(f, "\n<details><summary>");
	if (d->explain && d->ncores == 1)
		fprintf(f, "where the cycles go: %s on %s, %s", d->explain->name, d->ex[0][0].pt->core->name,
			ms_state_names[d->state]);
	else if (d->explain)
		fprintf(f, "where the cycles go: --explain %s (%s)", d->explain->name, ms_state_names[d->state]);
	if (d->timeline)
		fprintf(f, "%s--timeline %s", d->explain ? ", " : "", d->timeline->name);
	fprintf(f, "</summary>\n\n```text");
	rp_details_text(f, c, d);
	fprintf(f, "```\n\n</details>\n");
}

void rp_markdown(FILE *f, const struct ms_compare *c, const struct rp_details *d, int all)
{
	char text[1024];
	int folded;

	fprintf(f, "**hotsim %s**: %s\n\n", c->patched ? "compare" : "run", rp_summary(text, sizeof(text), c));
	if (c->patched) {
		image_item(f, "base", c->base->img);
		image_item(f, "patched", c->patched->img);
	} else {
		image_item(f, "image", c->base->img);
	}
	for (int i = 0; i < c->nwarnings; i++) {
		fputs("- warning: ", f);
		rp_md_esc(f, c->warnings[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n%s", c->patched ? CMP_COLS : RUN_COLS);
	rows(f, c, 1);
	folded = c->patched ? unchanged(c) : 0;
	if (c->patched && all)
		rows(f, c, 0);
	if (c->patched)
		totals(f, c);
	if (folded && !all) {
		fprintf(f, "\n<details><summary>%d unchanged results</summary>\n\n%s", folded, CMP_COLS);
		rows(f, c, 0);
		fprintf(f, "\n</details>\n");
	}
	why_items(f, c);
	machine_items(f, c);
	rp_diverge_markdown(f, c);
	details(f, c, d);
	fprintf(f, "\n<sub>");
	rp_md_esc(f, rp_footnote(text, sizeof(text), c, c->patched ? "uncal% b/p" : "uncal%"));
	fprintf(f, "; deterministic: the same inputs give byte-identical output</sub>\n");
}
