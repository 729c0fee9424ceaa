/*
 * boot_ram.h - a boot point's RAM into the snapshot's pages (boot_ram.c).
 */
#ifndef HOTSIM_VM_BOOT_RAM_H
#define HOTSIM_VM_BOOT_RAM_H

#include <stddef.h>
#include <stdint.h>

#include "vm/snapshot.h"
#include "vm/vm.h"

#define HS_BOOT_RAM_BASE 0x40000000ULL	/* QEMU virt's RAM */

/* The pages a boot keeps, every point's, in the order taken. */
struct hs_boot_pages {
	struct hs_snap_page *idx;
	uint8_t *data;
	size_t n, cap;
	int32_t *base;		/* by frame: its point-0 page in data, -1 zero */
};

/* Take the guest's RAM (size bytes) at point: point 0 its non-zero pages,
 * a later point those that differ from point 0's. whole_ram reads QEMU's
 * memfd holes too (HOTSIM_RAM_WHOLE); dir holds a pmemsave dump when
 * QEMU's RAM is not shared. -1 with hs_errmsg(). */
int hs_boot_take_ram(struct hs_qemu *q, const char *dir, int whole_ram, uint64_t size, uint32_t point,
		     struct hs_boot_pages *p);

#endif
