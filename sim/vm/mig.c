/*
 * mig.c - an edit to a machine QEMU saved (hs_qmp_migrate): one system
 * register's value in the CPU's state, for what the gdbstub cannot write
 * (QEMU 7.2's system-register view is read-only).
 *
 * The arm CPU's section (target/arm/machine.c, vmstate_arm_cpu) keeps the
 * raw system registers as cpreg_vmstate_array_len (be32), that many
 * indexes (be64, KVM-style ids, ascending), then that many values (be64);
 * QEMU writes the values back into its registers after loading. The
 * register is found by its index, and the array around it is checked
 * (length, ascending indexes, the value the caller says it holds) before
 * anything is written: guest RAM earlier in the stream could hold the
 * same eight bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define MAX_CPREGS 4096u	/* QEMU 7.2's arm CPUs have a few hundred */

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The value slot of the index at m[at], when m[at] sits in an array as
 * QEMU writes it and the value is old or v; NULL otherwise. */
static uint8_t *value_slot(uint8_t *m, size_t size, size_t at, uint64_t old, uint64_t v)
{
	for (size_t j = 0; j < MAX_CPREGS && 8 * j + 4 <= at; j++) {
		size_t start = at - 8 * j, len, k;
		const uint8_t *l = m + start - 4;

		len = (size_t)l[0] << 24 | (size_t)l[1] << 16 | (size_t)l[2] << 8 | l[3];
		if (len <= j || len > MAX_CPREGS || start + 16 * len > size)
			continue;
		for (k = 0; k + 1 < len && be64(m + start + 8 * k) < be64(m + start + 8 * k + 8); k++)
			;
		if (k + 1 < len)
			continue;
		uint8_t *slot = m + start + 8 * len + 8 * j;

		if (be64(slot) == old || be64(slot) == v)
			return slot;
	}
	return NULL;
}

int hs_mig_set_sysreg(const char *path, uint64_t id, uint64_t old, uint64_t v)
{
	uint8_t pat[8], *m, *slot = NULL;
	struct stat st;
	size_t size, from = 0;
	int fd = open(path, O_RDWR | O_CLOEXEC), rc = 0, found = 0;

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return hs_fail("%s: %s", path, strerror(errno));
	}
	size = (size_t)st.st_size;
	m = size ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED)
		return hs_fail("%s: cannot map: %s", path, strerror(errno));
	put_be64(pat, id);
	for (uint8_t *hit; from + 8 <= size && (hit = memmem(m + from, size - from, pat, 8)); ) {
		uint8_t *s = value_slot(m, size, (size_t)(hit - m), old, v);

		if (s) {
			slot = s;
			found++;
		}
		from = (size_t)(hit - m) + 1;
	}
	if (found == 1)
		put_be64(slot, v);
	else
		rc = hs_fail("%s: %s the CPU's system register 0x%llx holding 0x%llx", path,
			     found ? "more than one place looks like" : "no place holds",
			     (unsigned long long)id, (unsigned long long)old);
	if (munmap(m, size) && !rc)
		rc = hs_fail("%s: %s", path, strerror(errno));
	return rc;
}
