/*
 * cmd_compare.c - `hotsim compare BASE PATCHED` (the report a kernel
 * developer pastes into a patch review) and `hotsim run VMLINUX` (the same
 * table for one image). The library measures and compares
 * (hotsim/measure.h); this file reads options and prints.
 *
 * Exit status: 0, 1 when --fail-above trips, 2 on errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "report.h"
#include "shard.h"

struct cmp_opts {
	struct opt_cpus cpus;
	struct opt_paths paths;
	struct opt_state state;
	enum hs_state_source src;
	const struct hs_path_def *explain, *timeline;
	const char *svg, *md, *txt, *shard;
	struct cli_boot_opts boot_opts;
	struct opt_window window;
	enum opt_format format;
	struct opt_pct fail_above;
	struct opt_params params;
	struct opt_clocks freq;
	struct opt_hz hz;
	long noise;
	long samples;
	long smp;
	const char *turns;
	struct hs_path_set set;		/* the paths' set, booted on smp CPUs */
	long limit;
	int all;
	int svg_bars;
};

static void defaults(void *p)
{
	struct cmp_opts *o = p;

	o->src = opt_default_source();
	opt_default_cpus(&o->cpus);
	opt_all_paths(&o->paths);
	o->state.want[MS_TYPICAL] = 1;
	o->smp = 1;
	o->window.to = 40;
	o->limit = 200;
	/* the rates the seeds' question asks about */
	o->hz.v[0] = 100;
	o->hz.v[1] = 250;
	o->hz.n = 2;
}

/* compare: a verdict needs the layout band, so it is on by default */
static void compare_defaults(void *p)
{
	struct cmp_opts *o = p;

	defaults(p);
	o->noise = 8;
}

static int ms_opts(struct cmp_opts *o, struct ms_options *m)
{
	_Static_assert(HS_ARRAY_SIZE(m->cores) == HS_ARRAY_SIZE(o->cpus.v), "a core list for each");
	_Static_assert(HS_ARRAY_SIZE(m->paths) == HS_ARRAY_SIZE(o->paths.v), "a path list for each");
	memset(m, 0, sizeof(*m));
	opt_paths_for_source(&o->paths, o->src);
	for (int i = 0; i < o->cpus.n; i++)
		m->cores[m->ncores++] = o->cpus.v[i];
	for (int i = 0; i < o->paths.n; i++)
		m->paths[m->npaths++] = o->paths.v[i];
	memcpy(m->want, o->state.want, sizeof(m->want));
	m->samples = (unsigned)o->samples;
	m->src = o->src;
	o->set = *cli_path_set();
	o->set.ncpus = o->smp > 1 ? (unsigned)o->smp : o->set.ncpus;
	m->set = &o->set;
	m->more = cli_more_set((int)o->smp);
	m->noise = (int)o->noise;
	/* a core at a --freq clock counts the DRAM's and the IPI's time in
	 * its cycles, as a board at its clock does; the user's --param wins */
	m->nparams = ms_clock_params(m->cores, m->ncores, o->freq.v, o->freq.n, m->params, MS_MAX_PARAMS);
	if (m->nparams < 0)
		return -1;
	for (int i = 0; i < o->params.n; i++) {
		if (m->nparams == MS_MAX_PARAMS)
			return hs_fail("more than %d parameters", MS_MAX_PARAMS);
		m->params[m->nparams++] = o->params.v[i];
	}
	return 0;
}

static char *timeline_svg_name(const char *svg)
{
	size_t n = strlen(svg);
	char *s = malloc(n + 16);

	if (!s)
		return NULL;
	strcpy(s, svg);
	if (n > 4 && !strcmp(s + n - 4, ".svg"))
		s[n - 4] = 0;
	strcat(s, "-timeline.svg");
	return s;
}

/* The first state asked for: typical, else warm, else cold. */
static enum ms_state first_state(const struct opt_state *st)
{
	for (int s = 0; s < MS_NSTATES; s++)
		if (st->want[s])
			return (enum ms_state)s;
	return MS_TYPICAL;
}

/* The --explain and --timeline runs (in the first state asked for). */
static int details(const struct cmp_opts *o, const struct ms_options *m, const struct ms_image *base,
		   const struct ms_image *patched, struct rp_details *d)
{
	const struct ms_image *imgs[2] = { base, patched };

	d->state = first_state(&o->state);
	d->win = o->window;
	d->limit = o->limit;
	d->explain = o->explain;
	d->timeline = o->timeline;
	for (int i = 0; d->explain && i < m->ncores; i++) {
		d->ncores = i + 1;
		for (int k = 0; k < (patched ? 2 : 1); k++)
			if (ms_detail(imgs[k]->img, m, m->cores[i], d->explain, d->state, &d->ex[i][k]))
				return -1;
	}
	for (int k = 0; d->timeline && k < (patched ? 2 : 1); k++)
		if (ms_detail(imgs[k]->img, m, m->cores[0], d->timeline, d->state, &d->tl[k]))
			return -1;
	return 0;
}

/* markdown without --explain: explain the largest move there is a run of
 * (on its core, in its state), for the reviewer who opens the details */
static int largest_explained(const struct ms_options *m, const struct ms_compare *c, struct rp_details *d)
{
	enum ms_state st = MS_TYPICAL;
	const struct ms_pair *p = ms_compare_explainable(c, &st);
	const struct hs_core *core = p ? p->core : NULL;
	const struct hs_path_def *def = p ? hs_path_find(p->base->path) : NULL;

	if (!core || !def)
		return 0;
	d->explain = def;
	d->state = st;
	d->ncores = 1;
	if (ms_detail(c->base->img, m, core, def, st, &d->ex[0][0]) ||
	    ms_detail(c->patched->img, m, core, def, st, &d->ex[0][1]))
		return -1;
	return 0;
}

static void details_free(struct rp_details *d)
{
	for (int i = 0; i < 16; i++)
		for (int k = 0; k < 2; k++)
			ms_detail_free(&d->ex[i][k]);
	ms_detail_free(&d->tl[0]);
	ms_detail_free(&d->tl[1]);
}

static int svgs(const struct cmp_opts *o, const struct ms_compare *c, const struct rp_details *d)
{
	char *name;
	int rc;

	if (c->patched && rp_svg(o->svg, c, o->all, o->svg_bars))
		return hs_fail("%s: cannot write the SVG", o->svg);
	if (!d->timeline)
		return 0;
	name = timeline_svg_name(o->svg);
	{
		const struct ms_detail *t = &d->tl[c->patched ? 1 : 0];
		size_t at = t->ncount ? t->count[0].begin : 0;	/* in the first counted op */

		rc = !name || rp_timeline_svg(name, t, at + d->win.from, at + d->win.to);
	}
	free(name);
	return rc ? hs_fail("cannot write the timeline SVG") : 0;
}

/* A user workload's row that cannot run is the run's failure (its rows are
 * all the run has): one line, the first such row's reason. */
static int workload_failed(const struct ms_image *b, const struct ms_image *p)
{
	for (int k = 0; k < 2; k++) {
		const struct ms_image *m = k ? p : b;

		for (int i = 0; m && i < m->nrows; i++)
			if (!m->rows[i].ok)
				return hs_fail("%s on %s: %s", m->rows[i].name, m->rows[i].core->name, m->rows[i].why) ||
				       1;
	}
	return 0;
}

/* The report in one format (what --format FMT prints). */
static void report(FILE *f, enum opt_format fmt, const struct cmp_opts *o, const struct ms_compare *c,
		   const struct rp_details *d)
{
	if (fmt == FORMAT_JSON) {
		rp_json(f, c, d);
	} else if (fmt == FORMAT_MARKDOWN) {
		rp_markdown(f, c, d, o->all);
	} else {
		rp_table(f, c, o->all);
		rp_diverge_text(f, c);
		if (o->noise)
			rp_noise_text(f, c, (int)o->noise);
		rp_projection_text(f, c, d);
		rp_details_text(f, c, d);
	}
}

/* --txt, --md: the report in another format into a file, from the same
 * measurement (a CI job's formats from one run, not one run each) */
static int report_to(const char *file, enum opt_format fmt, const struct cmp_opts *o, const struct ms_compare *c,
		     const struct rp_details *d)
{
	FILE *f = fopen(file, "w");
	int bad;

	if (!f)
		return hs_fail("%s: cannot write: %s", file, strerror(errno));
	report(f, fmt, o, c, d);
	bad = ferror(f);
	bad |= fclose(f);
	return bad ? hs_fail("%s: cannot write", file) : 0;
}

/* The markdown file is what --format markdown prints: without --explain it
 * explains the largest move, which the other formats do not carry, so its
 * details are its own (stdout's JSON or text keeps only what was asked). */
static int markdown_to(const struct cmp_opts *o, const struct ms_options *m, const struct ms_compare *c,
		       const struct rp_details *d)
{
	static struct rp_details dm;	/* large: off the stack */
	int rc;

	if (o->format == FORMAT_MARKDOWN || o->explain || !c->patched)
		return report_to(o->md, FORMAT_MARKDOWN, o, c, d);
	/* d's timeline (d has no explain runs here) is lent, not owned: freed
	 * with d, not with dm */
	memcpy(&dm, d, sizeof(dm));
	rc = largest_explained(m, c, &dm) || report_to(o->md, FORMAT_MARKDOWN, o, c, &dm);
	memset(dm.tl, 0, sizeof(dm.tl));
	details_free(&dm);
	return rc ? -1 : 0;
}

/* The rows of a merge: unit (core c, path k) from the shard whose it is,
 * in the order measuring makes them (image by image, core by core, path
 * by path). The images must be the ones the shards measured. */
static int merged_rows(const struct cli_shards *sh, const struct ms_options *m, struct ms_image *const *imgs,
		       int nimg)
{
	for (int s = 0; s < sh->n; s++)
		if (sh->v[s].images->n != (size_t)nimg)
			return hs_fail("%s: rows of %zu images, the command measures %d", sh->v[s].file,
				       sh->v[s].images->n, nimg);
	for (int i = 0; i < nimg; i++) {
		char id[200];
		const char *want;

		shard_image_id(imgs[i]->img, id, sizeof(id));
		for (int s = 0; s < sh->n; s++)
			if (!(want = jr_str(jr_get(&sh->v[s].images->kids[i], "id"))) || strcmp(want, id))
				return hs_fail("%s: not the image %s measured (%s; the shard's: %s)",
					       imgs[i]->img->path, sh->v[s].file, id, want ? want : "none");
		for (int c = 0; c < m->ncores; c++)
			for (int k = 0; k < m->npaths; k++) {
				unsigned u = (unsigned)c * (unsigned)m->npaths + (unsigned)k;

				if (shard_rows(&sh->v[u % (unsigned)sh->n], i, m, c, k, imgs[i]))
					return -1;
			}
	}
	return 0;
}

/* The rows: measured here (a shard of them with --shard), or merged. */
static int rows(struct cmp_opts *o, const struct cli_shards *sh, struct ms_options *m, struct ms_options *mp,
		struct ms_image *const *imgs, int nimg)
{
	if (sh)
		return merged_rows(sh, m, imgs, nimg);
	if (o->shard && shard_parse_spec(o->shard, &m->shard, &m->nshards))
		return -1;
	mp->shard = m->shard;
	mp->nshards = m->nshards;
	return ms_measure_images(imgs, (const struct ms_options *[]){ m, mp }, nimg);
}

/* argv without --shard K/N (or --shard=K/N): what a merge runs again */
static int without_shard(char **out, int max)
{
	int n = 0;

	for (int i = 0; i < cli_argc && n < max; i++) {
		if (!strcmp(cli_argv[i], "--shard")) {
			i++;
			continue;
		}
		if (!strncmp(cli_argv[i], "--shard=", 8))
			continue;
		out[n++] = cli_argv[i];
	}
	return n;
}

int cli_compare(void *opts, const char *base_file, const char *patched_file, const struct cli_shards *sh)
{
	/* large: kept off the stack */
	static struct ms_image base, patched;
	static struct ms_compare c;
	static struct rp_details d;
	struct cmp_opts *o = opts;
	struct ms_options m, mp;
	int rc = HS_EXIT_OK;

	if (ms_opts(o, &m) || cli_turns(o->turns, o->smp, &o->set))
		return cli_error();
	mp = m;
	mp.pin_from = &base;	/* the patched image at the baseline's sites */
	memset(&d, 0, sizeof(d));
	if (o->smp > 1 && (o->state.want[MS_WARM] || o->state.want[MS_COLD] || o->explain || o->timeline ||
			   o->src == HS_SRC_SYNTH))
		return hs_fail("--smp %ld: a machine's rows are its steady round trips from the booted state "
			       "(typical); --state warm/cold, --explain, --timeline and synthesized state "
			       "run one CPU", o->smp), cli_error();
	/* both images opened before either is measured: a bad patched file
	 * is an error at once, not after the baseline's minutes */
	if (cli_check_params(&o->params, &o->cpus) || ms_open(base_file, &base) ||
	    (patched_file && ms_open(patched_file, &patched)) ||
	    rows(o, sh, &m, &mp, (struct ms_image *[]){ &base, &patched }, patched_file ? 2 : 1)) {
		rc = cli_error();
		goto out;
	}
	if (o->shard && !sh) {
		/* a share of the work: its rows, for hotsim merge to report */
		char *argv[128];
		int n = without_shard(argv, (int)HS_ARRAY_SIZE(argv));

		if (shard_write(stdout, n, argv, &m, (struct ms_image *[]){ &base, &patched }, patched_file ? 2 : 1))
			rc = cli_error();
		goto out;
	}
	ms_compare_build(&c, &base, patched_file ? &patched : NULL, o->state.want);
	d.nproj = ms_project(&c, o->freq.v, o->freq.n, o->hz.v, o->hz.n, d.proj, (int)HS_ARRAY_SIZE(d.proj));
	if (details(o, &m, &base, patched_file ? &patched : NULL, &d) ||
	    (o->format == FORMAT_MARKDOWN && patched_file && !o->explain && o->smp == 1 &&
	     largest_explained(&m, &c, &d))) {
		rc = cli_error();
		goto out;
	}
	/* a workload's rows are the whole run: one that cannot run fails it,
	 * before anything is printed */
	if (cli_path_set()->wl && workload_failed(&base, patched_file ? &patched : NULL)) {
		rc = cli_error();
		goto out;
	}
	report(stdout, o->format, o, &c, &d);
	fflush(stdout);
	if ((o->svg && svgs(o, &c, &d)) || (o->txt && report_to(o->txt, FORMAT_TEXT, o, &c, &d)) ||
	    (o->md && markdown_to(o, &m, &c, &d)))
		rc = cli_error();
	if (rc == HS_EXIT_OK && o->fail_above.set && ms_compare_regressed(&c, o->fail_above.v)) {
		fprintf(stderr, "hotsim: a path regressed by more than %.2f%%\n", o->fail_above.v);
		rc = HS_EXIT_REGRESSION;
	}
out:
	details_free(&d);
	ms_free(&base);
	ms_free(&patched);
	return rc;
}

static int run_compare(void *p, char **args)
{
	return cli_compare(p, args[0], args[1], NULL);
}

static int run_run(void *p, char **args)
{
	return cli_compare(p, args[0], NULL, NULL);
}

#define COMMON(t) \
	OPT("cpu", "LIST", OPT_CPUS, t, cpus, "cores"), \
	OPT("path", "LIST", OPT_PATHS, t, paths, "paths"), \
	CLI_BOOT_OPTS(t), \
	OPT("state", "LIST", OPT_STATE, t, state, \
	    "typical (the mean over sampled ops; default), warm, cold, both, all"), \
	OPT_N("samples", "N", t, samples, 2, 1024, \
	      "sampled operations per booted row (default: each path's own, 40 to 128)"), \
	OPT_N("smp", "N", t, smp, 1, 8, \
	      "boot N CPUs, the workload unpinned: each path's round trip across them (default 1)"), \
	CLI_TURNS_OPT(t), \
	OPT("state-source", "SRC", OPT_SOURCE, t, src, \
	    "booted (QEMU boot snapshot), synthesized, or auto (booted where the image boots)"), \
	OPT("explain", "PATH", OPT_PATH, t, explain, "where a path's cycles go: per function, per instruction"), \
	OPT("timeline", "PATH", OPT_PATH, t, timeline, "a path's pipeline timeline (first core)"), \
	OPT("window", "A:B", OPT_WINDOW, t, window, "timeline records A..B-1 (default 0:40)"), \
	OPT("svg", "FILE", OPT_STRING, t, svg, "the compare picture to FILE (and FILE-timeline.svg with --timeline)"), \
	OPT("param", "[CORE.]NAME=V", OPT_PARAM, t, params, "override a model parameter (repeatable)"), \
	OPT("freq", "[CORE=]F", OPT_CLOCK, t, freq, "a core's clock (a55=1.8GHz; repeatable): the projection's, and the DRAM's and IPI's time in its cycles"), \
	OPT("hz", "LIST", OPT_HZ, t, hz, "tick rates the projection adds the tick at (default 100,250)"), \
	OPT_N("noise", "N", t, noise, 0, 16, \
	      "layout noise band: cost again in N layouts with part of each path moved (compare: 8)"), \
	OPT_N("limit", "N", t, limit, 0, 100000, "lines of --explain (default 200)"), \
	OPT("shard", "K/N", OPT_STRING, t, shard, \
	    "measure the K-th of N shares of the work and print its rows (JSON) for hotsim merge"), \
	OPT_CHOICE("format", "FMT", OPT_FORMAT, t, format, "text markdown json", \
		   "text, markdown (pull requests) or json (--json, with --explain/--timeline)")

static const struct cli_opt compare_opts[] = {
	COMMON(struct cmp_opts),
	OPT("txt", "FILE", OPT_STRING, struct cmp_opts, txt, "the text report to FILE too, from the same run"),
	OPT("md", "FILE", OPT_STRING, struct cmp_opts, md, "the markdown report to FILE too, from the same run"),
	OPT("fail-above", "PCT", OPT_PERCENT, struct cmp_opts, fail_above,
	    "exit 1 when a result regresses significantly, (R), by more than PCT%"),
	OPT("all", NULL, OPT_FLAG, struct cmp_opts, all, "list unchanged results too"),
	OPT("svg-bars", NULL, OPT_FLAG, struct cmp_opts, svg_bars,
	    "with --svg: the absolute cycles as bars too, below the changes"),
	OPT_TABLE_END
};

static const struct cli_opt run_opts[] = {
	COMMON(struct cmp_opts),
	OPT_TABLE_END
};

static const char *const compare_notes[] = {
	"exit status: 0; 1 when --fail-above trips; 2 on errors",
	"with --shard K/N: the share's rows only (hotsim merge prints the report, every other option acts there)",
	NULL
};

const struct cli_cmd cmd_compare = {
	.name = "compare", .args = "BASE PATCHED", .nargs = 2,
	.summary = "base vs patched: cycles, delta and delta% per path, core and state",
	.notes = compare_notes,
	.opts = compare_opts, .size = sizeof(struct cmp_opts), .defaults = compare_defaults,
	.run = run_compare,
};

const struct cli_cmd cmd_run = {
	.name = "run", .args = "VMLINUX", .nargs = 1,
	.summary = "cycles per path, core and state for one image",
	.opts = run_opts, .size = sizeof(struct cmp_opts), .defaults = defaults, .run = run_run,
};
