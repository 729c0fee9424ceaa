/*
 * measure.c - image -> patched image -> path runs -> traces -> models ->
 * rows (see measure.h). Everything here is deterministic: rows come out in
 * core-major, path order, and no host address or time reaches them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/kstate.h"
#include "emu/runner.h"
#include "hotsim/measure.h"


int ms_parse_param(const char *arg, struct ms_param *p)
{
	const char *eq = strchr(arg, '='), *dot;
	char *end;
	size_t n;

	memset(p, 0, sizeof(*p));
	if (!eq || eq == arg)
		return hs_fail("--param expects core.name=value, got '%s'", arg);
	dot = memchr(arg, '.', (size_t)(eq - arg));
	if (dot) {
		n = (size_t)(dot - arg);
		if (n >= sizeof(p->core))
			return hs_fail("--param: bad core in '%s'", arg);
		memcpy(p->core, arg, n);
		arg = dot + 1;
	}
	n = (size_t)(eq - arg);
	if (n == 0 || n >= sizeof(p->name))
		return hs_fail("--param: bad name in '%s'", arg);
	memcpy(p->name, arg, n);
	p->value = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || p->value < 0)
		return hs_fail("--param: '%s' is not a non-negative number", eq + 1);
	return 0;
}

struct hs_model *ms_model(const struct ms_options *o, const char *core)
{
	struct hs_model *m = hs_model_new(core);

	if (!m)
		return NULL;
	for (int i = 0; i < o->nparams; i++) {
		const struct ms_param *p = &o->params[i];

		if (p->core[0] && strcmp(p->core, core))
			continue;
		if (hs_model_set_param(m, p->name, p->value)) {
			hs_model_free(m);
			return NULL;
		}
	}
	return m;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct instruction bytes a stream executes (its I-cache footprint). */
static uint64_t code_bytes(const struct hs_trace *t)
{
	uint64_t *pcs, n = 0;

	if (!t->n)
		return 0;
	pcs = malloc(t->n * sizeof(*pcs));
	if (!pcs)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		pcs[i] = t->v[i].pc;
	qsort(pcs, t->n, sizeof(*pcs), cmp_u64);
	for (size_t i = 0; i < t->n; i++)
		n += !i || pcs[i] != pcs[i - 1];
	free(pcs);
	return 4 * n;
}

/* The q-th of n quantiles of the distinct values of a field of a trace. */
static uint64_t quantile(const struct hs_trace *t, int data, int q, int n)
{
	uint64_t *v = malloc((t->n + 1) * sizeof(*v)), r = 0;
	size_t k = 0, d = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < t->n; i++)
		if (!data || t->v[i].addr)
			v[k++] = data ? t->v[i].addr & ~63ULL : t->v[i].pc;
	qsort(v, k, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < k; i++)
		if (!i || v[i] != v[i - 1])
			v[d++] = v[i];
	if (d)
		r = v[d * (size_t)q / (size_t)n];
	free(v);
	return r;
}

/*
 * The layout noise band: the same trace costed as if a change elsewhere in
 * the kernel had moved part of it. Layout k (1..noise) moves the code above
 * the k-th split of the path's own code (and the data above the k-th split
 * of its data) by a different multiple of 4 bytes up to 512: the cache sets
 * and predictor entries the two parts use shift against each other, the
 * instructions do not change.
 */
static int noise(struct hs_model *m, const struct ms_options *o, const struct hs_trace *t,
		 struct ms_row *row)
{
	int rc = 0;

	row->noise_lo[0] = row->noise_hi[0] = row->warm.cycles;
	row->noise_lo[1] = row->noise_hi[1] = row->cold.cycles;
	row->noise_n = o->noise ? o->noise + 1 : 0;
	for (int k = 1; k <= o->noise && !rc; k++) {
		struct hs_model_result r;
		uint64_t delta = 4ULL * (uint64_t)((k * 37) % 128 + 1);

		hs_model_set_layout_shift(m, quantile(t, 0, k, o->noise + 1), delta,
					  quantile(t, 1, k, o->noise + 1), delta);
		for (int cold = 0; cold < 2 && !rc; cold++) {
			if (!(cold ? o->want_cold : o->want_warm))
				continue;
			rc = cold ? hs_model_cold(m, t, &r, NULL) : hs_model_warm(m, t, MS_WARM_MAX, &r, NULL);
			if (!rc && r.cycles < row->noise_lo[cold])
				row->noise_lo[cold] = r.cycles;
			if (!rc && r.cycles > row->noise_hi[cold])
				row->noise_hi[cold] = r.cycles;
		}
	}
	hs_model_set_layout_shift(m, 0, 0, 0, 0);
	return rc;
}

static int cost(struct hs_model *m, const struct ms_options *o, const struct hs_trace *t,
		struct ms_row *row)
{
	row->insns = t->n;
	row->code_bytes = code_bytes(t);
	if (o->want_warm && hs_model_warm(m, t, MS_WARM_MAX, &row->warm, NULL))
		return -1;
	if (o->want_cold && hs_model_cold(m, t, &row->cold, NULL))
		return -1;
	if (noise(m, o, t, row))
		return -1;
	row->ok = 1;
	return 0;
}

static struct ms_row *new_row(struct ms_image *out, const char *name, const char *path,
			      const char *cpu)
{
	struct ms_row *r;

	if (out->nrows >= MS_MAX_ROWS) {
		hs_fail("too many result rows");
		return NULL;
	}
	r = &out->rows[out->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->path = path;
	r->cpu = cpu;
	return r;
}

/*
 * Sum the second copy of every site window of a census stream into a
 * result: cycles, stalls and uncalibrated cycles from the per-instruction
 * attribution (see census_row).
 */
static void sum_range(const struct hs_insn_cost *per, size_t b, size_t e, struct hs_model_result *out)
{
	for (size_t i = b; i < e; i++) {
		out->cycles += per[i].cycles;
		out->insns++;
		for (int st = 0; st < HS_NSTALLS; st++)
			out->stall[st] += per[i].stall[st];
		if (per[i].events & HS_EV_UNCALIBRATED)
			out->uncalibrated_cycles += per[i].cycles;
	}
}

static void zero_sums(const struct hs_model_result *all, struct hs_model_result *out)
{
	*out = *all;
	out->cycles = out->uncalibrated_cycles = 0;
	memset(out->stall, 0, sizeof(out->stall));
	out->insns = 0;
}

static void census_sum(const struct hs_insn_cost *per, const size_t *first, const size_t *len,
		       size_t nsites, const struct hs_model_result *all, struct hs_model_result *out)
{
	zero_sums(all, out);
	for (size_t k = 0; k < nsites; k++)
		sum_range(per, first[k] + len[k], first[k] + 2 * len[k], out);
}

/* Distinct instruction bytes of the records of one part. */
static uint64_t part_code_bytes(const struct hs_path_run *pr, unsigned p)
{
	struct hs_trace sub = pr->tr;
	uint64_t n = 0;

	sub.v = malloc((pr->tr.n + 1) * sizeof(*pr->tr.v));
	if (!sub.v)
		return 0;
	sub.n = 0;
	for (size_t i = 0; i < pr->tr.n; i++)
		if (pr->part_of[i] == p)
			sub.v[sub.n++] = pr->tr.v[i];
	n = code_bytes(&sub);
	free(sub.v);
	return n;
}

/*
 * A path whose run is split into sub-rows (the IRQ paths' .entry, .handler
 * ...): the whole run is costed once, and each part is the sum of its
 * instructions' attributed cycles, so the parts add up to the whole.
 */
static int cost_parts(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		      struct ms_row *whole, struct ms_image *out)
{
	size_t n = pr->tr.n ? pr->tr.n : 1;
	struct hs_insn_cost *pw = hs_calloc(n, sizeof(*pw)), *pc = hs_calloc(n, sizeof(*pc));
	int rc = 0;

	if (!pw || !pc)
		rc = -1;
	whole->insns = pr->tr.n;
	whole->code_bytes = code_bytes(&pr->tr);
	if (!rc && o->want_warm)
		rc = hs_model_warm(m, &pr->tr, MS_WARM_MAX, &whole->warm, pw);
	if (!rc && o->want_cold)
		rc = hs_model_cold(m, &pr->tr, &whole->cold, pc);
	if (!rc)
		rc = noise(m, o, &pr->tr, whole);
	whole->ok = !rc;
	for (unsigned p = 0; p < pr->nparts && !rc; p++) {
		struct ms_row *row;
		char name[40];

		snprintf(name, sizeof(name), "%s.%s", whole->path, pr->part_names[p]);
		if (!(row = new_row(out, name, whole->path, whole->cpu))) {
			rc = -1;
			break;
		}
		row->booted = whole->booted;
		memcpy(row->state, whole->state, sizeof(row->state));
		zero_sums(&whole->warm, &row->warm);
		zero_sums(&whole->cold, &row->cold);
		for (size_t i = 0; i < pr->tr.n; i++)
			if (pr->part_of[i] == p) {
				sum_range(pw, i, i + 1, &row->warm);
				sum_range(pc, i, i + 1, &row->cold);
				row->insns++;
			}
		row->code_bytes = part_code_bytes(pr, p);
		row->ok = 1;
	}
	free(pw);
	free(pc);
	return rc;
}

/*
 * Every this_cpu site of the image, costed so that a site's cost depends on
 * that site alone: each window appears twice in a row and only the second
 * copy is counted. Concatenating sites once would make each site's last
 * branch "jump" to whatever site follows, so inlining one function elsewhere
 * would change every site's neighbour and the census with it.
 */
static int census_row(struct hs_model *m, const struct ms_options *o, const struct hs_path_run *pr,
		      const struct hs_patched *pt, struct ms_row *row)
{
	const struct hs_pcpu_census *c = pr->census;
	size_t *first = hs_calloc(c->n ? c->n : 1, sizeof(*first));
	size_t *len = hs_calloc(c->n ? c->n : 1, sizeof(*len));
	struct hs_insn_cost *per = NULL;
	struct hs_model_result all;
	struct hs_trace t;
	size_t nsites = 0;
	int rc = 0;

	if (!first || !len) {
		free(first);
		free(len);
		return -1;
	}
	hs_trace_init(&t, hs_rt_dcache(pr->r), MS_TRACE_CAP);
	for (size_t i = 0; i < c->n && !rc; i++) {
		const struct hs_pcpu_site *s = &c->v[i];
		uint64_t slot = pr->ks->pcpu_chunk + pr->ks->pcpu_size;

		if (s->kind == HS_PCPU_PTR)
			continue;
		first[nsites] = t.n;
		len[nsites] = s->n;
		rc = hs_pcpu_site_trace(pt->img, pt->mem, s, hs_rt_dcache(pr->r), &t, slot, pr->ks->task[0]);
		if (!rc)
			rc = hs_pcpu_site_trace(pt->img, pt->mem, s, hs_rt_dcache(pr->r), &t, slot,
						pr->ks->task[0]);
		nsites++;
	}
	row->sites = (unsigned)nsites;
	if (!rc && !(per = hs_calloc(t.n ? t.n : 1, sizeof(*per))))
		rc = -1;
	if (!rc && o->want_warm && !(rc = hs_model_warm(m, &t, MS_WARM_MAX, &all, per)))
		census_sum(per, first, len, nsites, &all, &row->warm);
	if (!rc && o->want_cold && !(rc = hs_model_cold(m, &t, &all, per)))
		census_sum(per, first, len, nsites, &all, &row->cold);
	if (!rc) {
		struct hs_trace once = t;

		row->insns = o->want_warm ? row->warm.insns : row->cold.insns;
		once.n = t.n;
		row->code_bytes = code_bytes(&once);
		row->ok = 1;
	}
	free(per);
	free(first);
	free(len);
	hs_trace_free(&t);
	return rc;
}

/* The sites pin_from measured the segments of path d in, on cpu. */
static void pins_of(const struct ms_image *pin_from, const struct hs_path_def *d, const char *cpu,
		    struct hs_path_pins *pins)
{
	size_t l = strlen(d->name);

	memset(pins, 0, sizeof(*pins));
	for (int i = 0; pin_from && i < pin_from->nrows && pins->n < HS_ARRAY_SIZE(pins->v); i++) {
		const struct ms_row *r = &pin_from->rows[i];

		if (strcmp(r->cpu, cpu) || strncmp(r->name, d->name, l) || r->name[l] != '.' ||
		    !r->site_fn[0])
			continue;
		snprintf(pins->v[pins->n].label, sizeof(pins->v[0].label), "%s", r->name + l + 1);
		snprintf(pins->v[pins->n].fn, sizeof(pins->v[0].fn), "%s", r->site_fn);
		pins->n++;
	}
}

static int measure_path(struct hs_model *m, const struct ms_options *o, const struct hs_patched *pt,
			struct hs_session *ses, const struct hs_path_def *d,
			const struct ms_image *pin_from, struct ms_image *out)
{
	const char *cpu = pt->core->name;
	struct hs_path_pins pins;
	struct hs_path_run pr;
	struct ms_row *row;
	int rc = 0;

	pins_of(pin_from, d, cpu, &pins);
	struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP, .pins = pin_from ? &pins : NULL };

	if (hs_path_run(ses, d, &ro, &pr))
		return -1;
	if (!pr.ok) {
		if (!(row = new_row(out, d->name, d->name, cpu)))
			rc = -1;
		else {
			snprintf(row->why, sizeof(row->why), "%s", pr.why);
			snprintf(row->state, sizeof(row->state), "%s", pr.state);
		}
	} else if (pr.nparts && pr.part_of) {
		if (!(row = new_row(out, d->name, d->name, cpu)))
			rc = -1;
		else {
			row->booted = pr.booted;
			snprintf(row->state, sizeof(row->state), "%s", pr.state);
			rc = cost_parts(m, o, &pr, row, out);
			if (!rc)
				rc = ms_profile(pt->img, &pr.tr, row);	/* rows never move */
		}
	} else if (!pr.nsegs && !pr.census) {
		if (!(row = new_row(out, d->name, d->name, cpu)) || cost(m, o, &pr.tr, row) ||
		    ms_profile(pt->img, &pr.tr, row))
			rc = -1;
		else {
			row->booted = pr.booted;
			snprintf(row->state, sizeof(row->state), "%s", pr.state);
		}
	} else {
		for (unsigned s = 0; s < pr.nsegs && !rc; s++) {
			struct hs_trace seg = pr.tr;
			char name[40];

			snprintf(name, sizeof(name), "%s.%s", d->name, pr.segs[s].label);
			seg.v = pr.tr.v + pr.segs[s].begin;
			seg.n = pr.segs[s].end - pr.segs[s].begin;
			if (!(row = new_row(out, name, d->name, cpu)) || cost(m, o, &seg, row))
				rc = -1;
			else {
				snprintf(row->site_fn, sizeof(row->site_fn), "%s", pr.segs[s].fn);
				snprintf(row->state, sizeof(row->state), "%s", pr.state);
			}
		}
		if (!rc && pr.census) {
			char name[40];

			snprintf(name, sizeof(name), "%s.census", d->name);
			if (!(row = new_row(out, name, d->name, cpu)) || census_row(m, o, &pr, pt, row))
				rc = -1;
			else
				snprintf(row->state, sizeof(row->state), "%s", pr.state);
		}
	}
	hs_path_run_free(&pr);
	return rc;
}

int ms_measure(const char *path, const struct ms_options *o, struct ms_image *out)
{
	const struct ms_image *pin_from = o->pin_from;

	memset(out, 0, sizeof(*out));
	out->img = hs_image_open(path);
	if (!out->img)
		return -1;
	for (int c = 0; c < o->ncores; c++) {
		struct hs_patched *pt = hs_patch(out->img, o->cores[c]);
		struct hs_session *ses;
		struct hs_model *m;
		int rc = 0;

		if (!pt)
			return -1;
		m = ms_model(o, o->cores[c]->name);
		ses = m ? hs_session_new(pt, o->src) : NULL;
		if (!m || !ses) {
			hs_model_free(m);
			hs_patched_free(pt);
			return -1;
		}
		for (int k = 0; k < o->npaths && !rc; k++)
			rc = measure_path(m, o, pt, ses, o->paths[k], pin_from, out);
		/* rows without a band of their own (parts, census): their value */
		for (int i = 0; i < out->nrows; i++)
			if (!out->rows[i].noise_hi[0] && !out->rows[i].noise_hi[1]) {
				out->rows[i].noise_lo[0] = out->rows[i].noise_hi[0] = out->rows[i].warm.cycles;
				out->rows[i].noise_lo[1] = out->rows[i].noise_hi[1] = out->rows[i].cold.cycles;
			}
		hs_session_free(ses);
		hs_model_free(m);
		hs_patched_free(pt);
		if (rc)
			return -1;
	}
	return 0;
}

void ms_free(struct ms_image *m)
{
	for (int i = 0; i < m->nrows; i++) {
		free(m->rows[i].fns);
		m->rows[i].fns = NULL;
	}
	hs_image_close(m->img);
	m->img = NULL;
}

int ms_detail(const struct hs_image *img, const struct ms_options *o, const struct hs_core *core,
	      const struct hs_path_def *d, int warm, struct ms_detail *out)
{
	struct hs_model *m;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!(out->pt = hs_patch(img, core)))
		return -1;
	struct hs_run_opts ro = { .trace_limit = MS_TRACE_CAP };

	if (hs_path_run_alone(d, out->pt, o->src, &ro, &out->run))
		return -1;
	if (!out->run.ok)
		return hs_fail("%s on %s cannot run: %s", d->name, core->name, out->run.why);
	if (!(m = ms_model(o, core->name)))
		return -1;
	out->per = hs_calloc(out->run.tr.n ? out->run.tr.n : 1, sizeof(*out->per));
	if (!out->per) {
		hs_model_free(m);
		return -1;
	}
	rc = warm ? hs_model_warm(m, &out->run.tr, MS_WARM_MAX, &out->res, out->per)
		  : hs_model_cold(m, &out->run.tr, &out->res, out->per);
	hs_model_free(m);
	return rc;
}

void ms_detail_free(struct ms_detail *d)
{
	free(d->per);
	hs_path_run_free(&d->run);
	hs_patched_free(d->pt);
	memset(d, 0, sizeof(*d));
}
