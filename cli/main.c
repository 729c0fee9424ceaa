/*
 * main.c - hotsim, a cycle-level simulator for the arm64 Linux kernel's hottest paths.
 * main.c dispatches to one file per subcommand; each command's option table
 * (options.h) gives its parsing and its help, and `hotsim help` prints all
 * of them (the manual page and the completion are written from the same
 * tables).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/model.h"

const struct cli_cmd *const cli_commands[] = {
	&cmd_image, &cmd_paths, &cmd_trace, &cmd_run, &cmd_compare, &cmd_merge, &cmd_validate, &cmd_models,
	&cmd_snippet, &cmd_pair, &cmd_series, &cmd_fidelity, &cmd_fit, &cmd_state, NULL
};

int cli_argc;
char **cli_argv;

int cli_error(void)
{
	fprintf(stderr, "hotsim: %s\n", hs_errmsg()[0] ? hs_errmsg() : "unknown error");
	return HS_EXIT_ERROR;
}

/* Is core one the command runs, or one of the default set (checked
 * whether selected or not, as ever)? */
static int checked_fully(const struct hs_core *core, const struct opt_cpus *cpus)
{
	for (int i = 0; i < cpus->n; i++)
		if (cpus->v[i] == core)
			return 1;
	return !core->opt_in;
}

int cli_check_params(const struct opt_params *p, const struct opt_cpus *cpus)
{
	for (int k = 0; k < p->n; k++)
		if (p->v[k].core[0] && !hs_core_find(p->v[k].core))
			return hs_fail("--param %s.%s: unknown cpu '%s' (known: %s)", p->v[k].core,
				       p->v[k].name, p->v[k].core, hs_core_names());
	for (int i = 0; hs_cores[i]; i++) {
		struct ms_options o = { 0 };
		struct hs_model *m;
		int all = checked_fully(hs_cores[i], cpus);

		/* an opt-in core the command does not run: only what names it */
		for (int k = 0; k < p->n; k++)
			if (all || hs_core_find(p->v[k].core) == hs_cores[i])
				o.params[o.nparams++] = p->v[k];
		if (!(m = ms_model(&o, hs_cores[i])))
			return -1;
		hs_model_free(m);
	}
	return 0;
}

static void overview(FILE *f)
{
	fprintf(f, "usage: hotsim <command> [arguments] [options]\n\ncommands:\n");
	for (int i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-8s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
	fprintf(f, "\nhotsim <command> --help shows its options; hotsim help lists them all\n");
	fprintf(f, "(hotsim help --man: the manual page; hotsim help --bash-completion: the completion)\n");
}

/* Every command's help, one after the other: `hotsim help`. */
static void help_all(FILE *f)
{
	for (int i = 0; cli_commands[i]; i++) {
		if (i)
			fputc('\n', f);
		cli_help(f, cli_commands[i]);
	}
}

/* Every core and path a registry (or a workload) has fits a command's
 * lists: one that outgrew them is an error, never a silent cut. */
static int registries_fit(void)
{
	const struct hs_path_def *const *paths = cli_paths();
	int nc = 0, np = 0;

	while (hs_cores[nc])
		nc++;
	while (paths[np])
		np++;
	if (nc > MS_MAX_CORES)
		return hs_fail("hotsim has %d cores, more than the %d one command can run (MS_MAX_CORES)", nc,
			       MS_MAX_CORES);
	if (np > MS_MAX_PATHS)
		return hs_fail("hotsim has %d paths, more than the %d one command can run (MS_MAX_PATHS)", np,
			       MS_MAX_PATHS);
	return 0;
}

static int dispatch(const struct cli_cmd *c, int argc, char **argv)
{
	void *o = calloc(1, c->size);
	char *args[CLI_MAX_ARGS + 1] = { NULL };
	int rc;

	if (!o) {
		hs_fail("out of memory");
		return cli_error();
	}
	cli_argc = argc;
	cli_argv = argv;
	if (cli_workload_prescan(c, argc, argv) || registries_fit()) {
		free(o);
		return cli_error();
	}
	rc = cli_parse(c, argc, argv, o, args);
	if (rc == 0)
		rc = c->run(o, args);
	else
		rc = rc > 0 ? HS_EXIT_OK : HS_EXIT_ERROR;
	free(o);
	cli_workload_done();
	return rc;
}

int main(int argc, char **argv)
{
	int rc = HS_EXIT_ERROR;

	if (argc < 2) {
		overview(stderr);
		return HS_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		overview(stdout);
		return HS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		cli_print_version(stdout);
		return HS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			help_all(stdout);
			return HS_EXIT_OK;
		}
		if (!strcmp(argv[2], "--man") || !strcmp(argv[2], "--bash-completion")) {
			if (argv[2][2] == 'm')
				cli_man(stdout);
			else
				cli_bash_completion(stdout);
			return HS_EXIT_OK;
		}
		for (int i = 0; cli_commands[i]; i++)
			if (!strcmp(argv[2], cli_commands[i]->name)) {
				cli_help(stdout, cli_commands[i]);
				return HS_EXIT_OK;
			}
		fprintf(stderr, "hotsim: no command '%.40s' (hotsim --help lists them)\n", argv[2]);
		return HS_EXIT_ERROR;
	}
	for (int i = 0; cli_commands[i]; i++)
		if (!strcmp(argv[1], cli_commands[i]->name)) {
			rc = dispatch(cli_commands[i], argc - 1, argv + 1);
			a64_disasm_release();
			return rc;
		}
	fprintf(stderr, "hotsim: unknown command '%.40s' (hotsim --help lists them)\n", argv[1]);
	return rc;
}
