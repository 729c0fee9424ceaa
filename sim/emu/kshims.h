/* kshims.h - host allocators for running kernel init code (see kshims.c). */
#ifndef HOTSIM_KSHIMS_H
#define HOTSIM_KSHIMS_H

#include <stdint.h>

#include "emu/runner.h"

#define HS_MAX_CACHES 64

struct hs_kshims {
	struct { uint64_t handle, size; } caches[HS_MAX_CACHES];
	unsigned ncaches;
	/* dynamic per-CPU allocations: per-CPU pointers handed out from here */
	uint64_t pcpu_dyn_base, pcpu_dyn_size, pcpu_dyn_used;
};

int hs_kshims_install(struct hs_runner *r, struct hs_kshims *k);

#endif
