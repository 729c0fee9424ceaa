/*
 * test_diverge.c - different paths through unchanged code (sim/measure/
 * diverge.c) on real images. The per-function counts are set by hand, so
 * each expected result follows from the rule itself: a function is
 * unchanged when it has the same size and the same instructions but for
 * the fields that say where things are; an unchanged function whose counts
 * differ is reported, with the difference.
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
	m->rows[0].cpu = "a53";
	m->rows[0].ok = 1;
	m->rows[0].fns = calloc(4, sizeof(struct ms_fn_count));
	cr_assert_not_null(m->rows[0].fns);
}

/* row of m ran n instructions in function fn (n 0: not at all) */
static void ran(struct ms_image *m, const char *fn, uint64_t n)
{
	const struct hs_sym *s = hs_sym_exact(m->img, fn);
	struct ms_row *r = &m->rows[0];

	cr_assert_not_null(s, "%s", fn);
	if (n)
		r->fns[r->nfns++] = (struct ms_fn_count){ s->addr, s->size, n };
}

static int diverged(uint64_t *insns, struct ms_diverged *v)
{
	ms_compare_build(&cmp, &base, &other, 1, 0);
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
	uint64_t insns;
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
	cr_assert_eq(insns, 10 + 30);
	cr_assert_str_eq(v[0].name, "__update_load_avg_se", "largest change first");
	cr_assert_eq(v[0].insns[0], 0);
	cr_assert_eq(v[0].insns[1], 30);
	cr_assert_str_eq(v[1].name, "__enqueue_entity");
	cr_assert_eq(v[1].insns[0], 100);
	cr_assert_eq(v[1].insns[1], 90);
}

/* A function the patch changed (inlining grows __schedule) is not
 * "unchanged", whatever its counts. */
Test(diverge, changed_code_is_not_reported, .fini = done)
{
	struct ms_diverged v[4];
	uint64_t insns;

	side(&base, "7.2-base");
	side(&other, "7.2-cswitch-inline");
	cr_assert_neq(hs_sym_exact(base.img, "__schedule")->size, hs_sym_exact(other.img, "__schedule")->size);
	ran(&base, "__schedule", 182);
	ran(&other, "__schedule", 216);
	cr_assert_eq(diverged(&insns, v), 0);
	cr_assert_eq(insns, 0);
}

/* The same image on both sides: every function is the same code; equal
 * counts give nothing, one different count gives exactly it. */
Test(diverge, same_image, .fini = done)
{
	struct ms_diverged v[4];
	uint64_t insns;

	side(&base, "7.2-base");
	side(&other, "7.2-base");
	ran(&base, "update_curr", 49);
	ran(&other, "update_curr", 49);
	cr_assert_eq(diverged(&insns, v), 0);
	ran(&base, "pick_eevdf", 60);
	ran(&other, "pick_eevdf", 54);
	cr_assert_eq(diverged(&insns, v), 1);
	cr_assert_eq(insns, 6);
}
