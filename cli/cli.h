/* cli.h - shared by the subcommands (one file each, like tools/perf's builtin-*.c). */
#ifndef HOTSIM_CLI_H
#define HOTSIM_CLI_H

#include <stdio.h>

#include "hotsim/cmdline.h"
#include "options.h"

#define HS_EXIT_OK 0
#define HS_EXIT_REGRESSION 1	/* compare --fail-above tripped */
#define HS_EXIT_ERROR 2

/* The commands, in help order (main.c lists them in cli_commands). */
extern const struct cli_cmd cmd_image, cmd_paths, cmd_trace, cmd_run, cmd_compare, cmd_merge, cmd_validate,
	cmd_models, cmd_snippet, cmd_pair, cmd_series, cmd_fidelity, cmd_fit, cmd_state;
extern const struct cli_cmd *const cli_commands[];

/* The command line of the command running (argv[0] is the command). */
extern int cli_argc;
extern char **cli_argv;

/* compare and run (cmd_compare.c), from the options cli_parse filled with
 * cmd_compare's or cmd_run's table: measured here, or - merge - the rows
 * of the shards (cmd_merge.c). */
struct shard;
struct cli_shards {
	const struct shard *v;
	int n;
};
int cli_compare(void *opts, const char *base_file, const char *patched_file, const struct cli_shards *sh);

/* script.c: the helper script name (hotsim-pair, hotsim-series) beside
 * this binary or in the checkout's scripts/, $env overriding; 0, or -1
 * when there is none. */
int cli_script(const char *name, const char *env, char *out, size_t len);
/* Run argv[0] with argv; its stdout into buf (at most len - 1 bytes, the
 * rest dropped), stderr as ours. Its exit status, or -1 (hs_errmsg) when
 * it cannot run or ends by a signal. */
int cli_run(char *const argv[], char *buf, size_t len);

/* version.c: "0.1 (git adffafe-dirty)"; the --version text */
const char *cli_version(void);
void cli_print_version(FILE *f);

/* The option tables as documents (`hotsim help --man`, `--bash-completion`) */
void cli_man(FILE *f);
void cli_bash_completion(FILE *f);

/* "hotsim: <hs_errmsg()>" on stderr; returns HS_EXIT_ERROR */
int cli_error(void);

/* --workload's help, one text for every command that takes it (paths
 * takes it alone) */
#define CLI_WORKLOAD_HELP "your workload: C source or a static aarch64 program marking ops (rows user.NAME); " \
	"or perf: Debian's `perf bench sched pipe` itself (rows perf.NAME)"
/* The options that choose the boot: --workload, --taskset, --cgroup,
 * --cmdline, --boot. workload_opt.c reads them from argv before the others;
 * a command's table takes them (CLI_BOOT_OPTS) so that its parser and help
 * know them, into one member it never reads. */
struct cli_boot_opts {
	const char *workload, *taskset, *cgroup, *cmdline;
	long boot;
};
#define CLI_BOOT_OPTS(t) \
	OPT("workload", "FILE", OPT_STRING, t, boot_opts.workload, CLI_WORKLOAD_HELP), \
	OPT("taskset", "CPUS", OPT_STRING, t, boot_opts.taskset, \
	    "the workload's processes (hotsim's own, yours or perf's) pinned to these CPUs as " \
	    "taskset -c pins them: a boot of its own (0, 0,2, 0-1; default unpinned)"), \
	OPT("cgroup", "NAME", OPT_STRING, t, boot_opts.cgroup, \
	    "the workload's processes (hotsim's own, yours or perf's) in this cgroup, as systemd puts " \
	    "a login shell: session (systemd 252 on: cpu, memory, pids) or session-pre252 (memory, pids); a boot of its " \
	    "own (default: the root cgroup)"), \
	OPT("cmdline", "ARGS", OPT_STRING, t, boot_opts.cmdline, \
	    "kernel parameters added to the guest's command line, as a boot loader passes them " \
	    "(audit=1, mitigations=off, preempt=none): a boot of its own"), \
	OPT_N("boot", "K", t, boot_opts.boot, 0, HS_BOOT_MAX - 1, \
	      "which boot of the machine: 0 the first (default); K > 0 boots the same kernel and " \
	      "workload again with hotsim_boot=K added, which moves the boot's timing: a state of its own (where the " \
	      "scheduler left each task, which CPUs sleep)")
/* workload_opt.c: the boot options read before the others; then the paths
 * every path option names, and the set the library boots for (the
 * registry's, hotsim's own workload, or the workload's). */
int cli_workload_prescan(const struct cli_cmd *c, int argc, char **argv);
void cli_workload_done(void);
const struct hs_path_set *cli_path_set(void);
/* A program's path named in a path list without --workload
 * (perf.sched-pipe): 1 and *d when name is one (its set opened, once),
 * 0 when not, -1 when its set cannot open (not fetched: hs_errmsg). */
int cli_program_path(const char *name, const struct hs_path_def **d);
/* The Debian program whose path name is (perf for perf.sched-pipe), else
 * NULL: what a command taking one boot's path asks --workload for. */
const char *cli_path_program(const char *name);
/* --turns HOW: how a machine's replay takes turns (enum hs_turns) - a
 * replay of the same boot, not a boot of its own. cli_turns sets set's
 * (and the program's set's, cli_more_set) from it: -1 with hs_errmsg()
 * for other turns than QEMU's on one CPU. */
#define CLI_TURNS_OPT(t) \
	OPT_CHOICE("turns", "HOW", OPT_STRING, t, turns, "qemu wakee model", \
		   "how a machine's replay (--smp N) takes turns: qemu (QEMU's round robin: a CPU runs on until " \
		   "it halts; default, and validate's), wakee (a CPU's turn ends at each SGI it sends, so the " \
		   "CPU it woke runs first) or model (the CPU whose modelled clock is the earliest runs next, " \
		   "16 instructions at a time)")
int cli_turns(const char *turns, long smp, struct hs_path_set *set);
/* The program's set those paths boot with, on a machine of smp CPUs;
 * NULL when no path list named one (ms_options.more). */
const struct hs_path_set *cli_more_set(int smp);
const struct hs_path_def *const *cli_paths(void);
const struct hs_path_def *cli_path_find(const char *name);

/* Every --param names a parameter of every core it is for; -1 (hs_errmsg)
 * otherwise. Checked before any work, on every core of the default set
 * whether or not it is selected, and on each core cpus selects; an opt-in
 * core the command does not run only for the parameters naming it. */
int cli_check_params(const struct opt_params *p, const struct opt_cpus *cpus);

/* The library's walk (ms_walk) over these cores and paths (paths NULL:
 * none), from state src, booting for the command's path set. */
void cli_walk_options(struct ms_options *m, const struct opt_cpus *cpus, const struct opt_paths *paths,
		      enum hs_state_source src);

/* trace: record i of a stream as a line (index, address, where, the
 * instruction, its data address, its marks), and as a JSON object */
struct json;
struct hs_trace;
void cli_trace_line(const struct hs_image *img, const struct hs_trace *tr, size_t i);
void cli_trace_json(struct json *j, const struct hs_image *img, const struct hs_trace *tr, size_t i);
/* trace --smp N (trace_machine.c): path d's round trip on a machine of
 * smp CPUs, every CPU's stream of operation op (-1: the warm-up and the
 * first sample), at most limit records a CPU an operation; json NULL:
 * text. */
struct cli_machine_trace {
	const struct hs_path_def *d;
	unsigned smp;
	const char *turns;		/* --turns (cli_turns) */
	long op, limit;
	struct json *json;
};
int cli_trace_machine(const struct hs_image *img, const struct opt_cpus *cpus, const struct cli_machine_trace *t);
/* 0 when path d is a round trip a machine replays, else -1 naming those */
int cli_machine_path(const struct hs_path_def *d);

#endif
