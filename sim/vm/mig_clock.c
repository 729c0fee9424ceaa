/*
 * mig_clock.c - the clock of a machine QEMU saved (hs_qmp_migrate): its
 * virtual clock in nanoseconds, to the instruction, where the guest's
 * counter gives only 16 ns ticks.
 *
 * Under -icount the clock is QEMU's instruction count shifted, plus the
 * bias its warps added: the "timer" section's "timer/icount" subsection
 * (softmmu/icount.c, icount_vmstate_timers) holds qemu_icount_bias and
 * qemu_icount (be64 each) after its header - QEMU_VM_SUBSECTION (5), the
 * name's length and name, the version (be32, 1). hotsim boots with
 * shift=0: the clock is bias + count. The subsection must be there once
 * (the devices' state comes after guest RAM, which could hold anything,
 * so the last one is QEMU's and an earlier one is a coincidence in RAM).
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

static const uint8_t head[] = { 5, 12, 't', 'i', 'm', 'e', 'r', '/', 'i', 'c', 'o', 'u', 'n', 't', 0, 0, 0, 1 };

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int hs_mig_clock(const char *path, uint64_t *ns)
{
	const uint8_t *m, *last = NULL;
	struct stat st;
	size_t size, from = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return hs_fail("%s: %s", path, strerror(errno));
	}
	size = (size_t)st.st_size;
	m = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED)
		return hs_fail("%s: cannot map: %s", path, strerror(errno));
	for (const uint8_t *hit; from + sizeof(head) + 16 <= size &&
	     (hit = memmem(m + from, size - from - 16, head, sizeof(head)));)
		from = (size_t)((last = hit) - m) + 1;
	if (last) {
		uint64_t bias = be64(last + sizeof(head)), count = be64(last + sizeof(head) + 8);

		*ns = bias + count;
	} else {
		rc = hs_fail("%s: no icount clock in the saved machine (QEMU without -icount?)", path);
	}
	munmap((void *)m, size);
	return rc;
}
