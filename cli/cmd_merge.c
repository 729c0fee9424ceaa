/*
 * cmd_merge.c - `hotsim merge SHARD...`: the report of a compare (or run)
 * whose work was split with --shard K/N - on several CI jobs, say - from
 * the shards' rows. It checks that the shards belong together (the same
 * hotsim, the same command line, N of them, each K once, the same images),
 * runs the command line again for its options and images, takes each
 * unit's rows from the shard that measured it, and prints exactly what
 * the command prints unsharded (--explain, --timeline and the markdown's
 * largest move run their paths here, as the command would).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "shard.h"

struct merge_opts {
	int unused;
};

static int by_k(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;

	return (x->k > y->k) - (x->k < y->k);
}

/* The shards of one split, each K of 1..N once, all of one command line. */
static int together(struct shard *v, int n)
{
	unsigned seen[1025] = { 0 };

	if ((unsigned)n != v[0].n)
		return hs_fail("%d shard%s given, but %s is one of %u (--shard K/%u)", n, n == 1 ? "" : "s",
			       v[0].file, v[0].n, v[0].n);
	for (int i = 0; i < n; i++) {
		if (v[i].n != v[0].n)
			return hs_fail("%s and %s are shards of different splits (of %u and of %u)", v[0].file,
				       v[i].file, v[0].n, v[i].n);
		for (int a = 0; a < v[0].argc || a < v[i].argc; a++)
			if (a >= v[0].argc || a >= v[i].argc || strcmp(v[i].argv[a], v[0].argv[a]))
				return hs_fail("%s and %s are shards of different command lines ('%.60s' vs '%.60s')",
					       v[0].file, v[i].file, a < v[0].argc ? v[0].argv[a] : "(end)",
					       a < v[i].argc ? v[i].argv[a] : "(end)");
		if (seen[v[i].k]++)
			return hs_fail("%s: shard %u/%u given twice", v[i].file, v[i].k, v[i].n);
	}
	/* in K order: unit u is shard (u mod N) + 1's */
	qsort((void *)v, (size_t)n, sizeof(*v), by_k);
	if (strcmp(v[0].command, "compare") && strcmp(v[0].command, "run"))
		return hs_fail("%s: a shard of '%.20s', not of compare or run", v[0].file, v[0].command);
	return 0;
}

/* The shards' command line, parsed as that command parses it, then its
 * report from their rows. */
static int report(const struct shard *v, int n)
{
	const struct cli_cmd *c = !strcmp(v[0].command, "compare") ? &cmd_compare : &cmd_run;
	char *argv[130], *args[CLI_MAX_ARGS + 1] = { NULL };
	struct cli_shards sh = { v, n };
	void *o = calloc(1, c->size);
	int rc;

	if (!o) {
		hs_fail("out of memory");
		return cli_error();
	}
	for (int i = 0; i < v[0].argc; i++)
		argv[i] = (char *)v[0].argv[i];
	argv[v[0].argc] = NULL;
	cli_argc = v[0].argc;
	cli_argv = argv;
	if (cli_workload_prescan(c, v[0].argc, argv)) {
		free(o);
		return cli_error();
	}
	rc = cli_parse(c, v[0].argc, argv, o, args);
	if (rc == 0)
		rc = cli_compare(o, args[0], c == &cmd_compare ? args[1] : NULL, &sh);
	else
		rc = rc > 0 ? HS_EXIT_OK : HS_EXIT_ERROR;
	free(o);
	return rc;
}

static int run_merge(void *p, char **args)
{
	static struct shard v[CLI_MAX_ARGS];
	int n = 0, rc = HS_EXIT_ERROR;

	(void)p;
	while (args[n] && n < CLI_MAX_ARGS) {
		if (shard_read(args[n], &v[n])) {
			n++;
			goto out;
		}
		n++;
	}
	if (together(v, n))
		goto out;
	/* the command's own images, checked against the shards' (cli_compare) */
	rc = report(v, n);
	for (int i = 0; i < n; i++)
		shard_free(&v[i]);
	return rc;
out:
	for (int i = 0; i < n; i++)
		shard_free(&v[i]);
	return cli_error();
}

static const struct cli_opt merge_opts[] = {
	OPT_TABLE_END
};

static const char *const merge_notes[] = {
	"SHARD: what compare (or run) --shard K/N printed, one file per K; all N of one command line",
	"prints what the command prints unsharded, byte for byte; exit status as that command's",
	NULL
};

const struct cli_cmd cmd_merge = {
	.name = "merge", .args = "SHARD...", .nargs = 1, .more = 1,
	.summary = "the report of a compare (or run) split with --shard, from its shards",
	.notes = merge_notes,
	.opts = merge_opts, .size = sizeof(struct merge_opts), .run = run_merge,
};
