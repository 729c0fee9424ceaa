/*
 * test_install.c - `make install DESTDIR=... PREFIX=/usr` into a scratch
 * directory: the binary runs, the manual page renders (man -l) and names
 * every command and every option of `hotsim help` (the option tables), and
 * the bash completion sources and completes commands, options and values.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_OUT (1 << 20)

static char dest[64];

/* make install once per test (each test runs in its own process) */
static void install(void)
{
	char cmd[512], *out;
	const char *san = strstr(hs_bin(), "build-san") ? " SAN=1" : "";

	snprintf(dest, sizeof(dest), "/tmp/hotsim-install.XXXXXX");
	cr_assert_not_null(mkdtemp(dest));
	snprintf(cmd, sizeof(cmd),
		 "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s install%s DESTDIR=%s PREFIX=/usr 2>&1", san, dest);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "make install failed:\n%s", out);
	free(out);
}

static void uninstall(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dest);
	hs_sh(cmd, NULL, 0);
}

TestSuite(install, .init = install, .fini = uninstall);

Test(install, binary_runs)
{
	char cmd[256], *out;

	snprintf(cmd, sizeof(cmd), "%s/usr/bin/hotsim --version", dest);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0);
	cr_assert(!strncmp(out, "hotsim ", 7), "%.4000s", out);
	free(out);
	/* hotsim pair finds the installed script and its recipe: a tree that
	 * is not there stops it before any build */
	snprintf(cmd, sizeof(cmd), "%s/usr/bin/hotsim pair /nonexistent/tree --patch /dev/null 2>&1", dest);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 2);
	cr_assert(strstr(out, "hotsim pair: /nonexistent/tree: no such directory"), "%.4000s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "test -f %s/usr/share/hotsim/recipe.sh && test -f %s/usr/share/hotsim/base.config",
		 dest, dest);
	cr_assert_eq(hs_sh(cmd, NULL, 0), 0, "hotsim-pair's recipe and fragments are installed");
	/* hotsim series too, and the shell it shares with hotsim-pair */
	snprintf(cmd, sizeof(cmd), "%s/usr/bin/hotsim series /nonexistent/tree --patches /dev/null 2>&1", dest);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 2);
	cr_assert(strstr(out, "hotsim series: /nonexistent/tree: no such directory"), "%.4000s", out);
	free(out);
	/* the installed hotsim compiles a workload against the installed
	 * <hotsim/workload.h> (then stops at the image, which is not there) */
	snprintf(cmd, sizeof(cmd), "test -f %s/usr/include/hotsim/workload.h && %s/usr/bin/hotsim run "
		 "/nonexistent.vmlinux --workload tests/workloads/two_ops.c 2>&1", dest, dest);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 2);
	cr_assert(strstr(out, "/nonexistent.vmlinux") && !strstr(out, "workload.h"), "%.4000s", out);
	free(out);
}

/* Every command and option of `hotsim help` - the option tables' own text -
 * appears in the rendered page. */
Test(install, man_page_names_every_command_and_option)
{
	char cmd[512], *page, *help, *save = NULL;
	int commands = 0, options = 0;

	snprintf(cmd, sizeof(cmd), "MANWIDTH=100 man -l %s/usr/share/man/man1/hotsim.1 2>&1", dest);
	cr_assert_eq(hs_sh(cmd, &page, MAX_OUT), 0, "man -l failed: %s", page);
	cr_assert(strstr(page, "HOTSIM(1)"), "%s", page);
	cr_assert_null(strstr(page, "\xe2\x80\x90"), "a hyphen rendered as U+2010: options must stay typeable");
	snprintf(cmd, sizeof(cmd), "%s help 2>/dev/null", hs_bin());
	cr_assert_eq(hs_sh(cmd, &help, MAX_OUT), 0);
	for (char *l = strtok_r(help, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char word[128], usage[160];

		if (!strncmp(l, "hotsim ", 7)) {
			/* "hotsim compare BASE PATCHED [options]" is the section title */
			cr_assert(strstr(page, l), "the page has no section '%s'", l);
			snprintf(usage, sizeof(usage), "%s", l);
			commands++;
		} else if (sscanf(l, " %127s", word) == 1 && !strncmp(word, "--", 2)) {
			cr_assert(strstr(page, word), "the page does not name %s (%s)", word, usage);
			options++;
		}
	}
	cr_assert_geq(commands, 8, "image paths trace run compare models snippet pair");
	cr_assert_gt(options, 30);
	free(help);
	free(page);
}

/* The completion sources in a plain bash and completes from the tables. */
static char *complete(const char *line)
{
	char script[1024], cmd[1400], *out;

	/* COMP_WORDS as bash splits the line at spaces; a trailing space
	 * starts an empty word */
	snprintf(script, sizeof(script),
		 "source %s/usr/share/bash-completion/completions/hotsim || exit 9; "
		 "complete -p hotsim >/dev/null || exit 8; "
		 "COMP_WORDS=(%s%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
		 "_hotsim; echo \"${COMPREPLY[*]}\"",
		 dest, line, line[strlen(line) - 1] == ' ' ? "\"\"" : "");
	snprintf(cmd, sizeof(cmd), "bash --norc --noprofile -c '%s' 2>&1", script);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 0, "%s", cmd);
	out[strcspn(out, "\n")] = 0;
	return out;
}

Test(install, bash_completion)
{
	static const struct { const char *line, *want; } cases[] = {
		{ "hotsim comp", "compare" },
		{ "hotsim compare a b --fa", "--fail-above" },
		{ "hotsim compare a b --format ", "text markdown json" },
		{ "hotsim image a --format ", "text json" },
		/* every core of the registry completes, the opt-in ones too */
		{ "hotsim run a --cpu a53,a7", "a53,a73 a53,a72 a53,a76" },
		{ "hotsim run a --cpu n", "n1" },
		{ "hotsim run a --explain csw", "cswitch" },
		{ "hotsim pair t --cc ", "gcc clang" },
		{ "hotsim pair t --co", "--commits --config" },
		{ "hotsim help --m", "--man" },
	};
	char cmd[512], *out;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = complete(cases[i].line);

		cr_assert_str_eq(got, cases[i].want, "'%s<TAB>' completes to '%s', not '%s'", cases[i].line,
				 got, cases[i].want);
		free(got);
	}
	/* bash-completion loads a command's file by its name: hotsim-pair too */
	snprintf(cmd, sizeof(cmd), "bash --norc --noprofile -c 'source %s/usr/share/bash-completion/completions/"
		 "hotsim-pair && COMP_WORDS=(hotsim-pair t --pa) COMP_CWORD=2 && _hotsim_pair && "
		 "echo \"${COMPREPLY[*]}\"'", dest);
	cr_assert_eq(hs_sh(cmd, &out, 4096), 0);
	cr_assert_str_eq(out, "--patch\n", "hotsim-pair t --pa<TAB>: %s", out);
	free(out);
}
