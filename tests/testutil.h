/* testutil.h - where tests find their real inputs. Tests run from the repo root. */
#ifndef HOTSIM_TESTUTIL_H
#define HOTSIM_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Real arm64 kernels: build/kernels/<name>.vmlinux, built by
 * kernels/linux/build.sh (<line>-<variant>, kernels/linux/variants) or
 * fetched by kernels/debian/fetch.sh (debian-*, kernels/debian/images).
 * hs_kernel() gives the path. HOTSIM_KERNELS says what a test that needs
 * one does: "need" (make check) fails when the kernel is missing, "skip"
 * (make test, the fast tier) skips saying so, unset skips only when it is
 * missing - always naming the command that makes it.
 */
#include <criterion/criterion.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hotsim/core.h"

/* How many cores the registry lists (hs_cores[], the same in the hotsim
 * the tests run), opt-in ones included: what --cpu all runs. */
static inline unsigned hs_ncores(void)
{
	unsigned n = 0;

	while (hs_cores[n])
		n++;
	return n;
}

/* How many cores a command runs when --cpu is not given: the default set,
 * the registry's cores without opt_in (a53, a55, a73; and t99 where
 * tests/extra_registry.c is linked). Counts of a default run's rows are
 * multiples of it; hs_ncores() is for --cpu all and the API. */
static inline unsigned hs_ndefault_cores(void)
{
	unsigned n = 0;

	for (unsigned i = 0; hs_cores[i]; i++)
		n += !hs_cores[i]->opt_in;
	return n;
}

/* How many names a comma-separated list ("irq-el1,irq-el0") holds. */
static inline unsigned hs_nnames(const char *list)
{
	unsigned n = *list != 0;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* The path as a literal, for commands built by concatenation; such a test
 * calls hs_kernel(name) first. */
#define HS_KPATH(name) "build/kernels/" name ".vmlinux"

static inline const char *hs_kernel(const char *name)
{
	static char bufs[8][128];
	static unsigned next;
	char *p = bufs[next++ % 8];
	const char *mode = getenv("HOTSIM_KERNELS") ? getenv("HOTSIM_KERNELS") : "";
	const char *how = strncmp(name, "debian-", 7) ? "kernels/linux/build.sh" : "kernels/debian/fetch.sh";

	snprintf(p, sizeof(bufs[0]), "build/kernels/%.100s.vmlinux", name);
	if (!strcmp(mode, "skip"))
		cr_skip_test("needs real kernel %s: make check runs it", name);
	if (access(p, R_OK) == 0)
		return p;
	if (!strcmp(mode, "need"))
		cr_assert_fail("kernel %s missing: run %s %s", name, how, name);
	cr_skip_test("needs real kernel %s (%s %s, or make kernels)", name, how, name);
	return p;
}

/* Small cross-compiled fixtures built by `make fixtures` (kernels/fixtures/) */
#define HS_FIXTURE(name) "kernels/fixtures/build/" name

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole file in memory (NUL-terminated, length in *len); NULL if unreadable. */
static inline uint8_t *hs_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc((size_t)n + 1)) != NULL) {
		if (fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		} else {
			b[n] = 0;
			*len = (size_t)n;
		}
	}
	fclose(f);
	return b;
}

/* The hotsim the tests run (the build flavour's own, scripts/run-tests.sh). */
static inline const char *hs_bin(void)
{
	return getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
}

/* Run a shell command, its stdout into *out (NUL-terminated, at most max
 * bytes kept; out NULL: dropped); the exit status, or -1 if it did not exit
 * (*out is then "" or NULL). */
static inline int hs_sh(const char *cmd, char **out, size_t max)
{
	FILE *p = popen(cmd, "r");
	char *buf = malloc(max + 1), sink[4096];
	size_t n = 0, r;
	int st;

	if (out)
		*out = NULL;
	if (!p || !buf) {
		if (p)
			pclose(p);
		if (out && buf)
			*out = (buf[0] = 0, buf);
		else
			free(buf);
		return -1;
	}
	while ((r = fread(n < max ? buf + n : sink, 1, n < max ? max - n : sizeof(sink), p)) > 0)
		n += n < max ? r : 0;
	buf[n] = 0;
	st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Remove a test's scratch directory and everything under it. */
static inline void hs_rm_rf(const char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	hs_sh(cmd, NULL, 0);
}

/* Occurrences of needle in hay. */
static inline unsigned hs_count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Does the report say needle, whatever line breaks its wrapping put
 * between the words? (Each run of blanks and newlines is one blank.) */
static inline int hs_says(const char *out, const char *needle)
{
	size_t n = strlen(out), k = 0;
	char *flat = malloc(n + 1);
	int found;

	if (!flat)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int blank = out[i] == ' ' || out[i] == '\n';

		if (blank && k && flat[k - 1] == ' ')
			continue;
		flat[k++] = blank ? ' ' : out[i];
	}
	flat[k] = 0;
	found = strstr(flat, needle) != NULL;
	free(flat);
	return found;
}

static inline long hs_row_value(const char *out, const char *path, const char *cpu, const char *state)
{
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char a[80], b[16], c[16];
		long v;

		if (sscanf(l, "%79s %15s %15s %ld", a, b, c, &v) == 4 && !strcmp(a, path) && !strcmp(b, cpu) &&
		    !strcmp(c, state))
			return v;
	}
	return -1;
}

/* The sanitizer pass runs the replay, not QEMU again: a test whose work
 * is boots and validation (minutes of them) runs in the normal build. */
static inline void hs_not_under_sanitizers(void)
{
	if (getenv("HOTSIM_SAN"))
		cr_skip_test("QEMU-heavy: run by the normal build");
}

/* Entries into fn (its first instruction) in operation op of path on
 * kernel, one CPU of core cpu, with args ("" or options such as
 * "--cgroup NAME"): counted in `hotsim trace`'s listing. */
static inline unsigned hs_trace_entries(const char *kernel, const char *path, const char *cpu, unsigned op,
					const char *args, const char *fn)
{
	char cmd[700], want[120], *out;
	unsigned n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s trace %s %s --cpu %s %s --op %u --limit 200000 2>&1", hs_bin(),
		 hs_kernel(kernel), path, cpu, args, op);
	st = hs_sh(cmd, &out, 64u << 20);
	cr_assert_eq(st, 0, "%s: %.3000s", cmd, out ? out : "");
	snprintf(want, sizeof(want), " %s+0x0 ", fn);
	n = hs_count(out, want);
	free(out);
	return n;
}

#endif
