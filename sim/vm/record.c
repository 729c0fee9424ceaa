/*
 * record.c - QEMU's own instruction stream from a point (see vm.h,
 * hs_vm_record): restore the machine kept at the point, write the
 * overlay, let it run free with the recording plugin, stopping it at the
 * replay's stop sites as the replay does; validation compares the pcs
 * with the replay's. Free-running, not single-stepped: a guest stopped by
 * the debugger finds its clock at its next timer deadline when it resumes
 * (QEMU's icount warp), so every stop is a tick - the stops are exactly
 * the ones the replay makes. For the same reason QEMU must run no
 * instruction the replay does not: under -icount each one is a nanosecond
 * of the guest's clock, and the kernel's scheduler decisions follow the
 * counter. So the modelled core's vectors go into VBAR_EL1 in the saved
 * machine itself, not behind a branch in each of the boot CPU's vector
 * slots (one more instruction per exception: the counter QEMU's kernel
 * read drifted a tick ahead of the replay's every 16 exceptions).
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
#define RECORD_TIMEOUT_MS 300000

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

/* The plugin's output: a count and the pcs of its one window. */
static int read_recording(const char *path, struct hs_vm_recording *w)
{
	FILE *f = fopen(path, "rb");
	uint64_t n = 0;
	int rc = 0;

	if (!f)
		return hs_fail("%s: %s", path, strerror(errno));
	if (fread(&n, sizeof(n), 1, f) != 1 || n > w->max ||
	    !(w->pcs = malloc((n ? n : 1) * sizeof(uint64_t))) ||
	    fread(w->pcs, sizeof(uint64_t), n, f) != n)
		rc = hs_fail("%s: truncated recording", path);
	w->got = (size_t)n;
	fclose(f);
	return rc;
}

/* Run until the plugin has written its window, continuing at every stop
 * site: the guest stops there as the replay stops it. */
static int run_to_full(struct hs_qemu *vm, struct hs_vm_recording *w, const char *out)
{
	unsigned waited = 0;

	if (hs_rsp_resume(vm))
		return -1;
	while (access(out, F_OK)) {
		int rc = hs_rsp_wait(vm, 100);

		if (rc == 0) {
			w->nstops++;
			if (hs_rsp_resume(vm))
				return -1;
			continue;
		}
		if (rc == -1 || rc == -3)	/* the stub or QEMU gone */
			return access(out, F_OK) ? hs_fail("QEMU ended before the recording was full") : 0;
		if ((waited += 100) > RECORD_TIMEOUT_MS)
			return hs_fail("QEMU did not fill the recording (%zu pcs) within %u s", w->max,
				       RECORD_TIMEOUT_MS / 1000);
	}
	return 0;
}

int hs_vm_record(struct hs_vm_recording *w)
{
	char kernel[400], initrd[400], mig[400], so[400], out[400], arg[1400];
	struct hs_qemu_cfg cfg = { 0 };
	struct hs_qemu vm;
	int rc = 0;

	w->pcs = NULL;
	w->got = 0;
	w->nstops = 0;
	if (!hs_record_plugin_size)
		return hs_fail("this hotsim was built without its QEMU plugin (no qemu-plugin.h: "
			       "apt-get install qemu-system-arm, then rebuild)");
	snprintf(kernel, sizeof(kernel), "%s/Image", w->dir);
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", w->dir);
	snprintf(mig, sizeof(mig), "%s/%s.mig", w->dir, w->point);
	snprintf(so, sizeof(so), "%s/record_plugin.so", w->dir);
	snprintf(out, sizeof(out), "%s/recording.bin", w->dir);
	unlink(out);
	if (write_file(so, hs_record_plugin, hs_record_plugin_size))
		return -1;
	/* idempotent: recordings from the same point share the saved machine */
	if (w->vbar && hs_mig_set_sysreg(mig, HS_MIG_ID_VBAR_EL1, w->vbar_was, w->vbar))
		return -1;
	/* one window, from the first instruction the restored guest executes */
	snprintf(arg, sizeof(arg), "%s,out=%s,win=0:%zu%s", so, out, w->max, w->ncpus > 1 ? ",vcpu=1" : "");
	cfg.cpu = w->cpu;
	cfg.mem_mb = RECORD_MEM_MB;
	cfg.kernel = kernel;
	cfg.initrd = initrd;
	cfg.append = "";	/* restored: the command line is in guest memory */
	cfg.dir = w->dir;
	cfg.incoming = mig;
	cfg.ncpus = w->ncpus;
	cfg.plugin = arg;
	if (hs_qemu_start(&vm, &cfg))
		return -1;
	/* the overlay by physical address: a user-mode stop cannot write
	 * kernel pages through the MMU */
	rc = hs_rsp_phys(&vm, 1);
	for (size_t i = 0; i < w->npatches && !rc; i++)
		rc = hs_rsp_write(&vm, w->patches[i].pa, w->patches[i].bytes, w->patches[i].len);
	if (!rc)
		rc = hs_rsp_phys(&vm, 0);
	for (int i = 0; i < 4 && !rc; i++)
		if (w->stops[i])
			rc = hs_rsp_break(&vm, w->stops[i], 1);
	if (!rc)
		rc = run_to_full(&vm, w, out);
	hs_qemu_stop(&vm);
	return rc ? -1 : read_recording(out, w);
}
