/*
 * plant.c - the workload for a kernel that cannot unpack an initramfs
 * (no CONFIG_BLK_DEV_INITRD: minimal board configs boot from an SD card).
 *
 * Such a kernel still has a root filesystem of its own: init/noinitramfs.c
 * mounts an empty ramfs/tmpfs with /dev and /dev/console, and
 * kernel_init_freeable() runs /init from it when init_eaccess("/init")
 * finds one there - before it would look for a root device. So hotsim
 * stops the boot at init_eaccess() (a breakpoint through the gdbstub) and
 * has the kernel's own functions make the files the initramfs would have
 * held: init_mknod() the /dev/zero node, and for /init (and a user
 * workload's /user) vmalloc() a buffer, write the program into it, then
 * filp_open(O_CREAT), kernel_write(), filp_close(), vfree(). Each call
 * returns to init_eaccess's first instruction, where the breakpoint stops
 * it again; the registers are put back and the boot goes on into
 * init_eaccess, which now finds /init.
 *
 * Nothing here touches a measured path: it all runs in PID 1's kernel
 * thread before user space exists, in code that is freed with the rest of
 * __init; what stays is ramfs pages holding the files, as an unpacked
 * initramfs leaves them. Needs nothing of the config beyond what every
 * kernel has (fs/init.c, the VFS, vmalloc).
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/image.h"
#include "vm/vm.h"

#define CALL_TIMEOUT_MS 30000
/* bytes per gdbstub write: as hex, with the header, inside QEMU's 4096-byte
 * packet (gdbstub's MAX_PACKET_LENGTH) */
#define WRITE_CHUNK 1024
#define NAME_ROOM 256		/* the buffer's head: the file name, then pos */
#define O_WRONLY_CREAT_TRUNC 01101	/* O_WRONLY | O_CREAT | O_TRUNC (asm-generic/fcntl.h) */
#define S_IFCHR_0666 020666
#define MKDEV_ZERO 0x105		/* new_encode_dev(MKDEV(1, 5)): minor | major << 8, as noinitramfs.c passes it */

/* The kernel functions planting needs, by name (the first an image has). */
enum { F_EACCESS, F_MKNOD, F_VMALLOC, F_VFREE, F_OPEN, F_WRITE, F_CLOSE, F_TWRUN, F_FLUSH, F_N };
static const char *const fn_names[F_N] = {
	"init_eaccess", "init_mknod", "vmalloc_noprof|vmalloc", "vfree", "filp_open", "kernel_write",
	"filp_close", "task_work_run", "flush_delayed_fput",
};

/* The first of "a|b" the image has (vmalloc is vmalloc_noprof since the
 * allocation profiling of 6.10). */
static const struct hs_sym *find_fn(const struct hs_image *img, const char *names)
{
	char buf[64], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", names);
	for (char *n = strtok_r(buf, "|", &save); n; n = strtok_r(NULL, "|", &save)) {
		const struct hs_sym *f = hs_sym_exact(img, n);

		if (f)
			return f;
	}
	return NULL;
}

int hs_vm_plant_missing(const struct hs_image *img, char *why, size_t len)
{
	for (int i = 0; i < F_N; i++)
		if (!find_fn(img, fn_names[i])) {
			snprintf(why, len, "no %s to plant the workload with", fn_names[i]);
			return 1;
		}
	return 0;
}

struct planter {
	struct hs_qemu *q;
	uint64_t fn[F_N];
	uint64_t x[31], sp, pc, cpsr;	/* the stopped thread's, put back after */
};

static int save_regs(struct planter *p)
{
	char name[16];

	for (int i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		if (hs_rsp_reg64(p->q, name, &p->x[i]))
			return -1;
	}
	return hs_rsp_reg64(p->q, "sp", &p->sp) || hs_rsp_reg64(p->q, "pc", &p->pc) ||
	       hs_rsp_reg64(p->q, "cpsr", &p->cpsr);
}

static int restore_regs(struct planter *p)
{
	char name[16];

	for (int i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		if (hs_rsp_set_reg64(p->q, name, p->x[i]))
			return -1;
	}
	return hs_rsp_set_reg64(p->q, "sp", p->sp) || hs_rsp_set_reg64(p->q, "pc", p->pc) ||
	       hs_rsp_set_reg64(p->q, "cpsr", p->cpsr);
}

/* fn(args) in the stopped thread, returning to the breakpoint at the
 * stop (init_eaccess's entry): its x0. */
static int call(struct planter *p, int f, const uint64_t *args, int nargs, uint64_t *ret)
{
	char name[16];
	uint64_t pc, sp;
	int rc;

	for (int i = 0; i < nargs; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		if (hs_rsp_set_reg64(p->q, name, args[i]))
			return -1;
	}
	if (hs_rsp_set_reg64(p->q, "x30", p->pc) || hs_rsp_set_reg64(p->q, "sp", p->sp) ||
	    hs_rsp_set_reg64(p->q, "pc", p->fn[f]))
		return -1;
	rc = hs_rsp_continue(p->q, CALL_TIMEOUT_MS);
	if (rc)
		return hs_fail("planting the workload: %s did not return%s", fn_names[f],
			       rc == -2 ? " within 30 s" : "");
	if (hs_rsp_pc(p->q, &pc) || hs_rsp_reg64(p->q, "sp", &sp) || hs_rsp_reg64(p->q, "x0", ret))
		return -1;
	if (pc != p->pc || sp != p->sp)
		return hs_fail("planting the workload: %s returned to 0x%llx", fn_names[f],
			       (unsigned long long)pc);
	return 0;
}

static int is_err(uint64_t v)
{
	return v >= (uint64_t)-4095;	/* IS_ERR_VALUE */
}

/* One file: its bytes into a vmalloc()ed buffer, then written to path. */
static int plant_file(struct planter *p, const char *path, const void *data, size_t size)
{
	uint64_t buf, file, n, zero = 0, args[4];
	int rc = -1;

	args[0] = NAME_ROOM + size;
	if (call(p, F_VMALLOC, args, 1, &buf))
		return -1;
	if (!buf)
		return hs_fail("planting %s: vmalloc(%zu) failed in the guest", path, size);
	if (hs_rsp_write(p->q, buf, path, strlen(path) + 1) ||
	    hs_rsp_write(p->q, buf + NAME_ROOM - 8, &zero, 8))
		goto out;
	for (size_t at = 0; at < size; at += WRITE_CHUNK)
		if (hs_rsp_write(p->q, buf + NAME_ROOM + at, (const char *)data + at,
				 size - at < WRITE_CHUNK ? size - at : WRITE_CHUNK))
			goto out;
	args[0] = buf, args[1] = O_WRONLY_CREAT_TRUNC, args[2] = 0755;
	if (call(p, F_OPEN, args, 3, &file))
		goto out;
	if (is_err(file)) {
		hs_fail("planting %s: filp_open: error %lld", path, -(long long)file);
		goto out;
	}
	args[0] = file, args[1] = buf + NAME_ROOM, args[2] = size, args[3] = buf + NAME_ROOM - 8;
	rc = call(p, F_WRITE, args, 4, &n);
	if (!rc && n != size)
		rc = hs_fail("planting %s: kernel_write wrote %lld of %zu bytes", path, (long long)n, size);
	/* the last reference goes now, not at PID 1's first return to user
	 * space (task work) or a worker's (a kernel thread's delayed fput):
	 * a file still open for writing cannot be exec'd (ETXTBSY) */
	args[0] = file, args[1] = 0;
	if (call(p, F_CLOSE, args, 2, &n) || call(p, F_TWRUN, args, 0, &n) || call(p, F_FLUSH, args, 0, &n))
		rc = -1;
out:
	args[0] = buf;
	if (call(p, F_VFREE, args, 1, &n))
		rc = -1;
	return rc;
}

int hs_vm_plant(struct hs_qemu *q, const struct hs_vm_ends *ends, const struct hs_vm_file *files,
		unsigned nfiles, unsigned timeout_s)
{
	const struct hs_image *img = ends->img;
	struct planter p = { .q = q };
	uint64_t args[3], ret, pc;
	char why[120];
	int rc;

	if (hs_vm_plant_missing(img, why, sizeof(why)))
		return hs_fail("%s", why);
	for (int i = 0; i < F_N; i++)
		p.fn[i] = find_fn(img, fn_names[i])->addr;
	if (hs_rsp_break(q, p.fn[F_EACCESS], 1))
		return -1;
	rc = hs_vm_run(q, ends, timeout_s, "init_eaccess() (where hotsim plants the workload)", &pc);
	if (rc)
		return rc;
	if (pc != p.fn[F_EACCESS])
		return hs_fail("the guest stopped at 0x%llx, not at init_eaccess()", (unsigned long long)pc);
	if (save_regs(&p))
		return -1;
	/* a node the workload opens, as the initramfs made it */
	if (hs_rsp_write(q, p.sp - 512, "/dev/zero", 10))
		return -1;
	p.sp -= 512;	/* below the thread's own frame while the calls run */
	args[0] = p.sp, args[1] = S_IFCHR_0666, args[2] = MKDEV_ZERO;
	if (call(&p, F_MKNOD, args, 3, &ret))
		return -1;
	if (is_err(ret) && ret != (uint64_t)-17)	/* -EEXIST: there already */
		return hs_fail("planting /dev/zero: init_mknod: error %lld", -(long long)ret);
	for (unsigned i = 0; i < nfiles; i++)
		if (plant_file(&p, files[i].path, files[i].data, files[i].size))
			return -1;
	p.sp += 512;
	return restore_regs(&p) || hs_rsp_break(q, p.fn[F_EACCESS], 0);
}
