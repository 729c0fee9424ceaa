/*
 * cmd_snippet.c - `hotsim snippet FILE --entry SYMBOL`: time a function of
 * a small aarch64 ELF (no boot-time patching) on each selected core, cold
 * and warm, with the most expensive instructions (sim/measure/snippet.c
 * traces and costs; this file prints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/measure.h"
#include "hotsim/model.h"
#include "json.h"

struct snippet_opts {
	const char *entry;
	struct opt_cpus cpus;
	long iterations;
	struct opt_params params;
	struct opt_u64s args;
	long limit;
	enum opt_format format;
};

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

static int top_cause(const struct ms_insn_share *a)
{
	int best = -1;

	for (int k = 0; k < HS_NSTALLS; k++)
		if (a->stall[k] && (best < 0 || a->stall[k] > a->stall[best]))
			best = k;
	return best;
}

static void top_insns(struct json *j, const struct hs_image *img, const struct hs_trace *t,
		      const struct ms_insn_share *g, const uint32_t *order, size_t n, long limit,
		      uint64_t total, unsigned calls)
{
	char at[128], text[96];

	if (!j)
		printf("  top instructions (warm, of %zu distinct):\n", n);
	else
		json_begin_arr(j, "top");
	for (size_t i = 0; i < n && (long)i < limit; i++) {
		const struct hs_static *s = &t->dc->v[order[i]];
		const struct ms_insn_share *a = &g[order[i]];
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

static void defaults(void *p)
{
	struct snippet_opts *o = p;

	opt_default_cpus(&o->cpus);
	o->iterations = 1;
	o->limit = 10;
}

static void header(struct json *j, const struct snippet_opts *o, const struct ms_snippet *s)
{
	if (j) {
		json_init(j, stdout);
		json_begin_obj(j, NULL);
		json_str(j, "schema", "hotsim-snippet/1");
		json_str(j, "file", s->img->path);
		json_str(j, "entry", s->fn->name);
		json_hex(j, "entry_addr", s->fn->addr);
		json_uint(j, "calls", s->calls);
		json_uint(j, "insns", s->tr.n);
		json_begin_arr(j, "models");
		return;
	}
	printf("snippet  %s: %s (0x%llx), %ld call%s traced, %zu instructions (%.1f per call,"
	       " each call = blr + the function)\n", s->img->path, s->fn->name,
	       (unsigned long long)s->fn->addr, o->iterations, o->iterations > 1 ? "s" : "",
	       s->tr.n, (double)s->tr.n / (double)o->iterations);
}

static int run(void *p, char **args)
{
	const struct snippet_opts *o = p;
	struct ms_options mo = { 0 };
	struct ms_snippet s;
	struct json j, *jp = o->format == FORMAT_JSON ? &j : NULL;
	int rc = HS_EXIT_OK;

	if (!o->entry)
		return hs_fail("snippet: --entry SYMBOL is required"), cli_error();
	/* parameters first: bad input fails before any work */
	if (cli_check_params(&o->params, &o->cpus))
		return cli_error();
	memcpy(mo.params, o->params.v, sizeof(o->params.v));
	mo.nparams = o->params.n;
	if (ms_snippet_trace(args[0], o->entry, (unsigned)o->iterations, o->args.v, o->args.n, &s)) {
		ms_snippet_free(&s);
		return cli_error();
	}
	header(jp, o, &s);
	for (int i = 0; i < o->cpus.n && rc == HS_EXIT_OK; i++) {
		struct hs_model *m = ms_model(&mo, o->cpus.v[i]);
		struct ms_snippet_cost c;

		if (!m || ms_snippet_cost(&s, m, &c)) {
			rc = cli_error();
		} else if (jp) {
			json_begin_obj(jp, NULL);
			json_str(jp, "cpu", hs_model_name(m));
			json_result(jp, "cold", &c.cold, s.calls);
			json_result(jp, "warm", &c.warm, s.calls);
			top_insns(jp, s.img, &s.tr, c.share, c.order, c.n, o->limit, c.warm.cycles, s.calls);
			json_end_obj(jp);
		} else {
			printf("\n%s  %s\n", hs_model_name(m), hs_model_description(m));
			text_result("cold", &c.cold, s.calls);
			text_result("warm", &c.warm, s.calls);
			top_insns(NULL, s.img, &s.tr, c.share, c.order, c.n, o->limit, c.warm.cycles, s.calls);
		}
		ms_snippet_cost_free(&c);
		hs_model_free(m);
	}
	if (jp && rc == HS_EXIT_OK) {
		json_end_arr(jp);
		json_end_obj(jp);
		json_finish(jp);
	}
	ms_snippet_free(&s);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("entry", "SYMBOL", OPT_STRING, struct snippet_opts, entry, "the function to time (required)"),
	OPT("cpu", "LIST", OPT_CPUS, struct snippet_opts, cpus, "cores"),
	OPT_N("iterations", "N", struct snippet_opts, iterations, 1, 4096,
	      "consecutive calls traced (default 1)"),
	OPT("param", "[CORE.]NAME=V", OPT_PARAM, struct snippet_opts, params,
	    "override a model parameter (repeatable)"),
	OPT("arg", "V", OPT_U64, struct snippet_opts, args, "x0..x7 of the first call (repeatable)"),
	OPT_N("limit", "N", struct snippet_opts, limit, 0, 100000, "top instructions shown (default 10)"),
	OPT("format", "FMT", OPT_FORMAT, struct snippet_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_snippet = {
	.name = "snippet", .args = "FILE", .nargs = 1,
	.summary = "time your own aarch64 function, cold and warm, per core",
	.opts = opts, .size = sizeof(struct snippet_opts), .defaults = defaults, .run = run,
};
