/*
 * series_build.c - the commits of `hotsim series` and their images, from
 * the hotsim-series script (the pair's recipe and cache): its --list fills
 * the series, its --build K is the builder the library calls back
 * (hotsim/series.h). The building is the script's; this passes the
 * options on and reads its answers.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "series_cli.h"

#define LIST_MAX (1 << 20)

/* script TREE --commits|--patches X [--config F] [--cc C], then extra */
static int argv_of(const struct series_script *sc, char **argv, const char *a1, const char *a2)
{
	const char *pass[] = { "--commits", sc->commits, "--patches", sc->patches, "--config", sc->config,
			       "--cc", sc->cc };
	int n = 0;

	argv[n++] = (char *)sc->script;
	argv[n++] = (char *)sc->tree;
	for (size_t i = 0; i < HS_ARRAY_SIZE(pass); i += 2)
		if (pass[i + 1]) {
			argv[n++] = (char *)pass[i];
			argv[n++] = (char *)pass[i + 1];
		}
	argv[n++] = (char *)a1;
	if (a2)
		argv[n++] = (char *)a2;
	argv[n] = NULL;
	return n;
}

/* Line k of --list: "K\tID\tSUBJECT\tSTATUS". */
static int list_line(char *line, int k, struct ms_series *s)
{
	char *f[4], *save = NULL;

	for (int i = 0; i < 4; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, "\t", &save)))
			return hs_fail("series: hotsim-series --list printed '%s'", line);
	if (atoi(f[0]) != k)
		return hs_fail("series: hotsim-series --list: commit %s out of order", f[0]);
	if (k > MS_SERIES_MAX)
		return hs_fail("series: more than %d commits (give a shorter range)", MS_SERIES_MAX);
	s->n = k;
	snprintf(s->c[k].id, sizeof(s->c[k].id), "%s", f[1]);
	snprintf(s->c[k].subject, sizeof(s->c[k].subject), "%s", f[2]);
	if (strcmp(f[3], "ok")) {
		s->c[k].failed = 1;
		snprintf(s->c[k].why, sizeof(s->c[k].why), "%s", f[3]);
	}
	return 0;
}

int series_list(const struct series_script *sc, struct ms_series *s)
{
	char *argv[16], *out = malloc(LIST_MAX), *save = NULL;
	int rc, k = 0;

	if (!out)
		return hs_fail("out of memory");
	argv_of(sc, argv, "--list", NULL);
	rc = cli_run(argv, out, LIST_MAX);
	if (rc > 0)
		rc = hs_fail("series: hotsim-series could not list the series (its message is above)");
	s->n = 0;
	for (char *l = strtok_r(out, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save))
		rc = list_line(l, k++, s);
	free(out);
	if (!rc && !s->n)
		rc = hs_fail("series: no commits");
	return rc;
}

int series_build(void *ctx, int k, char *path, size_t len, char *why, size_t wlen)
{
	const struct series_script *sc = ctx;
	char *argv[16], num[16], out[PATH_MAX + 1024];
	int rc;

	snprintf(num, sizeof(num), "%d", k);
	argv_of(sc, argv, "--build", num);
	rc = cli_run(argv, out, sizeof(out));
	out[strcspn(out, "\n")] = 0;
	if (rc == 0 && out[0] == '/') {
		snprintf(path, len, "%s", out);
		return 0;
	}
	if (rc == 1 && out[0]) {
		snprintf(why, wlen, "%s", out);
		return 1;
	}
	return rc < 0 ? -1 : hs_fail("series: hotsim-series could not build commit %d (its message is above)", k);
}
