/*
 * snapcache.c - snapshots cached by image, QEMU CPU, workload and QEMU
 * version, so an image boots once per CPU (see vm.h, hs_vm_snapshot).
 *
 * Entries are written whole and renamed into place (snapshot.c) and
 * verified when loaded; a damaged one is booted again, with one line on
 * stderr. Runs that share the cache take an flock on the entry's lock file
 * while they boot: the kernel drops the lock of a process that dies, so a
 * killed run leaves no stale lock, and the runs that waited then find the
 * entry (or boot it themselves). A boot the guest did not finish is
 * remembered beside the entry (bootfail.c) and answered from there.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/cmdline.h"
#include "hotsim/err.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

/* Bumped when what a snapshot holds or how boot.c takes it changes; QEMU's
 * options and the kernel command line are in the key themselves. */
#define SNAP_RECIPE 4
#define MEM_MB 256
/* random.trust_bootloader: credit the device tree's seed (qemu.c) on
 * kernels whose config does not */
#define APPEND "nokaslr random.trust_bootloader=on console=ttyAMA0 rdinit=/init"
#define BOOT_TIMEOUT_S 240
#define LOCK_WAIT_S 900

const char *hs_cache_dir(char *buf, size_t len)
{
	const char *c = getenv("HOTSIM_CACHE"), *home = getenv("HOME");

	if (c && *c)
		snprintf(buf, len, "%s", c);
	else
		snprintf(buf, len, "%s/.cache/hotsim", home && *home ? home : "/tmp");
	return buf;
}

static int mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0755) && errno != EEXIST)
				return hs_fail("%s: cannot create: %s", buf, strerror(errno));
			*p = '/';
		}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return hs_fail("%s: cannot create: %s", buf, strerror(errno));
	return 0;
}

/* QEMU's version line; its absence is the usual reason a boot cannot be. */
static int qemu_version(char *buf, size_t len)
{
	FILE *p = popen("qemu-system-aarch64 --version 2>/dev/null", "r");
	int ok = p && fgets(buf, (int)len, p) && !strncmp(buf, "QEMU emulator", 13);

	if (p)
		pclose(p);
	if (!ok)
		return hs_fail("qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)");
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void image_id(const struct hs_image *img, char *buf, size_t len)
{
	if (img->build_id[0])
		snprintf(buf, len, "%s", img->build_id);
	else
		snprintf(buf, len, "file-%016llx",
			 (unsigned long long)hs_snap_hash(img->file, img->file_size, 0));
}

/* Wait for the entry's lock (a boot elsewhere), up to LOCK_WAIT_S. */
static int lock_entry(const char *lock)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return hs_fail("%s: %s", lock, strerror(errno));
	for (unsigned waited = 0; flock(fd, LOCK_EX | LOCK_NB); waited++) {
		if (errno != EWOULDBLOCK || waited > LOCK_WAIT_S * 5) {
			close(fd);
			return hs_fail("%s: another run has been booting this image for %u s", lock,
				       LOCK_WAIT_S);
		}
		nanosleep(&ts, NULL);
	}
	return fd;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Is process pid running? A zombie is not: a killed run's measuring
 * process, orphaned, waits for an init that may never reap it. */
static int running(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	if (kill(pid, 0) != 0 && errno == ESRCH)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (!(f = fopen(path, "r")))
		return 1;	/* no /proc: kill's answer */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) S ...": the state follows the last ')' */
	p = strrchr(buf, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/*
 * What killed runs leave in the cache directory: scratch directories
 * (boot-PID-*, validate-PID-*) and half-written entries (*.tmp.PID).
 * Nothing reads them; the ones whose process is gone are removed.
 */
static void sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		const char *dash = strchr(e->d_name, '-'), *tmp = strstr(e->d_name, ".tmp.");
		int pid = 0;
		char path[1024];

		if ((!strncmp(e->d_name, "boot-", 5) || !strncmp(e->d_name, "validate-", 9)) && dash)
			pid = atoi(dash + 1);
		else if (tmp)
			pid = atoi(tmp + 5);
		if (pid <= 0 || pid == (int)getpid() || running(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	}
	if (d)
		closedir(d);
}

/* The kernel command line: hotsim's, the set's parameters (--cmdline,
 * a board's), HOTSIM_BOOT_APPEND's (tests boot a kernel that panics this
 * way); part of the cache key. Boot K > 0 of a machine adds hotsim_boot=K:
 * the kernel passes it to init unread, and its bytes move the boot's
 * timing (QEMU's -icount counts every instruction that parses them), so
 * the machine reaches a state of its own - where the scheduler left each
 * task, which CPUs sleep - from the same kernel and workload. */
static const char *full_append(char *buf, size_t len, const struct hs_vm_points *pts)
{
	const char *extra = getenv("HOTSIM_BOOT_APPEND");
	size_t n = (size_t)snprintf(buf, len, "%s%s%s%s%s", APPEND, pts->cmdline ? " " : "",
				    pts->cmdline ? pts->cmdline : "", extra && *extra ? " " : "", extra ? extra : "");

	/* the first process: /cgroup in a cgroup (it moves itself there and
	 * executes /taskset or /init), else /taskset when pinned (it pins
	 * itself and executes /init); the mask and the cgroup reach them as
	 * environment variables, as every parameter the kernel does not know
	 * reaches init */
	if (pts->cgroup && n < len)
		n += (size_t)snprintf(buf + n, len - n, " rdinit=/cgroup hotsim_cgroup=%s hotsim_controllers=%s",
				      pts->cgroup->path, pts->cgroup->controllers);
	else if (pts->taskset && n < len)
		n += (size_t)snprintf(buf + n, len - n, " rdinit=/taskset");
	if (pts->taskset && n < len)
		n += (size_t)snprintf(buf + n, len - n, " hotsim_cpus=%llx", (unsigned long long)pts->taskset);
	if (pts->boot && n < len)
		snprintf(buf + n, len - n, " hotsim_boot=%u", pts->boot);
	return buf;
}

/* Seconds a boot may take to the workload (HOTSIM_BOOT_TIMEOUT). */
static unsigned boot_timeout(void)
{
	const char *t = getenv("HOTSIM_BOOT_TIMEOUT");

	return t && atoi(t) > 0 ? (unsigned)atoi(t) : BOOT_TIMEOUT_S;
}

/* The boot every snapshot of this recipe gets. */
static int boot_params(const struct hs_core *core, const struct hs_vm_points *pts, struct hs_vm_boot *b,
		       char *append, size_t len)
{
	if (!core->boot_cpu)
		return hs_fail("no QEMU CPU is chosen for %s", core->name);
	if (pts->cmdline && hs_cmdline_check(pts->cmdline))
		return -1;
	memset(b, 0, sizeof(*b));
	b->cpu = core->boot_cpu;
	b->mem_mb = MEM_MB;
	b->timeout_s = boot_timeout();
	b->midr = core->boot.midr;
	b->whole_ram = getenv("HOTSIM_RAM_WHOLE") != NULL;
	b->append = full_append(append, len, pts);
	b->points = pts->v;
	b->npoints = pts->n;
	b->wl = pts->wl;
	b->ncpus = pts->ncpus;
	b->taskset = pts->taskset;
	b->cgroup = pts->cgroup;
	return 0;
}

int hs_vm_boot_keep(const struct hs_image *img, const struct hs_core *core, const struct hs_vm_points *pts,
		    const char *dir, struct hs_snap *s)
{
	struct hs_vm_boot b;
	char append[512];

	if (boot_params(core, pts, &b, append, sizeof(append)))
		return -1;
	b.dir = dir;
	b.keep_dir = dir;
	return hs_vm_boot_image(img, &b, s);
}

/* A cache boot: recorded (qemu.c), so no race moves the guest's clock. */
static int boot_into(const struct hs_image *img, const struct hs_core *core, const struct hs_vm_points *pts,
		     const char *qemu, const char *dir, const char *path)
{
	struct hs_vm_boot b;
	char scratch[600], append[512];
	struct hs_snap s;
	int rc;

	if (boot_params(core, pts, &b, append, sizeof(append)))
		return -1;
	snprintf(scratch, sizeof(scratch), "%s/boot-%d-XXXXXX", dir, (int)getpid());
	if (!mkdtemp(scratch))
		return hs_fail("%s: cannot create: %s", scratch, strerror(errno));
	b.dir = scratch;
	/* QEMU 7.2 refuses record mode for more than one CPU ("Record/replay
	 * feature is not supported for 'smp'") */
	b.record = pts->ncpus <= 1;
	rc = hs_vm_boot_image(img, &b, &s);
	if (!rc) {
		snprintf(s.h.qemu, sizeof(s.h.qemu), "%s", qemu);
		image_id(img, s.h.image_id, sizeof(s.h.image_id));
		snprintf(s.h.workload_id, sizeof(s.h.workload_id), "%016llx",
			 (unsigned long long)hs_workload_id(pts->wl));
		rc = hs_snap_write(&s, path);
		hs_snap_free(&s);
	}
	nftw(scratch, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}

/* The points, as the cache key sees them: everything a point changes in
 * the boot (its name, kind, site; on a machine, whether a hit may pass and
 * what it needs of the kernel). */
static uint64_t points_key(const struct hs_vm_points *pts, uint64_t h)
{
	for (unsigned i = 0; i < pts->n; i++) {
		const struct hs_boot_point *p = &pts->v[i];
		int machine = pts->ncpus > 1;
		char buf[400];

		/* needs_what is in the why the snapshot keeps (boot.c skip_lacking) */
		snprintf(buf, sizeof(buf), "%s|%d|%s|%llx%s%s%s%s%s;", p->name, (int)p->kind, p->site ? p->site : "",
			 (unsigned long long)p->addr, machine && p->each_op ? "|each op" : "",
			 machine && p->needs ? "|needs " : "", machine && p->needs ? p->needs : "",
			 machine && p->needs ? "|" HS_VM_LACKS : "", machine && p->needs_what ? p->needs_what : "");
		h = hs_snap_hash(buf, strlen(buf), h);
	}
	return h;
}

/*
 * What the key holds besides the image and the CPU (the file's name):
 * QEMU's version, the workload, the recipe number, QEMU's machine options
 * and the whole kernel command line as a cache boot gets them, the RAM
 * size, /taskset when pinned, the points and, for a machine, that they
 * are taken with the other CPUs idle, each by a run of its own (boot.c). A snapshot taken with other QEMU options or
 * another command line has another key, whether or not the recipe number
 * (bumped by hand) was: a cache shared by branches never hands one the
 * other's boot.
 */
static uint64_t boot_key(const struct hs_vm_points *pts, const char *qemu)
{
	char machine[400], append[512], recipe[1000];
	uint64_t key = hs_snap_hash(qemu, strlen(qemu), hs_workload_id(pts->wl) + SNAP_RECIPE);

	snprintf(recipe, sizeof(recipe), "%s|%s|%u%s", hs_qemu_recipe(machine, sizeof(machine), pts->ncpus <= 1, pts->ncpus),
		 full_append(append, sizeof(append), pts), MEM_MB, pts->ncpus > 1 ? "|points with the other CPUs idle|a run a point" : "");
	key = hs_snap_hash(recipe, strlen(recipe), key);
	/* pinned: /taskset runs first */
	if (pts->taskset)
		key = hs_snap_hash(hs_taskset_elf, hs_taskset_elf_size, key);
	/* in a cgroup: /cgroup runs first */
	if (pts->cgroup)
		key = hs_snap_hash(hs_cgroup_elf, hs_cgroup_elf_size, key);
	return points_key(pts, key);
}

int hs_vm_snapshot(const struct hs_image *img, const struct hs_core *core, const struct hs_vm_points *pts,
		   struct hs_snap *s, int *booted)
{
	const char *cpu = core->boot_cpu;
	char dir[512], qemu[80], id[96], path[700], lock[720], why[1100];
	uint64_t key;
	int fd, rc;

	*booted = 0;
	if (pts->boot >= HS_BOOT_MAX)
		return hs_fail("boot %u of a machine: hotsim boots one at most %d times (0-%d)", pts->boot,
			       HS_BOOT_MAX, HS_BOOT_MAX - 1);
	if (hs_vm_taskset_fits(pts->ncpus, pts->taskset) || hs_vm_cgroup_fits(pts->cgroup) ||
	    (pts->cmdline && hs_cmdline_check(pts->cmdline)) || qemu_version(qemu, sizeof(qemu)))
		return -1;
	image_id(img, id, sizeof(id));
	key = boot_key(pts, qemu);
	hs_cache_dir(dir, sizeof(dir) - 16);
	strcat(dir, "/snapshots");
	if (mkdirs(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/%s-%s-%016llx.snap", dir, id, cpu, (unsigned long long)key);
	snprintf(lock, sizeof(lock), "%s.lock", path);
	/* on every use, not only before a boot: a run killed after its
	 * snapshot was stored (its scratch not yet removed) leaves an entry
	 * that no later boot would otherwise come to clean */
	sweep(dir);
	if (access(path, F_OK) == 0) {
		if (hs_snap_load(path, s) == 0)
			return 0;
		fprintf(stderr, "hotsim: %s; booting the image again\n", hs_errmsg());
	}
	if ((fd = lock_entry(lock)) < 0)
		return -1;
	/* whoever held the lock may have stored it meanwhile */
	if (access(path, F_OK) == 0 && hs_snap_load(path, s) == 0) {
		close(fd);
		return 0;
	}
	/* a boot that failed in the guest ends the same way again */
	if (hs_bootfail_recall(path, boot_timeout(), why, sizeof(why))) {
		close(fd);
		return hs_fail("%s (remembered from an earlier boot; HOTSIM_BOOT_RETRY=1 boots again)", why);
	}
	unlink(path);
	/* minutes for a distro kernel: say what is happening */
	fprintf(stderr, "hotsim: booting %s under QEMU (%s) for its snapshot; cached afterwards\n",
		img->path, cpu);
	rc = boot_into(img, core, pts, qemu, dir, path);
	if (!rc) {
		hs_bootfail_forget(path);
		rc = hs_snap_load(path, s);
	} else if (rc == -2) {
		hs_bootfail_record(path, hs_errmsg(), boot_timeout());
	} else if (strstr(hs_errmsg(), "cannot write") || strstr(hs_errmsg(), "cannot create")) {
		fprintf(stderr, "hotsim: %s\n", hs_errmsg());	/* the cache, not the image */
	}
	close(fd);
	*booted = rc == 0;
	return rc ? -1 : 0;
}
