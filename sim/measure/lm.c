/*
 * lm.c - bounded Levenberg-Marquardt for the fit's few parameters
 * (measure_internal.h, ms_lm): minimise the sum of squares of a residual
 * vector over at most MS_MAX_KNOBS parameters kept within bounds, with a
 * forward-difference Jacobian; at the minimum, the Gauss-Newton covariance
 * of the parameters (the residual variance times (J'J)^-1). Small dense
 * linear algebra by Gaussian elimination: the systems are at most 8 x 8.
 */
#include <math.h>
#include <string.h>

#include "hotsim/err.h"
#include "measure_internal.h"

#define MAX_ITER 40
#define STEP 0.08		/* the Jacobian's step */
#define TINY 1e-12

static double sumsq(const double *r, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += r[i] * r[i];
	return s;
}

/* Solve a x = b (n x n, a and b destroyed) by elimination with partial
 * pivoting; -1 when a is singular. */
static int solve(int n, double a[][MS_MAX_KNOBS], double *b, double *x)
{
	for (int c = 0; c < n; c++) {
		double t;
		int p = c;

		for (int r = c + 1; r < n; r++)
			if (fabs(a[r][c]) > fabs(a[p][c]))
				p = r;
		if (fabs(a[p][c]) < TINY)
			return -1;
		for (int k = 0; k < n; k++) {
			t = a[c][k];
			a[c][k] = a[p][k];
			a[p][k] = t;
		}
		t = b[c];
		b[c] = b[p];
		b[p] = t;
		for (int r = c + 1; r < n; r++) {
			double f = a[r][c] / a[c][c];

			for (int k = c; k < n; k++)
				a[r][k] -= f * a[c][k];
			b[r] -= f * b[c];
		}
	}
	for (int r = n - 1; r >= 0; r--) {
		x[r] = b[r];
		for (int k = r + 1; k < n; k++)
			x[r] -= a[r][k] * x[k];
		x[r] /= a[r][r];
	}
	return 0;
}

/* J (m x n) at x, whose residuals are r0. */
static int jacobian(void *ctx, ms_resid_fn fn, struct ms_lm *s, const double *r0, int m,
		    double jac[][MS_MAX_KNOBS])
{
	double r[MS_MAX_CELLS], x[MS_MAX_KNOBS];
	int nr;

	for (int j = 0; j < s->n; j++) {
		double h = s->x[j] + STEP <= s->hi[j] ? STEP : -STEP;

		memcpy(x, s->x, sizeof(x));
		x[j] += h;
		if (fn(ctx, x, r, &nr))
			return -1;
		if (nr != m)
			return hs_fail("the fit's residuals changed in number");
		for (int i = 0; i < m; i++)
			jac[i][j] = (r[i] - r0[i]) / h;
	}
	return 0;
}

/* J'J and J'r. */
static void normal(const struct ms_lm *s, double jac[][MS_MAX_KNOBS], const double *r, int m,
		   double a[][MS_MAX_KNOBS], double *g)
{
	for (int j = 0; j < s->n; j++) {
		g[j] = 0;
		for (int k = 0; k < s->n; k++)
			a[j][k] = 0;
		for (int i = 0; i < m; i++) {
			g[j] += jac[i][j] * r[i];
			for (int k = 0; k < s->n; k++)
				a[j][k] += jac[i][j] * jac[i][k];
		}
	}
}

/* The covariance at the minimum: s^2 (J'J)^-1, column by column, over
 * the parameters some residual moves; one that none moves (a zero column
 * of J) is not seen and gets an infinite variance, without making J'J
 * singular for the others. The residual variance s^2 has m less the seen
 * parameters degrees of freedom: none left, nothing is determined. */
static void covariance(struct ms_lm *s, double a[][MS_MAX_KNOBS], int m)
{
	int seen[MS_MAX_KNOBS], n = 0;
	double s2;

	for (int j = 0; j < s->n; j++)
		if (a[j][j] > TINY)
			seen[n++] = j;
	s2 = m > n ? s->rss / (m - n) : INFINITY;
	s->singular = n < s->n;
	for (int r = 0; r < s->n; r++)
		for (int c = 0; c < s->n; c++)
			s->cov[r][c] = r == c ? INFINITY : 0;
	for (int c = 0; c < n && isfinite(s2); c++) {
		double aa[MS_MAX_KNOBS][MS_MAX_KNOBS], e[MS_MAX_KNOBS] = { 0 }, col[MS_MAX_KNOBS];

		for (int i = 0; i < n; i++)
			for (int k = 0; k < n; k++)
				aa[i][k] = a[seen[i]][seen[k]];
		e[c] = 1;
		if (solve(n, aa, e, col)) {
			s->singular = 1;
			continue;
		}
		for (int r = 0; r < n; r++)
			s->cov[seen[r]][seen[c]] = s2 * col[r];
	}
}

int ms_lm(void *ctx, ms_resid_fn fn, struct ms_lm *s)
{
	double r[MS_MAX_CELLS], rn[MS_MAX_CELLS], jac[MS_MAX_CELLS][MS_MAX_KNOBS];
	double a[MS_MAX_KNOBS][MS_MAX_KNOBS], g[MS_MAX_KNOBS], lambda = 1e-2;
	int m, mn;

	if (fn(ctx, s->x, r, &m))
		return -1;
	s->rss = sumsq(r, m);
	s->nres = m;
	for (s->iterations = 0; s->iterations < MAX_ITER; s->iterations++) {
		double aa[MS_MAX_KNOBS][MS_MAX_KNOBS], b[MS_MAX_KNOBS], d[MS_MAX_KNOBS], x[MS_MAX_KNOBS], rss;
		int better = 0;

		if (jacobian(ctx, fn, s, r, m, jac))
			return -1;
		normal(s, jac, r, m, a, g);
		for (int tries = 0; tries < 8 && !better; tries++, lambda *= 4) {
			memcpy(aa, a, sizeof(aa));
			for (int j = 0; j < s->n; j++) {
				aa[j][j] += lambda * (a[j][j] > TINY ? a[j][j] : TINY);
				b[j] = -g[j];
			}
			if (solve(s->n, aa, b, d))
				continue;
			for (int j = 0; j < s->n; j++)
				x[j] = fmin(s->hi[j], fmax(s->lo[j], s->x[j] + d[j]));
			if (fn(ctx, x, rn, &mn))
				return -1;
			if ((rss = sumsq(rn, mn)) < s->rss) {
				better = s->rss - rss > 1e-6 * s->rss;
				memcpy(s->x, x, sizeof(x));
				memcpy(r, rn, sizeof(r));
				s->rss = rss;
				lambda /= 16;
				break;
			}
		}
		if (!better)
			break;
	}
	if (jacobian(ctx, fn, s, r, m, jac))
		return -1;
	normal(s, jac, r, m, a, g);
	covariance(s, a, m);
	return 0;
}
