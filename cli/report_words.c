/*
 * report_words.c - the sentences the text table and the markdown report
 * share (summary, an image's identity, the footnote), and word wrapping to
 * the width of an email reply.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

double rp_uncal_pct(const struct hs_model_result *r)
{
	return r->cycles ? 100.0 * (double)r->uncalibrated_cycles / (double)r->cycles : 0.0;
}

const char *rp_identity(char *buf, size_t len, const struct hs_image *img)
{
	snprintf(buf, len, "Linux %s, %s, build id %.12s", img->version[0] ? img->version : "?",
		 img->compiler[0] ? img->compiler : "?", img->build_id[0] ? img->build_id : "none");
	return buf;
}

const char *rp_summary(char *buf, size_t len, const struct ms_compare *c)
{
	const struct ms_summary *s = &c->summary;
	int ncores = 0, nrows = 0;
	size_t used;

	for (int i = 0; i < c->npairs; i++) {
		int first_cpu = 1, first_row = 1;

		for (int k = 0; k < i; k++) {
			first_cpu &= strcmp(c->pairs[k].cpu, c->pairs[i].cpu) != 0;
			first_row &= strcmp(c->pairs[k].name, c->pairs[i].name) != 0;
		}
		ncores += first_cpu;
		nrows += first_row;
	}
	used = (size_t)snprintf(buf, len, "%u results (%d rows x %d cores x %s)", s->results, nrows, ncores,
				c->want_warm && c->want_cold ? "warm+cold" : c->want_warm ? "warm" : "cold");
	if (c->patched && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", %u moved: %u faster, %u slower", s->moved,
					 s->faster, s->slower);
	if (s->largest && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; largest %s %s %s %+lld cycles (%+.2f%%)",
					 s->largest->name, s->largest->cpu, s->largest_warm ? "warm" : "cold",
					 s->largest_delta,
					 ms_delta_pct(ms_pair_result(s->largest, 0, s->largest_warm)->cycles,
						      ms_pair_result(s->largest, 1, s->largest_warm)->cycles));
	if (s->not_run && used < len)
		snprintf(buf + used, len - used, "; %u not run", s->not_run);
	return buf;
}

const char *rp_footnote(char *buf, size_t len, const struct ms_compare *c, const char *uncal)
{
	snprintf(buf, len, "cycles: %s%s%s; %s: share of %s cycles charged by uncalibrated parameters "
		 "(hotsim models)%s",
		 c->want_warm ? "warm = repeated until the cost converges" : "",
		 c->want_warm && c->want_cold ? ", " : "",
		 c->want_cold ? "cold = caches, TLBs and predictors flushed" : "", uncal,
		 !c->patched ? "the" : !strcmp(uncal, "uncal") ? "the patched image's" : "each image's",
		 c->patched ? "; total: sum of the results above and folded" : "");
	return buf;
}

void rp_wrap(FILE *f, const char *lead, const char *indent, const char *text, int width)
{
	int col = (int)strlen(lead), start = col;

	fputs(lead, f);
	while (*text) {
		int w;

		while (*text == ' ')
			text++;
		w = (int)strcspn(text, " ");
		if (!w)
			break;
		if (col > start && col + 1 + w > width) {
			fprintf(f, "\n%s", indent);
			col = start = (int)strlen(indent);
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, (size_t)w, f);
		col += w;
		text += w;
	}
	fputc('\n', f);
}
