/*
 * cmd_validate.c - `hotsim validate VMLINUX`: each path's instruction
 * stream in hotsim's replay of the booted state against QEMU's own from
 * the same snapshot point: "identical, N instructions", or the first
 * divergence (pc as symbol+offset, both next pcs).
 *
 * Exit status: 0 when every stream compared is identical, 1 when one
 * differs, 2 on errors (a path that cannot be checked says why; one whose
 * operation the kernel cannot run is not an error).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/paths.h"
#include "json.h"

struct validate_opts {
	struct opt_cpus cpus;
	long smp;
	struct opt_paths paths;
	struct cli_boot_opts boot_opts;
	enum opt_format format;
};

static void defaults(void *p)
{
	struct validate_opts *o = p;

	opt_default_cpus(&o->cpus);
	opt_all_paths(&o->paths);
	o->smp = 1;
}

static void text(const struct hs_image *img, const char *cpu, const struct hs_validation *v)
{
	char a[128], b[128], c[128];

	char cpus[40] = "", which[24] = "", runs[80] = "";

	if (v->ncpus > 1) {
		snprintf(cpus, sizeof(cpus), " on %u CPUs", v->ncpus);
		snprintf(which, sizeof(which), " on cpu%u", v->cpu);
	}
	/* QEMU's clock on more than one CPU moves with the host (validate_machine.c) */
	if (v->qemu_runs > 1)
		snprintf(runs, sizeof(runs), v->identical ? ", QEMU's run %u: the earlier ones' clocks moved with the host"
							  : ", QEMU's run %u: the earlier ones differed too", v->qemu_runs);
	if (!v->ran)
		printf("%-16s %-4s cannot validate: %s\n", v->def->name, cpu, v->why);
	else if (v->identical)
		printf("%-16s %-4s identical%s, %u ops, %zu instructions from the %s point (%s%s)\n",
		       v->def->name, cpu, cpus, v->nops, v->n, v->point, v->how, runs);
	else
		printf("%-16s %-4s differs%s after %zu instructions from the %s point (%s%s): at %s, hotsim next %s, QEMU next %s\n",
		       v->def->name, cpu, which, v->at, v->point, v->how, runs, v->at ? hs_addr_fmt(img, v->pc, a, sizeof(a)) : "the start",
		       hs_addr_fmt(img, v->next_replay, b, sizeof(b)), hs_addr_fmt(img, v->next_qemu, c, sizeof(c)));
}

static void json(struct json *j, const char *cpu, const struct hs_validation *v)
{
	json_begin_obj(j, NULL);
	json_str(j, "path", v->def->name);
	json_str(j, "cpu", cpu);
	json_str(j, "result", !v->ran ? "not_validated" : v->identical ? "identical" : "differs");
	if (!v->ran)
		json_str(j, "why", v->why);
	else {
		json_str(j, "point", v->point);
		json_str(j, "qemu_run", v->how);
		json_uint(j, "operations", v->nops);
		json_uint(j, "instructions", v->identical ? v->n : v->at);
		if (v->ncpus > 1) {
			json_uint(j, "cpus", v->ncpus);
			json_uint(j, "qemu_runs", v->qemu_runs);
		}
	}
	if (v->ran && !v->identical) {
		json_hex(j, "pc", v->pc);
		json_hex(j, "next_hotsim", v->next_replay);
		json_hex(j, "next_qemu", v->next_qemu);
		if (v->ncpus > 1)
			json_uint(j, "differs_on_cpu", v->cpu);
	}
	json_end_obj(j);
}

/* The walk's validation stage: each path's result on a core, and the
 * first path with a booted form that could not be checked (no plugin, no
 * QEMU, a boot that failed): it checked nothing. */
struct printing {
	const struct validate_opts *o;
	const struct hs_image *img;
	struct json *j;
	int differs;
	char unchecked[900];
};

static int validated_stage(void *ctx, const struct hs_patched *pt, const struct hs_validation *v, int n)
{
	struct printing *p = ctx;

	for (int k = 0; k < n; k++) {
		if (p->j)
			json(p->j, pt->core->name, &v[k]);
		else
			text(p->img, pt->core->name, &v[k]);
		p->differs |= v[k].ran && !v[k].identical;
		/* a path this kernel cannot run is no error: its line says why */
		if (!v[k].ran && v[k].def->boot.point && !v[k].unrunnable && !p->unchecked[0])
			snprintf(p->unchecked, sizeof(p->unchecked), "%s on %s: not validated: %s",
				 v[k].def->name, pt->core->name, v[k].why);
	}
	return 0;
}

static int run(void *p, char **args)
{
	const struct validate_opts *o = p;
	struct hs_image *img = hs_image_open(args[0]);
	struct hs_path_set set = *cli_path_set();
	struct ms_options m;
	struct json j;
	struct printing pr = { .o = o, .img = img, .j = o->format == FORMAT_JSON ? &j : NULL };
	int rc = HS_EXIT_OK;

	if (!img)
		return cli_error();
	cli_walk_options(&m, &o->cpus, &o->paths, HS_SRC_AUTO);
	set.ncpus = (unsigned)o->smp;
	m.set = &set;
	m.more = cli_more_set((int)o->smp);
	if (o->format == FORMAT_JSON) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-validate/1");
		json_str(&j, "image", img->path);
		json_begin_arr(&j, "results");
	} else {
		printf("hotsim validate %s: hotsim's replay vs QEMU's run from the same snapshot point\n\n",
		       img->path);
	}
	if (ms_walk(img, &m, &(struct ms_stages){ .ctx = &pr, .validated = validated_stage }))
		rc = cli_error();
	else if (pr.differs)
		rc = HS_EXIT_REGRESSION;
	else if (pr.unchecked[0]) {
		hs_fail("%s", pr.unchecked);
		rc = cli_error();
	}
	if (o->format == FORMAT_JSON && rc != HS_EXIT_ERROR) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	hs_image_close(img);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct validate_opts, cpus, "cores"),
	OPT("path", "LIST", OPT_PATHS, struct validate_opts, paths, "paths"),
	OPT_N("smp", "N", struct validate_opts, smp, 1, 8,
	      "a machine of N CPUs: every CPU's stream (from validation's own boot; a path whose operation returns to its site)"),
	CLI_BOOT_OPTS(struct validate_opts),
	OPT("format", "FMT", OPT_FORMAT, struct validate_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

static const char *const notes[] = {
	"boots the image again under QEMU (the snapshot must come out the same), restores each point",
	"with hotsim's per-core overlay written into it and records, by a TCG plugin, what QEMU runs",
	"from there, free-running, through every operation the replay samples (warm-up included);",
	"with --smp N, a machine of N CPUs: every CPU's stream, from validation's own boot;",
	"exit 0: every stream identical, 1: one differs, 2: error or a path with a booted form not validated "
	"(one whose operation the kernel cannot run is not an error)",
	NULL
};

const struct cli_cmd cmd_validate = {
	.name = "validate", .args = "VMLINUX", .nargs = 1,
	.summary = "compare each path's replayed stream with QEMU's from the same boot snapshot",
	.notes = notes,
	.opts = opts, .size = sizeof(struct validate_opts), .defaults = defaults, .run = run,
};
