/*
 * vm.h - booting the user's image under QEMU and taking a snapshot of the
 * state it built for itself (the "vm" layer: below the emulator, which
 * replays the snapshot). QEMU's virt machine (GICv3, arch timer, PSCI),
 * TCG with -icount, so the same image and core give the same snapshot
 * bytes; hotsim drives it through the gdbstub (stop at the workload's
 * marker, registers) and QMP (RAM, the virtual clock).
 */
#ifndef HOTSIM_VM_H
#define HOTSIM_VM_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hotsim/cgroup.h"
#include "hotsim/core.h"
#include "hotsim/image.h"
#include "hotsim/point.h"
#include "vm/host_cpu.h"

/* --- building the boot inputs --------------------------------------------- */

/* The flat Image QEMU's -kernel takes (objcopy -O binary of the ELF). */
int hs_vm_write_flat_image(const struct hs_image *img, const char *path);

/* A newc cpio with /dev/console, /dev/zero, /init = the given program and,
 * with b's wl, /user = its program; a Debian program's boot has /program
 * (what the runner starts) and the program's own archive after it; a
 * pinned boot's has /taskset too, and one in a cgroup /cgroup. */
struct hs_workload;
struct hs_vm_boot;
int hs_vm_write_initramfs(const char *path, const void *init, size_t init_size, const struct hs_vm_boot *b);

/* A file of the workload's root filesystem. */
struct hs_vm_file {
	const char *path;		/* "/init" */
	const void *data;
	size_t size;
};

/* An image without initramfs support (plant.c): nonzero, with why, when
 * it lacks a kernel function planting the files needs. */
int hs_vm_plant_missing(const struct hs_image *img, char *why, size_t len);
/* Stop the boot at init_eaccess() and make /dev/zero and the files in the
 * kernel's own rootfs by its own functions; the guest is left stopped
 * there, to go on. -2 when the guest ends or hangs before (hs_vm_run). */
struct hs_qemu;
struct hs_vm_ends;
int hs_vm_plant(struct hs_qemu *q, const struct hs_vm_ends *ends, const struct hs_vm_file *files,
		unsigned nfiles, unsigned timeout_s);

/* The workload (kernels/workload/init.c), built for aarch64 and embedded. */
extern const unsigned char hs_workload_elf[];
extern const size_t hs_workload_elf_size;
/* A global symbol of it; -1 if it is not there. */
int hs_workload_sym(const char *name, uint64_t *addr);
/* A symbol of an ELF file in memory, from its SHT_SYMTAB or SHT_DYNSYM. */
int hs_elf_sym(const unsigned char *b, size_t len, const char *what, unsigned table, const char *name,
	       Elf64_Sym *out);

/*
 * A user's own workload (`--workload FILE`, user_workload.c): a static
 * aarch64 program, /user in the initramfs, which /init runs once the
 * kernel is at steady state (init.c), with the operations it marks
 * (include/hotsim/workload.h: each hotsim_op_begin("name") and
 * hotsim_op_end() records its pc and name in the section hotsim_ops).
 */
#define HS_WL_MAX_MARKS 32
struct hs_workload {
	unsigned char *elf;		/* the program */
	size_t size;
	char file[400];			/* as given (messages) */
	struct hs_wl_mark {
		char name[40];		/* begin: the op's name; end: "" */
		uint64_t pc;		/* the marker's nop */
		int end;
	} marks[HS_WL_MAX_MARKS];
	unsigned nmarks;
	/* a Debian program's boot (program.c): elf is hotsim's runner; the
	 * program's archive (kernels/programs/) goes into the initramfs
	 * after /program, which says what the runner starts */
	const struct hs_program *prog;
	unsigned char *archive;
	size_t archive_size;
	char spec[512];
};
/* Load FILE: a static aarch64 ELF as it is, or C source compiled with the
 * cross compiler against hotsim's header; -1 with a one-line reason (the
 * compiler's own first error, no markers, not static aarch64, ...). */
int hs_workload_load(const char *file, struct hs_workload *w);
void hs_workload_free(struct hs_workload *w);
/* A whole file into memory, at most max bytes; -1 with a line naming it. */
int hs_vm_slurp(const char *path, size_t max, unsigned char **buf, size_t *len);

/* The runner (kernels/workload/program.c), built for aarch64 and embedded. */
extern const unsigned char hs_program_runner[];
extern const size_t hs_program_runner_size;
/* A program's boot: w gets the runner, the program's archive from the
 * cache (the newest version kernels/programs/fetch.sh stored) and its
 * spec; -1 with a one-line reason (not fetched: the command that does). */
int hs_program_load(const struct hs_program *p, struct hs_workload *w);
/* /taskset (kernels/workload/taskset.c), built for aarch64 and embedded:
 * a pinned boot starts it instead of /init (initramfs.c, snapcache.c). */
extern const unsigned char hs_taskset_elf[];
extern const size_t hs_taskset_elf_size;
/* /cgroup (kernels/workload/cgroup.c), the same way: a boot in a cgroup
 * starts it first (cgroup_blob.S). */
extern const unsigned char hs_cgroup_elf[];
extern const size_t hs_cgroup_elf_size;
/* The offset from the library's base of the first svc in its function fn
 * (the archive's copy of the library, program.h); -1 if it has none. */
int hs_program_svc(const struct hs_workload *w, const char *fn, uint64_t *off);
/* The identity of what a boot runs: the embedded /init and, with w, the
 * user's program (cache keys). */
uint64_t hs_workload_id(const struct hs_workload *w);

/* --- QEMU ------------------------------------------------------------------- */

struct hs_qemu_cfg {
	const char *cpu;		/* QEMU -cpu: cortex-a53, cortex-a72... */
	unsigned mem_mb;
	const char *kernel, *initrd;	/* paths */
	const char *append;		/* kernel command line */
	const char *dir;		/* work directory: sockets, console log */
	const char *incoming;		/* restore this migration stream (NULL: boot) */
	const char *plugin;		/* -plugin argument, or NULL */
	int record;			/* QEMU's record mode (qemu.c: race-free warps) */
	unsigned ncpus;			/* -smp (0: one CPU) */
};

/* gdbstub register numbers by name, from QEMU's target description */
struct hs_rsp_map {
	struct { char name[48]; int num, bits; } r[1024];
	int n;
};

struct hs_qemu {
	pid_t pid;
	int gdb, qmp;			/* connected sockets */
	int qmp_ready;			/* greeting and capabilities done */
	struct hs_rsp_map *map;		/* read on first register access */
	char dir[240];
	char console[300];		/* the guest console log */
	/* the guest's RAM, shared with QEMU (its memfd backend), read-only,
	 * from hs_qemu_map_ram; NULL when it could not be mapped (RAM is
	 * then dumped, pmemsave) */
	const uint8_t *ram;
	size_t ram_len;
	int ram_fd;			/* the memfd (its holes: RAM the guest never wrote), -1 none */
	unsigned stop_cpu;		/* the CPU of the last stop (QEMU's index) */
	struct hs_host_cpu host;	/* the host CPU it runs on alone (host_cpu.c) */
};

/* Start QEMU stopped (-S) and connect to its gdbstub and QMP; -1 with
 * hs_errmsg() (QEMU missing, sockets never appeared). QEMU dies with
 * hotsim (PR_SET_PDEATHSIG). */
int hs_qemu_start(struct hs_qemu *q, const struct hs_qemu_cfg *cfg);
/* The machine options every boot gets (record: as a cache boot gets
 * them), for the snapshot cache's key. */
const char *hs_qemu_recipe(char *buf, size_t len, int record, unsigned ncpus);
/* Map the guest's RAM (q->ram, q->ram_fd) if not yet: once the guest has
 * run (QEMU made its RAM after its sockets). len: the RAM's size. */
void hs_qemu_map_ram(struct hs_qemu *q, size_t len);
/* Kill it and reap it; harmless when it is gone. */
void hs_qemu_stop(struct hs_qemu *q);
/* What a guest kernel said last, as one line (logtail.c): the last line
 * in which a program of the boot (/init, /taskset, /cgroup) said why it
 * gives up, the first line saying why the kernel died, then the last four,
 * " | " between them. */
struct hs_vm_tail {
	char said[200];
	char first[200];
	char last[4][200];
	unsigned n;
};
void hs_vm_tail_add(struct hs_vm_tail *t, const char *line);
const char *hs_vm_tail_str(const struct hs_vm_tail *t, char *buf, size_t len);
/* The kernel's own last log lines, read from its printk ring in the
 * stopped guest's memory (klog.c), summed up as the console's are: buf,
 * or NULL with hs_errmsg() (no ring in the image, unreadable). */
const char *hs_vm_klog(struct hs_qemu *q, const struct hs_image *img, char *buf, size_t len);
/* The last lines of the guest console, for errors (into buf). */
const char *hs_qemu_console_tail(const struct hs_qemu *q, char *buf, size_t len);

/* --- gdbstub (GDB remote serial protocol) ----------------------------------- */

/* Insert (on) or remove a breakpoint at a virtual address (any address
 * space: QEMU compares the pc of whatever runs). */
int hs_rsp_break(struct hs_qemu *q, uint64_t va, int on);
/* Continue until a breakpoint: 0; -2 after timeout_ms (the guest still
 * runs); -3 with hs_errmsg() if the guest ended (QEMU exited), -1 if the
 * stub failed. */
int hs_rsp_continue(struct hs_qemu *q, unsigned timeout_ms);
/* Let the guest run, without waiting for a stop. */
int hs_rsp_resume(struct hs_qemu *q);
/* After a resume: wait for the guest to stop at a breakpoint (0), -2
 * after timeout_ms (it still runs), -3 if it ended, -1 if the stub failed. */
int hs_rsp_wait(struct hs_qemu *q, unsigned timeout_ms);
/* Stop a running guest (after a timeout) and say where it is. */
int hs_rsp_interrupt(struct hs_qemu *q, uint64_t *pc);
/* Register by gdb name ("x0", "pc", "TTBR1_EL1", "v0"...): up to 16 bytes
 * into val (little-endian); its size, or -1 if QEMU has no such register. */
int hs_rsp_reg(struct hs_qemu *q, const char *name, uint8_t *val);
/* The same as a number (the low 8 bytes); -1 with hs_errmsg() if absent. */
int hs_rsp_reg64(struct hs_qemu *q, const char *name, uint64_t *v);
int hs_rsp_pc(struct hs_qemu *q, uint64_t *pc);
/* The CPU whose registers and virtual memory later calls read (QEMU's
 * index, from 0); a stop selects its own CPU (q->stop_cpu). */
int hs_rsp_cpu(struct hs_qemu *q, unsigned cpu);
/* Write a core register (x0-x30, sp, pc, cpsr) by name. */
int hs_rsp_set_reg64(struct hs_qemu *q, const char *name, uint64_t v);
/* Read guest memory through the live MMU (a virtual address of whatever
 * runs): -1 with hs_errmsg() where nothing is mapped. */
int hs_rsp_read(struct hs_qemu *q, uint64_t va, void *buf, size_t len);
/* Write guest memory, up to 2 KiB at a time: virtual through the live
 * MMU, or physical after hs_rsp_phys(q, 1). */
int hs_rsp_write(struct hs_qemu *q, uint64_t va, const void *buf, size_t len);
int hs_rsp_phys(struct hs_qemu *q, int on);

/* --- QMP ------------------------------------------------------------------------ */

/* Guest physical memory [pa, pa + size) to a file. */
int hs_qmp_pmemsave(struct hs_qemu *q, uint64_t pa, uint64_t size, const char *path);
/* The whole machine (devices, CPU, RAM) as a migration stream, to a file;
 * hs_qemu_cfg.incoming restores it. */
int hs_qmp_migrate(struct hs_qemu *q, const char *path);
/* Wait until an incoming migration has been loaded. */
int hs_qmp_wait_incoming(struct hs_qemu *q, unsigned timeout_ms);
/* Set the system register with KVM-style id (0x6030000000130000 | the
 * op0:op1:CRn:CRm:op2 encoding) in a saved machine to v: it must hold old
 * (or v already). mig.c. */
int hs_mig_set_sysreg(const char *path, uint64_t id, uint64_t old, uint64_t v);
#define HS_MIG_ID_VBAR_EL1 0x603000000013c600ULL
/* A saved machine's virtual clock, in nanoseconds (mig_clock.c). */
int hs_mig_clock(const char *path, uint64_t *ns);

/* --- how a boot ends (guest_end.c) -------------------------------------------- */

/* The kernel's ways of giving up (panic, halt), watched by breakpoints for
 * the whole boot. */
struct hs_vm_ends {
	const struct hs_image *img;
	uint64_t at[8];			/* the functions' entries */
	unsigned kind[8];		/* which of guest_end.c's kinds */
	unsigned n;
	uint64_t settle;		/* __delay: where a panic has said all */
};
int hs_vm_ends_arm(struct hs_qemu *q, const struct hs_image *img, struct hs_vm_ends *e);
/* Let the guest run to its next breakpoint that is not one of the ends,
 * for at most timeout_s: 0 with its pc. -2 with hs_errmsg() when the guest
 * does not get there - how it ended, in the kernel's own words when it
 * gave up, or where it runs and what its log holds when it hangs; goal
 * names what it did not reach ("the getpid point"). -1: QEMU or its stub
 * failed. */
int hs_vm_run(struct hs_qemu *q, const struct hs_vm_ends *e, unsigned timeout_s, const char *goal,
	      uint64_t *pc);

/* --- booting and snapshots ------------------------------------------------- */

/* Bytes written over the booted kernel at a virtual address. */
struct hs_vm_patch {
	uint64_t va, pa;
	uint32_t len;
	uint8_t bytes[60];
};

struct hs_snap;
struct hs_snap_regs;
struct hs_snap_cpu;

/* What the stopped guest's CPUs hold (cpu_state.c): a register by gdb
 * name (alternatives "A|B"), the current CPU's registers, and every CPU's
 * (n of them: registers, GIC state, halted or not). -1 with hs_errmsg(). */
int hs_vm_reg(struct hs_qemu *q, const char *names, uint64_t *v);
int hs_vm_read_regs(struct hs_qemu *q, struct hs_snap_regs *r);
int hs_vm_read_cpus(struct hs_qemu *q, struct hs_snap_cpu *c, unsigned n);
/* How many of the n CPUs in mask (a bit a CPU; 0: all), the stopped one
 * aside, are not halted in a wfi (-1 on error); the stopped CPU stays
 * selected. */
int hs_vm_cpus_awake(struct hs_qemu *q, unsigned n, uint64_t mask);

struct hs_vm_boot {
	const char *cpu;		/* QEMU -cpu */
	uint32_t midr;
	unsigned mem_mb;
	unsigned timeout_s;		/* to the first point */
	const char *append;		/* kernel command line */
	const char *dir;		/* scratch directory */
	const char *keep_dir;		/* NULL, or keep the machine at every point
					 * there as <point>.mig (validation) */
	int record;			/* QEMU's record mode (not with keep_dir) */
	int whole_ram;			/* read every page, the memfd's holes too
					 * (HOTSIM_RAM_WHOLE: the check that skipping
					 * them changes no snapshot) */
	const struct hs_boot_point *points;	/* what to take (point.h) */
	unsigned npoints;
	const struct hs_workload *wl;		/* /user, or NULL */
	unsigned ncpus;				/* the machine's CPUs (0: one) */
	uint64_t taskset;			/* the CPUs /init and all it starts are
						 * pinned to (taskset's mask), 0: unpinned */
	const struct hs_cgroup *cgroup;		/* where /init and all it starts run
						 * (cgroup.h), NULL: the root */
};

/* The why a machine's point gets when its operation needs a kernel
 * function the image lacks (needs_what, needs): skipped before the boot. */
#define HS_VM_LACKS "it has no %s: no %s in the image"

/* Boot img and snapshot every point (boot.c). -2 with hs_errmsg() when the
 * guest itself did not get there (it panicked, halted or hung: the
 * kernel's reason, how far it got), -1 for anything else (QEMU, files). */
int hs_vm_boot_image(const struct hs_image *img, const struct hs_vm_boot *b, struct hs_snap *s);
/* 0 when a machine of ncpus CPUs has every CPU of the mask taskset (and
 * hotsim has its /taskset); else -1 naming both. */
int hs_vm_taskset_fits(unsigned ncpus, uint64_t taskset);
/* 0 when hotsim has its /cgroup, or cg is NULL; else -1 saying so. */
int hs_vm_cgroup_fits(const struct hs_cgroup *cg);

/*
 * The snapshot of img on a QEMU CPU at the given points: loaded from the
 * cache (verified; the points are part of its key), or booted now and
 * stored (snapcache.c). Concurrent callers wait for the one that boots.
 * *booted says which happened. -1 with hs_errmsg(): QEMU missing (with
 * the install line), a boot that fails (the kernel's reason), or failed
 * before and is remembered (bootfail.c).
 */
struct hs_vm_points {
	const struct hs_boot_point *v;
	unsigned n;
	const struct hs_workload *wl;	/* a user workload to run, or NULL */
	unsigned ncpus;			/* the machine's CPUs (0: one) */
	uint64_t taskset;		/* the workload's CPUs (hs_vm_boot.taskset) */
	const struct hs_cgroup *cgroup;	/* its cgroup (hs_vm_boot.cgroup) */
	const char *cmdline;		/* kernel parameters added, or NULL
					 * (hs_path_set.cmdline) */
	unsigned boot;			/* which boot (hs_path_set.boot) */
};
int hs_vm_snapshot(const struct hs_image *img, const struct hs_core *core, const struct hs_vm_points *pts,
		   struct hs_snap *s, int *booted);

/* Boots the guest did not finish, remembered beside the snapshot path
 * they were for (bootfail.c): recall gives the reason (1) unless
 * HOTSIM_BOOT_RETRY is set or this run's timeout is longer than the
 * failed boot's; record and forget keep the cache in step. */
int hs_bootfail_recall(const char *snap, unsigned timeout_s, char *why, size_t len);
void hs_bootfail_record(const char *snap, const char *why, unsigned timeout_s);
void hs_bootfail_forget(const char *snap);

/* Boot img again as hs_vm_snapshot would (but for record mode, which
 * cannot save a machine: qemu.c), keeping the machine at every point in
 * dir (<point>.mig, with Image and initramfs.cpio) for hs_vm_record; s
 * gets the points' registers and RAM. */
int hs_vm_boot_keep(const struct hs_image *img, const struct hs_core *core, const struct hs_vm_points *pts,
		    const char *dir, struct hs_snap *s);

/*
 * QEMU's own instruction stream from a point: restore the machine kept
 * there (hs_vm_boot_keep), write the overlay's patches, let it run with
 * the recording plugin (kernels/qemu/record_plugin.c) and keep the first
 * max pcs it executes. At stops[] (0: unused) the guest stops each time it
 * gets there and is continued, as the replay's stop sites stop it: the
 * stop is what moves its clock to the next deadline. vbar, when not 0,
 * replaces VBAR_EL1 (which holds vbar_was) in the saved machine before it
 * is restored: the modelled core's vectors, taken directly.
 */
struct hs_vm_recording {
	const char *cpu, *dir, *point;
	const struct hs_vm_patch *patches;
	size_t npatches;
	uint64_t vbar, vbar_was;
	uint64_t stops[4];
	size_t max;
	unsigned ncpus;			/* the machine's CPUs (0: one); more: each pc
					 * carries its CPU in bits 51:48 (HS_REC_CPU) */
	uint64_t *pcs;			/* out: malloc'd, got of them */
	size_t got;
	unsigned nstops;		/* out: stops made */
};
int hs_vm_record(struct hs_vm_recording *w);
#define HS_REC_CPU(rec) ((unsigned)((rec) >> 48) & 15)
#define HS_REC_PC(rec) ((rec) >> 63 ? (rec) | 0xfULL << 48 : (rec) & ~(0xfULL << 48))

/* The recording plugin, embedded (empty when hotsim was built without it). */
extern const unsigned char hs_record_plugin[];
extern const size_t hs_record_plugin_size;

/* The cache directory: $HOTSIM_CACHE or ~/.cache/hotsim. */
const char *hs_cache_dir(char *buf, size_t len);

#endif
