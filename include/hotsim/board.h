/*
 * board.h - the published board measurements hotsim's models are fitted to
 * and checked against (models/boards.c; docs/calibration.md): a board is a
 * core at a clock with its own cache geometry, the kernel it ran, and
 * lmbench's cells as published, each with the hotsim paths that measure
 * the same thing and how lmbench combines them.
 */
#ifndef HOTSIM_BOARD_H
#define HOTSIM_BOARD_H

#include <stdint.h>

/* How a cell is used. */
#define HS_CELL_HELD_OUT 0x1	/* kept out of the fit: it checks the fit */
#define HS_CELL_UNPINNED 0x2	/* the board ran it across CPUs (cross-CPU
				 * wakeups, IPIs, idle exits: lat_pipe, lat_unix,
				 * lat_ctx, and lat_proc's child on another
				 * CPU): not fitted; its paths a machine replays
				 * run on the board's CPUs, unpinned, and count
				 * in an error of their own (the rest: shown) */
#define HS_CELL_UNLIKE 0x4	/* the board measured something hotsim does
				 * not boot (its note says what): shown, in no
				 * fit and no mean */

struct hs_board_cell {
	const char *bench;		/* "lat_syscall null" */
	double us;			/* as published, microseconds per op */
	/* hotsim's number: the sum of coef x each path's typical mean (its
	 * whole row, cycles per op), as lmbench subtracts its baselines */
	struct { const char *path; double coef; } terms[3];
	unsigned flags;			/* HS_CELL_* */
	const char *note;		/* where the two are not like for like */
};

/* A parameter of the board's core that is the board's (its caches). */
struct hs_board_param {
	const char *name;
	double value;
	const char *source;
};

struct hs_board {
	const char *name;		/* "am62x", used on the command line */
	const char *full;		/* "TI AM62x SK: four Cortex-A53 at 1.4 GHz" */
	const char *core;		/* the modelled core's name */
	uint64_t clock_hz;		/* the clock the cells' cycles are at */
	unsigned cpus;			/* its CPUs: unpinned cells' machine */
	const char *kernel;		/* what ran: version, config, firmware */
	int smccc;			/* its firmware (TF-A) answers SMCCC 1.1's
					 * Spectre calls (platform.c) */
	const char *cgroup;		/* where its benchmarks ran: a row of
					 * cgroup.h (NULL: the root cgroup) */
	const char *cmdline;		/* kernel parameters that give its
					 * kernel's state (cmdline.h), or NULL */
	const char *source;		/* where the cells are published */
	const struct hs_board_param *params;	/* terminated by name NULL */
	const struct hs_board_cell *cells;
	unsigned ncells;
};

/* The boards, NULL-terminated; by name (NULL if none); their names, ", "
 * between. */
extern const struct hs_board *const hs_boards[];
const struct hs_board *hs_board_find(const char *name);
const char *hs_board_names(void);
/* How the fit uses a cell, as the tables name it: "unlike", "unpinned",
 * "held out" or "fit" */
const char *hs_board_cell_use(const struct hs_board_cell *c);

/* The board's core as the board runs it: the core file's, on the board's
 * firmware where the core file assumes another platform's (the A72's is a
 * Raspberry Pi 4's, whose armstub answers no SMCCC call; the J721E's TF-A
 * answers them, and Linux then mitigates Spectre-v2 and -BHB there). buf
 * holds the copy when one is needed; NULL when the board has no core. */
struct hs_core;
const struct hs_core *hs_board_core(const struct hs_board *b, struct hs_core *buf);

#endif
