/*
 * test_cgroup.c - --cgroup (cgroup.h): the workload runs where a login
 * under systemd runs it, in the kernel's cgroup, with the controllers the
 * row names - as the kernel itself shows in what one round trip runs - and
 * a kernel that cannot do it stops the boot with its reason.
 */
#include <sys/wait.h>

#include "testutil.h"

/* Entries into fn in operation 3 of sched-pipe on the board's 6.12 image,
 * one A53, with args ("" or "--cgroup NAME"). */
static unsigned entries(const char *args, const char *fn)
{
	return hs_trace_entries("6.12-board", "sched-pipe", "a53", 3, args, fn);
}

/*
 * What the kernel does for a task in a cgroup below the root, read from
 * kernel/sched/fair.c and kernel/cgroup/rstat.c (6.12): update_curr() on
 * a task's entity charges its runtime to its cgroup, and
 * cgroup_account_cputime() calls __cgroup_account_cputime() only when
 * that cgroup has a parent - never in the root cgroup. A round trip
 * switches tasks (each side blocks in read), so in any cgroup below the
 * root it is called. With the cpu controller the task's entity has group
 * entities above it, one per level (session-1.scope, user-0.slice,
 * user.slice), and every switch updates the current entity of each level:
 * more update_curr() calls than in the root cgroup; without the cpu
 * controller (systemd before 252) the same calls as in the root.
 */
Test(cgroup, a_session_runs_in_its_cgroup, .timeout = 900)
{
	unsigned root_acct, root_curr, old_acct, old_curr, acct, curr;

	hs_not_under_sanitizers();
	root_acct = entries("", "__cgroup_account_cputime");
	root_curr = entries("", "update_curr");
	old_acct = entries("--cgroup session-pre252", "__cgroup_account_cputime");
	old_curr = entries("--cgroup session-pre252", "update_curr");
	acct = entries("--cgroup session", "__cgroup_account_cputime");
	curr = entries("--cgroup session", "update_curr");
	cr_assert_eq(root_acct, 0);
	cr_assert_gt(root_curr, 0);
	cr_assert_geq(old_acct, 1);
	cr_assert_eq(old_curr, root_curr);
	cr_assert_geq(acct, 1);
	cr_assert_gt(curr, root_curr, "update_curr %u in the session, %u in the root cgroup", curr, root_curr);
}

/* "hotsim run KERNEL ARGS" on kernel: its exit status, and whether it
 * says each of words (NULL-terminated). */
static void run_says(int status, const char *kernel, const char *args, const char *const *words)
{
	char cmd[700], *out;

	hs_not_under_sanitizers();
	snprintf(cmd, sizeof(cmd), "%s run %s --cpu a53 %s 2>&1", hs_bin(), hs_kernel(kernel), args);
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), status, "%s: %.3000s", cmd, out);
	for (int i = 0; words[i]; i++)
		cr_assert(hs_says(out, words[i]), "%s: %.3000s", words[i], out);
	free(out);
}

/* The state says where the workload ran. */
Test(cgroup, the_state_names_the_cgroup, .timeout = 900)
{
	const char *const words[] = { "in cgroup user.slice/user-0.slice/session-1.scope (cpu,memory,pids)", NULL };

	run_says(0, "6.12-board", "--cgroup session --path syscall.getppid", words);
}

/* In a cgroup and pinned: /cgroup executes /taskset, which pins what
 * /init starts - every round trip on the one CPU, in the session. */
Test(cgroup, pinned_in_a_session, .timeout = 900)
{
	const char *const words[] = { "the workload under taskset -c 1; in cgroup user.slice/user-0.slice/session-1.scope",
				      "every sampled round trip ran on cpu1 alone", NULL };

	run_says(0, "6.12-board", "--smp 4 --taskset 1 --cgroup session --path sched-pipe", words);
}

/* In the session the replay is still QEMU's own run, every CPU's stream
 * (the boards' setting: fidelity replays its round trips so). */
Test(cgroup, a_session_validates_on_every_cpu, .timeout = 900)
{
	char cmd[700], *out;

	hs_not_under_sanitizers();
	snprintf(cmd, sizeof(cmd), "%s validate %s --cpu a53 --smp 4 --cgroup session --path sched-pipe 2>&1", hs_bin(),
		 hs_kernel("6.12-board"));
	cr_assert_eq(hs_sh(cmd, &out, 1u << 20), 0, "%.3000s", out);
	cr_assert(hs_says(out, "sched-pipe a53 identical on 4 CPUs"), "%.3000s", out);
	free(out);
}

/* The 7.2 line's config has no CONFIG_CGROUPS: /cgroup says so, init dies,
 * and the boot fails with both, not at the timeout (the run goes on
 * without the rows that need it). */
Test(cgroup, a_kernel_without_cgroups_says_so, .timeout = 600)
{
	const char *const words[] = { "HOTSIM cgroup: mount cgroup2 at /sys/fs/cgroup: this kernel has no cgroup2 "
				      "(CONFIG_CGROUPS)", "Attempted to kill init!", NULL };

	setenv("HOTSIM_BOOT_RETRY", "1", 1);
	run_says(0, "7.2-base", "--cgroup session --path syscall.getppid", words);
}

Test(cgroup, an_unknown_cgroup_is_refused)
{
	char cmd[300], *out;

	snprintf(cmd, sizeof(cmd), "%s run /nonexistent --cgroup sesion 2>&1", hs_bin());
	cr_assert_eq(hs_sh(cmd, &out, 1u << 16), 2, "%s", out);	/* a usage error */
	cr_assert(hs_says(out, "--cgroup sesion: no such cgroup (session, session-pre252)"), "%s", out);
	cr_assert_eq(hs_count(out, "\n"), 1, "%s", out);
	free(out);
}
