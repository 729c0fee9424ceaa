/*
 * boot_ram.c - a boot point's RAM into the snapshot's pages (boot.c takes
 * the points; this file decides which of RAM's pages each one keeps).
 * Point 0 keeps its non-zero pages; every later point the pages that
 * differ from point 0's, whether it was taken in the same QEMU run or in
 * a run of its own (a machine's points).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/boot_ram.h"

/* The guest's RAM now: QEMU's own, shared (q->ram), else mapped from a
 * pmemsave file (deleted at once; *dumped, for the caller to unmap). */
static const uint8_t *dump_ram(struct hs_qemu *q, const char *dir, uint64_t size, int *dumped)
{
	char path[300];
	uint8_t *m;
	int fd;

	*dumped = 0;
	if (q->ram && q->ram_len >= size)
		return q->ram;
	snprintf(path, sizeof(path), "%s/ram.bin", dir);
	if (hs_qmp_pmemsave(q, HS_BOOT_RAM_BASE, size, path))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	if (fd < 0) {
		hs_fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		hs_fail("%s: cannot map the RAM dump", path);
		return NULL;
	}
	*dumped = 1;
	return m;
}


static int add_page(struct hs_boot_pages *p, uint32_t pfn, uint32_t point, const uint8_t *src)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		void *i = realloc(p->idx, cap * sizeof(*p->idx)), *d;

		if (!i)
			return hs_fail("out of memory for the snapshot");
		p->idx = i;
		if (!(d = realloc(p->data, cap * HS_SNAP_PAGE)))
			return hs_fail("out of memory for the snapshot");
		p->data = d;
		p->cap = cap;
	}
	p->idx[p->n].pfn = pfn;
	p->idx[p->n].point = point;
	memcpy(p->data + p->n * HS_SNAP_PAGE, src, HS_SNAP_PAGE);
	p->n++;
	return 0;
}

static int is_zero(const uint8_t *p)
{
	static const uint8_t zero[HS_SNAP_PAGE];

	return !memcmp(p, zero, HS_SNAP_PAGE);
}

/* A frame's content at point 0. */
static const uint8_t *base_page(const struct hs_boot_pages *p, uint64_t frame)
{
	static const uint8_t zero[HS_SNAP_PAGE];

	return p->base[frame] < 0 ? zero : p->data + (size_t)p->base[frame] * HS_SNAP_PAGE;
}

/*
 * Which frames of QEMU's RAM memfd hold data (1) and which are holes (0):
 * pages the guest never wrote, zero. Reading a hole through the mapping
 * would make the memfd allocate and clear it (every point diffed all of
 * RAM: 256 MB zeroed and compared a boot, most of it never used), so
 * holes are known zero without a look. NULL (read everything): no memfd,
 * or a filesystem without SEEK_DATA.
 */
static uint8_t *data_frames(const struct hs_qemu *q, uint64_t size)
{
	uint64_t frames = size / HS_SNAP_PAGE;
	uint8_t *d;
	off_t at = 0;

	if (q->ram_fd < 0 || !(d = calloc(frames ? frames : 1, 1)))
		return NULL;
	while ((uint64_t)at < size) {
		off_t beg = lseek(q->ram_fd, at, SEEK_DATA), end;

		if (beg < 0 && errno == ENXIO)
			break;		/* no data beyond at */
		if (beg < 0 || (end = lseek(q->ram_fd, beg, SEEK_HOLE)) < 0) {
			free(d);
			return NULL;
		}
		for (uint64_t f = (uint64_t)beg / HS_SNAP_PAGE; f < frames && f * HS_SNAP_PAGE < (uint64_t)end; f++)
			d[f] = 1;
		at = end;
	}
	return d;
}

/* Point 0 keeps its non-zero pages; later points the pages that differ. */
int hs_boot_take_ram(struct hs_qemu *q, const char *dir, int whole_ram, uint64_t size, uint32_t point,
		     struct hs_boot_pages *p)
{
	static const uint8_t zero[HS_SNAP_PAGE];
	uint64_t frames = size / HS_SNAP_PAGE;
	int dumped, rc = 0;
	uint8_t *data;
	const uint8_t *ram;

	hs_qemu_map_ram(q, size);
	data = whole_ram ? NULL : data_frames(q, size);
	ram = dump_ram(q, dir, size, &dumped);

	if (!ram) {
		free(data);
		return -1;
	}
	if (dumped) {
		free(data);	/* a pmemsave file: no holes to go by */
		data = NULL;
		if (point == 0)
			fprintf(stderr, "hotsim: QEMU's RAM is not shared with hotsim (no memfd of it found): "
				"every boot point dumps all of it, a slower boot\n");
	}
	if (point == 0 && !(p->base = malloc(frames * sizeof(*p->base))))
		rc = hs_fail("out of memory for the snapshot");
	for (uint64_t f = 0; f < frames && !rc; f++) {
		const uint8_t *pg = data && !data[f] ? zero : ram + f * HS_SNAP_PAGE;
		int keep = point == 0 ? pg != zero && !is_zero(pg) :
			   pg == zero ? p->base[f] >= 0 : !!memcmp(pg, base_page(p, f), HS_SNAP_PAGE);

		if (point == 0)
			p->base[f] = keep ? (int32_t)p->n : -1;
		if (keep)
			rc = add_page(p, (uint32_t)f, point, pg);
	}
	if (dumped)
		munmap((void *)ram, size);
	free(data);
	return rc;
}
