/*
 * test_mca.c - the llvm-mca cross-check (tests/mca_crosscheck.h) in
 * `make check`: every path on the base kernel, at most MAX_BLOCKS distinct
 * straight-line blocks per core, costed by hotsim and by Debian's llvm-mca
 * (each core's mca_cpu: cortex-a53, cortex-a55, cortex-a57 for A73; for the
 * opt-in cores cortex-a72, cortex-a76, neoverse-n1, which Debian's LLVM 14
 * all schedules with its Cortex-A57 model). About 4 s.
 *
 * What must hold (docs/llvm-mca-crosscheck.md explains the differences):
 *   - the cross-check runs: enough blocks, few refused by llvm-mca, a report;
 *   - where both models rest on the same facts - blocks of plain ALU ops
 *     (no hints, no flag consumers, no sp; mca_strict_alu()) - they agree
 *     within 10% per block (llvm-mca adds ~3 cycles of pipeline fill per
 *     100 iterations; A57's 3-wide dispatch vs A73's 2 shows on wide blocks);
 *     for the opt-in cores LLVM 14 has only that A57 model (3-wide, two
 *     integer pipes), so there hotsim - the A72's two pipes, the A76's and
 *     N1's three - is at most 10% above it: never slower than its narrower
 *     stand-in, and on the wider cores below it;
 *   - on every block with a DSB or an ISB hotsim is the higher one (LLVM
 *     charges a barrier one cycle; hotsim drains the pipe and charges its
 *     named, uncalibrated cost).
 */
#include <criterion/criterion.h>

#include "mca_crosscheck.h"
#include "testutil.h"

#define MAX_BLOCKS 400
#define ALU_TOL 0.10

static int mca_has_barrier(const struct mca_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		unsigned c = hs_trace_insn(b->tr, b->first + i)->cls;

		if (c == A64_C_DSB || c == A64_C_ISB)
			return 1;
	}
	return 0;
}

Test(mca, crosscheck, .timeout = 120)
{
	struct hs_image *img = hs_image_open(hs_kernel("7.2-base"));
	struct mca_core cores[MCA_MAX_CORES];
	const struct hs_core *list[MCA_MAX_CORES];
	int ncores = mca_cores(list);
	char tmp[] = "/tmp/hotsim-mca-XXXXXX.s", *rep = NULL;
	size_t replen = 0;
	FILE *f;
	int fd;

	cr_assert_not_null(img, "%s (make kernels)", hs_errmsg());
	cr_assert_eq(system("llvm-mca --version >/dev/null 2>&1"), 0, "llvm-mca missing (make deps)");
	fd = mkstemps(tmp, 2);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_gt(ncores, 0, "no core names an llvm-mca CPU");
	for (int k = 0; k < ncores; k++)
		cr_assert_eq(mca_core_run(&cores[k], img, list[k], NULL, MAX_BLOCKS, tmp), 0, "%s: %s",
			     list[k]->name, hs_errmsg());
	unlink(tmp);
	for (int k = 0; k < ncores; k++) {
		struct mca_core *c = &cores[k];
		struct mca_stats all = mca_stats(c, -1);
		unsigned strict = 0, barriers = 0;

		cr_expect_geq(all.n, 50u, "%s: only %zu blocks compared", c->name, all.n);
		cr_expect_leq(c->dropped * 10, c->nb, "%s: llvm-mca refused %u of %zu", c->name,
			      c->dropped, c->nb);
		for (size_t i = 0; i < c->nb; i++) {
			const struct mca_block *b = &c->b[i];
			char desc[512];
			FILE *m;

			if (b->ok != 1)
				continue;
			if (mca_has_barrier(b)) {
				barriers++;
				cr_expect_gt(b->hs, b->mca, "%s: barrier block at %llx: %.2f vs %.2f",
					     c->name, (unsigned long long)b->pc, b->hs / MCA_ITER,
					     b->mca / MCA_ITER);
			}
			if (!mca_strict_alu(b))
				continue;
			strict++;
			m = fmemopen(desc, sizeof(desc), "w");
			mca_block_desc(m, img, b, 6);
			fclose(m);
			cr_expect(list[k]->opt_in ? mca_diff(b) <= ALU_TOL : fabs(mca_diff(b)) <= ALU_TOL,
				  "%s: %s: hotsim %.2f vs llvm-mca %.2f", c->name, desc, b->hs / MCA_ITER,
				  b->mca / MCA_ITER);
		}
		cr_expect_geq(strict, 5u, "%s: only %u plain-ALU blocks", c->name, strict);
		cr_expect_geq(barriers, 2u, "%s: only %u blocks with a barrier", c->name, barriers);
	}
	f = open_memstream(&rep, &replen);
	mca_report(f, img, cores, ncores, 4);
	fclose(f);
	/* a row per core, named with its llvm-mca CPU */
	for (int k = 0; k < ncores; k++) {
		char row[64];

		snprintf(row, sizeof(row), "| %s (%s) |", list[k]->name, list[k]->mca_cpu);
		cr_expect(strstr(rep, row), "report has no row %s", row);
	}
	cr_expect(strstr(rep, "Largest differences"), "report incomplete");
	free(rep);
	for (int k = 0; k < ncores; k++)
		mca_free(&cores[k]);
	hs_image_close(img);
}
