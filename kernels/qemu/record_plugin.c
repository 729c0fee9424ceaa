/*
 * record_plugin.c - a QEMU TCG plugin that records the instruction stream
 * of a free-running guest in windows, for `hotsim validate` (the IRQ
 * paths: a guest stopped by the debugger inside an interrupt finds its
 * clock at a far timer deadline when it resumes, so those streams are
 * recorded without stopping it).
 *
 * Arguments (-plugin record.so,out=PATH,win=AT:MAX,win=AT:MAX...): a
 * window starts the first time the guest executes AT (AT 0: the first
 * instruction it executes) and keeps MAX pcs.
 * When every window is full, or QEMU exits, PATH gets for each window a
 * 64-bit count and its pcs (written under a temporary name, then renamed,
 * so a reader never sees half a file). Built against the qemu-plugin.h of
 * the installed QEMU (kernels/qemu/plugin-header.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_WINDOWS 4

static struct window {
	uint64_t at;
	size_t max, n;
	int state;		/* 0 waiting, 1 recording, 2 full */
	uint64_t *pcs;
} win[MAX_WINDOWS];
static int nwin, written, tag_vcpu;
static char out[512];

static void write_out(void)
{
	char tmp[540];
	FILE *f;

	if (written)
		return;
	written = 1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "wb");
	if (!f)
		return;
	for (int i = 0; i < nwin; i++) {
		uint64_t n = win[i].n;

		fwrite(&n, sizeof(n), 1, f);
		fwrite(win[i].pcs, sizeof(uint64_t), win[i].n, f);
	}
	if (fclose(f) == 0)
		rename(tmp, out);
}

static void on_exec(unsigned int vcpu, void *udata)
{
	uint64_t pc = (uintptr_t)udata;
	int full = 0;

	/* vcpu=1: bits 51:48 of each pc say which CPU ran it (a 48-bit VA's
	 * copies of bit 63 there: the reader restores them) */
	if (tag_vcpu)
		pc = (pc & ~(0xfULL << 48)) | (uint64_t)(vcpu & 15) << 48;
	if (written)
		return;
	for (int i = 0; i < nwin; i++) {
		struct window *w = &win[i];

		if (w->state == 0 && (pc == w->at || !w->at))
			w->state = 1;
		if (w->state == 1) {
			w->pcs[w->n++] = pc;
			if (w->n == w->max)
				w->state = 2;
		}
		full += w->state == 2;
	}
	if (full == nwin)
		write_out();
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn));
	}
}

static void on_exit(qemu_plugin_id_t id, void *p)
{
	(void)id, (void)p;
	write_out();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					   char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			snprintf(out, sizeof(out), "%s", argv[i] + 4);
		} else if (!strcmp(argv[i], "vcpu=1")) {
			tag_vcpu = 1;
		} else if (!strncmp(argv[i], "win=", 4) && nwin < MAX_WINDOWS) {
			char *end;

			win[nwin].at = strtoull(argv[i] + 4, &end, 0);
			win[nwin].max = *end == ':' ? strtoull(end + 1, NULL, 0) : 0;
			if (!win[nwin].max || win[nwin].max > 64000000)
				return -1;
			win[nwin].pcs = malloc(win[nwin].max * sizeof(uint64_t));
			if (!win[nwin].pcs)
				return -1;
			nwin++;
		} else {
			return -1;
		}
	}
	if (!out[0] || !nwin)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_exit, NULL);
	return 0;
}
