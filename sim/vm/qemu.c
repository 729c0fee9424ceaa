/*
 * qemu.c - start and stop qemu-system-aarch64 for a boot (see vm.h).
 *
 * The machine: virt with a GICv3, a device tree whose rng-seed (and
 * kaslr-seed, which nokaslr ignores) comes from QEMU's deterministic
 * generator (-seed): the guest's crng is seeded at boot, as a real
 * machine's is within seconds (a bootloader seed, interrupt and jitter
 * entropy). A guest with no seed at all keeps it empty for minutes, and
 * every get_random_*() then runs extract_entropy: 9,700 instructions per
 * getpid on Debian's 6.1, whose syscall entry draws a random stack
 * offset - no machine a user measures is in that state. One CPU (or
 * hs_qemu_cfg.ncpus), -icount shift=0,sleep=off (one
 * instruction is one nanosecond of guest time and the clock never follows
 * the host: a boot runs the same instructions every time; a guest resumed
 * after a stop, or restored, finds the clock at its next timer deadline,
 * as an idle guest would), an RTC that
 * does not read the host clock, no network.
 *
 * A boot for the snapshot cache also records (rr=record, hs_qemu_cfg.record):
 * QEMU 7.2's main loop moves an idle guest's clock to its next deadline
 * from the instruction count, and while the vCPU thread has halted in a
 * wfi but not yet added its last run of instructions to that count, a main
 * loop woken then (any host event) moves the clock too far by that run.
 * Which one wins is host scheduling: on a loaded host a boot of Debian's
 * 7.2 woke from one idle 224 ns off, and its entropy pools and idle time
 * said so (the cache then held a boot no other reproduced). Record mode
 * holds its replay lock over each run of the vCPU and over the main loop's
 * warp, so the warp always sees the whole count. It cannot save a machine
 * (7.2 asserts in the migration thread's clock read), so validation's
 * boots, which keep machines, do not record, nor does a machine of more
 * than one CPU (QEMU 7.2 refuses: docs/booted-state.md). Every boot runs on
 * a host CPU of its own, which closes the race for a boot that does not
 * record (host_cpu.c). QEMU starts stopped (-S) with
 * its gdbstub and QMP on Unix sockets in the work directory, and is killed
 * if hotsim dies (PR_SET_PDEATHSIG), so no QEMU outlives a killed run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define QEMU "qemu-system-aarch64"
/* The guest's RAM in a memfd QEMU shares (then mapped by hotsim through
 * /proc/PID/fd): each point's RAM is read where it is, where a pmemsave
 * wrote all 256 MB to a file and hotsim read it back (0.3 s of the 0.55 s
 * a point took, 17 points a boot). The guest sees the same RAM. */
#define RAMDEV "memory-backend-memfd,id=hsram,share=on"
#define RAMNAME "memory-backend-memfd"

static int connect_unix(const char *path, unsigned timeout_ms, pid_t pid)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	if (strlen(path) >= sizeof(a.sun_path))
		return hs_fail("%s: socket path too long", path);
	strcpy(a.sun_path, path);
	for (unsigned waited = 0; waited < timeout_ms; waited += 20) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), st;

		if (fd < 0)
			return hs_fail("socket: %s", strerror(errno));
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
			return fd;
		close(fd);
		if (waitpid(pid, &st, WNOHANG) == pid)
			return hs_fail(QEMU " exited before %s appeared", path);
		nanosleep(&ts, NULL);
	}
	return hs_fail(QEMU ": no %s after %u ms", path, timeout_ms);
}

/* QEMU's command line and the files of its work directory it names */
struct qemu_cmd {
	char mem[16], ramdev[80], gdb[300], qmp[300], qmpdev[400], gdbdev[400], serial[400], log[300];
	char incoming[400], icount[400], smp[12];
	const char *argv[64];
	int n;
};

/* The work directory's files: sockets (left over from an earlier run:
 * removed), console and log */
static void name_files(struct hs_qemu *q, const struct hs_qemu_cfg *cfg, struct qemu_cmd *c)
{
	snprintf(q->dir, sizeof(q->dir), "%s", cfg->dir);
	snprintf(q->console, sizeof(q->console), "%s/console.log", cfg->dir);
	snprintf(c->gdb, sizeof(c->gdb), "%s/gdb.sock", cfg->dir);
	snprintf(c->qmp, sizeof(c->qmp), "%s/qmp.sock", cfg->dir);
	snprintf(c->qmpdev, sizeof(c->qmpdev), "unix:%s,server=on,wait=off", c->qmp);
	snprintf(c->log, sizeof(c->log), "%s/qemu.log", cfg->dir);
	snprintf(c->mem, sizeof(c->mem), "%u", cfg->mem_mb);
	snprintf(c->ramdev, sizeof(c->ramdev), RAMDEV ",size=%uM", cfg->mem_mb);
	snprintf(c->serial, sizeof(c->serial), "file:%s", q->console);
	snprintf(c->gdbdev, sizeof(c->gdbdev), "socket,id=gdb0,server=on,wait=off,path=%s", c->gdb);
	unlink(c->gdb);
	unlink(c->qmp);
}

static void add(struct qemu_cmd *c, const char *arg)
{
	c->argv[c->n++] = arg;
}

/* The machine of the file's header comment, but for -cpu, -m and -icount
 * and the number of CPUs (SMP_AT: the cfg's); part of the snapshot cache's
 * key (hs_qemu_recipe). With -icount QEMU runs every CPU in one thread,
 * round robin (no MTTCG), so N CPUs are as deterministic as one. */
static const char *const machine[] = {
	"-M", "virt,gic-version=3", "-seed", "1", "-smp", "1",
	"-rtc", "base=2026-01-01T00:00:00,clock=vm", "-nic", "none",
	/* a guest that panics (panic=-1) or reboots ends QEMU at once */
	"-no-reboot", "-display", "none", "-monitor", "none",
};
#define SMP_AT 5
#define ICOUNT "shift=0,sleep=off"
#define RECORD ",rr=record,rrfile="	/* then the work directory's boot.rr */

static void add_machine(struct qemu_cmd *c, const struct hs_qemu_cfg *cfg)
{
	add(c, QEMU);
	snprintf(c->smp, sizeof(c->smp), "%u", cfg->ncpus ? cfg->ncpus : 1);
	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++)
		add(c, i == SMP_AT ? c->smp : machine[i]);
	add(c, "-cpu");
	add(c, cfg->cpu);
	add(c, "-m");
	add(c, c->mem);
	add(c, "-object");
	add(c, c->ramdev);
	add(c, "-machine");
	add(c, "memory-backend=hsram");
	add(c, "-icount");
	if (cfg->record) {
		snprintf(c->icount, sizeof(c->icount), ICOUNT RECORD "%s/boot.rr", cfg->dir);
		add(c, c->icount);
	} else {
		add(c, ICOUNT);
	}
}

const char *hs_qemu_recipe(char *buf, size_t len, int record, unsigned ncpus)
{
	size_t n = (size_t)snprintf(buf, len, "%s", QEMU);

	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]) && n < len; i++)
		if (i == SMP_AT)
			n += (size_t)snprintf(buf + n, len - n, " %u", ncpus ? ncpus : 1);
		else
			n += (size_t)snprintf(buf + n, len - n, " %s", machine[i]);
	if (n < len)
		snprintf(buf + n, len - n, " -object " RAMDEV " -machine memory-backend=hsram -icount %s",
			 record ? ICOUNT RECORD : ICOUNT);
	return buf;
}

/* What it boots, where its console goes, its QMP and gdbstub sockets */
static void add_boot_and_control(struct qemu_cmd *c, const struct hs_qemu_cfg *cfg)
{
	add(c, "-serial");
	add(c, c->serial);
	add(c, "-kernel");
	add(c, cfg->kernel);
	add(c, "-initrd");
	add(c, cfg->initrd);
	add(c, "-append");
	add(c, cfg->append);
	add(c, "-qmp");
	add(c, c->qmpdev);
	add(c, "-chardev");
	add(c, c->gdbdev);
	add(c, "-gdb");
	add(c, "chardev:gdb0");
	add(c, "-S");
	/* a machine saved while stopped in the debugger must not carry the
	 * "debug" run state into the copy (QEMU would refuse to load it) */
	add(c, "-global");
	add(c, "migration.store-global-state=off");
	if (cfg->plugin) {
		add(c, "-plugin");
		add(c, cfg->plugin);
	}
	if (cfg->incoming) {
		snprintf(c->incoming, sizeof(c->incoming), "exec:cat '%s'", cfg->incoming);
		add(c, "-incoming");
		add(c, c->incoming);
	}
	c->argv[c->n] = NULL;
}

/* fork and exec QEMU, its output into the log */
static int spawn(struct hs_qemu *q, const struct qemu_cmd *c)
{
	int fd;

	q->pid = fork();
	if (q->pid < 0)
		return hs_fail("fork: %s", strerror(errno));
	if (q->pid == 0) {
		/* QEMU must not outlive hotsim, killed or not */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		hs_host_cpu_pin(&q->host);
		fd = open(c->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(QEMU, (char *const *)c->argv);
		fprintf(stderr, "exec " QEMU ": %s\n", strerror(errno));
		_exit(127);
	}
	return 0;
}

/* A start that failed: QEMU is stopped, and the error says so plainly when
 * the reason is that there is no QEMU to exec (the child's log says so). */
static int start_failed(struct hs_qemu *q, const char *log)
{
	char why[600];

	snprintf(why, sizeof(why), "%s", hs_errmsg());
	hs_qemu_stop(q);
	if (access(log, R_OK) == 0) {
		FILE *f = fopen(log, "r");
		char line[200] = "";

		if (f && fgets(line, sizeof(line), f) && strstr(line, "exec " QEMU)) {
			fclose(f);
			return hs_fail(QEMU " is not installed (apt-get install qemu-system-arm)");
		}
		if (f)
			fclose(f);
	}
	return hs_fail("%s", why);
}

/* QEMU's RAM memfd, found among its open files and mapped read-only;
 * left NULL when it is not there (another QEMU, a kernel without memfd).
 * Not at start: QEMU listens on its sockets (chardevs, made first) before
 * it creates the memory backend, so a look right after connecting finds
 * no memfd when QEMU is slow to start (another boot beside it) - and
 * every point then went through pmemsave, a boot three times as long. */
void hs_qemu_map_ram(struct hs_qemu *q, size_t len)
{
	char dir[64], path[340], link[200];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)q->pid);
	if (q->ram || !(d = opendir(dir)))
		return;
	while (!q->ram && (e = readdir(d))) {
		ssize_t n;
		int fd;
		void *m;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((n = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[n] = 0;
		if (!strstr(link, "memfd:" RAMNAME) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			q->ram = m;
			q->ram_len = len;
			q->ram_fd = fd;	/* kept: lseek(SEEK_DATA) finds what was written */
		} else {
			close(fd);
		}
	}
	closedir(d);
}

int hs_qemu_start(struct hs_qemu *q, const struct hs_qemu_cfg *cfg)
{
	struct qemu_cmd c;

	memset(q, 0, sizeof(*q));
	q->gdb = q->qmp = q->ram_fd = -1;
	q->host.cpu = q->host.lock = -1;
	c.n = 0;
	name_files(q, cfg, &c);
	add_machine(&c, cfg);
	add_boot_and_control(&c, cfg);
	hs_host_cpu_take(&q->host);
	if (spawn(q, &c)) {
		hs_host_cpu_release(&q->host);
		return -1;
	}
	/* a restored machine must finish loading before a debugger attaches
	 * (QEMU 7.2 aborts on a debug stop while "inmigrate") */
	if ((q->qmp = connect_unix(c.qmp, 10000, q->pid)) < 0 ||
	    (cfg->incoming && hs_qmp_wait_incoming(q, 60000)) ||
	    (q->gdb = connect_unix(c.gdb, 10000, q->pid)) < 0)
		return start_failed(q, c.log);
	return 0;
}

void hs_qemu_stop(struct hs_qemu *q)
{
	if (q->gdb >= 0)
		close(q->gdb);
	if (q->qmp >= 0)
		close(q->qmp);
	q->gdb = q->qmp = -1;
	if (q->pid > 0) {
		kill(q->pid, SIGKILL);
		waitpid(q->pid, NULL, 0);
	}
	q->pid = 0;
	hs_host_cpu_release(&q->host);
	if (q->ram)
		munmap((void *)q->ram, q->ram_len);
	if (q->ram_fd >= 0)
		close(q->ram_fd);
	q->ram = NULL;
	q->ram_fd = -1;
	free(q->map);
	q->map = NULL;
	q->qmp_ready = 0;
}

/* The guest's last console lines, summed up as logtail.c does. */
const char *hs_qemu_console_tail(const struct hs_qemu *q, char *buf, size_t len)
{
	FILE *f = fopen(q->console, "r");
	struct hs_vm_tail t = { 0 };
	char line[200];

	buf[0] = 0;
	if (!f)
		return buf;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		hs_vm_tail_add(&t, line);
	}
	fclose(f);
	return hs_vm_tail_str(&t, buf, len);
}
