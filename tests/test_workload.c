/*
 * test_workload.c - the user's own workload (--workload FILE, issue 20):
 * a C file with two marked operations gives two user.* rows, booted and
 * sampled like hotsim's paths and validated against QEMU; a marker
 * around getppid() runs what syscall.getppid runs, give or take the loop;
 * and every way a workload can be wrong is one line and exit 2 - it does
 * not compile (the compiler's own message), has no marker, is not a
 * static aarch64 program, never reaches its marker (the guest's last
 * words say why), or never ends an operation. The workloads are real
 * aarch64 C programs (tests/workloads/), compiled by hotsim itself.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_OUT (1 << 20)
#define WL(name) "tests/workloads/" name

static int hotsim(const char *args, char **out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", hs_bin(), args);
	return hs_sh(cmd, out, MAX_OUT);
}

/* A one-line error: exit 2, stdout empty, and on stderr - but for a
 * boot's progress lines - exactly one line, with want in it. */
static void one_line_error(const char *args, const char *want)
{
	char cmd[1024], *err, *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null | grep -v '^hotsim: booting'", hs_bin(), args);
	hs_sh(cmd, &err, MAX_OUT);
	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", hs_bin(), args);
	cr_assert_eq(hs_sh(cmd, &out, MAX_OUT), 2, "%s: %s", args, err);
	cr_assert_str_eq(out, "", "%s printed: %s", args, out);
	cr_assert(strstr(err, want), "%s: wanted \"%s\": %s", args, want, err);
	cr_assert_eq(hs_count(err, "\n"), 1, "one line: %s", err);
	free(err);
	free(out);
}

/* Fast tier: what is wrong with the file itself, before any image. */
Test(workload, does_not_compile_with_the_compilers_message)
{
	one_line_error("run /nonexistent.vmlinux --workload " WL("bad_syntax.c"), "bad_syntax.c: does not compile: ");
	one_line_error("run /nonexistent.vmlinux --workload " WL("bad_syntax.c"), "error:");
}

Test(workload, no_marker)
{
	one_line_error("run /nonexistent.vmlinux --workload " WL("no_markers.c"),
		       "no_markers.c: no hotsim_op_begin() marker");
}

Test(workload, not_a_static_aarch64_program)
{
	char cmd[512];

	/* a dynamically linked aarch64 program, and a host (x86-64) one */
	snprintf(cmd, sizeof(cmd), "aarch64-linux-gnu-gcc -O2 -Iinclude -o /tmp/hotsim-wl-dyn %s && "
		 "cc -O2 -x c -o /tmp/hotsim-wl-host - <<'E'\nint main(void) { return 0; }\nE",
		 WL("no_markers.c"));
	cr_assert_eq(system(cmd), 0);
	one_line_error("run /nonexistent.vmlinux --workload /tmp/hotsim-wl-dyn", "dynamically linked");
	one_line_error("run /nonexistent.vmlinux --workload /tmp/hotsim-wl-host", "not an aarch64 program");
	one_line_error("run /nonexistent.vmlinux --workload /nonexistent.c", "/nonexistent.c: No such file");
	unlink("/tmp/hotsim-wl-dyn");
	unlink("/tmp/hotsim-wl-host");
}

/* Real kernels: two marked operations, two rows, sampled, each its own. */
Test(workload, two_marked_operations_two_rows, .timeout = 900)
{
	char args[512], *out;
	long ppid, both, base;

	hs_kernel("7.2-base");
	snprintf(args, sizeof(args), "run %s --cpu a53 --workload %s", hs_kernel("7.2-base"), WL("two_ops.c"));
	cr_assert_eq(hotsim(args, &out), 0, "%.4000s", out);
	ppid = hs_row_value(out, "user.ppid", "a53", "typical");
	both = hs_row_value(out, "user.both", "a53", "typical");
	cr_assert(ppid > 0 && both > ppid, "two rows, the second dearer: %s", out);
	cr_assert(strstr(out, "n 64;"), "sampled: %s", out);
	cr_assert(strstr(out, "user.ppid       a53"), "projected: %s", out);
	free(out);
	/* the instructions of getppid() in the user's loop are syscall.getppid's,
	 * give or take the loop's own (the libc wrapper, the loop): within 32 */
	snprintf(args, sizeof(args), "run %s --cpu a53 --workload %s --json", hs_kernel("7.2-base"),
		 WL("two_ops.c"));
	cr_assert_eq(hotsim(args, &out), 0);
	{
		const char *p = strstr(out, "\"path\": \"user.ppid\"");
		double ui = 0, si = 0;
		char *o2;

		cr_assert(p && sscanf(strstr(p, "\"insns\": "), "\"insns\": %lf", &ui) == 1);
		snprintf(args, sizeof(args), "run %s --cpu a53 --path syscall.getppid --json",
			 hs_kernel("7.2-base"));
		cr_assert_eq(hotsim(args, &o2), 0);
		p = strstr(o2, "\"path\": \"syscall.getppid\"");
		cr_assert(p && sscanf(strstr(p, "\"insns\": "), "\"insns\": %lf", &si) == 1);
		cr_assert(ui >= si && ui <= si + 32, "user.ppid %.1f vs syscall.getppid %.1f insns", ui, si);
		free(o2);
	}
	free(out);
	(void)base;
}

/* ... validated against QEMU, and compared like any row (an image with
 * itself: identical) */
Test(workload, validated_and_compared, .timeout = 900)
{
	char args[512], *out;

	snprintf(args, sizeof(args), "validate %s --workload %s", hs_kernel("7.2-base"), WL("two_ops.c"));
	cr_assert_eq(hotsim(args, &out), 0, "%.4000s", out);
	cr_assert_eq(hs_count(out, " identical, "), 2 * hs_ndefault_cores(), "%.4000s", out);
	free(out);
	snprintf(args, sizeof(args), "compare %s %s --cpu a53 --workload %s --json", hs_kernel("7.2-base"),
		 hs_kernel("7.2-base"), WL("two_ops.c"));
	cr_assert_eq(hotsim(args, &out), 0, "%.4000s", out);
	cr_assert(strstr(out, "\"path\": \"user.both\"") && strstr(out, "\"moved\": 0,"), "%.2000s", out);
	free(out);
}

/* A marker the program never reaches: it exits first - named, with the
 * guest's own last words. */
Test(workload, marker_never_reached, .timeout = 900)
{
	char args[512];

	snprintf(args, sizeof(args), "run %s --cpu a53 --workload %s", hs_kernel("7.2-base"),
		 WL("never_reached.c"));
	one_line_error(args, "before reaching the user.late point");
	one_line_error(args, "HOTSIM user workload exited with status 3");
}

/* An operation that never ends: the replay's budget ends it, named. */
Test(workload, operation_never_ends, .timeout = 900)
{
	char args[512];

	snprintf(args, sizeof(args), "run %s --cpu a53 --workload %s", hs_kernel("7.2-base"), WL("no_end.c"));
	one_line_error(args, "user.forever on a53: ");
	one_line_error(args, "did not reach a hotsim_op_end()");
}
