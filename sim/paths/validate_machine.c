/*
 * validate_machine.c - a machine of more than one CPU against QEMU (see
 * hs_validate): every CPU's stream of the replay (machine_run.c) against
 * the same CPU's in QEMU's, from the same point of the same boot.
 *
 * QEMU does not reproduce a boot of more than one CPU (docs/booted-state.md),
 * so the replay runs from the snapshot of validation's own boot - the one
 * whose machines QEMU restores - not from the cached one. QEMU runs free
 * with the recording plugin tagging each pc with its CPU; the replay
 * stops nowhere either (each CPU keeps its clock: the differences that
 * makes are what this finds).
 *
 * Without record mode (QEMU 7.2 refuses it for -smp), QEMU's own run from
 * a machine is not one stream but one of a few: its main loop moves an
 * idle machine's clock to the next timer deadline whenever the host wakes
 * it (qemu.c's header comment), so a loaded host can fire a timer a few
 * thousand instructions off, and every CPU's stream after it differs. The
 * replay is the run with no such host event; it is identical when one of
 * up to QEMU_RUNS runs of QEMU is (docs/booted-state.md: seen with a
 * test suite running beside it); the result says how many runs it took.
 * A wrong replay differs from every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/runner.h"
#include "paths/path_internal.h"
#include "paths/validate_internal.h"
#include "vm/vm.h"

#define MACHINE_OPS 48		/* operations validated a point */
#define TRACE_LIMIT 16000000
/* QEMU's runs from the machine at most: one of more than one CPU is not
 * recorded, and its clock moves with the host (the header comment) */
#define QEMU_RUNS 3

/* QEMU's stream from the point, CPU c's pcs in order, into q (n of them). */
static size_t qemu_cpu(const uint64_t *rec, size_t nrec, unsigned c, uint64_t *q)
{
	size_t n = 0;

	for (size_t i = 0; i < nrec; i++)
		if (HS_REC_CPU(rec[i]) == c)
			q[n++] = HS_REC_PC(rec[i]);
	return n;
}

/* Each CPU's replayed stream against QEMU's; the first that differs. */
static void compare_cpus(const struct hs_trace *tr, unsigned ncpus, const uint64_t *rec, size_t nrec,
			 struct hs_validation *v)
{
	uint64_t *q = malloc((nrec ? nrec : 1) * sizeof(*q));

	if (!q) {
		snprintf(v->why, sizeof(v->why), "out of memory");
		return;
	}
	v->ran = v->identical = 1;
	v->ncpus = ncpus;
	v->n = 0;
	for (unsigned c = 0; c < ncpus && v->identical; c++) {
		struct hs_validation one = { 0 };

		hs_validate_compare(&tr[c], q, qemu_cpu(rec, nrec, c, q), &one);
		v->n += one.n;
		if (!one.identical) {
			v->identical = 0;
			v->cpu = c;
			v->at = one.at;
			v->pc = one.pc;
			v->next_replay = one.next_replay;
			v->next_qemu = one.next_qemu;
		}
	}
	free(q);
}

static void validate_point(struct hs_boot_state *b, const char *dir, const struct qpatches *qp,
			   const struct hs_path_def *d, struct hs_validation *v)
{
	int k = hs_snap_find(&b->snap, d->boot.point->name);
	struct hs_trace tr[HS_SNAP_MAX_CPUS];
	struct hs_machine_run *mr = calloc(1, sizeof(*mr));
	struct hs_vm_recording w = { .pcs = NULL };
	size_t total = 0;

	memset(tr, 0, sizeof(tr));
	if (!mr || k < 0) {
		const char *skip = hs_snap_skipped(&b->snap, d->boot.point->name);

		if ((v->unrunnable = skip != NULL))
			snprintf(v->why, sizeof(v->why), HS_SNAP_SKIPPED "%.600s", skip);
		else
			snprintf(v->why, sizeof(v->why), "%s", !mr ? "out of memory" : "the point is not in the boot");
		goto out;
	}
	if (hs_boot_state_machine_trace(b, (unsigned)k, MACHINE_OPS, mr, tr, TRACE_LIMIT, NULL)) {
		snprintf(v->why, sizeof(v->why), "the replay failed: %s", hs_errmsg());
		goto out;
	}
	for (unsigned c = 0; c < mr->ncpus; c++)
		total += tr[c].n;
	v->nops = mr->nops;
	while (v->qemu_runs < QEMU_RUNS && !v->identical) {
		free(w.pcs);
		hs_validate_recording(b, dir, qp, d, &w);
		w.ncpus = mr->ncpus;
		/* QEMU's CPUs interleave otherwise at the end: room for each to finish */
		w.max = total + total / 4 + 64;
		if (hs_vm_record(&w)) {
			snprintf(v->why, sizeof(v->why), "QEMU: %s", hs_errmsg());
			v->ran = 0;
			goto out;
		}
		v->qemu_runs++;
		compare_cpus(tr, mr->ncpus, w.pcs, w.got, v);
	}
out:
	free(w.pcs);
	free(mr);
	for (unsigned c = 0; c < HS_SNAP_MAX_CPUS; c++)
		hs_trace_free(&tr[c]);
}

int hs_validate_machine(const struct hs_patched *pt, const struct hs_path_set *set, const char *dir,
			const struct hs_path_def *const *defs, int ndefs, struct hs_validation *out)
{
	struct hs_boot_state cached, b;
	struct hs_snap fresh = { 0 };
	struct qpatches qp = { 0 };
	char why[700] = "";
	int ok = 0;

	memset(&b, 0, sizeof(b));
	if (hs_boot_state_init(&cached, pt, set))
		snprintf(why, sizeof(why), "no booted state: %s", hs_errmsg());
	else if (hs_vm_boot_keep(pt->img, pt->core, &cached.pts, dir, &fresh))
		snprintf(why, sizeof(why), "QEMU: %s", hs_errmsg());
	else if (hs_boot_state_adopt(&b, pt, set, &fresh) || hs_validate_qpatches(&b, &qp))
		snprintf(why, sizeof(why), "QEMU's boot: %s", hs_errmsg());
	else
		ok = 1;
	for (int i = 0; i < ndefs; i++) {
		const struct hs_boot_point *bp = defs[i]->boot.point;

		out[i].point = bp ? bp->name : NULL;
		out[i].how = "plugin-recorded";
		if (!bp)
			snprintf(out[i].why, sizeof(out[i].why), "this path has no booted form");
		else if (!ok)
			snprintf(out[i].why, sizeof(out[i].why), "%s", why);
		else
			validate_point(&b, dir, &qp, defs[i], &out[i]);
	}
	free(qp.v);
	hs_boot_state_free(&b);
	hs_boot_state_free(&cached);
	return 0;
}
