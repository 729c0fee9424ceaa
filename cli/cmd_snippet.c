/*
 * cmd_snippet.c - `hotsim snippet FILE --entry SYMBOL [--cpu X]
 * [--iterations N] [--param core.name=value ...] [--arg V ...] [--limit N]
 * [--json]`: run a function of a small aarch64 ELF (functional model, no
 * boot-time patching), trace N consecutive calls and cost them on each
 * selected core, cold (flushed caches and predictors) and warm (the trace
 * repeated until its cost no longer changes).
 *
 * The calls come from a harness of N consecutive `blr` instructions (see
 * hs_calls_init), so a call costs its blr and the function, the return
 * stack sees real calls, and no loop overhead is traced. Arguments reach
 * the first call only; later calls see the registers the previous one left.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/measure.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/model.h"
#include "emu/calls.h"
#include "emu/runner.h"
#include "json.h"

#define MAX_MODELS 8
#define MAX_PARAMS 32
#define TRACE_LIMIT (8u << 20)		/* records, all calls together */
#define CALL_BUDGET 50000000ULL		/* instructions per traced run */
#define WARM_MAX 32

struct opts {
	const char *file, *entry;
	int sel[MAX_MODELS], nsel;
	unsigned iterations;
	long limit;
	int as_json;
	const char *params[MAX_PARAMS];
	int nparams;
	uint64_t args[8];
	int nargs;
};

/* Per static instruction, summed over the (warm) trace. */
struct agg {
	uint64_t cycles, count;
	uint64_t stall[HS_NSTALLS];
};

static int parse_cpus(const char *arg, struct opts *o)
{
	o->nsel = cli_parse_models(arg, o->sel, MAX_MODELS);
	return o->nsel < 0 ? -1 : 0;
}

/* Apply every --param to model m, as run/compare do ("core.name=value" only
 * to that core, "name=value" to all). */
static int apply_params(const struct opts *o, struct hs_model *m)
{
	for (int i = 0; i < o->nparams; i++) {
		struct ms_param p;
		int unused;

		if (ms_parse_param(o->params[i], &p))
			return -1;
		if (p.core[0] && cli_parse_models(p.core, &unused, 1) < 0)
			return -1;
		if (p.core[0] && strcmp(p.core, hs_model_name(m)))
			continue;	/* for another core */
		if (hs_model_set_param(m, p.name, p.value))
			return -1;
	}
	return 0;
}

static int by_cycles(const void *a, const void *b, void *ctx)
{
	const struct agg *g = ctx;
	uint64_t x = g[*(const uint32_t *)a].cycles, y = g[*(const uint32_t *)b].cycles;

	return x < y ? 1 : x > y ? -1 : (*(const uint32_t *)a > *(const uint32_t *)b) -
					     (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* Sum the per-instruction costs by static instruction; order[] gets the
 * indexes of the nonzero ones, most expensive first. Returns their count. */
static size_t aggregate(const struct hs_trace *t, const struct hs_insn_cost *per, struct agg *g,
			uint32_t *order)
{
	size_t n = 0;

	memset(g, 0, t->dc->n * sizeof(*g));
	for (size_t i = 0; i < t->n; i++) {
		struct agg *a = &g[t->v[i].sidx];

		a->cycles += per[i].cycles;
		a->count++;
		for (int k = 0; k < HS_NSTALLS; k++)
			a->stall[k] += per[i].stall[k];
	}
	for (uint32_t k = 0; k < t->dc->n; k++)
		if (g[k].count)
			order[n++] = k;
	qsort_r(order, n, sizeof(*order), by_cycles, g);
	return n;
}

static int top_cause(const struct agg *a)
{
	int best = -1;

	for (int k = 0; k < HS_NSTALLS; k++)
		if (a->stall[k] && (best < 0 || a->stall[k] > a->stall[best]))
			best = k;
	return best;
}

static void text_result(const char *what, const struct hs_model_result *r, unsigned calls)
{
	printf("  %-5s %10.1f cycles/call  %8.2f IPC", what, (double)r->cycles / calls,
	       r->cycles ? (double)r->insns / (double)r->cycles : 0.0);
	printf("  uncalibrated %5.1f%%", r->cycles ? 100.0 * (double)r->uncalibrated_cycles / (double)r->cycles : 0.0);
	if (r->warm_iterations)
		printf("  (%u runs, %s)", r->warm_iterations, r->converged ? "converged" : "NOT converged");
	printf("\n        stalls:");
	for (int k = 0; k < HS_NSTALLS; k++)
		printf(" %s %.1f", hs_stall_names[k], (double)r->stall[k] / calls);
	printf("  events: mispredicts %u, I-misses %u, D-misses %u, L2 misses %u, TLB misses %u, unknown %u\n",
	       r->mispredicts, r->icache_misses, r->dcache_misses, r->l2_misses, r->tlb_misses,
	       r->unknown_insns);
}

static void json_result(struct json *j, const char *key, const struct hs_model_result *r,
			unsigned calls)
{
	json_begin_obj(j, key);
	json_uint(j, "cycles", r->cycles);
	json_num(j, "cycles_per_call", (double)r->cycles / calls, 2);
	json_uint(j, "insns", r->insns);
	json_uint(j, "uncalibrated_cycles", r->uncalibrated_cycles);
	json_begin_obj(j, "stalls");
	for (int k = 0; k < HS_NSTALLS; k++)
		json_uint(j, hs_stall_names[k], r->stall[k]);
	json_end_obj(j);
	json_uint(j, "mispredicts", r->mispredicts);
	json_uint(j, "icache_misses", r->icache_misses);
	json_uint(j, "dcache_misses", r->dcache_misses);
	json_uint(j, "l2_misses", r->l2_misses);
	json_uint(j, "tlb_misses", r->tlb_misses);
	json_uint(j, "unknown_insns", r->unknown_insns);
	if (r->warm_iterations) {
		json_uint(j, "warm_iterations", r->warm_iterations);
		json_bool(j, "converged", r->converged);
	}
	json_end_obj(j);
}

static void top_insns(struct json *j, const struct hs_image *img, const struct hs_trace *t,
		      const struct agg *g, const uint32_t *order, size_t n, long limit,
		      uint64_t total, unsigned calls)
{
	char at[128], text[96];

	if (!j)
		printf("  top instructions (warm, of %zu distinct):\n", n);
	else
		json_begin_arr(j, "top");
	for (size_t i = 0; i < n && (long)i < limit; i++) {
		const struct hs_static *s = &t->dc->v[order[i]];
		const struct agg *a = &g[order[i]];
		int c = top_cause(a);

		hs_addr_fmt(img, s->pc, at, sizeof(at));
		a64_disasm(s->in.word, s->pc, text, sizeof(text));
		if (j) {
			json_begin_obj(j, NULL);
			json_hex(j, "pc", s->pc);
			json_str(j, "at", at);
			json_str(j, "insn", text);
			json_uint(j, "count", a->count);
			json_uint(j, "cycles", a->cycles);
			json_str(j, "main_stall", c >= 0 ? hs_stall_names[c] : NULL);
			json_end_obj(j);
		} else {
			printf("    %6.1f%% %8.1f/call  %-28s %-32s x%-6llu %s\n",
			       total ? 100.0 * (double)a->cycles / (double)total : 0.0,
			       (double)a->cycles / calls, at, text, (unsigned long long)a->count,
			       c >= 0 ? hs_stall_names[c] : "");
		}
	}
	if (j)
		json_end_arr(j);
	else if ((long)n > limit)
		printf("    ... %zu more (--limit)\n", n - (size_t)limit);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "entry", required_argument, NULL, 'e' }, { "cpu", required_argument, NULL, 'c' },
		{ "iterations", required_argument, NULL, 'i' }, { "param", required_argument, NULL, 'p' },
		{ "arg", required_argument, NULL, 'a' }, { "limit", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->iterations = 1;
	o->limit = 10;
	optind = 1;
	opterr = 0;	/* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "e:c:i:p:a:n:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'e': o->entry = optarg; break;
		case 'c':
			if (parse_cpus(optarg, o))
				return cli_error();
			break;
		case 'i':
			v = cli_parse_count(optarg);
			if (v < 1 || v > HS_CALLS_MAX)
				return cli_usage("snippet", "--iterations needs 1..%d", HS_CALLS_MAX);
			o->iterations = (unsigned)v;
			break;
		case 'p':
			if (o->nparams >= MAX_PARAMS)
				return cli_usage("snippet", "at most %d --param", MAX_PARAMS);
			o->params[o->nparams++] = optarg;
			break;
		case 'a': {
			char *end;

			if (o->nargs >= 8)
				return cli_usage("snippet", "at most 8 --arg (x0..x7)");
			o->args[o->nargs++] = strtoull(optarg, &end, 0);
			if (end == optarg || *end)
				return cli_usage("snippet", "--arg '%.40s' is not a number", optarg);
			break;
		}
		case 'n':
			o->limit = cli_parse_count(optarg);
			if (o->limit < 0)
				return cli_usage("snippet", "--limit needs a non-negative number");
			break;
		case 'j': o->as_json = 1; break;
		case 'h':
			printf("usage: hotsim snippet FILE --entry SYMBOL [--cpu a53,a55,a73] [--iterations N]\n"
			       "       [--param [core.]name=value ...] [--arg V ...] [--limit N] [--json]\n");
			return -2;
		default:
			return cli_usage("snippet", "usage: hotsim snippet FILE --entry SYMBOL [options]");
		}
	}
	if (optind != argc - 1)
		return cli_usage("snippet", "expects one FILE argument");
	if (!o->entry)
		return cli_usage("snippet", "--entry SYMBOL is required");
	o->file = argv[optind];
	if (!o->nsel)
		parse_cpus("all", o);
	return 0;
}

/* Cost the trace on every selected model; print as text or JSON. */
static int report(const struct opts *o, const struct hs_image *img, const struct hs_sym *fn,
		  const struct hs_trace *t, struct hs_model **models)
{
	struct hs_insn_cost *per = calloc(t->n, sizeof(*per));
	struct agg *g = calloc(t->dc->n, sizeof(*g));
	uint32_t *order = calloc(t->dc->n, sizeof(*order));
	struct json j;
	int rc = HS_EXIT_OK;

	if (!per || !g || !order) {
		free(per), free(g), free(order);
		hs_fail("out of memory");
		return cli_error();
	}
	if (o->as_json) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_int(&j, "schema", 1);
		json_str(&j, "file", img->path);
		json_str(&j, "entry", fn->name);
		json_hex(&j, "entry_addr", fn->addr);
		json_uint(&j, "calls", o->iterations);
		json_uint(&j, "insns", t->n);
		json_begin_arr(&j, "models");
	} else {
		printf("snippet  %s: %s (0x%llx), %u call%s traced, %zu instructions (%.1f per call,"
		       " each call = blr + the function)\n", img->path, fn->name,
		       (unsigned long long)fn->addr, o->iterations, o->iterations > 1 ? "s" : "",
		       t->n, (double)t->n / o->iterations);
	}
	for (int i = 0; i < o->nsel; i++) {
		struct hs_model *m = models[i];
		struct hs_model_result cold, warm;
		size_t n;

		if (hs_model_cold(m, t, &cold, NULL) || hs_model_warm(m, t, WARM_MAX, &warm, per)) {
			rc = cli_error();
			break;
		}
		n = aggregate(t, per, g, order);
		if (o->as_json) {
			json_begin_obj(&j, NULL);
			json_str(&j, "cpu", hs_model_name(m));
			json_result(&j, "cold", &cold, o->iterations);
			json_result(&j, "warm", &warm, o->iterations);
			top_insns(&j, img, t, g, order, n, o->limit, warm.cycles, o->iterations);
			json_end_obj(&j);
		} else {
			printf("\n%s  %s\n", hs_model_name(m), hs_model_description(m));
			text_result("cold", &cold, o->iterations);
			text_result("warm", &warm, o->iterations);
			top_insns(NULL, img, t, g, order, n, o->limit, warm.cycles, o->iterations);
		}
	}
	if (o->as_json && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	free(per);
	free(g);
	free(order);
	return rc;
}

int cmd_snippet(int argc, char **argv)
{
	struct hs_model *models[MAX_MODELS] = { NULL };
	struct hs_image *img = NULL;
	struct hs_runner *r = NULL;
	const struct hs_sym *fn;
	struct hs_calls calls;
	struct hs_trace tr;
	struct opts o;
	int rc = parse_opts(argc, argv, &o);

	if (rc)
		return rc == -2 ? HS_EXIT_OK : rc;
	/* models and parameters first: bad input fails before any work */
	for (int i = 0; i < o.nsel; i++) {
		models[i] = hs_model_new(hs_model_names[o.sel[i]]);
		if (!models[i] || apply_params(&o, models[i])) {
			rc = cli_error();
			goto out;
		}
	}
	/* every --param must name a real parameter of every core it is for,
	 * selected or not */
	for (int k = 0; hs_model_names[k] && rc == HS_EXIT_OK; k++) {
		struct hs_model *v = hs_model_new(hs_model_names[k]);

		if (!v || apply_params(&o, v))
			rc = cli_error();
		hs_model_free(v);
	}
	if (rc)
		goto out;
	img = hs_image_open(o.file);
	if (!img) {
		rc = cli_error();
		goto out;
	}
	fn = hs_sym_spec(img, o.entry, NULL);
	if (!fn) {
		hs_fail("%s: no symbol '%.64s'", img->path, o.entry);
		rc = cli_error();
		goto out;
	}
	r = hs_runner_new(img, img->mem, NULL);
	if (!r || hs_calls_init(r, o.iterations, &calls)) {
		rc = cli_error();
		goto out;
	}
	hs_trace_init(&tr, hs_rt_dcache(r), TRACE_LIMIT);
	if (hs_calls_trace(r, &calls, fn->addr, o.args, o.nargs, o.iterations, CALL_BUDGET, &tr))
		rc = cli_error();
	else
		rc = report(&o, img, fn, &tr, models);
	hs_trace_free(&tr);
out:
	for (int i = 0; i < o.nsel; i++)
		hs_model_free(models[i]);
	hs_runner_free(r);
	hs_image_close(img);
	return rc;
}
