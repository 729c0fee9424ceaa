/*
 * report_table.c - pairing rows across images, identity warnings, and the
 * text table (like scripts/bloat-o-meter: old, new, delta).
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/model.h"
#include "report.h"

double rp_delta_pct(uint64_t base, uint64_t patched)
{
	if (!base)
		return 0.0;
	return 100.0 * ((double)patched - (double)base) / (double)base;
}

static const struct ms_row *find(const struct ms_image *m, const char *name, const char *cpu)
{
	for (int i = 0; m && i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name) && !strcmp(m->rows[i].cpu, cpu))
			return &m->rows[i];
	return NULL;
}

void rp_pair_rows(struct rp_compare *c)
{
	c->npairs = 0;
	for (int i = 0; i < c->base->nrows; i++) {
		const struct ms_row *b = &c->base->rows[i];
		struct rp_pair *p = &c->pairs[c->npairs++];

		p->base = b;
		p->patched = c->patched ? find(c->patched, b->name, b->cpu) : NULL;
		p->name = b->name;
		p->cpu = b->cpu;
	}
	for (int i = 0; c->patched && i < c->patched->nrows; i++) {
		const struct ms_row *r = &c->patched->rows[i];
		struct rp_pair *p;

		if (find(c->base, r->name, r->cpu))
			continue;
		p = &c->pairs[c->npairs++];
		p->base = NULL;
		p->patched = r;
		p->name = r->name;
		p->cpu = r->cpu;
	}
}

static void warn(struct rp_compare *c, const char *fmt, const char *a, const char *b)
{
	if (c->nwarnings < (int)(sizeof(c->warnings) / sizeof(c->warnings[0])))
		snprintf(c->warnings[c->nwarnings++], sizeof(c->warnings[0]), fmt, a, b);
}

void rp_identity_warnings(struct rp_compare *c)
{
	const struct hs_image *a = c->base->img, *b = c->patched->img;

	if (strcmp(a->version, b->version))
		warn(c, "kernel versions differ: %s vs %s", a->version, b->version);
	if (strcmp(a->compiler, b->compiler))
		warn(c, "compilers differ: %s vs %s", a->compiler, b->compiler);
	if (a->ikconfig_hash && b->ikconfig_hash && a->ikconfig_hash != b->ikconfig_hash)
		warn(c, "embedded .config differs (CONFIG_IKCONFIG)%s%s", "", "");
	else if (!!a->ikconfig_hash != !!b->ikconfig_hash)
		warn(c, "only one image embeds its .config%s%s", "", "");
	if (a->build_id[0] && !strcmp(a->build_id, b->build_id))
		warn(c, "both images have build id %s: the same build twice?%s", a->build_id, "");
}

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

static void row_line(FILE *f, const struct rp_compare *c, const struct rp_pair *p, const char *state,
		     const struct hs_model_result *rb, const struct hs_model_result *rp)
{
	char ins[32], code[32], unc[32];

	(void)rp;
	if (!c->patched) {
		snprintf(unc, sizeof(unc), "%.1f", uncal_pct(rb));
		fprintf(f, "%-18s %-4s %-5s %10llu %8llu %10llu %6s\n", p->name, p->cpu, state,
			(unsigned long long)rb->cycles, (unsigned long long)p->base->insns,
			(unsigned long long)p->base->code_bytes, unc);
		return;
	}
	snprintf(ins, sizeof(ins), "%llu/%llu", (unsigned long long)p->base->insns,
		 (unsigned long long)p->patched->insns);
	snprintf(code, sizeof(code), "%llu/%llu", (unsigned long long)p->base->code_bytes,
		 (unsigned long long)p->patched->code_bytes);
	snprintf(unc, sizeof(unc), "%.1f/%.1f", uncal_pct(rb), uncal_pct(rp));
	fprintf(f, "%-18s %-4s %-5s %9llu %9llu %+8lld %+8.2f%% %13s %13s %11s\n", p->name, p->cpu,
		state, (unsigned long long)rb->cycles, (unsigned long long)rp->cycles,
		(long long)rp->cycles - (long long)rb->cycles, rp_delta_pct(rb->cycles, rp->cycles), ins,
		code, unc);
}

void rp_table(FILE *f, const struct rp_compare *c)
{
	int notes = 0;

	if (c->patched) {
		fprintf(f, "hotsim compare\n");
		image_line(f, "base", c->base->img);
		image_line(f, "patched", c->patched->img);
	} else {
		fprintf(f, "hotsim run\n");
		image_line(f, "image", c->base->img);
	}
	fprintf(f, "  deterministic: the same inputs give byte-identical output (no run-to-run variance)\n");
	for (int i = 0; i < c->nwarnings; i++)
		fprintf(f, "  warning: %s\n", c->warnings[i]);
	fprintf(f, "\n");
	if (c->patched)
		fprintf(f, "%-18s %-4s %-5s %9s %9s %8s %9s %13s %13s %11s\n", "path", "cpu", "state",
			"base", "patched", "delta", "delta%", "insns b/p", "code b/p", "uncal% b/p");
	else
		fprintf(f, "%-18s %-4s %-5s %10s %8s %10s %6s\n", "path", "cpu", "state", "cycles",
			"insns", "code bytes", "uncal%");
	for (int i = 0; i < c->npairs; i++) {
		const struct rp_pair *p = &c->pairs[i];

		int missing = c->patched ? (!p->base || !p->patched || !p->base->ok || !p->patched->ok)
					 : !p->base->ok;

		if (missing) {
			if (!c->patched && p->base && !p->base->ok)
				fprintf(f, "%-18s %-4s %-5s %10s  (cannot run, see below)\n", p->name, p->cpu, "",
					"n/a");
			else if (c->patched)
				fprintf(f, "%-18s %-4s %-5s %9s  (%s, see below)\n", p->name, p->cpu, "", "n/a",
					!p->base ? "absent in base" : !p->patched ? "absent in patched" :
												  "cannot run");
			notes = 1;
			continue;
		}
		if (c->want_warm)
			row_line(f, c, p, "warm", &p->base->warm, c->patched ? &p->patched->warm : NULL);
		if (c->want_cold)
			row_line(f, c, p, "cold", &p->base->cold, c->patched ? &p->patched->cold : NULL);
	}
	if (notes) {
		fprintf(f, "\n");
		for (int i = 0; i < c->npairs; i++) {
			const struct rp_pair *p = &c->pairs[i];

			if (p->base && !p->base->ok)
				fprintf(f, "  %s on %s: cannot run on %s: %s\n", p->name, p->cpu,
					c->patched ? "base" : "this image", p->base->why);
			if (p->patched && !p->patched->ok)
				fprintf(f, "  %s on %s: cannot run on patched: %s\n", p->name, p->cpu,
					p->patched->why);
			if (c->patched && !p->base)
				fprintf(f, "  %s on %s: only in patched (the base image has no such site/path)\n",
					p->name, p->cpu);
			if (c->patched && !p->patched)
				fprintf(f, "  %s on %s: only in base (the patched image has no such site/path)\n",
					p->name, p->cpu);
		}
	}
	fprintf(f, "\ncycles: %s%s%s; uncal%%: share of cycles charged by uncalibrated parameters (hotsim models)\n",
		c->want_warm ? "warm = repeated until the cost converges" : "",
		c->want_warm && c->want_cold ? ", " : "",
		c->want_cold ? "cold = caches, TLBs and predictors flushed" : "");
}
