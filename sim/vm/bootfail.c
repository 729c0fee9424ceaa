/*
 * bootfail.c - a boot the guest itself did not finish (it panicked,
 * halted or hung: boot.c's -2) is remembered beside the snapshot it was
 * for, under the snapshot's name with ".fail" - so keyed like it: image,
 * QEMU CPU, QEMU, workload, command line, points. The next run answers at
 * once with the same reason instead of booting to the same end (a hang
 * waited the whole timeout each time). HOTSIM_BOOT_RETRY=1 boots again,
 * and so does a run given a longer HOTSIM_BOOT_TIMEOUT than the failed
 * boot had; a boot that then succeeds removes the record.
 *
 * The record: "hotsim-boot-failure 1", the timeout in seconds, the reason
 * (one line each), written under a temporary name and renamed into place
 * as snapshots are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define MAGIC "hotsim-boot-failure 1"

static void fail_path(const char *snap, char *buf, size_t len)
{
	snprintf(buf, len, "%s.fail", snap);
}

int hs_bootfail_recall(const char *snap, unsigned timeout_s, char *why, size_t len)
{
	const char *retry = getenv("HOTSIM_BOOT_RETRY");
	char path[800], magic[64] = "", reason[1100] = "";
	unsigned had = 0;
	FILE *f;
	int ok;

	if (retry && *retry && strcmp(retry, "0"))
		return 0;
	fail_path(snap, path, sizeof(path));
	if (!(f = fopen(path, "r")))
		return 0;
	ok = fgets(magic, sizeof(magic), f) && !strncmp(magic, MAGIC "\n", sizeof(MAGIC)) &&
	     fscanf(f, "%u\n", &had) == 1 && fgets(reason, sizeof(reason), f);
	fclose(f);
	if (!ok || timeout_s > had)
		return 0;
	reason[strcspn(reason, "\n")] = 0;
	snprintf(why, len, "%s", reason);
	return 1;
}

void hs_bootfail_record(const char *snap, const char *why, unsigned timeout_s)
{
	char path[800], tmp[840];
	FILE *f;

	fail_path(snap, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if (!(f = fopen(tmp, "w")))
		return;		/* not remembered: the next run boots again */
	fprintf(f, MAGIC "\n%u\n%.1000s\n", timeout_s, why);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

void hs_bootfail_forget(const char *snap)
{
	char path[800];

	fail_path(snap, path, sizeof(path));
	unlink(path);
}
