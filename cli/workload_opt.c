/*
 * workload_opt.c - --workload FILE: the user's own workload, or a Debian
 * program hotsim knows (perf: perf bench sched pipe itself). It is read
 * before the other options (main.c calls cli_workload_prescan), because
 * it changes which paths --path, --explain and the default list name: with
 * a workload, the paths are its user.NAME operations - the boot runs the
 * user's program, not hotsim's own workload - and only those. --taskset
 * pins the workload's processes, whichever it is, as `taskset -c` does:
 * that is a boot of its own (its snapshot), not a way of replaying one;
 * --cgroup runs them in a cgroup, as a login under systemd does, the same
 * way; --cmdline boots the kernel with parameters added, the same way;
 * --boot K boots the same again, a later draw of the machine's state.
 * Without --workload a path list may name a program's path beside
 * hotsim's own (--path sched-pipe,perf.sched-pipe): the program's set is
 * opened then, and the library boots it beside the registry's
 * (ms_options.more).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/cgroup.h"
#include "hotsim/cmdline.h"
#include "hotsim/cpulist.h"

static struct hs_user_paths *cur;	/* --workload's */
static struct hs_user_paths *prog;	/* a program's, its path named without --workload */
static struct hs_path_set prog_set;	/* prog's, with the machine's CPUs */
static enum hs_turns turns;		/* --turns (cli_turns), for prog_set */
static struct hs_path_set builtin;	/* the registry's, pinned as --taskset says */
static const struct hs_cgroup *cg;	/* --cgroup's, NULL: the root */
static const char *cmdline;		/* --cmdline's, NULL: none */
static unsigned boot;			/* --boot's, 0: the first */

/* The cgroups' names, ", " between them. */
static const char *cgroup_names(void)
{
	static char buf[200];
	size_t n = 0;

	buf[0] = 0;
	for (const struct hs_cgroup *c = hs_cgroups; c->name && n < sizeof(buf); c++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "", c->name);
	return buf;
}

/* The value of option --NAME in argv, or NULL. */
static const char *arg(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) && argv[i][2 + n] == '=')
			return argv[i] + 3 + n;
		if (!strncmp(argv[i], "--", 2) && !strcmp(argv[i] + 2, name))
			return i + 1 < argc ? argv[i + 1] : "";
	}
	return NULL;
}

/* The program path named, or NULL */
static const struct hs_path_def *program_path(const char *name)
{
	for (int i = 0; hs_program_paths[i]; i++)
		if (!strcmp(hs_program_paths[i]->name, name))
			return hs_program_paths[i];
	return NULL;
}

int cli_workload_prescan(const struct cli_cmd *c, int argc, char **argv)
{
	const char *file = arg(argc, argv, "workload"), *taskset = arg(argc, argv, "taskset");
	const char *cgroup = arg(argc, argv, "cgroup"), *k = arg(argc, argv, "boot");
	uint64_t cpus = 0;
	int found;

	(void)c;
	if (cgroup && !(cg = hs_cgroup_find(cgroup)))
		return hs_fail("--cgroup %s: no such cgroup (%s)", cgroup, cgroup_names());
	if ((cmdline = arg(argc, argv, "cmdline")) && hs_cmdline_check(cmdline))
		return -1;
	/* a CPU the machine lacks is known before any image is read */
	if (taskset && (hs_cpulist_parse(taskset, &cpus) ||
			hs_cpulist_fits(cpus, arg(argc, argv, "smp") ? (unsigned)atoi(arg(argc, argv, "smp")) : 1)))
		return -1;
	builtin = hs_path_set_builtin;
	builtin.taskset = cpus;
	builtin.cgroup = cg;
	builtin.cmdline = cmdline;
	/* one the option table refuses (out of 0..HS_BOOT_MAX - 1) it refuses
	 * with the command's usage, after this */
	boot = k && atoi(k) > 0 && atoi(k) < HS_BOOT_MAX ? (unsigned)atoi(k) : 0;
	builtin.boot = boot;
	if (!file)
		return 0;
	if (!*file)
		return hs_fail("--workload needs a FILE (C source or a static aarch64 program)");
	/* a Debian program hotsim knows (perf), else the user's file */
	if (!(cur = hs_program_paths_open(file, hs_program_paths, cpus, &found)) && !found)
		cur = hs_user_paths_open(file);
	if (!cur)
		return -1;
	cur->set.taskset = cpus;
	cur->set.cgroup = cg;
	cur->set.cmdline = cmdline;
	cur->set.boot = boot;
	return 0;
}

void cli_workload_done(void)
{
	hs_user_paths_close(cur);
	hs_user_paths_close(prog);
	cur = prog = NULL;
}

int cli_program_path(const char *name, const struct hs_path_def **d)
{
	const struct hs_path_def *p = cur ? NULL : program_path(name);
	int found;

	*d = NULL;
	if (!p)
		return 0;
	if (!prog && !(prog = hs_program_paths_open(hs_path_program(p), hs_program_paths, builtin.taskset, &found)))
		return -1;
	prog->set.cgroup = cg;
	prog->set.cmdline = cmdline;
	prog->set.boot = boot;
	*d = p;
	return 1;
}

const char *cli_path_program(const char *name)
{
	const struct hs_path_def *p = program_path(name);

	return p ? hs_path_program(p) : NULL;
}

const struct hs_path_set *cli_more_set(int smp)
{
	if (!prog)
		return NULL;
	prog_set = prog->set;
	prog_set.ncpus = smp > 1 ? (unsigned)smp : 0;
	prog_set.turns = turns;	/* cli_turns keeps other turns than QEMU's to a machine */
	return &prog_set;
}

int cli_turns(const char *name, long smp, struct hs_path_set *set)
{
	if (hs_turns_named(name, &turns))
		turns = HS_TURNS_QEMU;
	if (turns != HS_TURNS_QEMU && smp < 2)
		return hs_fail("--turns %s: the turns of a machine's replay; add --smp N (N > 1)", hs_turns_name(turns));
	prog_set.turns = turns;
	if (set)
		set->turns = turns;
	return 0;
}

const struct hs_path_set *cli_path_set(void)
{
	return cur ? &cur->set : builtin.defs ? &builtin : &hs_path_set_builtin;
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
	m->more = cli_more_set(0);
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
