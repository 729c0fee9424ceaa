/*
 * workload_opt.c - --workload FILE: the user's own workload, or a Debian
 * program hotsim knows (perf: perf bench sched pipe itself). It is read
 * before the other options (main.c calls cli_workload_prescan), because
 * it changes which paths --path, --explain and the default list name: with
 * a workload, the paths are its user.NAME operations - the boot runs the
 * user's program, not hotsim's own workload - and only those.
 */
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"

static struct hs_user_paths *cur;

/* The value of --workload in argv, or NULL. */
static const char *workload_arg(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--workload=", 11))
			return argv[i] + 11;
		if (!strcmp(argv[i], "--workload"))
			return i + 1 < argc ? argv[i + 1] : "";
	}
	return NULL;
}

int cli_workload_prescan(const struct cli_cmd *c, int argc, char **argv)
{
	const char *file = workload_arg(argc, argv);
	int found;

	(void)c;
	if (!file)
		return 0;
	if (!*file)
		return hs_fail("--workload needs a FILE (C source or a static aarch64 program)");
	/* a Debian program hotsim knows (perf), else the user's file */
	if ((cur = hs_program_paths_open(file, hs_program_paths, &found)) || found)
		return cur ? 0 : -1;
	return (cur = hs_user_paths_open(file)) ? 0 : -1;
}

void cli_workload_done(void)
{
	hs_user_paths_close(cur);
	cur = NULL;
}

const struct hs_path_set *cli_path_set(void)
{
	return cur ? &cur->set : &hs_path_set_builtin;
}

void cli_walk_options(struct ms_options *m, const struct opt_cpus *cpus, const struct opt_paths *paths,
		      enum hs_state_source src)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < cpus->n; i++)
		m->cores[m->ncores++] = cpus->v[i];
	for (int i = 0; paths && i < paths->n; i++)
		m->paths[m->npaths++] = paths->v[i];
	m->src = src;
	m->set = cli_path_set();
}

const struct hs_path_def *const *cli_paths(void)
{
	return cur ? cur->list : hs_paths;
}

const struct hs_path_def *cli_path_find(const char *name)
{
	if (!cur)
		return hs_path_find(name);
	for (int i = 0; i < cur->n; i++)
		if (!strcmp(cur->list[i]->name, name))
			return cur->list[i];
	return NULL;
}
