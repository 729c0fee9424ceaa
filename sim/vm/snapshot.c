/*
 * snapshot.c - snapshot files (see snapshot.h): header, page index, page
 * data, in that order. The file is mapped when loaded; nothing is trusted
 * before its size and checksum are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/snapshot.h"

#define CK_OFF (offsetof(struct hs_snap_hdr, checksum) + sizeof(uint64_t))

uint64_t hs_snap_hash(const void *p, size_t len, uint64_t h)
{
	const uint8_t *b = p;
	size_t i = 0;

	if (!h)
		h = 0xcbf29ce484222325ULL;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	for (; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* The pages: FNV-1a over 8-byte words in four lanes at once (each page is
 * 512 words, a multiple of four), folded into h - one multiply chain per
 * word was the whole cost of a load (80 MB of a distro kernel's, on every
 * use); four chains run side by side. With release (p is the file's
 * mapping), each chunk is let go once hashed: the whole file resident at
 * once was most of a distro compare's peak memory, and the replay faults
 * in only the pages it reads. */
#define HASH_CHUNK (4u << 20)
static uint64_t hash_pages(const uint8_t *p, size_t npages, uint64_t h, int release)
{
	uint64_t l[4] = { h, h ^ 1, h ^ 2, h ^ 3 };
	size_t len = npages * HS_SNAP_PAGE;

	for (size_t at = 0; at < len; at += HASH_CHUNK) {
		size_t end = len - at < HASH_CHUNK ? len : at + HASH_CHUNK;

		for (size_t i = at; i < end; i += 32)
			for (int k = 0; k < 4; k++) {
				uint64_t w;

				memcpy(&w, p + i + 8 * k, 8);
				l[k] = (l[k] ^ w) * 0x100000001b3ULL;
			}
		if (release && (uintptr_t)(p + at) % HS_SNAP_PAGE == 0)
			madvise((void *)(uintptr_t)(p + at), end - at, MADV_DONTNEED);
	}
	return hs_snap_hash(l, sizeof(l), h);
}

static size_t cpus_size(const struct hs_snap_hdr *h)
{
	return (size_t)h->npoints * h->ncpus * sizeof(struct hs_snap_cpu);
}

/* release: s's data is its file's mapping (hash_pages) */
static uint64_t checksum(const struct hs_snap *s, int release)
{
	uint64_t h = hs_snap_hash((const uint8_t *)&s->h + CK_OFF, sizeof(s->h) - CK_OFF, 0);

	h = hs_snap_hash(s->pts, (size_t)s->h.npoints * sizeof(*s->pts), h);
	if (s->h.ncpus)
		h = hs_snap_hash(s->cpus, cpus_size(&s->h), h);
	h = hs_snap_hash(s->pages, (size_t)s->h.npages * sizeof(*s->pages), h);
	return hash_pages(s->data, s->h.npages, h, release);
}

static int put(int fd, const void *p, size_t n, const char *path)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return hs_fail("%s: cannot write: %s", path, w ? strerror(errno) : "short write");
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Where the page data starts: after the tables, on a page boundary. */
static uint64_t data_offset(const struct hs_snap_hdr *h)
{
	uint64_t tables = sizeof(*h) + (uint64_t)h->npoints * sizeof(struct hs_snap_point) +
			  cpus_size(h) + (uint64_t)h->npages * sizeof(struct hs_snap_page);

	return (tables + HS_SNAP_PAGE - 1) & ~(uint64_t)(HS_SNAP_PAGE - 1);
}

int hs_snap_write(const struct hs_snap *s, const char *path)
{
	static const uint8_t zero[HS_SNAP_PAGE];
	struct hs_snap copy = *s;
	uint64_t tables = sizeof(s->h) + (uint64_t)s->h.npoints * sizeof(*s->pts) + cpus_size(&s->h) +
			  (uint64_t)s->h.npages * sizeof(*s->pages);
	char tmp[600];
	int fd, rc;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	memcpy(copy.h.magic, HS_SNAP_MAGIC, sizeof(HS_SNAP_MAGIC));
	copy.h.checksum = checksum(&copy, 0);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return hs_fail("%s: cannot create: %s", tmp, strerror(errno));
	rc = put(fd, &copy.h, sizeof(copy.h), tmp) ||
	     put(fd, s->pts, (size_t)s->h.npoints * sizeof(*s->pts), tmp) ||
	     (s->h.ncpus && put(fd, s->cpus, cpus_size(&s->h), tmp)) ||
	     put(fd, s->pages, (size_t)s->h.npages * sizeof(*s->pages), tmp) ||
	     put(fd, zero, (size_t)(data_offset(&s->h) - tables), tmp) ||
	     put(fd, s->data, (size_t)s->h.npages * HS_SNAP_PAGE, tmp);
	if (!rc && fsync(fd))
		rc = hs_fail("%s: cannot write: %s", tmp, strerror(errno));
	if (close(fd) && !rc)
		rc = hs_fail("%s: cannot write: %s", tmp, strerror(errno));
	if (!rc && rename(tmp, path))
		rc = hs_fail("%s: cannot rename into place: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);	/* nothing half-written is kept */
	return rc ? -1 : 0;
}

int hs_snap_load(const char *path, struct hs_snap *s)
{
	struct stat st;
	uint8_t *m;
	size_t need;
	int fd;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return hs_fail("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(s->h)) {
		close(fd);
		return hs_fail("%s: truncated snapshot", path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return hs_fail("%s: cannot map: %s", path, strerror(errno));
	}
	s->map = m;
	s->map_len = (size_t)st.st_size;
	s->has_fd = 1;
	s->fd = fd;
	memcpy(&s->h, m, sizeof(s->h));
	if (memcmp(s->h.magic, HS_SNAP_MAGIC, sizeof(HS_SNAP_MAGIC))) {
		hs_snap_free(s);
		return hs_fail("%s: not a snapshot of this hotsim version", path);
	}
	if (s->h.npages > (1u << 24) || s->h.npoints > HS_SNAP_MAX_POINTS || !s->h.npoints ||
	    s->h.ncpus > HS_SNAP_MAX_CPUS || s->h.nskipped > HS_SNAP_MAX_SKIPPED) {
		hs_snap_free(s);
		return hs_fail("%s: damaged snapshot (%u pages, %u points, %u CPUs)", path, s->h.npages,
			       s->h.npoints, s->h.ncpus);
	}
	for (uint32_t i = 0; i < s->h.nskipped; i++) {
		s->h.skipped[i].name[sizeof(s->h.skipped[i].name) - 1] = 0;
		s->h.skipped[i].why[sizeof(s->h.skipped[i].why) - 1] = 0;
	}
	s->data_off = data_offset(&s->h);
	need = (size_t)s->data_off + (size_t)s->h.npages * HS_SNAP_PAGE;
	if (need != s->map_len) {
		hs_snap_free(s);
		return hs_fail("%s: truncated snapshot (%zu bytes, %zu expected)", path,
			       (size_t)st.st_size, need);
	}
	s->pts = (struct hs_snap_point *)(m + sizeof(s->h));
	s->cpus = s->h.ncpus ? (struct hs_snap_cpu *)(s->pts + s->h.npoints) : NULL;
	s->pages = (struct hs_snap_page *)((uint8_t *)s->pts + (size_t)s->h.npoints * sizeof(*s->pts) +
					   cpus_size(&s->h));
	s->data = m + s->data_off;
	if (checksum(s, 1) != s->h.checksum) {
		hs_snap_free(s);
		return hs_fail("%s: damaged snapshot (checksum mismatch)", path);
	}
	for (uint32_t i = 0; i < s->h.npages; i++) {
		if ((uint64_t)s->pages[i].pfn * HS_SNAP_PAGE >= s->h.ram_size ||
		    s->pages[i].point >= s->h.npoints) {
			hs_snap_free(s);
			return hs_fail("%s: damaged snapshot (page %u out of range)", path, i);
		}
		/* by point, then pfn: the replay looks pages up by halving */
		if (i && (s->pages[i].point < s->pages[i - 1].point ||
			  (s->pages[i].point == s->pages[i - 1].point && s->pages[i].pfn <= s->pages[i - 1].pfn))) {
			hs_snap_free(s);
			return hs_fail("%s: damaged snapshot (page %u out of order)", path, i);
		}
	}
	hs_snap_release(s);
	return 0;
}

int hs_snap_map_point0(const struct hs_snap *s, uint8_t *ram)
{
	uint32_t i = 0;

	if (!s->has_fd || sysconf(_SC_PAGESIZE) != HS_SNAP_PAGE)
		return 0;
	/* runs of consecutive frames are consecutive in the file: one mapping each */
	while (i < s->h.npages && s->pages[i].point == 0) {
		uint32_t j = i + 1;

		while (j < s->h.npages && s->pages[j].point == 0 && s->pages[j].pfn == s->pages[j - 1].pfn + 1)
			j++;
		if (mmap(ram + (size_t)s->pages[i].pfn * HS_SNAP_PAGE, (size_t)(j - i) * HS_SNAP_PAGE,
			 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, s->fd,
			 (off_t)(s->data_off + (uint64_t)i * HS_SNAP_PAGE)) == MAP_FAILED)
			return 0;
		i = j;
	}
	return 1;
}

void hs_snap_free(struct hs_snap *s)
{
	if (s->has_fd)
		close(s->fd);
	if (s->map)
		munmap(s->map, s->map_len);
	else {
		free(s->pts);
		free(s->cpus);
		free(s->pages);
		free(s->data);
	}
	memset(s, 0, sizeof(*s));
}

const struct hs_snap_cpu *hs_snap_cpus(const struct hs_snap *s, unsigned k, unsigned *n)
{
	*n = k < s->h.npoints ? s->h.ncpus : 0;
	return *n ? s->cpus + (size_t)k * s->h.ncpus : NULL;
}

int hs_snap_find(const struct hs_snap *s, const char *name)
{
	for (uint32_t i = 0; name && i < s->h.npoints; i++)
		if (!strncmp(s->pts[i].name, name, sizeof(s->pts[i].name)))
			return (int)i;
	return -1;
}

const char *hs_snap_skipped(const struct hs_snap *s, const char *name)
{
	for (uint32_t i = 0; name && i < s->h.nskipped && i < HS_SNAP_MAX_SKIPPED; i++)
		if (!strncmp(s->h.skipped[i].name, name, sizeof(s->h.skipped[i].name)))
			return s->h.skipped[i].why;
	return NULL;
}

void hs_snap_fill_ram(const struct hs_snap *s, unsigned k, uint8_t *ram)
{
	for (uint32_t i = 0; i < s->h.npages; i++)
		if (s->pages[i].point == 0 || s->pages[i].point == (uint32_t)k)
			memcpy(ram + (size_t)s->pages[i].pfn * HS_SNAP_PAGE,
			       s->data + (size_t)i * HS_SNAP_PAGE, HS_SNAP_PAGE);
	hs_snap_release(s);
}

void hs_snap_release(const struct hs_snap *s)
{
	if (s->map)
		madvise(s->map, s->map_len, MADV_DONTNEED);
}
