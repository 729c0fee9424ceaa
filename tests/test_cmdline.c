/*
 * test_cmdline.c - --cmdline (cmdline.h): kernel parameters added to the
 * guest's command line change what the kernel does at every operation,
 * as the kernel itself shows in what one operation runs; hotsim's own
 * parameters and quoted ones are refused before anything boots.
 */
#include <string.h>

#include "hotsim/cmdline.h"
#include "hotsim/err.h"
#include "testutil.h"

/* Entries into fn in operation 3 of getppid on the board's 6.12 image,
 * one A53, with args ("" or "--cmdline ..."). */
static unsigned entries(const char *args, const char *fn)
{
	return hs_trace_entries("6.12-board", "syscall.getppid", "a53", 3, args, fn);
}

/*
 * audit=1 turns the kernel's auditing on at boot, as systemd-journald
 * does when it opens its audit socket. Read from kernel/auditsc.c and
 * arch/arm64/kernel/{syscall,ptrace}.c (6.12): once auditing was ever on,
 * audit_alloc() gives every new task an audit context (no rules: state
 * BUILD) and sets TIF_SYSCALL_AUDIT; el0_svc_common() then takes the
 * syscall-work path, syscall_trace_enter() calls __audit_syscall_entry()
 * and syscall_trace_exit() __audit_syscall_exit() - once each per system
 * call. Without it the flag is clear and neither runs.
 */
Test(cmdline, audit_on_audits_every_system_call, .timeout = 900)
{
	hs_not_under_sanitizers();
	cr_assert_eq(entries("", "__audit_syscall_entry"), 0);
	cr_assert_eq(entries("", "__audit_syscall_exit"), 0);
	cr_assert_eq(entries("--cmdline audit=1", "__audit_syscall_entry"), 1);
	cr_assert_eq(entries("--cmdline audit=1", "__audit_syscall_exit"), 1);
}

/* "hotsim run KERNEL ARGS" on kernel: its exit status, one line when it
 * fails, and whether it says each of words (NULL-terminated). */
static void run_says(int status, const char *args, const char *const *words)
{
	char cmd[700], *out;

	hs_not_under_sanitizers();
	snprintf(cmd, sizeof(cmd), "%s run %s --cpu a53 %s 2>&1", hs_bin(), hs_kernel("6.12-board"), args);
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), status, "%s: %.3000s", cmd, out);
	if (status)
		cr_assert_eq(hs_count(out, "\n"), 1, "one line: %s", out);
	for (int i = 0; words[i]; i++)
		cr_assert(hs_says(out, words[i]), "%s: %.3000s", words[i], out);
	free(out);
}

Test(cmdline, the_state_names_the_parameters, .timeout = 900)
{
	run_says(0, "--path syscall.getppid --cmdline audit=1", (const char *const[]){ "kernel parameters audit=1", NULL });
	/* and the JSON, where a script comparing two runs looks */
	run_says(0, "--path syscall.getppid --cmdline audit=1 --json",
		 (const char *const[]){ "\"states\": [ { \"cpu\": \"a53\",", "kernel parameters audit=1\"", NULL });
}

/* Where the boot starts, its console and its fixed layout are hotsim's;
 * a quote would make the kernel split the line otherwise than the state
 * says. Refused before the image is read: exit 2, one line. */
Test(cmdline, hotsims_own_and_quoted_are_refused, .timeout = 120)
{
	run_says(2, "--path syscall.getppid --cmdline 'audit=1 rdinit=/bin/sh'",
		 (const char *const[]){ "rdinit=/bin/sh", "hotsim's boot sets rdinit itself", NULL });
	run_says(2, "--path syscall.getppid --cmdline kaslr", (const char *const[]){ "sets kaslr itself", NULL });
	run_says(2, "--path syscall.getppid --cmdline hotsim_cpus=3", (const char *const[]){ "hotsim's own", NULL });
	run_says(2, "--path syscall.getppid --cmdline 'dyndbg=\"x\"'",
		 (const char *const[]){ "byte 0x22 at 7", "printable and unquoted", NULL });
}

/* The check itself, without a kernel: parameters the kernel takes as
 * given pass; hotsim's own are refused by name, not by prefix. */
Test(cmdline, the_check_names_what_it_refuses)
{
	char long_args[HS_CMDLINE_MAX + 2];

	cr_assert_eq(hs_cmdline_check("audit=1"), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_cmdline_check("audit=1  mitigations=off preempt=none initcall_debug"), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_cmdline_check("consoleblank=0 kaslr_seed=1"), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_cmdline_check("audit=1 init=/bin/sh"), -1);
	cr_assert(strstr(hs_errmsg(), "init=/bin/sh: hotsim's boot sets init itself"), "%s", hs_errmsg());
	cr_assert_eq(hs_cmdline_check("nokaslr"), -1);
	cr_assert_eq(hs_cmdline_check("console=ttyS0"), -1);
	cr_assert_eq(hs_cmdline_check("a\tb"), -1);
	cr_assert(strstr(hs_errmsg(), "byte 0x09 at 1"), "%s", hs_errmsg());
	cr_assert_eq(hs_cmdline_check(""), -1);
	memset(long_args, 'a', sizeof(long_args) - 1);
	long_args[sizeof(long_args) - 1] = 0;
	cr_assert_eq(hs_cmdline_check(long_args), -1);
	cr_assert(strstr(hs_errmsg(), "161 bytes of parameters; at most 160"), "%s", hs_errmsg());
	long_args[HS_CMDLINE_MAX] = 0;
	cr_assert_eq(hs_cmdline_check(long_args), 0, "%s", hs_errmsg());
}

/* The audited call is still QEMU's own run: the replay's stream from the
 * getppid point is the one QEMU executed, instruction for instruction. */
Test(cmdline, an_audited_call_validates, .timeout = 900)
{
	char cmd[700], *out;

	hs_not_under_sanitizers();
	snprintf(cmd, sizeof(cmd), "%s validate %s --cpu a53 --cmdline audit=1 --path syscall.getppid 2>&1", hs_bin(),
		 hs_kernel("6.12-board"));
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 0, "%s: %.3000s", cmd, out);
	cr_assert(hs_says(out, "syscall.getppid a53 identical"), "%.3000s", out);
	free(out);
}
