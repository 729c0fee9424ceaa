/*
 * report_diverge.c - different paths through unchanged code (ms_pair_
 * diverged): the rows whose two runs took other branches in functions the
 * patch did not change, with the functions that moved most, as text,
 * markdown and JSON. A reader needs this before trusting such a row's
 * delta: part of it is the two boots' states, not the patch.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report.h"

#define TOP 4

static const char why[] = "functions the patch did not change ran a different number of instructions "
			  "per operation (significantly, over the samples): the two runs' states "
			  "differed there (two boots reach a point at slightly different moments), so "
			  "these rows' deltas are not the patch's alone.";

/* "name a->b" of the largest, cut to width */
static void largest(char *buf, size_t len, const struct ms_diverged *v)
{
	snprintf(buf, len, "%s %.0f->%.0f", v->name, v->insns[0], v->insns[1]);
}

int rp_diverge_text(FILE *f, const struct ms_compare *c)
{
	int w = rp_name_width(), shown = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];
		struct ms_diverged v[TOP];
		double insns;
		int n = ms_pair_diverged(c, p, v, TOP, &insns);
		char l[160];

		if (n <= 0)
			continue;
		if (!shown++) {
			fprintf(f, "\n");
			rp_wrap(f, "different paths through unchanged code: ", "  ", why, RP_TEXT_WIDTH);
			fprintf(f, "%-*s %-3s %5s %6s %s\n", w, "path", "cpu", "fns", "insns", "largest (base->patched)");
		}
		largest(l, sizeof(l), &v[0]);
		/* the name column, cpu, counts: the rest of 72 columns */
		fprintf(f, "%-*s %-3s %5d %6.0f %.*s\n", w, p->name, p->core->name, n, insns,
			RP_TEXT_WIDTH - w - 18 > 8 ? RP_TEXT_WIDTH - w - 18 : 8, l);
	}
	return shown;
}

void rp_diverge_markdown(FILE *f, const struct ms_compare *c)
{
	int shown = 0;

	for (int i = 0; i < c->npairs; i++) {
		const struct ms_pair *p = &c->pairs[c->order[i]];
		struct ms_diverged v[TOP];
		double insns;
		int n = ms_pair_diverged(c, p, v, TOP, &insns);

		if (n <= 0)
			continue;
		if (!shown++)
			fprintf(f, "\n**Different paths through unchanged code**: %s\n\n", why);
		fprintf(f, "- `%s` %s: %d functions, %.0f instructions per op:", p->name, p->core->name, n, insns);
		for (int k = 0; k < n && k < TOP; k++)
			fprintf(f, "%s `%s` %.1f→%.1f", k ? "," : "", v[k].name, v[k].insns[0], v[k].insns[1]);
		fprintf(f, "%s\n", n > TOP ? ", …" : "");
	}
}

void rp_diverge_json(struct json *j, const struct ms_compare *c, const struct ms_pair *p)
{
	struct ms_diverged v[TOP];
	double insns;
	int n = ms_pair_diverged(c, p, v, TOP, &insns);

	if (n <= 0)
		return;
	json_begin_obj(j, "diverged");
	json_uint(j, "functions", (uint64_t)n);
	json_num(j, "insns_per_op", insns, 1);
	json_begin_arr(j, "largest");
	for (int k = 0; k < n && k < TOP; k++) {
		json_begin_obj(j, NULL);
		json_str(j, "function", v[k].name);
		json_num(j, "base_insns_per_op", v[k].insns[0], 2);
		json_num(j, "patched_insns_per_op", v[k].insns[1], 2);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}
