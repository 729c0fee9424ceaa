/*
 * test_bootfail.c - a failed boot remembered beside its snapshot
 * (sim/vm/bootfail.c): the reason comes back for a run like the one that
 * failed, and not for one that asks to boot again (HOTSIM_BOOT_RETRY) or
 * gives the guest more time; a boot that succeeds forgets it. No QEMU
 * needed (test_booted.c boots the real thing).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/vm.h"

#define WHY "the kernel panicked before reaching the workload: Kernel panic - not syncing: VFS: x"

static char snap[64];

static void fresh(void)
{
	char dir[] = "/tmp/hotsim-bootfail-XXXXXX";

	cr_assert(mkdtemp(dir));
	snprintf(snap, sizeof(snap), "%s/k-cortex-a53-0123.snap", dir);
	unsetenv("HOTSIM_BOOT_RETRY");
}

static void gone(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %.*s", (int)(strrchr(snap, '/') - snap), snap);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(bootfail, .init = fresh, .fini = gone);

Test(bootfail, recalled_for_the_same_run)
{
	char why[300] = "";

	cr_assert_eq(hs_bootfail_recall(snap, 240, why, sizeof(why)), 0, "nothing recorded yet");
	hs_bootfail_record(snap, WHY, 240);
	cr_assert_eq(hs_bootfail_recall(snap, 240, why, sizeof(why)), 1);
	cr_assert_str_eq(why, WHY);
	/* a shorter timeout would fail the same way */
	cr_assert_eq(hs_bootfail_recall(snap, 30, why, sizeof(why)), 1);
}

Test(bootfail, more_time_or_retry_boots_again)
{
	char why[300];

	hs_bootfail_record(snap, WHY, 30);
	cr_assert_eq(hs_bootfail_recall(snap, 31, why, sizeof(why)), 0);
	setenv("HOTSIM_BOOT_RETRY", "1", 1);
	cr_assert_eq(hs_bootfail_recall(snap, 30, why, sizeof(why)), 0);
	setenv("HOTSIM_BOOT_RETRY", "0", 1);
	cr_assert_eq(hs_bootfail_recall(snap, 30, why, sizeof(why)), 1);
}

Test(bootfail, forgotten_after_a_good_boot)
{
	char why[300], path[80];

	hs_bootfail_record(snap, WHY, 240);
	hs_bootfail_forget(snap);
	cr_assert_eq(hs_bootfail_recall(snap, 240, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s.fail", snap);
	cr_assert_neq(access(path, F_OK), 0);
}

/* a record that is not one (another program's file, cut short) is ignored */
Test(bootfail, damaged_record_ignored)
{
	char why[300], path[80];
	FILE *f;

	snprintf(path, sizeof(path), "%s.fail", snap);
	cr_assert((f = fopen(path, "w")));
	fputs("hotsim-boot-failure 1\n", f);
	fclose(f);
	cr_assert_eq(hs_bootfail_recall(snap, 240, why, sizeof(why)), 0);
}
