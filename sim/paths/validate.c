/*
 * validate.c - the replay against QEMU (see paths.h, hs_validate). Only
 * the booted form of a path can be checked this way: QEMU runs from the
 * same snapshot point, free, stopped where the replay's stop sites are,
 * so any difference is hotsim's (its exception entry and return, timer
 * and interrupt timing, GIC, page mapping, overlay) or Unicorn's. Every
 * sampled operation is compared, warm-up included: the whole stream.
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
#include "paths/validate_internal.h"
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
	const char *sa = hs_snap_skipped(a, name), *sb = hs_snap_skipped(b, name);

	/* a point this kernel cannot run: skipped alike, for the same reason */
	if (ka < 0 && kb < 0 && sa && sb && !strcmp(sa, sb))
		return 1;
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

/* QEMU's copy of the overlay (validate_internal.h). */
int hs_validate_qpatches(const struct hs_boot_state *b, struct qpatches *q)
{
	/* the booted kernel's own vectors: boot sets VBAR_EL1 once per CPU,
	 * so every point has the same */
	uint64_t qv = b->snap.pts[0].regs.vbar;

	memset(q, 0, sizeof(*q));
	if (!(q->v = calloc(b->npatches + 1, sizeof(*q->v))))
		return hs_fail("out of memory");
	for (size_t i = 0; i < b->npatches; i++) {
		q->v[q->n] = b->patches[i];
		/* QEMU's virt has no EL3 to answer a firmware call: each smc #0 of
		 * the overlay - the vectors' Spectre-BHB WA3 call, and the WA1
		 * callback booted_overlay.c keeps as a patch of itself - runs as
		 * a NOP there (the replay answers it as TF-A would: emu/sysreg.c) */
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
		q->vbar = b->vbar;
		q->vbar_was = qv;
	}
	return 0;
}

void hs_validate_compare(const struct hs_trace *t, const uint64_t *q, size_t nq, struct hs_validation *v)
{
	size_t i;

	v->ran = 1;
	for (i = 0; i < t->n && i < nq; i++)
		if (hs_trace_pc(t, i) != q[i])
			break;
	v->n = i;
	if (i == t->n) {
		v->identical = 1;
		return;
	}
	v->at = i;
	v->pc = i ? hs_trace_pc(t, i - 1) : 0;
	v->next_replay = hs_trace_pc(t, i);
	v->next_qemu = i < nq ? q[i] : 0;
}

/* QEMU's streams one validation keeps: one per point and stop site, as
 * many as a snapshot has points */
#define HS_MAX_RECORDINGS HS_SNAP_MAX_POINTS

/* QEMU's stream from one point, as the replay of d runs it: the same
 * stop site (each stop is the tick the replay takes there). */
struct recorded {
	const char *point;
	uint64_t stop;
	uint64_t *pcs;
	size_t n;
};

void hs_validate_recording(const struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
			   const struct hs_path_def *d, struct hs_vm_recording *w)
{
	memset(w, 0, sizeof(*w));
	w->cpu = b->snap.h.cpu;
	w->dir = dir;
	w->point = d->boot.point->name;
	w->patches = qp->v;
	w->npatches = qp->n;
	w->vbar = qp->vbar;
	w->vbar_was = qp->vbar_was;
}

static int record(struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
		  const struct hs_path_def *d, size_t need, struct recorded *rec, struct hs_validation *v)
{
	struct hs_vm_recording w;

	hs_validate_recording(b, dir, qp, d, &w);
	w.stops[0] = hs_boot_warp_site(b, d);
	w.max = need + 64;
	if (hs_vm_record(&w)) {
		snprintf(v->why, sizeof(v->why), "QEMU: %s", hs_errmsg());
		return -1;
	}
	rec->point = d->boot.point->name;
	rec->stop = w.stops[0];
	rec->pcs = w.pcs;
	rec->n = w.got;
	return 0;
}

/*
 * One path: the replay of every operation it samples (the whole stream
 * from its point, warm-up included) against QEMU's stream from the same
 * point, recorded once per point and stop site and shared by the paths
 * that start there.
 */
static void validate_path(struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
			  const struct hs_path_def *d, struct recorded *recs, int *nrecs,
			  struct hs_validation *v)
{
	struct hs_path_run pr;
	struct recorded *rec = NULL;
	uint64_t stop = hs_boot_warp_site(b, d);

	memset(&pr, 0, sizeof(pr));
	pr.def = d;
	hs_trace_init(&pr.tr, hs_rt_dcache(b->r), 64000000);
	if (hs_path_booted_full(b, d, 0, &pr)) {
		snprintf(v->why, sizeof(v->why), "the replay failed: %s", hs_errmsg());
		goto out;
	}
	v->nops = pr.nops;
	for (int i = 0; i < *nrecs && !rec; i++)
		if (!strcmp(recs[i].point, d->boot.point->name) && recs[i].stop == stop &&
		    recs[i].n >= pr.tr.n)
			rec = &recs[i];
	if (!rec && *nrecs < HS_MAX_RECORDINGS) {
		rec = &recs[(*nrecs)++];
		memset(rec, 0, sizeof(*rec));
		if (record(b, dir, qp, d, pr.tr.n, rec, v)) {
			(*nrecs)--;
			goto out;
		}
	}
	if (rec)
		hs_validate_compare(&pr.tr, rec->pcs, rec->n, v);
out:
	free(pr.ops);
	free(pr.part_of);
	hs_trace_free(&pr.tr);
}

/*
 * QEMU's fresh boot, its machines kept in dir. The cached snapshot's boot
 * recorded, which keeps QEMU's clock warps from racing with its vCPU; a
 * boot that keeps machines cannot record (sim/vm/qemu.c), so on a loaded
 * host one may wake from an idle a few hundred instructions off. One that
 * does not reproduce the cached snapshot at every point is booted once
 * more before validation says so (the same comparison, of a second boot).
 */
static int fresh_boot(struct hs_boot_state *b, const struct hs_patched *pt, const char *dir,
		      struct hs_snap *fresh)
{
	char why[700];

	for (int tries = 0;; tries++) {
		int same = 1;

		if (hs_vm_boot_keep(pt->img, pt->core, &b->pts, dir, fresh))
			return -1;
		for (unsigned k = 0; k < b->pts.n && same; k++)
			same = same_snapshot(fresh, &b->snap, b->pts.v[k].name, why, sizeof(why));
		if (same || tries == 1)
			return 0;
		fprintf(stderr, "hotsim: %s; booting it once more\n", why);
		hs_snap_free(fresh);
	}
}

int hs_validate(const struct hs_patched *pt, const struct hs_path_set *set,
		const struct hs_path_def *const *defs, int ndefs, struct hs_validation *out)
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
	} else if (set->ncpus > 1) {
		/* every CPU, from validation's own boot (validate_machine.c) */
		hs_validate_machine(pt, set, dir, defs, ndefs, out);
		nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
		return 0;
	} else if (hs_boot_state_init(&b, pt, set)) {
		snprintf(why, sizeof(why), "no booted state: %s", hs_errmsg());
	} else if (fresh_boot(&b, pt, dir, &fresh)) {
		snprintf(why, sizeof(why), "QEMU: %s", hs_errmsg());
	} else {
		booted = 1;
	}
	struct qpatches qp = { 0 };

	if (booted && hs_validate_qpatches(&b, &qp)) {
		snprintf(why, sizeof(why), "%s", hs_errmsg());
		booted = 0;
	}
	struct recorded recs[HS_MAX_RECORDINGS];
	int nrecs = 0;

	for (int i = 0; i < ndefs; i++) {
		const struct hs_boot_point *bp = defs[i]->boot.point;

		if (bp) {
			out[i].point = bp->name;
			out[i].how = "plugin-recorded";
		}
		if (!bp)
			snprintf(out[i].why, sizeof(out[i].why), "this path has no booted form");
		else if (!booted)
			snprintf(out[i].why, sizeof(out[i].why), "%s", why);
		else if ((out[i].unrunnable = hs_snap_skipped(&b.snap, bp->name) != NULL))
			snprintf(out[i].why, sizeof(out[i].why), HS_SNAP_SKIPPED "%.600s",
				 hs_snap_skipped(&b.snap, bp->name));
		else if (!same_snapshot(&fresh, &b.snap, bp->name, out[i].why, sizeof(out[i].why)))
			continue;
		else
			validate_path(&b, dir, &qp, defs[i], recs, &nrecs, &out[i]);
	}
	for (int i = 0; i < nrecs; i++)
		free(recs[i].pcs);
	free(qp.v);
	if (fresh.pages)
		hs_snap_free(&fresh);
	if (dir[0] && strstr(dir, "validate-"))
		nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	hs_boot_state_free(&b);
	return 0;
}
