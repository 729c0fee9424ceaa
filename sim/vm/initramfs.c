/*
 * initramfs.c - the initramfs hotsim boots a kernel with: an uncompressed
 * cpio in the "newc" format (Documentation/driver-api/early-userspace/
 * buffer-format.rst) holding /dev/console, /dev/zero and /init (and a user's
 * or a program's /user; a program's archive after it; a pinned boot's
 * /taskset). Written here, so no
 * cpio tool and no mknod (root) is needed, and byte-identical every time
 * (mtime 0, fixed inode numbers).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "vm/vm.h"

/* One entry: 110-byte header, name, padding to 4, data, padding to 4. */
static int entry(FILE *f, unsigned ino, unsigned mode, unsigned rdev_major, unsigned rdev_minor,
		 const char *name, const void *data, size_t size)
{
	static const char zero[4];
	size_t nlen = strlen(name) + 1;

	if (fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino, mode,
		    0u, 0u, 1u, 0u, size, 0u, 0u, rdev_major, rdev_minor, nlen, 0u) != 110 ||
	    fwrite(name, 1, nlen, f) != nlen || fwrite(zero, 1, (4 - (110 + nlen) % 4) % 4, f) !=
								 (4 - (110 + nlen) % 4) % 4)
		return -1;
	if (size && fwrite(data, 1, size, f) != size)
		return -1;
	if (fwrite(zero, 1, (4 - size % 4) % 4, f) != (4 - size % 4) % 4)
		return -1;
	return 0;
}

int hs_vm_write_initramfs(const char *path, const void *init, size_t init_size, const struct hs_vm_boot *b)
{
	const struct hs_workload *wl = b->wl;
	FILE *f = fopen(path, "wb");
	int rc;

	if (!f)
		return hs_fail("%s: cannot create: %s", path, strerror(errno));
	rc = entry(f, 1, 040755, 0, 0, "dev", NULL, 0) ||
	     entry(f, 2, 020600, 5, 1, "dev/console", NULL, 0) ||	/* char 5:1 */
	     entry(f, 3, 020666, 1, 5, "dev/zero", NULL, 0) ||		/* char 1:5 */
	     entry(f, 4, 0100755, 0, 0, "init", init, init_size) ||
	     (wl && entry(f, 5, 0100755, 0, 0, "user", wl->elf, wl->size)) ||
	     (wl && wl->prog && entry(f, 7, 0100644, 0, 0, "program", wl->spec, strlen(wl->spec))) ||
	     (b->taskset && entry(f, 8, 0100755, 0, 0, "taskset", hs_taskset_elf, hs_taskset_elf_size)) ||
	     (b->cgroup && entry(f, 9, 0100755, 0, 0, "cgroup", hs_cgroup_elf, hs_cgroup_elf_size)) ||
	     entry(f, 6, 0, 0, 0, "TRAILER!!!", NULL, 0) ||
	     /* the kernel unpacks one archive after another */
	     (wl && wl->prog && fwrite(wl->archive, 1, wl->archive_size, f) != wl->archive_size);
	if (fclose(f) | rc)
		return hs_fail("%s: cannot write: %s", path, strerror(errno));
	return 0;
}
