/* cli.h - shared by the subcommands (one file each, like tools/perf's builtin-*.c). */
#ifndef HOTSIM_CLI_H
#define HOTSIM_CLI_H

#include <stdio.h>

#include "hotsim/core.h"

#define HS_EXIT_OK 0
#define HS_EXIT_REGRESSION 1	/* compare --fail-above tripped */
#define HS_EXIT_ERROR 2

int cmd_image(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_snippet(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);

/* "hotsim: <hs_errmsg()>" on stderr; returns HS_EXIT_ERROR */
int cli_error(void);

/* "hotsim <cmd>: <msg>" usage error; returns HS_EXIT_ERROR */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse "a53,a55" (or "all") into cores[]; returns count or -1 (hs_errmsg set). */
int cli_parse_cpus(const char *arg, const struct hs_core **cores, int max);

/* Parse "cswitch,irq-el1" or "all" into paths[]; count or -1 (hs_errmsg set). */
struct hs_path_def;
int cli_parse_paths(const char *arg, const struct hs_path_def **out, int max);

/* Parse "a53,a73" or "all" into indexes of hs_model_names; count or -1. */
int cli_parse_models(const char *arg, int *sel, int max);

/* Parse a non-negative integer option value; -1 on error. */
long cli_parse_count(const char *s);

#endif
