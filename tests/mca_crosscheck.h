/*
 * mca_crosscheck.h - hotsim's cost models against Debian's llvm-mca on the
 * straight-line blocks of real kernel paths. Shared by tests/mca_main.c
 * (the full report, scripts/mca-crosscheck.sh) and tests/test_mca.c (a
 * bounded run in `make check`); header-only because the root Makefile
 * builds only tests/test_*.c.
 *
 * A block is a maximal run of sequential records of a path trace that are
 * not control flow; the branch that ends it is left out on both sides
 * (llvm-mca does not model branches, and hotsim's cost of a branch is its
 * prediction, not its issue slot). Each distinct block (start pc, length) is
 * costed once per core that names an LLVM model (hs_core.mca_cpu):
 *   llvm-mca  -mcpu=<the core's mca_cpu> (cortex-a57 for the A73: LLVM's
 *             model for -mcpu=cortex-a73), -iterations=100, "Total Cycles";
 *   hotsim    the block's records (with their real data addresses)
 *             repeated 100 times as one trace, warm: cycles.
 * Instruction text comes from a64_disasm(), with three substitutions that
 * do not change what LLVM schedules: PAC/BTI hints become nop (they are NOPs
 * on these v8.0/v8.2 cores, and LLVM 14 has no scheduling data for them),
 * system registers are written S<op0>_<op1>_C<n>_C<m>_<op2>, and
 * pc-relative operands (adr, adrp, literal loads) become #0. Blocks with
 * LSE atomics (no LLVM scheduling data) or unclassified words are skipped.
 */
#ifndef HOTSIM_MCA_CROSSCHECK_H
#define HOTSIM_MCA_CROSSCHECK_H

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "hotsim/measure.h"
#include "hotsim/model.h"
#include "hotsim/patch.h"
#include "hotsim/paths.h"

#define MCA_ITER 100
#define MCA_MAX_BLOCKS 2048
#define MCA_MAX_LEN 64		/* instructions per block kept */
#define MCA_MAX_CORES 8

/* The registry's cores that name an llvm-mca CPU, in report order. */
static inline int mca_cores(const struct hs_core **out)
{
	int n = 0;

	for (int i = 0; hs_cores[i] && n < MCA_MAX_CORES; i++)
		if (hs_cores[i]->mca_cpu)
			out[n++] = hs_cores[i];
	return n;
}

enum { MCA_ALU, MCA_MEM, MCA_SYS };	/* pure ALU / has memory ops / has system ops */
static const char *const mca_kind_name[] = { "pure ALU", "memory", "system/barrier" };

struct mca_block {
	const struct hs_trace *tr;	/* the path trace it comes from */
	size_t first, n;		/* records tr->v[first .. first + n) */
	uint64_t pc;
	int kind;
	const char *path;
	unsigned line0, line1;		/* lines of it in the llvm-mca input */
	double hs, mca;			/* cycles for MCA_ITER iterations */
	double rthru;			/* llvm-mca "Block RThroughput" */
	int ok;
};

struct mca_core {
	const char *name;		/* hotsim core: a53, a55, a73 */
	const char *cpu;		/* its llvm-mca -mcpu */
	struct ms_detail runs[8];	/* the library's pipeline: patch, state, run, cost */
	unsigned nruns;
	struct mca_block *b;
	size_t nb;
	unsigned dropped;		/* blocks llvm-mca refused */
};

static inline int mca_cls_alu(unsigned c)
{
	return c == A64_C_ALU || c == A64_C_ALU_SHIFT || c == A64_C_BITFIELD || c == A64_C_SHIFT_REG ||
	       c == A64_C_NOP || c == A64_C_BTI || c == A64_C_PAC;
}

static inline int mca_cls_sys(unsigned c)
{
	return (c >= A64_C_DMB && c <= A64_C_SYS) || c == A64_C_LOAD_EX || c == A64_C_STORE_EX;
}

/* The llvm-mca text of one instruction; 0 when it cannot be given. */
static inline int mca_text(const struct a64_insn *in, uint64_t pc, char *buf, size_t len)
{
	uint32_t w = in->word;
	unsigned sr = in->sysreg;
	char t[96], *sp;

	switch (in->cls) {
	case A64_C_NOP: case A64_C_BTI: case A64_C_PAC: case A64_C_WFX:
		snprintf(buf, len, "nop");
		return 1;
	case A64_C_MRS: case A64_C_MSR:
		snprintf(t, sizeof(t), "S%u_%u_C%u_C%u_%u", sr >> 14, (sr >> 11) & 7, (sr >> 7) & 15,
			 (sr >> 3) & 15, sr & 7);
		if (in->cls == A64_C_MRS)
			snprintf(buf, len, "mrs x%u, %s", w & 31, t);
		else if ((w & 31) == 31)
			snprintf(buf, len, "msr %s, xzr", t);
		else
			snprintf(buf, len, "msr %s, x%u", t, w & 31);
		return 1;
	case A64_C_UNKNOWN: case A64_C_ATOMIC: case A64_C_EXC:
		return 0;
	default:
		break;
	}
	if ((w & 0x1f000000u) == 0x10000000u) {		/* adr / adrp */
		snprintf(buf, len, "%s x%u, #0", (w >> 31) ? "adrp" : "adr", w & 31);
		return 1;
	}
	a64_disasm(w, pc, t, sizeof(t));
	if (!t[0] || strstr(t, "unknown") || strstr(t, ".inst") || strstr(t, ".word"))
		return 0;
	if ((in->flags & A64_F_LITERAL) && (sp = strchr(t, '#')) != NULL)
		snprintf(sp, sizeof(t) - (size_t)(sp - t), "#0");	/* literal load */
	snprintf(buf, len, "%s", t);
	return 1;
}

/* Add the distinct straight-line blocks of trace t (of path `path`). */
static inline void mca_collect(struct mca_core *c, const struct hs_trace *t, const char *path,
			       size_t max)
{
	size_t i = 0;

	while (i < t->n && c->nb < max) {
		size_t j = i, k;
		int kind = MCA_ALU, usable = 1;
		char buf[128];

		/* extend while sequential and not control flow */
		while (j < t->n && !a64_is_branch(hs_trace_insn(t, j)->cls) &&
		       (j == i || hs_trace_pc(t, j) == hs_trace_pc(t, j - 1) + 4) && j - i < MCA_MAX_LEN)
			j++;
		for (k = i; k < j; k++) {
			const struct a64_insn *in = hs_trace_insn(t, k);

			if (!mca_text(in, hs_trace_pc(t, k), buf, sizeof(buf)))
				usable = 0;
			if (mca_cls_sys(in->cls))
				kind = MCA_SYS;
			else if (kind == MCA_ALU && !mca_cls_alu(in->cls))
				kind = MCA_MEM;
		}
		if (usable && j - i >= 2) {
			int dup = 0;

			for (k = 0; k < c->nb && !dup; k++)
				dup = c->b[k].pc == hs_trace_pc(t, i) && c->b[k].n == j - i;
			if (!dup) {
				struct mca_block *b = &c->b[c->nb++];

				memset(b, 0, sizeof(*b));
				b->tr = t;
				b->first = i;
				b->n = j - i;
				b->pc = hs_trace_pc(t, i);
				b->kind = kind;
				b->path = path;
			}
		}
		i = j > i ? j : i + 1;
		while (i < t->n && a64_is_branch(hs_trace_insn(t, i)->cls))
			i++;
	}
}

/* hotsim: the block repeated MCA_ITER times, warm. */
static inline int mca_hotsim(struct hs_model *m, struct mca_block *b, struct hs_tinsn *buf)
{
	struct hs_trace t;
	struct hs_model_result r;

	memset(&t, 0, sizeof(t));
	t.dc = b->tr->dc;
	t.v = buf;
	t.n = t.cap = b->n * MCA_ITER;
	for (size_t k = 0; k < MCA_ITER; k++)
		for (size_t i = 0; i < b->n; i++) {
			buf[k * b->n + i] = b->tr->v[b->first + i];
			buf[k * b->n + i].flags = 0;	/* the code alone */
		}
	if (hs_model_warm(m, &t, 8, &r, NULL))
		return -1;
	b->hs = (double)r.cycles;
	return 0;
}

/* Write blocks [from, to) not yet refused as llvm-mca code regions. */
static inline int mca_write(struct mca_core *c, size_t from, size_t to, const char *file)
{
	FILE *f = fopen(file, "w");
	unsigned line = 1;
	char buf[128];

	if (!f)
		return hs_fail("%s: cannot write", file);
	for (size_t k = from; k < to; k++) {
		struct mca_block *b = &c->b[k];

		if (b->ok < 0)
			continue;
		fprintf(f, "# LLVM-MCA-BEGIN b%zu\n", k);
		b->line0 = ++line - 1;
		for (size_t i = 0; i < b->n; i++) {
			mca_text(hs_trace_insn(b->tr, b->first + i), hs_trace_pc(b->tr, b->first + i), buf,
				 sizeof(buf));
			fprintf(f, "%s\n", buf);
			line++;
		}
		b->line1 = line - 1;
		fprintf(f, "# LLVM-MCA-END\n");
		line++;
	}
	fclose(f);
	return 0;
}

/*
 * Run llvm-mca on blocks [from, to) for cpu. A block llvm-mca refuses (a
 * parse error names its line; an unsupported instruction does not, then
 * the range is split in halves) is marked ok = -1 and left out.
 */
static inline int mca_llvm(struct mca_core *c, const char *cpu, size_t from, size_t to,
			   const char *tmp, int depth)
{
	char cmd[512], line[512];
	FILE *p;
	long region = -1, errline = -1;
	int unsupported = 0, any = 0;

	for (size_t k = from; k < to; k++)
		any |= c->b[k].ok >= 0;
	if (!any)
		return 0;
	if (mca_write(c, from, to, tmp))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "llvm-mca -mtriple=aarch64 -mcpu=%s -mattr=+v8.5a,+rcpc -iterations=%d "
		 "-all-views=false -summary-view %s 2>&1", cpu, MCA_ITER, tmp);
	p = popen(cmd, "r");
	if (!p)
		return hs_fail("cannot run llvm-mca");
	while (fgets(line, sizeof(line), p)) {
		const char *s;

		if ((s = strstr(line, "Code Region - b")) != NULL)
			region = strtol(s + 15, NULL, 10);
		else if (!strncmp(line, "Total Cycles:", 13) && region >= (long)from && region < (long)to) {
			c->b[region].mca = strtod(line + 13, NULL);
			c->b[region].ok = 1;
		} else if (!strncmp(line, "Block RThroughput:", 18) && region >= (long)from &&
			   region < (long)to) {
			c->b[region].rthru = strtod(line + 18, NULL);
		} else if ((s = strstr(line, ": error:")) != NULL && errline < 0) {
			const char *q = s;

			/* "<file>:LINE:COL: error: ..." */
			while (q > line && q[-1] != ':')
				q--;
			while (q > line && isdigit((unsigned char)q[-1]))
				q--;
			if (q > line && q[-1] == ':' && isdigit((unsigned char)*q)) {
				const char *l = q - 1;

				while (l > line && isdigit((unsigned char)l[-1]))
					l--;
				errline = strtol(l, NULL, 10);
			}
		} else if (strstr(line, "unsupported instruction")) {
			unsupported = 1;
		}
	}
	if (pclose(p) == 0)
		return 0;
	if (depth > 24)
		return hs_fail("llvm-mca keeps failing (%s)", cpu);
	for (size_t k = from; k < to; k++)
		if (c->b[k].ok == 1)
			c->b[k].ok = 0;		/* none of this run's numbers count */
	if (errline > 0 && !unsupported) {
		for (size_t k = from; k < to; k++)
			if (c->b[k].ok >= 0 && (unsigned)errline >= c->b[k].line0 &&
			    (unsigned)errline <= c->b[k].line1) {
				c->b[k].ok = -1;
				c->dropped++;
				return mca_llvm(c, cpu, from, to, tmp, depth + 1);
			}
	}
	if (to - from == 1) {
		c->b[from].ok = -1;
		c->dropped++;
		return 0;
	}
	if (mca_llvm(c, cpu, from, from + (to - from) / 2, tmp, depth + 1))
		return -1;
	return mca_llvm(c, cpu, from + (to - from) / 2, to, tmp, depth + 1);
}

/*
 * Everything for one core: patch the image, run the paths (all of them, or
 * the NULL-terminated `paths`), collect up to max_blocks blocks, cost them
 * both ways. -1 (hs_errmsg) on a failure; the caller frees with mca_free().
 */
static inline int mca_core_run(struct mca_core *c, const struct hs_image *img,
			       const struct hs_core *core, const char *const *paths, size_t max_blocks,
			       const char *tmp)
{
	struct hs_model *m;
	struct hs_tinsn *buf;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->name = core->name;
	c->cpu = core->mca_cpu;
	c->b = calloc(MCA_MAX_BLOCKS, sizeof(*c->b));
	if (!c->b)
		return -1;
	if (max_blocks > MCA_MAX_BLOCKS)
		max_blocks = MCA_MAX_BLOCKS;
	for (int i = 0; hs_paths[i] && c->nruns < 8; i++) {
		const struct hs_path_def *d = hs_paths[i];
		/* the synthesized paths: the crosscheck's blocks and tolerances
		 * were chosen on them (docs/llvm-mca-crosscheck.md) */
		struct ms_options o = { .want[MS_WARM] = 1, .src = HS_SRC_SYNTH };
		int want = !paths;

		for (int k = 0; paths && paths[k]; k++)
			want |= !strcmp(paths[k], d->name);
		if (!want)
			continue;
		/* a path that cannot run (no such code in this image) is skipped */
		if (ms_detail(img, &o, core, d, MS_WARM, &c->runs[c->nruns]) == 0)
			mca_collect(c, &c->runs[c->nruns].run.tr, d->name, max_blocks);
		c->nruns++;
	}
	m = hs_model_new(core);
	buf = malloc(MCA_MAX_LEN * MCA_ITER * sizeof(*buf));
	if (!m || !buf) {
		hs_model_free(m);
		free(buf);
		return -1;
	}
	for (size_t k = 0; k < c->nb && !rc; k++)
		rc = mca_hotsim(m, &c->b[k], buf);
	hs_model_free(m);
	free(buf);
	if (!rc)
		rc = mca_llvm(c, c->cpu, 0, c->nb, tmp, 0);
	return rc;
}

static inline void mca_free(struct mca_core *c)
{
	for (unsigned i = 0; i < c->nruns; i++)
		ms_detail_free(&c->runs[i]);
	free(c->b);
	memset(c, 0, sizeof(*c));
}

/*
 * A block both models describe with the same published facts: plain ALU
 * operations only - no hint (LLVM 14 issues NOP/hints on the branch unit,
 * one per cycle; IB measures 1.99 per cycle), no flag consumer (LLVM's
 * flags latency is the ALU's 3; IB: ccmp, adds -> b.eq 1), no sp operand
 * (LLVM takes the extended-register form's latency for `add sp, ...`).
 */
static inline int mca_strict_alu(const struct mca_block *b)
{
	if (b->kind != MCA_ALU)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct a64_insn *in = hs_trace_insn(b->tr, b->first + i);

		if (in->cls != A64_C_ALU && in->cls != A64_C_ALU_SHIFT && in->cls != A64_C_BITFIELD &&
		    in->cls != A64_C_SHIFT_REG)
			return 0;
		for (unsigned k = 0; k < in->nsrc; k++)
			if (in->src[k] == A64_R_NZCV || in->src[k] == A64_R_SP)
				return 0;
		for (unsigned k = 0; k < in->ndst; k++)
			if (in->dst[k] == A64_R_SP)
				return 0;
	}
	return 1;
}

/* --- statistics and the report ---------------------------------------------------- */

/* relative difference hotsim vs llvm-mca */
static inline double mca_diff(const struct mca_block *b)
{
	return b->hs / b->mca - 1.0;
}

static inline int mca_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct mca_stats {
	size_t n;
	double q1, median, q3, min, max, within10;
};

/* Over the compared blocks of kind (-1: all). */
static inline struct mca_stats mca_stats(const struct mca_core *c, int kind)
{
	struct mca_stats s;
	double *d = malloc((c->nb ? c->nb : 1) * sizeof(*d));
	size_t n = 0, w = 0;

	memset(&s, 0, sizeof(s));
	if (!d)
		return s;
	for (size_t k = 0; k < c->nb; k++)
		if (c->b[k].ok == 1 && c->b[k].mca > 0 && (kind < 0 || c->b[k].kind == kind)) {
			d[n++] = mca_diff(&c->b[k]);
			w += d[n - 1] >= -0.10 && d[n - 1] <= 0.10;
		}
	if (n) {
		qsort(d, n, sizeof(*d), mca_cmp_double);
		s.n = n;
		s.min = d[0];
		s.max = d[n - 1];
		s.q1 = d[n / 4];
		s.median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
		s.q3 = d[(3 * n) / 4];
		s.within10 = (double)w / (double)n;
	}
	free(d);
	return s;
}

static inline void mca_block_desc(FILE *f, const struct hs_image *img, const struct mca_block *b,
				  unsigned max_insns)
{
	char at[128], t[128];

	hs_addr_fmt(img, b->pc, at, sizeof(at));
	fprintf(f, "%s (%s, %zu insns): ", at, b->path, b->n);
	for (size_t i = 0; i < b->n && i < max_insns; i++) {
		mca_text(hs_trace_insn(b->tr, b->first + i), hs_trace_pc(b->tr, b->first + i), t, sizeof(t));
		fprintf(f, "%s%s", i ? "; " : "", t);
	}
	fprintf(f, "%s", b->n > max_insns ? "; ..." : "");
}

/* Markdown: per core, the distribution overall and by kind, and the worst
 * blocks (bounded: `worst` per core). */
static inline void mca_report(FILE *f, const struct hs_image *img, struct mca_core *cores,
			      int ncores, unsigned worst)
{
	fprintf(f, "| core (llvm-mca cpu) | blocks | refused | median | Q1 | Q3 | min | max | within 10%% |\n");
	fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
	for (int c = 0; c < ncores; c++) {
		struct mca_stats s = mca_stats(&cores[c], -1);

		fprintf(f, "| %s (%s) | %zu | %u | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %.0f%% |\n",
			cores[c].name, cores[c].cpu, s.n, cores[c].dropped, 100 * s.median, 100 * s.q1,
			100 * s.q3, 100 * s.min, 100 * s.max, 100 * s.within10);
	}
	fprintf(f, "\nBy kind (median, Q1..Q3, blocks):\n\n| core | pure ALU | memory | system/barrier |\n|---|---|---|---|\n");
	for (int c = 0; c < ncores; c++) {
		fprintf(f, "| %s", cores[c].name);
		for (int k = 0; k < 3; k++) {
			struct mca_stats s = mca_stats(&cores[c], k);

			fprintf(f, " | %+.1f%% (%+.1f..%+.1f%%, %zu)", 100 * s.median, 100 * s.q1, 100 * s.q3, s.n);
		}
		fprintf(f, " |\n");
	}
	for (int c = 0; c < ncores; c++) {
		struct mca_core *co = &cores[c];
		size_t *idx = calloc(co->nb ? co->nb : 1, sizeof(*idx)), n = 0;

		if (!idx)
			return;
		for (size_t k = 0; k < co->nb; k++)
			if (co->b[k].ok == 1 && co->b[k].mca > 0)
				idx[n++] = k;
		/* selection by |difference|, bounded */
		fprintf(f, "\nLargest differences, %s (hotsim vs llvm-mca cycles per iteration):\n\n", co->name);
		for (unsigned w = 0; w < worst && w < n; w++) {
			size_t best = w;

			for (size_t k = w + 1; k < n; k++)
				if (fabs(mca_diff(&co->b[idx[k]])) > fabs(mca_diff(&co->b[idx[best]])))
					best = k;
			size_t sw = idx[w];
			const struct mca_block *b;

			idx[w] = idx[best];
			idx[best] = sw;
			b = &co->b[idx[w]];
			fprintf(f, "- %+.0f%% (%.2f vs %.2f, RThroughput %.2f, %s): ", 100 * mca_diff(b),
				b->hs / MCA_ITER, b->mca / MCA_ITER, b->rthru, mca_kind_name[b->kind]);
			mca_block_desc(f, img, b, 8);
			fprintf(f, "\n");
		}
		free(idx);
	}
}

#endif
