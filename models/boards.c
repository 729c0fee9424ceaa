/*
 * boards.c - the fitting set (docs/calibration.md): lmbench on two real
 * boards as Texas Instruments publish it in the Processor SDK "Linux
 * Performance Guide" (TexasInstruments/processor-sdk-doc), Linux 6.12.57
 * (SDK 11.02, arm64 defconfig plus TI's board fragments), TF-A at EL3
 * answering the SMCCC firmware calls, every benchmark unpinned. Cycles are
 * microseconds times the board's clock, which TI's own lat_ops integer add
 * (one cycle) confirms. These cells and only these are fitted to - those
 * hotsim boots like for like (HS_CELL_UNLIKE marks the others); other
 * published numbers are kept to check the fit.
 *
 * Both boards' filesystem is TI's Arago (Yocto scarthgap 5.0: the release
 * notes at fc5d30a0), whose distro turns on pam and systemd
 * (meta-arago's arago.conf) and whose systemd is 255 (openembedded-core's
 * systemd_255.4.bb): a benchmark started from a login, on the console or
 * over ssh, runs in the login's session scope, with the cpu, memory and
 * pids controllers above it (cgroup.c's "session"). That systemd's
 * presets (its presets/90-systemd.preset, which the image's preset-all
 * applies: openembedded-core's image.bbclass, systemd_preset_all) enable
 * systemd-journald-audit.socket, and journald, opening it, turns the
 * kernel's auditing on (journald.conf Audit=, default yes; v255's
 * journald-audit.c server_open_audit) - no audit daemon, no rules
 * (neither meta-arago nor meta-tisdk install one): every process started
 * after it, the benchmarks too, builds an audit context at each system
 * call. audit=1 on the command line leaves the kernel in that state
 * (audit_enabled on, no rules): the boards' ".cmdline".
 *
 * A cell's hotsim number is what lmbench computes: lat_sig catch is the
 * caught kill() less kill(self, 0), and lat_sig prot the protection fault
 * less that catch (lat_sig.c bench_catch, bench_prot).
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/core.h"

#define SYSCALL_NOTE "svc to eret: lmbench's loop and glibc's wrapper (about 8 instructions) are not in it"
/* lat_syscall's file on the boards: the same guides' lat_syscall open
 * (open and close of that file; kept to check, not fitted) took 175.20 us
 * on the AM62x and 157.35 us on the J721E (fc5d30a0, b6059c30), and
 * lat_fs created and removed 214 and 411 empty files a second: a server's
 * round trip per operation, as on NFS, not a local disk's page cache.
 * hotsim's open and close of a file in its tmpfs is 6,817 and 3,871
 * cycles in the boards' state (4.9 and 1.9 us at their clocks). On NFS,
 * fstat's getattr (nfs_getattr) writes back and waits on the file's cached
 * pages before it reports mtime, and stat's walk revalidates every NFS
 * directory it passes (d_revalidate): work no local file system does.
 * lat_mmap writes to its shared mapping of the file: on NFS each write
 * fault runs nfs_vm_page_mkwrite (fs/nfs/file.c: a write request for the
 * page) and the dirty pages are written back to the server. lat_pagefault
 * only reads: NFS maps the cached page with the generic filemap code. */
#define UNLIKE_FILE_NOTE "unlike: the board's file is not in a local page cache as hotsim's is (tmpfs): its " \
	"lat_syscall open took 175 us on the AM62x and 157 us on the J721E, a server's round trip as on NFS, where " \
	"hotsim's open and close of a local file take 4.9 and 1.9 us; there getattr flushes the file's cached pages " \
	"and the walk revalidates each directory: shown, not fitted"
#define FILE_NOTE "the file is in the root filesystem's page cache (tmpfs); the board's in its own, warm, " \
	"on a network file system (see lat_syscall stat): a read fault maps the cached page alike"
#define MMAP_NOTE "unlike: lat_mmap writes to the file it maps shared, on the board a network file system's " \
	"(see lat_syscall stat), where each write fault runs NFS's page_mkwrite (a write request a page) and the " \
	"dirty pages go back to the server; hotsim's file is in tmpfs: shown, not held out. And hotsim's " \
	"addresses are not randomized: one layout, where each op zeroes one page-table page; the board's lie " \
	"where each run's random mmap base puts them, and booted with random layouts hotsim's op zeroed from a " \
	"quarter of a page to two"
#define PROC_NOTE "unpinned on the board, the child runs on another CPU (fork balancing picks an idle one) and " \
		  "the parent's idles in wait(): IPIs and idle exits; hotsim: one CPU, its static workload " \
		  "(lmbench's process is dynamically linked)"
#define UNPINNED_NOTE "unpinned on the board and in hotsim (the board's CPUs): the two sides on two CPUs, with " \
		      "IPIs and idle exits (ipi_latency, wfi_exit: hotsim fit's wake knob), and the lines they " \
		      "hand each other (peer_latency)"
#define UNIX_NOTE UNPINNED_NOTE "; a kernel without networking has no AF_UNIX socket and no number here"
#define PIPE_NOTE UNPINNED_NOTE "; lat_pipe's round trip, a byte each way through two pipes, is the sched-pipe path's"
#define CTX_NOTE UNPINNED_NOTE "; the ring's pass halved less one process's pipe write, read and 128 KB sum, " \
		 "as lat_ctx computes it"

/* Both boards ran the same benchmarks; only the numbers differ. */
#define CELLS(null, rd, wr, st, fst, inst, cat, prot, pipe, unx, ctx, fork, exec, pf, mm)			\
	{ "lat_syscall null", null, { { "syscall.getppid", 1 } }, 0, SYSCALL_NOTE },				\
	{ "lat_syscall read", rd, { { "syscall.read", 1 } }, 0, SYSCALL_NOTE },					\
	{ "lat_syscall write", wr, { { "syscall.write", 1 } }, HS_CELL_HELD_OUT, SYSCALL_NOTE },		\
	{ "lat_syscall stat", st, { { "syscall.stat", 1 } }, HS_CELL_UNLIKE, UNLIKE_FILE_NOTE },		\
	{ "lat_syscall fstat", fst, { { "syscall.fstat", 1 } }, HS_CELL_UNLIKE, UNLIKE_FILE_NOTE },		\
	{ "lat_sig install", inst, { { "signal.install", 1 } }, HS_CELL_HELD_OUT, SYSCALL_NOTE },		\
	{ "lat_sig catch", cat, { { "signal.catch", 1 }, { "signal.send", -1 } }, 0,				\
	  "kill(self, SIGUSR1) caught, less kill(self, 0), as lat_sig computes it" },				\
	{ "lat_sig prot", prot, { { "signal.prot", 1 }, { "signal.catch", -1 }, { "signal.send", 1 } }, 0,	\
	  "the protection fault caught, less lat_sig catch, as lat_sig computes it" },			\
	{ "lat_pipe", pipe, { { "sched-pipe", 1 } }, HS_CELL_UNPINNED, PIPE_NOTE },				\
	{ "lat_unix", unx, { { "unix.stream", 1 } }, HS_CELL_UNPINNED, UNIX_NOTE },				\
	{ "lat_ctx -s 128K, 2 processes", ctx, { { "ctx.ring", 0.5 }, { "ctx.overhead", -1 } }, HS_CELL_UNPINNED,	\
	  CTX_NOTE },												\
	{ "lat_proc fork", fork, { { "proc.fork", 1 } }, HS_CELL_UNPINNED, PROC_NOTE },			\
	{ "lat_proc exec", exec, { { "proc.exec", 1 } }, HS_CELL_UNPINNED, PROC_NOTE "; its hello is static too" },	\
	{ "lat_pagefault", pf, { { "fault.file", 1 } }, 0, FILE_NOTE },					\
	{ "lat_mmap 1 MB", mm, { { "mmap.file", 1 } }, HS_CELL_UNLIKE, MMAP_NOTE }

static const struct hs_board_cell am62x_cells[] = {
	CELLS(0.46, 0.82, 0.78, 4.80, 1.98, 0.66, 5.52, 0.65, 25.77, 29.79, 7.99, 831.78, 979.70, 0.71, 55.13)
};

static const struct hs_board_param am62x_params[] = {
	{ "l1i_size", 32768, "AM62x datasheet (SPRSP58): 32 KB L1 I-cache per A53" },
	{ "l1d_size", 32768, "AM62x datasheet: 32 KB L1 D-cache per A53" },
	{ "l2_size", 524288, "AM62x datasheet: 512 KB L2 shared by the four A53" },
	{ NULL, 0, NULL }
};

static const struct hs_board am62x = {
	.name = "am62x",
	.full = "TI AM62x SK: four Cortex-A53 at 1.4 GHz",
	.core = "a53",
	.clock_hz = 1400000000,
	.cpus = 4,
	.kernel = "Linux 6.12.57 (TI Processor SDK 11.02): arm64 defconfig + TI board fragments; TF-A at EL3",
	.smccc = 1,
	.cgroup = "session",
	.cmdline = "audit=1",
	.source = "TexasInstruments/processor-sdk-doc source/devices/AM62X/linux/Linux_Performance_Guide.rst "
		  "at fc5d30a0, column am62xx_sk",
	.params = am62x_params,
	.cells = am62x_cells,
	.ncells = sizeof(am62x_cells) / sizeof(am62x_cells[0]),
};

static const struct hs_board_cell j721e_cells[] = {
	CELLS(0.40, 0.52, 0.50, 2.34, 1.00, 0.55, 3.16, 0.48, 14.54, 20.26, 5.26, 341.41, 370.33, 0.24, 31.13)
};

static const struct hs_board_param j721e_params[] = {
	{ "l1i_size", 49152, "TDA4VM/J721E datasheet (SPRSP36): 48 KB L1 I-cache per A72" },
	{ "l1d_size", 32768, "TDA4VM/J721E datasheet: 32 KB L1 D-cache per A72" },
	{ "l2_size", 1048576, "TDA4VM/J721E datasheet: 1 MB L2 shared by the two A72" },
	{ "load_pass_store", 0, "TF-A's CVE-2018-3639 workaround (WORKAROUND_CVE_2018_3639, on by default; TI's K3 "
				"platform keeps it: plat/ti/common/plat_common.mk) sets CPUACTLR_EL1[55] on every A72 "
				"at reset (cortex_a72.S): loads no longer pass older stores" },
	{ NULL, 0, NULL }
};

static const struct hs_board j721e = {
	.name = "j721e",
	.full = "TI J721E EVM: two Cortex-A72 at 2.0 GHz",
	.core = "a72",
	.clock_hz = 2000000000,
	.cpus = 2,
	.kernel = "Linux 6.12.57 (TI Processor SDK 11.02): arm64 defconfig + TI board fragments; TF-A at EL3",
	.smccc = 1,
	.cgroup = "session",
	.cmdline = "audit=1",
	.source = "TexasInstruments/processor-sdk-doc source/devices/J7_Family/linux/"
		  "Release_Specific_Kernel_Performance_Guide.rst at b6059c30, column j721e",
	.params = j721e_params,
	.cells = j721e_cells,
	.ncells = sizeof(j721e_cells) / sizeof(j721e_cells[0]),
};

const struct hs_board *const hs_boards[] = { &am62x, &j721e, NULL };

const struct hs_board *hs_board_find(const char *name)
{
	for (int i = 0; name && hs_boards[i]; i++)
		if (!strcmp(hs_boards[i]->name, name))
			return hs_boards[i];
	return NULL;
}

const char *hs_board_names(void)
{
	static char buf[256];

	buf[0] = 0;
	for (int i = 0; hs_boards[i]; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "", hs_boards[i]->name);
	return buf;
}

const struct hs_core *hs_board_core(const struct hs_board *b, struct hs_core *buf)
{
	const struct hs_core *c = hs_core_find(b->core);

	if (!c || c->no_smccc == !b->smccc)
		return c;
	*buf = *c;
	buf->no_smccc = !b->smccc;
	return buf;
}

const char *hs_board_cell_use(const struct hs_board_cell *c)
{
	if (c->flags & HS_CELL_UNLIKE)
		return "unlike";
	if (c->flags & HS_CELL_UNPINNED)
		return "unpinned";
	return c->flags & HS_CELL_HELD_OUT ? "held out" : "fit";
}
