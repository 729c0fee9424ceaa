/*
 * percpu.c - percpu: this_cpu_*() operations as this image compiles them.
 *  (a) per-op: for read, write, add, add_return, xchg and cmpxchg, one real
 *      site of the image (with its preempt_disable/enable wrapper where the
 *      config has one) is executed in the emulator, in task A's context;
 *      each is a segment of the trace;
 *  (b) census: every this_cpu site of the image, by kind and wrapper, so a
 *      series that changes every this_cpu op shows its whole-kernel effect
 *      (costed by the models site by site, see hs_census_* users).
 * A pinned run (hs_path_pins, compare's patched side) measures each kind in
 * the function the other image measured it in.
 * A site's window is straight-line code: its only branches are the preempt
 * check (not taken: no reschedule pending) and the LL/SC retry (not taken:
 * one CPU, no contention). So the window's records are written in execution
 * order from the patched text (hs_pcpu_site_trace) rather than emulated with
 * guessed live-in registers; data addresses are CPU 0's per-CPU slot and
 * task A's thread_info.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "paths/path_internal.h"

static const char *pinned_fn(const struct hs_path_pins *pins, const char *label)
{
	for (unsigned i = 0; pins && i < pins->n; i++)
		if (!strcmp(pins->v[i].label, label))
			return pins->v[i].fn;
	return NULL;
}

static int run_percpu(struct hs_path_ctx *c, const struct hs_path_def *d, struct hs_path_run *out)
{
	struct hs_pcpu_census *census = hs_calloc(1, sizeof(*census));
	uint64_t slot;
	char where[96];

	(void)d;
	if (!census)
		return -1;
	out->census = census;
	if (hs_pcpu_scan(c->img, c->pt->mem, census))
		return -1;
	if (!census->n)
		return hs_fail("%s: no this_cpu sites (no mrs tpidr_el1 in the text)", c->img->path);
	/* CPU 0's copy of a per-CPU slot in the dynamic area */
	slot = c->ks.pcpu_chunk + c->ks.pcpu_size;
	snprintf(out->entry_desc, sizeof(out->entry_desc), "%zu this_cpu sites; one per kind measured",
		 census->n);
	for (int k = 0; k < HS_PCPU_PTR; k++) {
		const char *pin = pinned_fn(c->pins, hs_pcpu_kind_names[k]);
		const struct hs_pcpu_site *s = pin ? hs_pcpu_in_function(c->img, census, k, pin) : NULL;
		const struct hs_sym *f;
		size_t begin = out->tr.n;

		if (pin && !s)
			hs_path_note(out, "this_cpu_%s: the other image's site in %s is gone here",
				     hs_pcpu_kind_names[k], pin);
		if (!s)
			s = hs_pcpu_pick(c->img, census, k, 1);
		if (!s) {
			hs_path_note(out, "this_cpu_%s: no site in this image", hs_pcpu_kind_names[k]);
			continue;
		}
		if (!out->entry)
			out->entry = s->pcs[0];
		if (hs_pcpu_site_trace(c->img, c->pt->mem, s, hs_rt_dcache(c->r), &out->tr, slot,
				       c->ks.task[0]))
			return -1;
		if (out->nsegs < HS_ARRAY_SIZE(out->segs)) {
			snprintf(out->segs[out->nsegs].label, sizeof(out->segs[0].label), "%s",
				 hs_pcpu_kind_names[k]);
			out->segs[out->nsegs].begin = begin;
			out->segs[out->nsegs].end = out->tr.n;
			out->segs[out->nsegs].site = s->op;
			out->segs[out->nsegs].wrapped = s->wrapped;
			f = hs_sym_at(c->img, s->op);
			snprintf(out->segs[out->nsegs].fn, sizeof(out->segs[0].fn), "%s", f ? f->name : "");
			out->segs[out->nsegs].fn[strcspn(out->segs[out->nsegs].fn, ".")] = 0;
			out->nsegs++;
		}
		hs_path_note(out, "this_cpu_%s: %s%s", hs_pcpu_kind_names[k],
			     hs_addr_fmt(c->img, s->op, where, sizeof(where)),
			     s->wrapped ? " (with preempt_disable/enable)" : "");
	}
	return 0;
}

const struct hs_path_def hs_path_percpu = {
	.name = "percpu",
	.summary = "this_cpu_*() ops: one real site per kind, plus a census of every site",
	.kind = HS_PATH_CUSTOM,
	.run = run_percpu,
};
