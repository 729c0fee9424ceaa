/*
 * cmd_paths.c - `hotsim paths VMLINUX`: per path and core, the resolved
 * entry, instructions executed, functions visited (first-visit order,
 * instructions in each), stubs, system register accesses - or exactly why
 * the path cannot run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/paths.h"
#include "json.h"

#define MAX_FUNCS 256

struct paths_opts {
	struct opt_cpus cpus;
	struct opt_paths paths;
	const char *workload;
	enum hs_state_source src;
	enum opt_format format;
};

struct func_count {
	const char *name;
	unsigned insns;
};

/* Count the records [b, e) into fc, in first-visit order. */
static unsigned count_range(const struct hs_image *img, const struct hs_trace *t, size_t b, size_t e,
			    struct func_count *fc, unsigned n, unsigned max, unsigned *other)
{
	const char *last = NULL;
	unsigned last_i = 0;

	for (size_t i = b; i < e; i++) {
		const struct hs_sym *s = hs_sym_at(img, hs_trace_pc(t, i));
		const char *name = s ? s->name : hs_trace_pc(t, i) < img->base ? "(user space)" : "?";
		unsigned k;

		if (last == name) {
			fc[last_i].insns++;
			continue;
		}
		for (k = 0; k < n && fc[k].name != name; k++)
			;
		if (k == n) {
			if (n == max) {
				(*other)++;
				continue;
			}
			fc[n].name = name;
			fc[n].insns = 0;
			n++;
		}
		fc[k].insns++;
		last = name;
		last_i = k;
	}
	return n;
}

/* Instructions per function over the sampled operations (the whole run
 * when it is one), in first-visit order; *nsamples: how many ops the
 * counts are over (the per-op means divide by it). */
static unsigned count_functions(const struct hs_image *img, const struct hs_path_run *pr,
				struct func_count *fc, unsigned max, unsigned *other, unsigned *nsamples)
{
	unsigned n = 0, first = pr->nops && pr->warmup < pr->nops ? pr->warmup : 0;

	*other = 0;
	*nsamples = pr->nops ? pr->nops - first : 1;
	if (!pr->nops)
		return count_range(img, &pr->tr, 0, pr->tr.n, fc, 0, max, other);
	for (unsigned k = first; k < pr->nops; k++)
		n = count_range(img, &pr->tr, pr->ops[k].begin, pr->ops[k].end, fc, n, max, other);
	return n;
}

static void sysreg_label(uint16_t enc, char *buf, size_t len)
{
	const char *n = a64_sysreg_name(enc);

	if (n)
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "s%u_%u_c%u_c%u_%u", A64_SYSREG_OP0(enc), A64_SYSREG_OP1(enc),
			 A64_SYSREG_CRN(enc), A64_SYSREG_CRM(enc), A64_SYSREG_OP2(enc));
}

/* One item of a comma-separated list wrapped at 100 columns under a
 * 13-column label; *col tracks the current column. */
static void list_item(unsigned i, const char *item, unsigned *col)
{
	unsigned w = (unsigned)strlen(item);

	if (i && *col + w + 2 > 100) {
		printf(",\n             ");
		*col = 13;
	} else if (i) {
		printf(", ");
		*col += 2;
	}
	printf("%s", item);
	*col += w;
}

static void print_run(const struct hs_image *img, const char *cpu, const struct hs_path_run *pr)
{
	struct func_count fc[MAX_FUNCS];
	unsigned n, other, col, ns;
	char buf[64];

	if (!pr->ok) {
		printf("\n%s on %s: cannot run: %s\n", pr->def->name, cpu, pr->why);
		return;
	}
	printf("\n%s on %s: %zu instructions from %s\n", pr->def->name, cpu, pr->tr.n, pr->entry_desc);
	printf("  state      %s\n", pr->booted ? "booted" : pr->state);
	n = count_functions(img, pr, fc, MAX_FUNCS, &other, &ns);
	if (ns > 1)
		printf("  per op     the mean over the %u sampled operations (sysregs, firmware: over all %u)\n",
		       ns, pr->nops);
	printf("  functions  ");
	col = 13;
	for (unsigned i = 0; i < n; i++) {
		if (ns > 1)
			snprintf(buf, sizeof(buf), "%s %.1f", fc[i].name, (double)fc[i].insns / ns);
		else
			snprintf(buf, sizeof(buf), "%s %u", fc[i].name, fc[i].insns);
		list_item(i, buf, &col);
	}
	if (other)
		printf(" (+%.1f instructions in further functions)", (double)other / ns);
	printf("\n");
	if (pr->tr.nstubs) {
		printf("  stubs      ");
		for (unsigned i = 0; i < pr->tr.nstubs; i++)
			printf("%s%s (%u call%s, excluded)", i ? ", " : "", pr->tr.stubs[i].name,
			       pr->tr.stubs[i].count, pr->tr.stubs[i].count == 1 ? "" : "s");
		printf("\n");
	}
	if (pr->tr.nsysregs) {
		printf("  sysregs    ");
		col = 13;
		for (unsigned i = 0; i < pr->tr.nsysregs; i++) {
			char name[48];

			sysreg_label(pr->tr.sysregs[i].enc, name, sizeof(name));
			if (pr->nops > 1)
				snprintf(buf, sizeof(buf), "%s %s x%.1f", name, pr->tr.sysregs[i].write ? "w" : "r",
					 (double)pr->tr.sysregs[i].count / pr->nops);
			else
				snprintf(buf, sizeof(buf), "%s %s x%u", name, pr->tr.sysregs[i].write ? "w" : "r",
					 pr->tr.sysregs[i].count);
			list_item(i, buf, &col);
		}
		printf("\n");
	}
	if (pr->tr.firmware_calls && pr->nops > 1)
		printf("  firmware   %.1f SMCCC calls (Spectre workaround)\n",
		       (double)pr->tr.firmware_calls / pr->nops);
	else if (pr->tr.firmware_calls)
		printf("  firmware   %u SMCCC call%s (Spectre workaround)\n", pr->tr.firmware_calls,
		       pr->tr.firmware_calls == 1 ? "" : "s");
	for (unsigned i = 0; i < pr->nnotes; i++)
		printf("  note       %s\n", pr->notes[i]);
	for (unsigned i = 0; i < pr->nsegs; i++)
		printf("  segment    %-12s %3zu instructions%s\n", pr->segs[i].label,
		       pr->segs[i].end - pr->segs[i].begin,
		       pr->segs[i].wrapped ? " (incl. preempt_disable/enable)" : "");
	if (pr->census) {
		const struct hs_pcpu_census *c = pr->census;

		printf("  census     %zu sites (kind: wrapped/bare):", c->n);
		for (int k = 0; k < HS_PCPU_NKINDS; k++)
			printf(" %s %u/%u", hs_pcpu_kind_names[k], c->count[k][1], c->count[k][0]);
		printf("\n");
	}
}

static void json_run(struct json *j, const struct hs_image *img, const char *cpu,
		     const struct hs_path_run *pr)
{
	struct func_count fc[MAX_FUNCS];
	unsigned n, other, ns;
	char name[48];

	json_begin_obj(j, NULL);
	json_str(j, "path", pr->def->name);
	json_str(j, "cpu", cpu);
	json_bool(j, "ok", pr->ok);
	if (!pr->ok) {
		json_str(j, "why", pr->why);
		json_end_obj(j);
		return;
	}
	json_str(j, "state_source", pr->booted ? "booted" : "synthesized");
	if (!pr->booted)
		json_str(j, "state_why", pr->state);
	json_hex(j, "entry", pr->entry);
	json_str(j, "entry_desc", pr->entry_desc);
	json_uint(j, "instructions", pr->tr.n);
	json_uint(j, "setup_instructions", pr->setup_insns);
	n = count_functions(img, pr, fc, MAX_FUNCS, &other, &ns);
	json_uint(j, "operations", pr->nops);
	json_uint(j, "warmup", pr->warmup);
	/* per sampled op, the mean */
	json_begin_arr(j, "functions");
	for (unsigned i = 0; i < n; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "name", fc[i].name);
		json_num(j, "instructions", (double)fc[i].insns / ns, 2);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_begin_arr(j, "stubs");
	for (unsigned i = 0; i < pr->tr.nstubs; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "name", pr->tr.stubs[i].name);
		json_uint(j, "calls", pr->tr.stubs[i].count);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_begin_arr(j, "sysregs");
	for (unsigned i = 0; i < pr->tr.nsysregs; i++) {
		sysreg_label(pr->tr.sysregs[i].enc, name, sizeof(name));
		json_begin_obj(j, NULL);
		json_str(j, "reg", name);
		json_str(j, "access", pr->tr.sysregs[i].write ? "write" : "read");
		json_uint(j, "count", pr->tr.sysregs[i].count);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_uint(j, "firmware_calls", pr->tr.firmware_calls);
	json_begin_arr(j, "notes");
	for (unsigned i = 0; i < pr->nnotes; i++)
		json_str(j, NULL, pr->notes[i]);
	json_end_arr(j);
	json_end_obj(j);
}

/* A core's state: booted (how, the overlay, the check) or why not. */
static void state(struct json *j, const char *cpu, const struct hs_session *ses)
{
	const char *notes[12];
	int booted;
	const char *desc = hs_session_state(ses, &booted);
	unsigned n = hs_session_state_notes(ses, notes, 12);

	if (j) {
		json_begin_obj(j, NULL);
		json_str(j, "cpu", cpu);
		json_str(j, "state_source", booted ? "booted" : "synthesized");
		json_str(j, booted ? "state" : "why", desc);
		json_begin_arr(j, "notes");
		for (unsigned i = 0; i < n; i++)
			json_str(j, NULL, notes[i]);
		json_end_arr(j);
		json_end_obj(j);
		return;
	}
	printf("\nstate on %s: %s%s\n", cpu, booted ? "" : "synthesized; no booted state: ", desc);
	for (unsigned i = 0; i < n; i++)
		printf("  %s\n", notes[i]);
}

static void defaults(void *p)
{
	struct paths_opts *o = p;

	o->src = opt_default_source();
	opt_default_cpus(&o->cpus);
	opt_all_paths(&o->paths);
}

/* The walk's stages: each core's state, then each path's run. */
struct printing {
	const struct hs_image *img;
	struct json *j;
};

static int state_stage(void *ctx, const struct hs_patched *pt, struct hs_session *ses)
{
	const struct printing *pr = ctx;

	state(pr->j, pt->core->name, ses);
	return 0;
}

static int run_stage(void *ctx, const struct hs_patched *pt, struct hs_path_run *r)
{
	const struct printing *pr = ctx;

	if (pr->j)
		json_run(pr->j, pr->img, pt->core->name, r);
	else
		print_run(pr->img, pt->core->name, r);
	return 0;
}

static int run(void *p, char **args)
{
	struct paths_opts *o = p;
	int as_json = o->format == FORMAT_JSON, rc = HS_EXIT_OK;
	struct hs_image *img = hs_image_open(args[0]);
	struct ms_options m;
	struct json j;
	struct printing pr = { img, as_json ? &j : NULL };

	if (!img)
		return cli_error();
	opt_paths_for_source(&o->paths, o->src);
	cli_walk_options(&m, &o->cpus, &o->paths, o->src);
	if (as_json) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-paths/1");
		json_str(&j, "image", img->path);
		json_str(&j, "kernel", img->version);
		json_begin_arr(&j, "runs");
	} else {
		printf("image  %s (%s, %s)\n", img->path, img->version, img->compiler);
	}
	if (ms_walk(img, &m, &(struct ms_stages){ .ctx = &pr, .state = state_stage, .run = run_stage }))
		rc = cli_error();
	if (as_json && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	hs_image_close(img);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct paths_opts, cpus, "cores"),
	OPT("path", "LIST", OPT_PATHS, struct paths_opts, paths, "paths"),
	OPT("workload", "FILE", OPT_STRING, struct paths_opts, workload, CLI_WORKLOAD_HELP),
	OPT("state-source", "SRC", OPT_SOURCE, struct paths_opts, src, "booted, synthesized or auto"),
	OPT("format", "FMT", OPT_FORMAT, struct paths_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_paths = {
	.name = "paths", .args = "VMLINUX", .nargs = 1,
	.summary = "run the hot paths: entry, functions, stubs, system registers",
	.opts = opts, .size = sizeof(struct paths_opts), .defaults = defaults, .run = run,
};
