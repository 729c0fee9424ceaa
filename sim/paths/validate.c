/*
 * validate.c - the replay against QEMU (see paths.h, hs_validate). Only
 * the booted form of a path can be checked this way: QEMU runs the same
 * snapshot point, so any difference is hotsim's (its exception entry and
 * return, timer, GIC, page mapping, overlay) or Unicorn's.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hotsim/a64.h"
#include "a64/encode.h"
#include "hotsim/err.h"
#include "emu/backend_booted.h"
#include "paths/path_internal.h"
#include "vm/vm.h"

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* The fresh boot must reproduce the cached snapshot: registers and pages. */
static int same_snapshot(const struct hs_snap *a, const struct hs_snap *b, const char *name, char *why,
			 size_t len)
{
	int ka = hs_snap_find(a, name), kb = hs_snap_find(b, name);

	if (ka < 0 || kb < 0 || a->h.npoints != b->h.npoints) {
		snprintf(why, len, "QEMU's fresh boot did not take the %s point", name);
		return 0;
	}
	if (memcmp(&a->pts[ka].regs, &b->pts[kb].regs, sizeof(a->pts[ka].regs))) {
		snprintf(why, len, "QEMU did not reproduce the snapshot's registers at the %s point "
			 "(pc 0x%llx, cached 0x%llx)", name, (unsigned long long)a->pts[ka].regs.pc,
			 (unsigned long long)b->pts[kb].regs.pc);
		return 0;
	}
	if (a->h.npages != b->h.npages ||
	    memcmp(a->pages, b->pages, (size_t)a->h.npages * sizeof(*a->pages)) ||
	    memcmp(a->data, b->data, (size_t)a->h.npages * HS_SNAP_PAGE)) {
		snprintf(why, len, "QEMU did not reproduce the snapshot's RAM (%u pages, cached %u)",
			 a->h.npages, b->h.npages);
		return 0;
	}
	return 1;
}

/* QEMU's copy of the overlay: firmware calls become NOPs (QEMU's virt has
 * no EL3 firmware to answer the SMCCC calls hotsim answers; the pcs are
 * the same), and when the modelled core's vectors are not the boot CPU's,
 * each of QEMU's 16 vector slots branches to the model's (VBAR_EL1 cannot
 * be written through the gdbstub). */
struct qpatches {
	struct hs_vm_patch *v;
	size_t n;
	uint64_t slots;		/* QEMU's VBAR when its slots branch, else 0 */
};

static int qemu_patches(struct hs_boot_state *b, struct qpatches *q)
{
	/* the booted kernel's own vectors: boot sets VBAR_EL1 once per CPU,
	 * so every point has the same */
	uint64_t qv = b->snap.pts[0].regs.vbar;

	memset(q, 0, sizeof(*q));
	if (!(q->v = calloc(b->npatches + 16, sizeof(*q->v))))
		return hs_fail("out of memory");
	for (size_t i = 0; i < b->npatches; i++) {
		q->v[q->n] = b->patches[i];
		for (uint32_t k = 0; k + 4 <= q->v[q->n].len; k += 4)
		{
			uint32_t w, nop = A64_NOP;

			memcpy(&w, q->v[q->n].bytes + k, 4);
			if (a64_is_smc0(w))
				memcpy(q->v[q->n].bytes + k, &nop, 4);
		}
		q->n++;
	}
	if (qv != b->vbar) {
		q->slots = qv;
		for (uint64_t k = 0; k < A64_VEC_SIZE / A64_VEC_ENTRY; k++) {
			uint64_t at = qv + A64_VEC_ENTRY * k, to = b->vbar + A64_VEC_ENTRY * k;
			uint32_t w = a64_gen_b(at, to);
			struct hs_vm_patch *p = &q->v[q->n++];

			p->va = at;
			p->pa = hs_bt_pa(b->r, at);
			p->len = 4;
			memcpy(p->bytes, &w, 4);
		}
	}
	return 0;
}

/* QEMU's pcs without its vector slots' branches to the model's table. */
static size_t drop_slots(uint64_t *pcs, size_t n, uint64_t slots)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!slots || pcs[i] < slots || pcs[i] >= slots + A64_VEC_SIZE || (pcs[i] - slots) % A64_VEC_ENTRY)
			pcs[k++] = pcs[i];
	return k;
}

static void compare(const struct hs_trace *t, const uint64_t *q, size_t nq, uint64_t stop, int with_stop,
		    struct hs_validation *v)
{
	size_t i;

	v->ran = 1;
	for (i = 0; i < t->n && i < nq; i++)
		if (t->v[i].pc != q[i])
			break;
	v->n = i;
	/* stepping records where the final eret went; a window just stops */
	if (i == t->n && (with_stop ? nq == t->n + 1 && q[nq - 1] == stop : nq >= t->n)) {
		v->identical = 1;
		return;
	}
	v->at = i;
	v->pc = i ? t->v[i - 1].pc : 0;
	v->next_replay = i < t->n ? t->v[i].pc : stop;
	v->next_qemu = i < nq ? q[i] : 0;
}

static int replay(struct hs_boot_state *b, const struct hs_path_def *d, uint64_t counter,
		  struct hs_path_run *pr, struct hs_validation *v)
{
	hs_trace_free(&pr->tr);
	memset(pr, 0, sizeof(*pr));
	pr->def = d;
	hs_trace_init(&pr->tr, hs_rt_dcache(b->r), 4000000);
	hs_bt_counter_override(b->r, counter);
	if (hs_path_booted_full(b, d, pr)) {
		snprintf(v->why, sizeof(v->why), "the replay failed: %s", hs_errmsg());
		hs_bt_counter_override(b->r, 0);
		return -1;
	}
	hs_bt_counter_override(b->r, 0);
	return 0;
}

/*
 * A path from an svc point: the replay once for its length, QEMU restored
 * at the point and single-stepped (reading its counter first, through the
 * workload's own counter read: the replay is given the same), the replay
 * again on that clock, and the two streams side by side.
 */
static void stepped(struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
		    const struct hs_path_def *d, struct hs_validation *v)
{
	int k = hs_snap_find(&b->snap, d->boot.point->name);
	struct hs_path_run pr;
	struct hs_vm_record rq = { 0 };
	uint64_t *pcs = NULL;
	size_t n = 0;

	memset(&pr, 0, sizeof(pr));
	if (replay(b, d, 0, &pr, v))
		goto out;
	rq.cpu = b->snap.h.cpu;
	rq.dir = dir;
	rq.point = b->snap.pts[k].name;
	rq.patches = qp->v;
	rq.npatches = qp->n;
	rq.start_pc = pr.tr.n ? pr.tr.v[0].pc : 0;
	rq.stop_pc = b->stop_elr;
	rq.max = pr.tr.n + 96;
	/* the workload reads the counter into x9 just before its svc */
	rq.probe_pc = b->snap.pts[k].regs.pc - 4;
	rq.probe_reg = 9;
	if (!(pcs = malloc(rq.max * sizeof(*pcs)))) {
		snprintf(v->why, sizeof(v->why), "out of memory");
		goto out;
	}
	if (hs_vm_record_pcs(&rq, pcs, &n)) {
		snprintf(v->why, sizeof(v->why), "QEMU: %s", hs_errmsg());
		goto out;
	}
	n = drop_slots(pcs, n, qp->slots);
	if (replay(b, d, rq.counter, &pr, v))
		goto out;
	compare(&pr.tr, pcs, n, rq.stop_pc, 1, v);
out:
	free(pcs);
	hs_trace_free(&pr.tr);
}

/*
 * The paths recorded free-running (the IRQ paths): QEMU restored at the
 * point their points are reached from runs with the recording plugin, as
 * the snapshot's IRQ points were taken (the tick at once from EL0, then
 * the first that finds the kernel running); the replays run on the
 * snapshot's clock. One QEMU run records every window from one base.
 */
static void windowed(struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
		     const struct hs_path_def *const *defs, int ndefs, struct hs_validation *out,
		     const char *base)
{
	struct hs_vm_windows w = { 0 };
	struct hs_path_run pr[4];
	int idx[4], m = 0;

	memset(pr, 0, sizeof(pr));
	for (int i = 0; i < ndefs && m < 4; i++) {
		const struct hs_boot_point *pt = defs[i]->boot.point;
		int k = pt ? hs_snap_find(&b->snap, pt->name) : -1;

		if (k < 0 || pt->record != HS_REC_PLUGIN || !pt->after || strcmp(pt->after, base) ||
		    defs[i]->boot.end_site || out[i].why[0])
			continue;
		if (replay(b, defs[i], 0, &pr[m], &out[i]))
			continue;
		w.at[m] = (qp->slots ? qp->slots : b->vbar) + a64_vector_offset(pt->from_el, A64_VEC_IRQ);
		w.max[m] = pr[m].tr.n + (qp->slots ? 1 : 0);
		idx[m++] = i;
	}
	if (!m)
		return;
	w.cpu = b->snap.h.cpu;
	w.dir = dir;
	w.point = base;
	w.patches = qp->v;
	w.npatches = qp->n;
	w.n = (unsigned)m;
	if (hs_vm_record_windows(&w)) {
		for (int j = 0; j < m; j++)
			snprintf(out[idx[j]].why, sizeof(out[idx[j]].why), "QEMU: %s", hs_errmsg());
	} else {
		for (int j = 0; j < m; j++)
			compare(&pr[j].tr, w.pcs[j], drop_slots(w.pcs[j], w.got[j], qp->slots), 0, 0,
				&out[idx[j]]);
	}
	hs_vm_windows_free(&w);
	for (int j = 0; j < m; j++)
		hs_trace_free(&pr[j].tr);
}

int hs_validate(const struct hs_patched *pt, const struct hs_path_def *const *defs, int ndefs,
		struct hs_validation *out)
{
	struct hs_boot_state b;
	struct hs_snap fresh = { 0 };
	char dir[600] = "", why[700] = "";
	int booted = 0;

	memset(out, 0, (size_t)ndefs * sizeof(*out));
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < ndefs; i++)
		out[i].def = defs[i];
	/* beside the snapshots, where a later run sweeps it if this one dies */
	hs_cache_dir(dir, sizeof(dir) - 60);
	mkdir(dir, 0755);
	strcat(dir, "/snapshots");
	mkdir(dir, 0755);
	snprintf(dir + strlen(dir), 40, "/validate-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(dir)) {
		snprintf(why, sizeof(why), "%s: %s", dir, strerror(errno));
		dir[0] = 0;
	} else if (hs_boot_state_init_keep(&b, pt, dir)) {
		snprintf(why, sizeof(why), "no booted state: %s", hs_errmsg());
	} else if (b.booted_now) {
		/* booted just now, machines kept: it is its own fresh boot */
		booted = 1;
	} else if (hs_vm_boot_keep(pt->img, pt->core->boot_cpu, &b.pts, dir, &fresh)) {
		snprintf(why, sizeof(why), "QEMU: %s", hs_errmsg());
	} else {
		booted = 1;
	}
	struct qpatches qp = { 0 };

	if (booted && qemu_patches(&b, &qp)) {
		snprintf(why, sizeof(why), "%s", hs_errmsg());
		booted = 0;
	}
	for (int i = 0; i < ndefs; i++) {
		const struct hs_boot_point *bp = defs[i]->boot.point;

		if (bp) {
			out[i].point = bp->name;
			out[i].how = bp->record == HS_REC_PLUGIN ? "plugin-recorded" : "single-stepped";
		}
		if (!bp)
			snprintf(out[i].why, sizeof(out[i].why), "this path has no booted form");
		else if (!booted)
			snprintf(out[i].why, sizeof(out[i].why), "%s", why);
		else if (!b.booted_now && !same_snapshot(&fresh, &b.snap, bp->name, out[i].why,
							 sizeof(out[i].why)))
			continue;
		else if (bp->record == HS_REC_STEPPED)
			stepped(&b, dir, &qp, defs[i], &out[i]);
	}
	/* the free-running recordings, one QEMU run per point they start from */
	for (int i = 0; booted && i < ndefs; i++) {
		const struct hs_boot_point *bp = defs[i]->boot.point;
		int first = 1;

		if (!bp || bp->record != HS_REC_PLUGIN || !bp->after)
			continue;
		for (int j = 0; j < i && first; j++)
			first = !(defs[j]->boot.point && defs[j]->boot.point->record == HS_REC_PLUGIN &&
				  defs[j]->boot.point->after && !strcmp(defs[j]->boot.point->after, bp->after));
		if (first)
			windowed(&b, dir, &qp, defs, ndefs, out, bp->after);
	}
	free(qp.v);
	if (fresh.pages)
		hs_snap_free(&fresh);
	if (dir[0] && strstr(dir, "validate-"))
		nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	hs_boot_state_free(&b);
	return 0;
}
