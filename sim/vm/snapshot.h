/*
 * snapshot.h - the state a kernel built for itself while booting under
 * QEMU, at the points the path definitions name (point.h; the workload's
 * sites are in kernels/workload/init.c): RAM and every CPU register the
 * replay needs, one set per point. RAM is stored sparse:
 * the first point's non-zero pages, then for each later point the pages
 * that differ from the first. A machine of more than one CPU also keeps,
 * for each point, every CPU as it was there (hs_snap_cpu); one CPU's file
 * has none (its point's registers are the CPU). One file per image, QEMU
 * CPU and number of CPUs, written
 * whole under a temporary name and renamed into place, with a checksum
 * that is verified on every load.
 */
#ifndef HOTSIM_VM_SNAPSHOT_H
#define HOTSIM_VM_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#define HS_SNAP_PAGE 4096u
#define HS_SNAP_MAX_POINTS 32	/* points one boot takes (path definitions name them) */
#define HS_SNAP_MAX_CPUS 8	/* CPUs of a booted machine */
#define HS_SNAP_MAX_SKIPPED 4	/* points a kernel cannot run, with why */

/* What a point's CPU looked like. Banked stack pointers are both valid
 * (the live one copied from sp). */
struct hs_snap_regs {
	uint64_t x[31], sp, pc, pstate;
	uint64_t sp_el0, sp_el1, elr, spsr, esr, far;
	uint64_t vbar, sctlr, tcr, ttbr0, ttbr1, mair, amair, contextidr, cpacr, mdscr;
	uint64_t tpidr_el1, tpidr_el0, tpidrro_el0;
	uint64_t cntkctl, cntv_ctl, cntv_cval, cntfrq;
	uint64_t counter;		/* CNTVCT at the point (see boot.c) */
	uint64_t fpsr, fpcr;
	uint8_t v[32][16];
};

struct hs_snap_hdr {
	char magic[16];			/* HS_SNAP_MAGIC */
	uint64_t checksum;		/* of everything after this field */
	char cpu[32];			/* QEMU -cpu it booted on */
	char qemu[80];			/* QEMU's version line */
	char image_id[96];		/* the image's identity (build id) */
	char workload_id[24];		/* hash of the workload program */
	uint64_t ram_base, ram_size;
	uint64_t midr;			/* of the boot CPU (QEMU's table) */
	struct { uint64_t reg, val; } idregs[16];	/* as QEMU reports them */
	uint32_t nidregs;
	uint32_t npages;
	uint64_t boot_insns;		/* guest instructions to the first point */
	uint32_t npoints;		/* point records follow the header */
	uint32_t ncpus;			/* CPU records per point, after the points
					 * (0: a machine of one CPU, none) */
	/* points the workload could not reach in this kernel, and the reason
	 * it gave (user_op.h, hs_wl_skip) */
	uint32_t nskipped, pad;
	struct { char name[24]; char why[232]; } skipped[HS_SNAP_MAX_SKIPPED];
};

/* One point: as its definition named it (point.h), and the CPU there. */
struct hs_snap_point {
	char name[24];
	uint32_t kind;			/* enum hs_point_kind */
	uint32_t pad;
	uint64_t site;			/* the workload's svc address */
	/* QEMU's clock at the stop, ns: from the machine validation saves
	 * there (hs_mig_clock); 0 where no machine was saved */
	uint64_t clock_ns;
	struct hs_snap_regs regs;
};

/* What a CPU's GIC holds of its own: the redistributor's SGI and PPI
 * state (GICR_WAKER and the SGI frame's ISENABLER0, ISPENDR0, ISACTIVER0,
 * IPRIORITYR0-7, read as the bus reads them) and the CPU interface's
 * registers as QEMU's gdbstub shows them (has_icc: it did). */
struct hs_snap_gic {
	uint32_t waker, enable, pending, active;
	uint8_t prio[32];
	uint64_t icc_pmr, icc_igrpen1, icc_bpr1, icc_ctlr, icc_ap1r0;
	uint32_t has_icc, pad;
};

/* One CPU at a point. */
struct hs_snap_cpu {
	uint32_t index;			/* QEMU's (MPIDR_EL1.Aff0) */
	uint32_t flags;			/* HS_SNAP_CPU_* */
	uint64_t mpidr;
	struct hs_snap_regs regs;
	struct hs_snap_gic gic;
};
#define HS_SNAP_CPU_STOPPED 1u		/* the CPU that reached the point's site */
#define HS_SNAP_CPU_HALTED 2u		/* waiting for an interrupt (wfi) */

struct hs_snap_page {
	uint32_t pfn;			/* (pa - ram_base) / 4096 */
	uint32_t point;			/* 0: every point; k: point k's own copy */
};

struct hs_snap {
	struct hs_snap_hdr h;
	struct hs_snap_point *pts;	/* npoints, in the order they were taken */
	struct hs_snap_cpu *cpus;	/* npoints * ncpus: point k's are k * ncpus on */
	struct hs_snap_page *pages;	/* npages, sorted by point, then pfn */
	uint8_t *data;			/* npages * 4096 */
	void *map;			/* the file, when loaded */
	size_t map_len;
	/* a loaded file stays open: its pages can be mapped where they go
	 * (hs_snap_map_point0), page data starting at data_off, page aligned */
	int has_fd, fd;
	uint64_t data_off;
};

/* 5: the page data starts on a page boundary of the file, its checksum
 * in four lanes; the header names the points the kernel could not run */
#define HS_SNAP_MAGIC "hotsim-snap-5\n"

/* Write s to path (tmp + rename); -1 with hs_errmsg(). */
int hs_snap_write(const struct hs_snap *s, const char *path);
/* Load and verify; -1 with hs_errmsg() naming the file and what is wrong
 * (missing, truncated, checksum). */
int hs_snap_load(const char *path, struct hs_snap *s);
void hs_snap_free(struct hs_snap *s);

/* Point k's RAM into ram (ram_size bytes, zeroed by the caller). */
void hs_snap_fill_ram(const struct hs_snap *s, unsigned k, uint8_t *ram);
/* Map the first point's pages of a loaded snapshot over ram (ram_size
 * bytes, zero) where they belong, privately: a page is read from the file
 * when first touched and copied only when written, so the replay's RAM
 * holds what the paths touch. 1 when mapped, 0 when ram must be filled
 * instead (no file, or the system refused), -1 never. */
int hs_snap_map_point0(const struct hs_snap *s, uint8_t *ram);
/* The loaded file's pages leave memory (read again from the page cache
 * when touched): a reader that copied what it needs calls it, so a
 * snapshot is not resident twice - once mapped, once as guest RAM. */
void hs_snap_release(const struct hs_snap *s);
/* The CPUs of a machine at point k (their number in *n; a machine of one
 * CPU has none stored: NULL, *n 0 - its point's registers are the CPU). */
const struct hs_snap_cpu *hs_snap_cpus(const struct hs_snap *s, unsigned k, unsigned *n);
/* The index of the point named name, or -1. */
int hs_snap_find(const struct hs_snap *s, const char *name);
/* Why the workload could not reach point name in this kernel, or NULL
 * (outputs say it after HS_SNAP_SKIPPED, paths.h). */
const char *hs_snap_skipped(const struct hs_snap *s, const char *name);

/* 64-bit checksum used for snapshot files (FNV-1a over 8-byte words). */
uint64_t hs_snap_hash(const void *p, size_t len, uint64_t h);

#endif
