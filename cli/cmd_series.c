/*
 * cmd_series.c - `hotsim series TREE (--commits BASE..TIP | --patches
 * PATH)`: a patch series measured commit by commit - a column per commit,
 * the first commit of every move, each explained against its parent. The
 * library decides what to build and measure (hotsim/series.h); the
 * hotsim-series script builds (series_build.c); this file reads the
 * options, makes the --explain runs and prints.
 *
 * Exit status: 0; 2 on errors (a commit that does not build is a column,
 * not an error; the base that does not is one).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "series_cli.h"

#define MAX_EXPLAIN 16

struct series_opts {
	const char *commits, *patches, *config, *cc, *md, *txt;
	struct opt_cpus cpus;
	struct opt_paths paths;
	enum hs_state_source src;
	enum opt_format format;
	long samples, noise, limit;
	int every, vs_parent, all;
};

static void defaults(void *p)
{
	struct series_opts *o = p;

	o->src = opt_default_source();
	opt_default_cpus(&o->cpus);
	opt_all_paths(&o->paths);
	o->noise = 8;	/* a verdict needs the layout band, as compare's */
	o->limit = 40;
}

static void ms_opts(struct series_opts *o, struct ms_options *m)
{
	memset(m, 0, sizeof(*m));
	opt_paths_for_source(&o->paths, o->src);
	for (int i = 0; i < o->cpus.n; i++)
		m->cores[m->ncores++] = o->cpus.v[i];
	for (int i = 0; i < o->paths.n; i++)
		m->paths[m->npaths++] = o->paths.v[i];
	m->want[MS_TYPICAL] = 1;
	m->samples = (unsigned)o->samples;
	m->src = o->src;
	m->set = cli_path_set();
	m->more = cli_more_set(0);
	m->noise = (int)o->noise;
}

/* Explain a step: a whole path's row (not a sub-row or the census), the
 * first of its (commit, path) or a larger move of the same. */
static int explain_slot(struct series_report *r, const struct ms_step *st)
{
	const struct ms_row *row = ms_series_row(r->s, 0, st->row);

	if (row->sites || strcmp(row->name, row->path) || !r->s->c[st->parent].m)
		return -1;
	for (int i = 0; i < r->nex; i++)
		if (r->ex[i].step->commit == st->commit && !strcmp(r->ex[i].def->name, row->path)) {
			if (fabs(st->mv.pct) > fabs(r->ex[i].step->mv.pct))
				r->ex[i].step = st;
			return -1;
		}
	if (r->nex == MAX_EXPLAIN)
		return -1;
	r->ex[r->nex].step = st;
	r->ex[r->nex].def = hs_path_find(row->path);
	return r->ex[r->nex].def ? r->nex++ : -1;
}

/* The --explain runs of the steps: each commit against its parent. */
static int explains(struct series_report *r, const struct ms_options *m)
{
	const struct ms_series *s = r->s;

	if (!r->limit)
		return 0;
	for (int i = 0; i < s->nsteps; i++)
		explain_slot(r, &s->steps[i]);
	for (int i = 0; i < r->nex; i++) {
		const struct ms_step *st = r->ex[i].step;
		const struct hs_core *core = ms_series_row(s, 0, st->row)->core;
		struct ms_options pinned = *m;

		pinned.pin_from = s->c[0].m;
		if (ms_detail(s->c[st->parent].m->img, st->parent ? &pinned : m, core, r->ex[i].def, MS_TYPICAL,
			      &r->ex[i].d[0]) ||
		    ms_detail(s->c[st->commit].m->img, &pinned, core, r->ex[i].def, MS_TYPICAL, &r->ex[i].d[1]))
			return -1;
	}
	return 0;
}

static void report(FILE *f, enum opt_format fmt, const struct series_report *r)
{
	if (fmt == FORMAT_JSON)
		rp_series_json(f, r);
	else if (fmt == FORMAT_MARKDOWN)
		rp_series_markdown(f, r);
	else
		rp_series_text(f, r);
}

/* --md, --txt: another format into a file, from the same run */
static int report_to(const char *file, enum opt_format fmt, const struct series_report *r)
{
	FILE *f;
	int bad;

	if (!file)
		return 0;
	if (!(f = fopen(file, "w")))
		return hs_fail("%s: cannot write: %s", file, strerror(errno));
	report(f, fmt, r);
	bad = ferror(f);
	bad |= fclose(f);
	return bad ? hs_fail("%s: cannot write", file) : 0;
}

static int run(void *p, char **args)
{
	/* large: kept off the stack */
	static struct ms_series s;
	static struct series_script sc;
	static struct series_explain ex[MAX_EXPLAIN];
	struct series_opts *o = p;
	struct series_report r = { .s = &s, .tree = args[0], .vs_parent = o->vs_parent, .all = o->all,
				   .limit = o->limit, .ex = ex };
	int rc = HS_EXIT_OK;

	if (!!o->commits == !!o->patches) {
		fprintf(stderr, "hotsim series: give one of --commits BASE..TIP and --patches PATH "
				"(hotsim series --help)\n");
		return HS_EXIT_ERROR;
	}
	sc = (struct series_script){ .tree = args[0], .commits = o->commits, .patches = o->patches,
				     .config = o->config, .cc = o->cc };
	if (cli_script("hotsim-series", "HOTSIM_SERIES", sc.script, sizeof(sc.script))) {
		hs_fail("series: no hotsim-series script beside hotsim (make install puts it there)");
		return cli_error();
	}
	memset(&s, 0, sizeof(s));
	ms_opts(o, &s.o);
	s.every = o->every;
	if (series_list(&sc, &s) || ms_series_run(&s, &(struct ms_series_builder){ &sc, series_build }) ||
	    explains(&r, &s.o)) {
		rc = cli_error();
	} else {
		report(stdout, o->format, &r);
		fflush(stdout);
		if (report_to(o->md, FORMAT_MARKDOWN, &r) || report_to(o->txt, FORMAT_TEXT, &r))
			rc = cli_error();
	}
	for (int i = 0; i < r.nex; i++) {
		ms_detail_free(&ex[i].d[0]);
		ms_detail_free(&ex[i].d[1]);
	}
	ms_series_free(&s);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("commits", "BASE..TIP", OPT_STRING, struct series_opts, commits,
	    "TREE is a git checkout: the commits after BASE up to TIP (first parents)"),
	OPT("patches", "PATH", OPT_STRING, struct series_opts, patches,
	    "an mbox (git format-patch --stdout), a patch, a directory of patches or a quilt series"),
	OPT("config", "FILE", OPT_STRING, struct series_opts, config,
	    "fragment merged onto allnoconfig, or defconfig (default: hotsim's base.config)"),
	OPT_CHOICE("cc", "CC", OPT_STRING, struct series_opts, cc, "gcc clang",
		   "gcc (aarch64-linux-gnu-, the default) or clang (LLVM=1)"),
	OPT("every", NULL, OPT_FLAG, struct series_opts, every,
	    "build and measure every commit (default: bisect, the base and the tip, then the moves)"),
	OPT("vs-parent", NULL, OPT_FLAG, struct series_opts, vs_parent,
	    "each commit's column against its parent (default: against the base)"),
	OPT("all", NULL, OPT_FLAG, struct series_opts, all, "list the rows no commit moved too"),
	OPT("cpu", "LIST", OPT_CPUS, struct series_opts, cpus, "cores"),
	OPT("path", "LIST", OPT_PATHS, struct series_opts, paths, "paths"),
	OPT_N("samples", "N", struct series_opts, samples, 2, 1024,
	      "sampled operations per booted row (default: each path's own, 40 to 128)"),
	OPT("state-source", "SRC", OPT_SOURCE, struct series_opts, src,
	    "booted (QEMU boot snapshot), synthesized, or auto (booted where the image boots)"),
	OPT_N("noise", "N", struct series_opts, noise, 0, 16,
	      "layout noise band: cost again in N layouts (default 8; a verdict needs it)"),
	OPT_N("limit", "N", struct series_opts, limit, 0, 100000,
	      "lines of each step's explain (default 40; 0: none)"),
	OPT_CHOICE("format", "FMT", OPT_FORMAT, struct series_opts, format, "text markdown json",
		   "text, markdown (pull requests) or json (--json)"),
	OPT("md", "FILE", OPT_STRING, struct series_opts, md, "the markdown report to FILE too, from the same run"),
	OPT("txt", "FILE", OPT_STRING, struct series_opts, txt, "the text report to FILE too, from the same run"),
	OPT_TABLE_END
};

static const char *const notes[] = {
	"each commit built with hotsim pair's recipe and cache, incrementally from the nearest built",
	"earlier commit; a commit that does not apply, build or boot is a column that says so",
	"bisect builds the base and the tip, then at most ceil(log2 n) commits a step of a move",
	"exit status: 0; 2 on errors (the base does not build, a measuring error)",
	NULL
};

const struct cli_cmd cmd_series = {
	.name = "series", .args = "TREE", .nargs = 1,
	.summary = "a patch series commit by commit: which commit moved which path",
	.notes = notes,
	.opts = opts, .size = sizeof(struct series_opts), .defaults = defaults, .run = run,
};
