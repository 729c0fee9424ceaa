/*
 * cmd_compare.c - `hotsim compare BASE PATCHED` (the report a kernel
 * developer pastes into a patch review) and `hotsim run VMLINUX` (the same
 * table for one image).
 *
 *   --cpu a53,a55,a73   --path NAME,...   --state warm|cold|both
 *   --explain PATH      --timeline PATH [--window A:B]
 *   --svg FILE          --json            --fail-above PCT
 *   --param core.name=value (repeatable)  --limit N (explain lines)
 *
 * Exit status: 0, 1 when --fail-above trips, 2 on errors.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "report.h"

struct opts {
	struct ms_options ms;
	const char *explain, *timeline, *svg;
	size_t win_from, win_to;
	int json;
	double fail_above;
	int have_fail_above;
	long limit;
};

static int parse_window(const char *arg, size_t *a, size_t *b)
{
	char *end;
	long x = strtol(arg, &end, 10), y;

	if (end == arg || *end != ':' || x < 0)
		return -1;
	y = strtol(end + 1, &end, 10);
	if (*end || y <= x || y - x > 2000)
		return -1;
	*a = (size_t)x;
	*b = (size_t)y;
	return 0;
}

static int parse(const char *cmd, int argc, char **argv, struct opts *o, int nimages)
{
	static const struct option lopts[] = {
		{ "cpu", required_argument, NULL, 'c' },      { "path", required_argument, NULL, 'p' },
		{ "state", required_argument, NULL, 's' },    { "explain", required_argument, NULL, 'e' },
		{ "timeline", required_argument, NULL, 't' }, { "window", required_argument, NULL, 'w' },
		{ "svg", required_argument, NULL, 'g' },      { "json", no_argument, NULL, 'j' },
		{ "fail-above", required_argument, NULL, 'f' }, { "param", required_argument, NULL, 'P' },
		{ "limit", required_argument, NULL, 'n' },    { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	o->ms.want_warm = o->ms.want_cold = 1;
	o->ms.warm_max_iter = 8;
	o->win_to = 40;
	o->limit = 200;
	optind = 1;
	opterr = 0;	/* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "c:p:s:e:t:w:g:jf:P:n:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if ((o->ms.ncores = cli_parse_cpus(optarg, o->ms.cores, 8)) < 0)
				return cli_error();
			break;
		case 'p':
			if ((o->ms.npaths = cli_parse_paths(optarg, o->ms.paths, 16)) < 0)
				return cli_error();
			break;
		case 's':
			o->ms.want_warm = !strcmp(optarg, "warm") || !strcmp(optarg, "both");
			o->ms.want_cold = !strcmp(optarg, "cold") || !strcmp(optarg, "both");
			if (!o->ms.want_warm && !o->ms.want_cold)
				return cli_usage(cmd, "--state is warm, cold or both");
			break;
		case 'e': o->explain = optarg; break;
		case 't': o->timeline = optarg; break;
		case 'w':
			if (parse_window(optarg, &o->win_from, &o->win_to))
				return cli_usage(cmd, "--window A:B with 0 <= A < B, at most 2000 records");
			break;
		case 'g': o->svg = optarg; break;
		case 'j': o->json = 1; break;
		case 'f':
			o->fail_above = strtod(optarg, &end);
			if (end == optarg || *end || o->fail_above < 0)
				return cli_usage(cmd, "--fail-above needs a non-negative percentage");
			o->have_fail_above = 1;
			break;
		case 'P':
			if (o->ms.nparams >= MS_MAX_PARAMS)
				return cli_usage(cmd, "too many --param options");
			if (ms_parse_param(optarg, &o->ms.params[o->ms.nparams++]))
				return cli_error();
			break;
		case 'n':
			if ((o->limit = cli_parse_count(optarg)) < 0)
				return cli_usage(cmd, "--limit needs a non-negative number");
			break;
		case 'h':
			printf("usage: hotsim %s %s [--cpu a53,a55,a73] [--path NAME,...] [--state warm|cold|both]\n"
			       "       [--explain PATH] [--timeline PATH [--window A:B]] [--svg FILE] [--json]\n"
			       "       %s[--param core.name=value] [--limit N]\n",
			       cmd, nimages == 2 ? "BASE PATCHED" : "VMLINUX",
			       nimages == 2 ? "[--fail-above PCT] " : "");
			return -2;
		default:
			return cli_usage(cmd, "see hotsim %s --help", cmd);
		}
	}
	if (argc - optind != nimages)
		return cli_usage(cmd, "expects %s", nimages == 2 ? "BASE and PATCHED images" : "one VMLINUX");
	if (!o->ms.ncores)
		o->ms.ncores = cli_parse_cpus("all", o->ms.cores, 8);
	if (!o->ms.npaths)
		o->ms.npaths = cli_parse_paths("all", o->ms.paths, 16);
	if ((o->explain && !hs_path_find(o->explain)) || (o->timeline && !hs_path_find(o->timeline)))
		return cli_usage(cmd, "unknown path '%s' for --explain/--timeline",
				 o->explain && !hs_path_find(o->explain) ? o->explain : o->timeline);
	return 0;
}

/* Any selected (warm, else cold) result regressing by more than pct. */
static int regressed(const struct rp_compare *c, double pct)
{
	for (int i = 0; i < c->npairs; i++) {
		const struct rp_pair *p = &c->pairs[i];

		if (!p->base || !p->patched || !p->base->ok || !p->patched->ok)
			continue;
		if (c->want_warm && rp_delta_pct(p->base->warm.cycles, p->patched->warm.cycles) > pct)
			return 1;
		if (c->want_cold && rp_delta_pct(p->base->cold.cycles, p->patched->cold.cycles) > pct)
			return 1;
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

static int details(const struct opts *o, const struct ms_image *base, const struct ms_image *patched)
{
	const int warm = o->ms.want_warm;

	if (o->explain) {
		const struct hs_path_def *d = hs_path_find(o->explain);

		for (int i = 0; i < o->ms.ncores; i++) {
			struct ms_detail b, p = { 0 };	/* freed whether or not it was made */
			int rc = ms_detail(base->img, &o->ms, o->ms.cores[i], d, warm, &b);

			if (!patched) {		/* run: one image */
				if (!rc)
					rp_explain_one(stdout, &b, o->limit);
				ms_detail_free(&b);
				if (rc)
					return -1;
				continue;
			}
			if (!rc)
				rc = ms_detail(patched->img, &o->ms, o->ms.cores[i], d, warm, &p);
			if (!rc)
				rp_explain(stdout, &b, &p, o->limit);
			ms_detail_free(&b);
			ms_detail_free(&p);
			if (rc)
				return -1;
		}
	}
	if (o->timeline) {
		const struct hs_path_def *d = hs_path_find(o->timeline);
		const struct ms_image *imgs[2] = { base, patched };
		const char *labels[2] = { "base", "patched" };

		for (int k = 0; k < 2 && imgs[k]; k++) {
			struct ms_detail dt;
			char label[64];

			if (ms_detail(imgs[k]->img, &o->ms, o->ms.cores[0], d, warm, &dt)) {
				ms_detail_free(&dt);
				return -1;
			}
			snprintf(label, sizeof(label), "%s, %s", patched ? labels[k] : "image", warm ? "warm" : "cold");
			rp_timeline(stdout, label, &dt, o->win_from, o->win_to);
			if (o->svg && (k == 1 || !patched)) {
				char *name = timeline_svg_name(o->svg);

				if (!name || rp_timeline_svg(name, &dt, o->win_from, o->win_to)) {
					free(name);
					ms_detail_free(&dt);
					return hs_fail("cannot write the timeline SVG");
				}
				free(name);
			}
			ms_detail_free(&dt);
		}
	}
	return 0;
}

static int compare_or_run(const char *cmd, int argc, char **argv, int nimages)
{
	static struct ms_image base, patched;
	static struct rp_compare c;
	struct opts o;
	int rc = parse(cmd, argc, argv, &o, nimages);

	if (rc == -2)
		return HS_EXIT_OK;
	if (rc)
		return HS_EXIT_ERROR;
	memset(&c, 0, sizeof(c));
	if (ms_measure(argv[optind], &o.ms, &base)) {
		ms_free(&base);
		return cli_error();
	}
	if (nimages == 2 && ms_measure_pinned(argv[optind + 1], &o.ms, &base, &patched)) {
		ms_free(&base);
		ms_free(&patched);
		return cli_error();
	}
	c.base = &base;
	c.patched = nimages == 2 ? &patched : NULL;
	c.want_warm = o.ms.want_warm;
	c.want_cold = o.ms.want_cold;
	rp_pair_rows(&c);
	if (c.patched)
		rp_identity_warnings(&c);
	if (o.json)
		rp_json(stdout, &c);
	else
		rp_table(stdout, &c);
	rc = HS_EXIT_OK;
	if (o.svg && c.patched && rp_svg(o.svg, &c)) {
		hs_fail("%s: cannot write SVG", o.svg);
		rc = cli_error();
	}
	if (rc == HS_EXIT_OK && !o.json && details(&o, &base, c.patched ? &patched : NULL))
		rc = cli_error();
	if (rc == HS_EXIT_OK && o.have_fail_above && c.patched && regressed(&c, o.fail_above)) {
		fprintf(stderr, "hotsim: a path regressed by more than %.2f%%\n", o.fail_above);
		rc = HS_EXIT_REGRESSION;
	}
	fflush(stdout);
	ms_free(&base);
	if (nimages == 2)
		ms_free(&patched);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	return compare_or_run("compare", argc, argv, 2);
}

int cmd_run(int argc, char **argv)
{
	return compare_or_run("run", argc, argv, 1);
}
