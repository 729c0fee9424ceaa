/*
 * test_diverge.c - different paths through unchanged code (sim/measure/
 * diverge.c) on real images. The per-function counts are set by hand, so
 * each expected result follows from the rule itself: a function is
 * unchanged when it has the same size and the same instructions but for
 * the fields that say where things are; an unchanged function whose counts
 * differ is reported, with the difference; with samples on both sides,
 * only when the per-op means differ significantly (Welch's t, 95%) by an
 * instruction or more.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/measure.h"
#include "testutil.h"

static struct ms_image base, other;
static struct ms_compare cmp;

static void side(struct ms_image *m, const char *kernel)
{
	memset(m, 0, sizeof(*m));
	m->img = hs_image_open(hs_kernel(kernel));
	cr_assert_not_null(m->img, "%s", hs_errmsg());
	m->nrows = 1;
	snprintf(m->rows[0].name, sizeof(m->rows[0].name), "p");
	m->rows[0].path = "p";
	m->rows[0].core = hs_core_find("a53");
	m->rows[0].ok = 1;
	m->rows[0].nsamples = 1;	/* one draw unless a test samples */
	m->rows[0].fns = calloc(4, sizeof(struct ms_fn_count));
	cr_assert_not_null(m->rows[0].fns);
}

/* row of m ran fn k times per op in its samples, per op counts c[0..k) -
 * the total and the sum of squares are what a profile keeps */
static void ran_samples(struct ms_image *m, const char *fn, const uint64_t *c, unsigned k)
{
	const struct hs_sym *s = hs_sym_exact(m->img, fn);
	struct ms_row *r = &m->rows[0];
	struct ms_fn_count f = { 0 };

	cr_assert_not_null(s, "%s", fn);
	f.addr = s->addr;
	f.size = s->size;
	for (unsigned i = 0; i < k; i++) {
		f.insns += c[i];
		f.ss += (double)c[i] * c[i];
	}
	r->nsamples = k;
	if (f.insns)
		r->fns[r->nfns++] = f;
}

/* row of m ran n instructions in function fn in its one draw (n 0: not at all) */
static void ran(struct ms_image *m, const char *fn, uint64_t n)
{
	ran_samples(m, fn, &n, 1);
}

static int diverged(double *insns, struct ms_diverged *v)
{
	static const int want[MS_NSTATES] = { [MS_TYPICAL] = 1 };

	ms_compare_build(&cmp, &base, &other, want);
	cr_assert_eq(cmp.npairs, 1);
	return ms_pair_diverged(&cmp, &cmp.pairs[0], v, 4, insns);
}

static void done(void)
{
	ms_free(&base);
	ms_free(&other);
}

/* The unrelated change moves the code behind it: a function sits at
 * another address with other branch and ADRP offsets, and still counts as
 * the same code (__enqueue_entity: its bytes differ, only where they point). */
Test(diverge, same_code_elsewhere_with_other_counts_is_reported, .fini = done)
{
	struct ms_diverged v[4];
	double insns;
	const struct hs_sym *a, *b;

	side(&base, "7.2-base");
	side(&other, "7.2-unrelated");
	a = hs_sym_exact(base.img, "__enqueue_entity");
	b = hs_sym_exact(other.img, "__enqueue_entity");
	cr_assert(a && b && a->size == b->size);
	cr_assert_neq(a->addr, b->addr, "the test needs the function moved");
	cr_assert_neq(memcmp(hs_at(base.img, base.img->mem, a->addr, a->size),
			     hs_at(other.img, other.img->mem, b->addr, b->size), a->size), 0,
		      "the test needs bytes that differ only where they point");
	ran(&base, "__enqueue_entity", 100);
	ran(&other, "__enqueue_entity", 90);
	ran(&base, "pick_eevdf", 40);	/* same count: not reported */
	ran(&other, "pick_eevdf", 40);
	ran(&other, "__update_load_avg_se", 30);	/* only on one side: 0 -> 30 */
	cr_assert_eq(diverged(&insns, v), 2);
	cr_assert_float_eq(insns, 10 + 30, 1e-9);
	cr_assert_str_eq(v[0].name, "__update_load_avg_se", "largest change first");
	cr_assert_float_eq(v[0].insns[0], 0, 1e-9);
	cr_assert_float_eq(v[0].insns[1], 30, 1e-9);
	cr_assert_str_eq(v[1].name, "__enqueue_entity");
	cr_assert_float_eq(v[1].insns[0], 100, 1e-9);
	cr_assert_float_eq(v[1].insns[1], 90, 1e-9);
	/* all three are the same code in both: the patch touched nothing the
	 * row ran, so a move of it is the state's (compare.c) */
	cr_assert_eq(ms_pair_touched(&cmp, &cmp.pairs[0]), 0);
}

/* A function the patch changed (inlining grows __schedule) is not
 * "unchanged", whatever its counts. */
Test(diverge, changed_code_is_not_reported, .fini = done)
{
	struct ms_diverged v[4];
	double insns;

	side(&base, "7.2-base");
	side(&other, "7.2-cswitch-inline");
	cr_assert_neq(hs_sym_exact(base.img, "__schedule")->size, hs_sym_exact(other.img, "__schedule")->size);
	ran(&base, "__schedule", 182);
	ran(&other, "__schedule", 216);
	cr_assert_eq(diverged(&insns, v), 0);
	cr_assert_float_eq(insns, 0, 1e-9);
	/* __schedule changed, once a side (its address in each image) */
	cr_assert_eq(ms_pair_touched(&cmp, &cmp.pairs[0]), 2);
	ran(&other, "pick_eevdf", 40);	/* unchanged, one side: not touched */
	diverged(&insns, v);
	cr_assert_eq(ms_pair_touched(&cmp, &cmp.pairs[0]), 2);
}

/* The same image on both sides: every function is the same code; equal
 * counts give nothing, one different count gives exactly it. */
Test(diverge, same_image, .fini = done)
{
	struct ms_diverged v[4];
	double insns;

	side(&base, "7.2-base");
	side(&other, "7.2-base");
	ran(&base, "update_curr", 49);
	ran(&other, "update_curr", 49);
	cr_assert_eq(diverged(&insns, v), 0);
	ran(&base, "pick_eevdf", 60);
	ran(&other, "pick_eevdf", 54);
	cr_assert_eq(diverged(&insns, v), 1);
	cr_assert_float_eq(insns, 6, 1e-9);
}

/*
 * Sampled: the two images' distributions are compared, not one draw
 * against another. Eight ops each. A function whose per-op counts scatter
 * (100 or 101 in base, 100 or 102 in patched: means 100.5 and 101, sd
 * about 0.53 and 1.07) moves by half an instruction - below the one
 * instruction the rule asks for, and not significant either (Welch: t =
 * 0.5 / sqrt(0.286/8 + 1.143/8) = 1.18, p ~ 0.27). One that runs 60 every
 * time in base and 54 every time in patched differs in every sample: zero
 * variance, an exact difference of 6 - reported.
 */
Test(diverge, samples_compared_as_distributions, .fini = done)
{
	static const uint64_t b1[8] = { 100, 101, 100, 101, 100, 101, 100, 101 };
	static const uint64_t p1[8] = { 100, 102, 100, 102, 100, 102, 100, 102 };
	static const uint64_t b2[8] = { 60, 60, 60, 60, 60, 60, 60, 60 };
	static const uint64_t p2[8] = { 54, 54, 54, 54, 54, 54, 54, 54 };
	struct ms_diverged v[4];
	double insns;

	side(&base, "7.2-base");
	side(&other, "7.2-base");
	ran_samples(&base, "update_curr", b1, 8);
	ran_samples(&other, "update_curr", p1, 8);
	cr_assert_eq(diverged(&insns, v), 0, "a scatter of half an instruction is not a different path");
	ran_samples(&base, "pick_eevdf", b2, 8);
	ran_samples(&other, "pick_eevdf", p2, 8);
	cr_assert_eq(diverged(&insns, v), 1);
	cr_assert_str_eq(v[0].name, "pick_eevdf");
	cr_assert_float_eq(v[0].insns[0], 60, 1e-9);
	cr_assert_float_eq(v[0].insns[1], 54, 1e-9);
}
