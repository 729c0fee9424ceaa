/*
 * hotsim - cycle-level simulator for the arm64 Linux kernel's hottest paths.
 * main.c dispatches to one file per subcommand.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/model.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "image", cmd_image, "VMLINUX [--cpu X] [--list] [--json]: identity and boot-time patching" },
	{ "paths", cmd_paths, "VMLINUX [--cpu X] [--path P] [--json]: run the hot paths, what they execute" },
	{ "trace", cmd_trace, "VMLINUX PATH [--cpu X] [--limit N]: one path's instruction stream" },
	{ "run", cmd_run, "VMLINUX [--cpu X] [--path P] [--state S] [--json]: cycles per path and core" },
	{ "compare", cmd_compare, "BASE PATCHED [options]: base vs patched cycles, delta, explain, svg" },
	{ "models", cmd_models, "[--json]: every model parameter, its value, source and calibration" },
	{ "snippet", cmd_snippet, "FILE --entry SYM [--cpu X] [--iterations N]: time your own function" },
};

int cli_error(void)
{
	fprintf(stderr, "hotsim: %s\n", hs_errmsg()[0] ? hs_errmsg() : "unknown error");
	return HS_EXIT_ERROR;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hotsim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return HS_EXIT_ERROR;
}

int cli_parse_cpus(const char *arg, const struct hs_core **cores, int max)
{
	char buf[128];
	int n = 0;

	if (!strcmp(arg, "all")) {
		for (int i = 0; hs_cores[i] && n < max; i++)
			cores[n++] = hs_cores[i];
		return n;
	}
	if (strlen(arg) >= sizeof(buf))
		return hs_fail("--cpu list too long");
	strcpy(buf, arg);
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		const struct hs_core *c = hs_core_find(tok);

		if (!c)
			return hs_fail("unknown cpu '%s' (known: a53, a55, a73)", tok);
		for (int i = 0; i < n; i++)
			if (cores[i] == c)
				c = NULL;
		if (c && n < max)
			cores[n++] = c;
	}
	if (n == 0)
		return hs_fail("empty --cpu list");
	return n;
}

/* "a53, a55, a73" */
static const char *known_models(void)
{
	static char buf[128];

	buf[0] = 0;
	for (int i = 0; hs_model_names[i]; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "",
			 hs_model_names[i]);
	return buf;
}

int cli_parse_models(const char *arg, int *sel, int max)
{
	char buf[128];
	int n = 0;

	if (!strcmp(arg, "all")) {
		for (int i = 0; hs_model_names[i] && n < max; i++)
			sel[n++] = i;
		return n;
	}
	if (strlen(arg) >= sizeof(buf))
		return hs_fail("--cpu list too long");
	strcpy(buf, arg);
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		int k = -1, dup = 0;

		for (int i = 0; hs_model_names[i]; i++)
			if (!strcmp(hs_model_names[i], tok))
				k = i;
		if (k < 0)
			return hs_fail("unknown cpu '%.32s' (known: %s)", tok, known_models());
		for (int i = 0; i < n; i++)
			dup |= sel[i] == k;
		if (!dup && n < max)
			sel[n++] = k;
	}
	return n ? n : hs_fail("empty --cpu list");
}

long cli_parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	return v;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: hotsim <command> [args]\n\ncommands:\n");
	for (size_t i = 0; i < HS_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? HS_EXIT_ERROR : HS_EXIT_OK;
	}
	for (size_t i = 0; i < HS_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			rc = commands[i].fn(argc - 1, argv + 1);
			a64_disasm_release();
			return rc;
		}
	fprintf(stderr, "hotsim: unknown command '%s' (hotsim --help lists them)\n", argv[1]);
	return HS_EXIT_ERROR;
}
