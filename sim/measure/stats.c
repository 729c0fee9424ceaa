/*
 * stats.c - the statistics of sampled rows (measure.h): a sample's mean,
 * standard deviation, median and the 95% confidence interval of its mean
 * (Student's t with n - 1 degrees of freedom), and Welch's unequal-
 * variance t-test for the difference of two means, with its interval
 * (Welch-Satterthwaite degrees of freedom). The t distribution comes from
 * the regularized incomplete beta function, evaluated by its continued
 * fraction (modified Lentz); quantiles by bisection on the CDF. Plain
 * double arithmetic, the same on every run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/measure.h"

/* ln Gamma(x), x > 0 (Lanczos, g = 7, n = 9: relative error < 2e-15). */
static double lgamma_pos(double x)
{
	static const double c[9] = {
		0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
		-176.61502916214059, 12.507343278686905, -0.13857109526572012,
		9.9843695780195716e-6, 1.5056327351493116e-7,
	};
	double a = c[0], t;

	if (x < 0.5)	/* reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x) */
		return log(M_PI / fabs(sin(M_PI * x))) - lgamma_pos(1.0 - x);
	x -= 1.0;
	for (int i = 1; i < 9; i++)
		a += c[i] / (x + i);
	t = x + 7.5;
	return 0.5 * log(2 * M_PI) + (x + 0.5) * log(t) - t + log(a);
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	d = 1.0 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + aa * d;
		c = 1.0 + aa / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + aa * d;
		c = 1.0 + aa / c;
		d = 1.0 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < 1e-14)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma_pos(a + b) - lgamma_pos(a) - lgamma_pos(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1 - x) / b;
}

double ms_t_cdf(double t, double df)
{
	double p = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1.0 - p : p;
}

/* The 95% interval's quantile at whole degrees of freedom, once each: every
 * sampled result asks for it (n - 1 of 40 to 128 samples, for every row,
 * state and layout), and 200 halvings of the CDF were 2% of a compare. */
#define T975_MEMO 1024
static double t975[T975_MEMO];

double ms_t_quantile(double p, double df)
{
	double lo = 0, hi = 1e6, *memo = NULL;

	if (p <= 0.5)
		return p == 0.5 ? 0 : -ms_t_quantile(1 - p, df);
	if (p == 0.975 && df >= 1 && df < T975_MEMO && df == floor(df)) {
		memo = &t975[(int)df];
		if (*memo)
			return *memo;
	}
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (ms_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	if (memo)
		*memo = 0.5 * (lo + hi);
	return 0.5 * (lo + hi);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void ms_dist_of(const double *v, unsigned n, struct ms_dist *d)
{
	double sum = 0, ss = 0, *s;

	memset(d, 0, sizeof(*d));
	d->n = n;
	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += (v[i] - d->mean) * (v[i] - d->mean);
	d->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	d->ci95 = n > 1 ? ms_t_quantile(0.975, n - 1) * d->sd / sqrt(n) : 0;
	if ((s = malloc(n * sizeof(*s))) != NULL) {
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_double);
		d->min = (uint64_t)llround(s[0]);
		d->max = (uint64_t)llround(s[n - 1]);
		d->median = (uint64_t)llround(n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]));
		free(s);
	}
}

int ms_welch(const struct ms_dist *a, const struct ms_dist *b, struct ms_welch *w)
{
	double va, vb, se2;

	memset(w, 0, sizeof(*w));
	w->delta = b->mean - a->mean;
	if (a->n < 2 || b->n < 2)
		return -1;	/* one draw on a side: no test */
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 == 0) {
		/* every sample of each side the same: the difference is exact */
		w->p = w->delta == 0 ? 1.0 : 0.0;
		w->df = a->n + b->n - 2;
		return 0;
	}
	w->df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w->t = w->delta / sqrt(se2);
	w->p = 2.0 * (1.0 - ms_t_cdf(fabs(w->t), w->df));
	w->ci95 = ms_t_quantile(0.975, w->df) * sqrt(se2);
	return 0;
}

/*
 * A layout other than the recorded one is costed over the first quarter
 * of the sampled ops, at least MS_BAND_MIN (all when fewer): its run stops
 * where the last of them ends, so its stream is the warm-up and that share
 * of the samples, warmed by what ran before them as in the recorded
 * layout. Layouts were 8 of every 9 costings of a sampled compare; this
 * makes each about 40% of one (issues 22 and 24: the cached compare).
 */
unsigned ms_band_ops(unsigned sampled)
{
	unsigned m = (sampled + 3) / 4;

	return m >= MS_BAND_MIN ? m : sampled < MS_BAND_MIN ? sampled : MS_BAND_MIN;
}

/*
 * Where a layout puts a row's mean: the recorded mean moved by what the
 * layout did to the mean of the first m samples (recorded[0..m)) - a
 * paired difference over the same ops in both layouts, so what the
 * samples differ by among themselves cancels instead of widening the band.
 */
double ms_band_at(const double *recorded, double recorded_mean, double layout_mean, unsigned m)
{
	double sum = 0;

	for (unsigned i = 0; i < m; i++)
		sum += recorded[i];
	return m ? recorded_mean + (layout_mean - sum / m) : recorded_mean;
}
