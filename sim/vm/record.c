/*
 * record.c - QEMU's own instruction stream for a path (see vm.h,
 * hs_vm_record_pcs): restore the machine kept at a point, single-step it,
 * record the pcs. Validation compares them with the replay's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define RECORD_MEM_MB 256	/* as every boot of the recipe (snapcache.c) */

/* QEMU's counter now: step the probe's mrs, read its register, put pc
 * and the register back. */
static int probe_counter(struct hs_qemu *vm, struct hs_vm_record *q)
{
	char reg[8];
	uint64_t pc, saved;

	snprintf(reg, sizeof(reg), "x%u", q->probe_reg);
	if (q->probe_reg > 30 || hs_rsp_pc(vm, &pc) || hs_rsp_reg64(vm, reg, &saved) ||
	    hs_rsp_set_reg64(vm, "pc", q->probe_pc) || hs_rsp_step(vm) || hs_rsp_reg64(vm, reg, &q->counter))
		return hs_fail("cannot read QEMU's counter at 0x%llx", (unsigned long long)q->probe_pc);
	return hs_rsp_set_reg64(vm, reg, saved) || hs_rsp_set_reg64(vm, "pc", pc);
}

int hs_vm_record_pcs(struct hs_vm_record *q, uint64_t *pcs, size_t *n)
{
	char kernel[400], initrd[400], mig[400];
	struct hs_qemu_cfg cfg = { 0 };
	struct hs_qemu vm;
	uint64_t pc;
	int rc = 0;

	*n = 0;
	snprintf(kernel, sizeof(kernel), "%s/Image", q->dir);
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", q->dir);
	snprintf(mig, sizeof(mig), "%s/%s.mig", q->dir, q->point);
	cfg.cpu = q->cpu;
	cfg.mem_mb = RECORD_MEM_MB;
	cfg.kernel = kernel;
	cfg.initrd = initrd;
	cfg.append = "";	/* restored: the command line is in guest memory */
	cfg.dir = q->dir;
	cfg.incoming = mig;
	if (hs_qemu_start(&vm, &cfg))
		return -1;
	/* the overlay by physical address: a user-mode stop cannot write
	 * kernel pages through the MMU */
	rc = hs_rsp_phys(&vm, 1);
	for (size_t i = 0; i < q->npatches && !rc; i++)
		rc = hs_rsp_write(&vm, q->patches[i].pa, q->patches[i].bytes, q->patches[i].len);
	if (!rc)
		rc = hs_rsp_phys(&vm, 0);
	if (!rc && q->break_pc) {
		uint64_t at;

		rc = hs_rsp_break(&vm, q->break_pc, 1) || hs_rsp_continue(&vm, 60000) ||
		     hs_rsp_pc(&vm, &at) || hs_rsp_break(&vm, q->break_pc, 0);
		if (!rc && at != q->break_pc)
			rc = hs_fail("QEMU stopped at 0x%llx, not at 0x%llx", (unsigned long long)at,
				     (unsigned long long)q->break_pc);
	}
	if (!rc)
		rc = hs_rsp_step_mode(&vm) || (q->probe_pc && probe_counter(&vm, q)) ||
		     hs_rsp_set_reg64(&vm, "pc", q->start_pc);
	for (pc = q->start_pc; !rc && *n < q->max;) {
		pcs[(*n)++] = pc;
		if (pc == q->stop_pc && *n > 1)
			break;
		if (hs_rsp_step(&vm) || hs_rsp_pc(&vm, &pc)) {
			rc = -1;
			break;
		}
	}
	hs_qemu_stop(&vm);
	return rc;
}

static int write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n) {
		if (f)
			fclose(f);
		return hs_fail("%s: cannot write: %s", path, strerror(errno));
	}
	return fclose(f) ? hs_fail("%s: %s", path, strerror(errno)) : 0;
}

/* The plugin's output: per window a count and its pcs. */
static int read_windows(const char *path, struct hs_vm_windows *w)
{
	FILE *f = fopen(path, "rb");
	int rc = 0;

	if (!f)
		return hs_fail("%s: %s", path, strerror(errno));
	for (unsigned i = 0; i < w->n && !rc; i++) {
		uint64_t n = 0;

		if (fread(&n, sizeof(n), 1, f) != 1 || n > w->max[i] ||
		    !(w->pcs[i] = malloc((n ? n : 1) * sizeof(uint64_t))) ||
		    fread(w->pcs[i], sizeof(uint64_t), n, f) != n)
			rc = hs_fail("%s: truncated recording", path);
		w->got[i] = n;
	}
	fclose(f);
	return rc;
}

int hs_vm_record_windows(struct hs_vm_windows *w)
{
	char kernel[400], initrd[400], mig[400], so[400], out[400], arg[1400];
	struct hs_qemu_cfg cfg = { 0 };
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct hs_qemu vm;
	int rc = 0, at;

	if (!hs_record_plugin_size)
		return hs_fail("this hotsim was built without its QEMU plugin (no qemu-plugin.h: "
			       "apt-get install qemu-system-arm, then rebuild)");
	snprintf(kernel, sizeof(kernel), "%s/Image", w->dir);
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", w->dir);
	snprintf(mig, sizeof(mig), "%s/%s.mig", w->dir, w->point);
	snprintf(so, sizeof(so), "%s/record_plugin.so", w->dir);
	snprintf(out, sizeof(out), "%s/windows.bin", w->dir);
	unlink(out);
	if (write_file(so, hs_record_plugin, hs_record_plugin_size))
		return -1;
	at = snprintf(arg, sizeof(arg), "%s,out=%s", so, out);
	for (unsigned i = 0; i < w->n; i++)
		at += snprintf(arg + at, sizeof(arg) - (size_t)at, ",win=0x%llx:%zu",
			       (unsigned long long)w->at[i], w->max[i]);
	cfg.cpu = w->cpu;
	cfg.mem_mb = RECORD_MEM_MB;
	cfg.kernel = kernel;
	cfg.initrd = initrd;
	cfg.append = "";
	cfg.dir = w->dir;
	cfg.incoming = mig;
	cfg.plugin = arg;
	if (hs_qemu_start(&vm, &cfg))
		return -1;
	rc = hs_rsp_phys(&vm, 1);
	for (size_t i = 0; i < w->npatches && !rc; i++)
		rc = hs_rsp_write(&vm, w->patches[i].pa, w->patches[i].bytes, w->patches[i].len);
	if (!rc)
		rc = hs_rsp_phys(&vm, 0) || hs_rsp_resume(&vm);
	/* the guest runs on to its end; the plugin writes when the windows are full */
	for (unsigned waited = 0; !rc && access(out, F_OK); waited += 50) {
		if (waited > 120000)
			rc = hs_fail("QEMU did not fill the recording windows within 120 s");
		nanosleep(&ts, NULL);
	}
	hs_qemu_stop(&vm);
	return rc ? -1 : read_windows(out, w);
}

void hs_vm_windows_free(struct hs_vm_windows *w)
{
	for (unsigned i = 0; i < w->n; i++)
		free(w->pcs[i]);
	memset(w->pcs, 0, sizeof(w->pcs));
}
