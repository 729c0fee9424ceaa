/*
 * cmd_trace.c - `hotsim trace VMLINUX PATH`: the dynamic instruction stream
 * of one path on each selected core (index, address, symbol+offset,
 * disassembly, data address), at most --limit lines per core: the whole
 * run (each operation marked) or one operation of it (--op). With --smp N
 * a machine path's round trip, every CPU's stream (trace_machine.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/paths.h"
#include "json.h"

struct trace_opts {
	struct opt_cpus cpus;
	enum hs_state_source src;
	long limit;
	long op;			/* -1: the whole run */
	long smp;
	const char *turns;
	struct cli_boot_opts boot_opts;
	enum opt_format format;
};

static void defaults(void *p)
{
	struct trace_opts *o = p;

	o->src = opt_default_source();
	opt_default_cpus(&o->cpus);
	o->limit = 2000;
	o->op = -1;
	o->smp = 1;
}

/* The records [*begin, *end) to print: the whole run, or operation op. */
static int op_range(const struct hs_path_run *pr, long op, size_t *begin, size_t *end)
{
	*begin = 0;
	*end = pr->tr.n;
	if (op < 0)
		return 0;
	if (!pr->nops || op >= (long)pr->nops)
		return hs_fail("%s: --op %ld, but the run has %u operations (0..%u)", pr->def->name, op,
			       pr->nops ? pr->nops : 1, pr->nops ? pr->nops - 1 : 0);
	*begin = pr->ops[op].begin;
	*end = pr->ops[op].end;
	return 0;
}

/* "# op K" before the first record of each operation (whole runs only). */
static void op_marks(const struct hs_path_run *pr, size_t i, long op)
{
	for (unsigned k = 0; op < 0 && k < pr->nops; k++)
		if (pr->ops[k].begin == i)
			printf("# op %u (%s)\n", k, k < pr->warmup ? "warm-up" : "sample");
}

void cli_trace_line(const struct hs_image *img, const struct hs_trace *tr, size_t i)
{
	const struct hs_tinsn *t = &tr->v[i];
	uint64_t pc = hs_trace_pc(tr, i);
	char where[128], text[96];

	a64_disasm(hs_trace_insn(tr, i)->word, pc, text, sizeof(text));
	printf("%6zu  %016llx  %-40s %s", i, (unsigned long long)pc, hs_addr_fmt(img, pc, where, sizeof(where)),
	       text);
	if (t->addr)
		printf("%*s[0x%llx]", strlen(text) < 40 ? (int)(41 - strlen(text)) : 1, "",
		       (unsigned long long)t->addr);
	if (t->flags & HS_T_STUB)
		printf(" <stubbed callee>");
	if (t->flags & HS_T_FIRMWARE)
		printf(" <firmware>");
	if (t->flags & HS_T_SYSREG_EMU)
		printf(" <emulated sysreg>");
	if (t->flags & HS_T_REMOTE)
		printf(" <line another CPU wrote>");
	printf("\n");
}

void cli_trace_json(struct json *j, const struct hs_image *img, const struct hs_trace *tr, size_t i)
{
	char where[128], text[96];
	uint64_t pc = hs_trace_pc(tr, i);

	a64_disasm(hs_trace_insn(tr, i)->word, pc, text, sizeof(text));
	json_begin_obj(j, NULL);
	json_hex(j, "pc", pc);
	json_str(j, "at", hs_addr_fmt(img, pc, where, sizeof(where)));
	json_str(j, "insn", text);
	if (tr->v[i].addr)
		json_hex(j, "addr", tr->v[i].addr);
	json_end_obj(j);
}

static void text_stream(const struct hs_image *img, const struct hs_core *core,
			const struct hs_path_run *pr, long limit, long op, size_t from, size_t to)
{
	printf("# %s on %s (%s): %zu instructions from %s\n", pr->def->name, core->name, core->full,
	       pr->tr.n, pr->entry_desc);
	if (op >= 0)
		printf("# op %ld (%s): records %zu..%zu\n", op, op < (long)pr->warmup ? "warm-up" : "sample",
		       from, to - 1);
	for (size_t i = from; i < to; i++) {
		if ((long)(i - from) >= limit) {
			printf("# ... %zu more instructions (raise --limit)\n", to - i);
			break;
		}
		op_marks(pr, i, op);
		cli_trace_line(img, &pr->tr, i);
	}
}

static void json_stream(struct json *j, const struct hs_image *img, const struct hs_core *core,
			const struct hs_path_run *pr, long limit, long op, size_t from, size_t to)
{
	json_begin_obj(j, NULL);
	json_str(j, "cpu", core->name);
	json_str(j, "entry_desc", pr->entry_desc);
	json_uint(j, "instructions", pr->tr.n);
	json_uint(j, "operations", pr->nops);
	json_uint(j, "warmup", pr->warmup);
	if (op >= 0)
		json_uint(j, "op", (uint64_t)op);
	json_begin_arr(j, "stream");
	for (size_t i = from; i < to && (long)(i - from) < limit; i++)
		cli_trace_json(j, img, &pr->tr, i);
	json_end_arr(j);
	json_bool(j, "truncated", (long)(to - from) > limit);
	json_end_obj(j);
}

/* The walk's run stage: one path's stream per core; a run that cannot go
 * on ends the walk, with what it ran until it failed. */
struct printing {
	const struct trace_opts *o;
	const struct hs_image *img;
	struct json *j;
	int ncores;
};

static int run_stage(void *ctx, const struct hs_patched *pt, struct hs_path_run *pr)
{
	struct printing *p = ctx;
	const struct trace_opts *o = p->o;
	size_t from, to;

	if (!pr->ok) {
		if (pr->tr.n && !p->j) {
			size_t n = (size_t)o->limit < pr->tr.n ? (size_t)o->limit : pr->tr.n;

			printf("# %s on %s failed after %zu instructions; the last %zu:\n", pr->def->name,
			       pt->core->name, pr->tr.n, n);
			text_stream(p->img, pt->core, pr, o->limit, -1, pr->tr.n - n, pr->tr.n);
		}
		return hs_fail("%s on %s cannot run: %s", pr->def->name, pt->core->name, pr->why);
	}
	if (op_range(pr, o->op, &from, &to))
		return -1;
	if (p->j) {
		json_stream(p->j, p->img, pt->core, pr, o->limit, o->op, from, to);
	} else {
		if (p->ncores++)
			printf("\n");
		text_stream(p->img, pt->core, pr, o->limit, o->op, from, to);
	}
	return 0;
}

static int run(void *p, char **args)
{
	const struct trace_opts *o = p;
	const struct hs_path_def *def = cli_path_find(args[1]);
	struct opt_paths one = { .v = { def }, .n = 1 };
	struct hs_image *img;
	struct ms_options m;
	struct json j;
	struct printing pr = { .o = o, .j = o->format == FORMAT_JSON ? &j : NULL };
	int rc = HS_EXIT_OK;

	if (!def && cli_path_program(args[1]))
		return hs_fail("%.40s is %s's path, and trace replays one boot: add --workload %s", args[1],
			       cli_path_program(args[1]), cli_path_program(args[1])), cli_error();
	if (!def)
		return hs_fail("unknown path '%.40s' (hotsim paths --help lists them)", args[1]), cli_error();
	if (o->smp > 1 && o->src == HS_SRC_SYNTH)
		return hs_fail("--smp %ld replays a booted machine; synthesized state runs one CPU", o->smp),
		       cli_error();
	if ((o->smp > 1 && cli_machine_path(def)) || cli_turns(o->turns, o->smp, NULL))
		return cli_error();
	if (!(img = hs_image_open(args[0])))
		return cli_error();
	pr.img = img;
	cli_walk_options(&m, &o->cpus, &one, o->src);
	if (o->format == FORMAT_JSON) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-trace/1");
		json_str(&j, "image", img->path);
		json_str(&j, "path", def->name);
		if (o->smp > 1)
			json_uint(&j, "smp", (uint64_t)o->smp);
		json_begin_arr(&j, "cpus");
	}
	if (o->smp > 1 ? cli_trace_machine(img, &o->cpus, &(struct cli_machine_trace){
			.d = def, .smp = (unsigned)o->smp, .turns = o->turns, .op = o->op, .limit = o->limit,
			.json = pr.j })
		       : ms_walk(img, &m, &(struct ms_stages){ .ctx = &pr, .run = run_stage }))
		rc = cli_error();
	if (o->format == FORMAT_JSON && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	hs_image_close(img);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct trace_opts, cpus, "cores"),
	OPT("state-source", "SRC", OPT_SOURCE, struct trace_opts, src, "booted, synthesized or auto"),
	CLI_BOOT_OPTS(struct trace_opts),
	OPT_N("smp", "N", struct trace_opts, smp, 1, 8,
	      "a machine of N CPUs: every CPU's stream of the path's round trip (default 1)"),
	CLI_TURNS_OPT(struct trace_opts),
	OPT_N("limit", "N", struct trace_opts, limit, 0, MS_TRACE_CAP,
	      "instructions printed per core (with --smp: per CPU and operation; default 2000)"),
	OPT_N("op", "N", struct trace_opts, op, 0, 1000000,
	      "only operation N of the run (0: the first; the first ones are warm-up)"),
	OPT("format", "FMT", OPT_FORMAT, struct trace_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_trace = {
	.name = "trace", .args = "VMLINUX PATH", .nargs = 2,
	.summary = "one path's instruction stream (capped at --limit)",
	.opts = opts, .size = sizeof(struct trace_opts), .defaults = defaults, .run = run,
};
