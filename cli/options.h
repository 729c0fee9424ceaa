/*
 * options.h - one option table per command gives its parsing, its --help
 * and its usage errors (the way tools/perf's parse-options does), so the
 * three cannot drift apart. `hotsim help` prints every table, and the
 * manual page (doc_man.c) and the completion are written from them.
 */
#ifndef HOTSIM_CLI_OPTIONS_H
#define HOTSIM_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hotsim/core.h"
#include "hotsim/measure.h"
#include "hotsim/paths.h"

enum opt_kind {
	OPT_END,
	OPT_FLAG,	/* int = 1 */
	OPT_STRING,	/* const char * */
	OPT_COUNT,	/* long in [min, max] */
	OPT_PERCENT,	/* struct opt_pct (a non-negative number) */
	OPT_CPUS,	/* struct opt_cpus: "a53,a55" or "all" (the core registry) */
	OPT_PATHS,	/* struct opt_paths: "cswitch,irq-el1" or "all" (the path registry) */
	OPT_STATE,	/* struct opt_state: typical, warm, cold (a list), both, all */
	OPT_PARAM,	/* struct opt_params: [core.]name=value, repeatable */
	OPT_U64,	/* struct opt_u64s: a number, repeatable */
	OPT_WINDOW,	/* struct opt_window: A:B */
	OPT_FORMAT,	/* enum opt_format: text, json (also --json); markdown when
			 * the option's choices list it */
	OPT_PATH,	/* const struct hs_path_def *: one path of the registry */
	OPT_SOURCE,	/* enum hs_state_source: auto, booted, synthesized */
	OPT_CLOCK,	/* struct opt_clocks: [core=]1.8GHz, repeatable */
	OPT_HZ,		/* struct opt_hz: 100,250 */
};

enum opt_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN };

struct opt_pct { int set; double v; };
struct opt_cpus { const struct hs_core *v[MS_MAX_CORES]; int n; };
struct opt_paths { const struct hs_path_def *v[MS_MAX_PATHS]; int n; int given; };
struct opt_state { int want[MS_NSTATES]; };
struct opt_params { struct ms_param v[MS_MAX_PARAMS]; int n; };
struct opt_u64s { uint64_t v[8]; int n; };
struct opt_window { size_t from, to; };
struct opt_clocks { struct ms_clock v[8]; int n; };
struct opt_hz { unsigned v[4]; int n; };

struct cli_opt {
	const char *name;	/* --name */
	const char *arg;	/* metavariable in help; NULL for a flag */
	enum opt_kind kind;
	size_t off;		/* where the value goes in the command's option struct */
	const char *help;
	long min, max;		/* OPT_COUNT bounds */
	const char *choices;	/* OPT_STRING, OPT_FORMAT: the values allowed,
				 * space-separated (NULL: any string; text json) */
};

#define OPT(name, arg, kind, type, field, help) \
	{ name, arg, kind, offsetof(type, field), help, 0, 0, NULL }
#define OPT_N(name, arg, type, field, lo, hi, help) \
	{ name, arg, OPT_COUNT, offsetof(type, field), help, lo, hi, NULL }
#define OPT_CHOICE(name, arg, kind, type, field, choices, help) \
	{ name, arg, kind, offsetof(type, field), help, 0, 0, choices }
#define OPT_TABLE_END { NULL, NULL, OPT_END, 0, NULL, 0, 0, NULL }

struct cli_cmd {
	const char *name;
	const char *args;	/* positional arguments, "BASE PATCHED" */
	int nargs;		/* exactly this many (with more: at least) */
	int more;		/* up to CLI_MAX_ARGS (merge: its shards) */
	const char *summary;	/* one line */
	const char *const *notes;	/* lines after the options, NULL-terminated */
	const struct cli_opt *opts;
	size_t size;		/* of the option struct */
	void (*defaults)(void *o);
	int (*run)(void *o, char **args);
};

#define CLI_MAX_ARGS 64

/* Parse argv (argv[0] is the command) into o; 0, 1 when --help was printed,
 * or -1 after a one-line usage error on stderr. args (CLI_MAX_ARGS + 1
 * entries) gets the positionals, NULL after the last. */
int cli_parse(const struct cli_cmd *c, int argc, char **argv, void *o, char **args);

/* The command's help: usage line, summary, options, notes. */
void cli_help(FILE *f, const struct cli_cmd *c);

/* --state-source when not given: $HOTSIM_STATE_SOURCE, else auto. */
enum hs_state_source opt_default_source(void);
/* Paths nobody named (the default "all") that cannot run on synthesized
 * state are dropped when only synthesized state was asked for. */
void opt_paths_for_source(struct opt_paths *p, enum hs_state_source src);

/* The values an option takes, space-separated, for completion and the man
 * page: the registries' cores and paths (and "all"), states, formats, an
 * option's choices; "" when any value goes (a number, a file). */
const char *opt_words(const struct cli_opt *o, char *buf, size_t len);

/* The core sets: every core of the registry (--cpu all, `hotsim models`),
 * and the default set a command runs when --cpu was not given (the cores
 * without opt_in); the path set when --path was not given: all. */
void opt_all_cpus(struct opt_cpus *c);
void opt_default_cpus(struct opt_cpus *c);
void opt_all_paths(struct opt_paths *p);

#endif
