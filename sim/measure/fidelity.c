/*
 * fidelity.c - hotsim's cycles beside a board's published ones
 * (measure.h, ms_fidelity; the boards: models/boards.c): the paths the
 * board's cells name, measured on its core with the board's own cache
 * geometry at steady state (typical rows), each cell summed as lmbench
 * sums it, and the mean absolute percentage error of the fitted cells and
 * of the held-out ones. Cells the board ran unpinned on several CPUs are
 * fitted to by neither: their paths a machine replays (sched-pipe,
 * ctx.ring) run on a machine of the board's CPUs, unpinned as the board
 * ran them, and the error of those cells is reported on its own, since
 * the cost of an IPI and of an idle exit in them is guessed; the rest
 * (lat_proc's) are shown. Where a machine's boot leaves each task is one
 * draw of many - the board's run averages over whatever the kernel does
 * for seconds - so the machine boots several times (hs_path_set.boot) and
 * an unpinned cell is the mean of its boots, their range in its note.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/board.h"
#include "hotsim/cgroup.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "hotsim/model.h"
#include "measure_internal.h"

double ms_at_clock(const struct hs_param *p, const struct hs_core *core, uint64_t hz)
{
	if (!p->timed || !core->clock_hz || !hz || hz == core->clock_hz)
		return p->value;
	return round(p->value * (double)hz / (double)core->clock_hz);
}

/* Append name = value on core to out (of at most max), from where. */
static int put(struct ms_param *out, int n, int max, const char *core, const char *name, double value,
	       enum ms_param_from from)
{
	if (n == max)
		return hs_fail("more than %d parameters", max);
	memset(&out[n], 0, sizeof(out[n]));
	snprintf(out[n].core, sizeof(out[n].core), "%s", core);
	snprintf(out[n].name, sizeof(out[n].name), "%s", name);
	out[n].value = value;
	out[n].from = from;
	return n + 1;
}

int ms_clock_times(const struct hs_core *core, uint64_t hz, struct ms_param *out, int max)
{
	struct hs_model *m = hs_model_new(core);
	const struct hs_param *p;
	int n = 0;

	if (!m)
		return hs_fail("core %s: no model", core->name);
	for (size_t i = 0; n >= 0 && (p = hs_model_param(m, i)); i++) {
		double v = ms_at_clock(p, core, hz);

		if (v != p->value)
			n = put(out, n, max, core->name, p->name, v, MS_FROM_TIME);
	}
	hs_model_free(m);
	return n;
}

int ms_board_params(const struct hs_board *b, const struct ms_param *params, int nparams,
		    struct ms_param *out, int max)
{
	const struct hs_core *core = hs_core_find(b->core);
	int n = core ? ms_clock_times(core, b->clock_hz, out, max) :
		       hs_fail("board %s: no model of core %s", b->name, b->core);

	for (const struct hs_board_param *p = b->params; n >= 0 && p && p->name; p++)
		n = put(out, n, max, b->core, p->name, p->value, MS_FROM_BOARD);
	for (int i = 0; n >= 0 && i < nparams; i++) {
		if (n == max)
			return hs_fail("more than %d parameters", max);
		out[n++] = params[i];
	}
	return n;
}

int ms_board_set(const struct hs_board *b, unsigned ncpus, struct hs_path_set *set)
{
	*set = hs_path_set_builtin;
	set->ncpus = ncpus;
	if (b->cgroup && !(set->cgroup = hs_cgroup_find(b->cgroup)))
		return hs_fail("board %s: no cgroup %s", b->name, b->cgroup);
	set->cmdline = b->cmdline;
	return 0;
}

int ms_on_machine(const struct hs_board *b, const struct hs_board_cell *c, const struct hs_path_def *d)
{
	return b->cpus > 1 && (c->flags & HS_CELL_UNPINNED) && d->boot.point && d->boot.machine;
}

static int add_path(const struct hs_board *b, struct ms_options *o, const struct hs_path_def *d)
{
	for (int k = 0; k < o->npaths; k++)
		if (o->paths[k] == d)
			return 0;
	if (o->npaths == MS_MAX_PATHS)
		return hs_fail("board %s: more than %d paths", b->name, MS_MAX_PATHS);
	o->paths[o->npaths++] = d;
	return 0;
}

/* The paths the cells name, once each, in the cells' order: on one CPU
 * (o) or on the board's machine (mo). */
static int cell_paths(const struct hs_board *b, struct ms_options *o, struct ms_options *mo)
{
	for (unsigned i = 0; i < b->ncells; i++)
		for (int t = 0; t < 3 && b->cells[i].terms[t].path; t++) {
			const struct hs_path_def *d = hs_path_find(b->cells[i].terms[t].path);

			if (!d)
				return hs_fail("board %s: no path %s", b->name, b->cells[i].terms[t].path);
			if (add_path(b, ms_on_machine(b, &b->cells[i], d) ? mo : o, d))
				return -1;
		}
	return 0;
}

static const struct ms_row *row_of(const struct ms_image *m, const char *path)
{
	for (int i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, path))
			return &m->rows[i];
	return NULL;
}

/* A machine's round trip whose sampled ops one CPU did alone
 * (ms_one_cpu). Not its ".ipi" part: that is the IPI's share of the
 * critical path, zero also when both CPUs work and the wakee's is still
 * busy when the IPI arrives. */
static int stayed_on_one_cpu(const struct ms_image *m, const char *path)
{
	const struct ms_row *r = row_of(m, path);

	return r && r->ok && ms_one_cpu(r->ncpus, r->idle, r->s[MS_TYPICAL].d.mean) >= 0;
}

/* Term t of cell c in boot k: its row in machines[k] where the board's
 * machine runs it (*m = 1), else in img (one CPU) */
static const struct ms_row *term_row(const struct ms_fidelity *f, const struct hs_board_cell *c, int t,
				     const struct ms_image *machines, unsigned k, int *m)
{
	*m = ms_on_machine(f->b, c, hs_path_find(c->terms[t].path));
	return row_of(*m ? &machines[k] : &f->img, c->terms[t].path);
}

/* Whether boot k is in the cell's mean: its round trips crossed CPUs, or
 * no boot's did */
static int in_mean(const struct ms_cell *out, unsigned k)
{
	return out->one_cpu || !out->boot_one_cpu[k];
}

/* A cell's number from its terms' rows in boot k of the machine (img for
 * the terms on one CPU): 0, or -1 with the missing row's reason in
 * out->note. */
static int cell_in_boot(const struct ms_fidelity *f, const struct hs_board_cell *c, unsigned k, struct ms_cell *out,
			double *var)
{
	double v = 0;
	int one = 0;

	*var = 0;
	for (int t = 0; t < 3 && c->terms[t].path; t++) {
		int m;
		const struct ms_row *r = term_row(f, c, t, f->machine, k, &m);

		if (!r || !r->ok) {
			snprintf(out->note, sizeof(out->note), "%s: %.200s", c->terms[t].path,
				 r ? r->why : "not measured");
			return -1;
		}
		out->cpus = m ? f->b->cpus : out->cpus;
		one |= m && stayed_on_one_cpu(&f->machine[k], c->terms[t].path);
		v += c->terms[t].coef * r->s[MS_TYPICAL].d.mean;
		*var += c->terms[t].coef * c->terms[t].coef * r->s[MS_TYPICAL].d.ci95 * r->s[MS_TYPICAL].d.ci95;
		out->booted &= r->booted;
	}
	out->boot_cycles[k] = v;
	out->boot_one_cpu[k] = (unsigned char)one;
	return 0;
}

/* Boot k replayed in QEMU's order, when its round trips crossed CPUs in
 * that order too (1; else 0, nothing added): the locks its rows of c
 * reached before the other CPU took them (ms_row.order_flips), their
 * sampled round trips, and the cell so (its terms' rows there) */
static int flips_in_boot(const struct ms_fidelity *f, const struct hs_board_cell *c, unsigned k, unsigned *flips,
			 unsigned *ops, double *qemu)
{
	double v = 0;
	unsigned fl = 0, n = 0;
	int crossed = 1;

	for (int t = 0; t < 3 && c->terms[t].path; t++) {
		int m;
		const struct ms_row *r = term_row(f, c, t, f->qemu, k, &m);

		if (m && r && r->ok) {
			fl += r->order_flips;
			n += r->nsamples;
			crossed &= !stayed_on_one_cpu(&f->qemu[k], c->terms[t].path);
		}
		v += r && r->ok ? c->terms[t].coef * r->s[MS_TYPICAL].d.mean : NAN;
	}
	if (!crossed)
		return 0;
	*flips += fl;
	*ops += n;
	*qemu += v;
	return 1;
}

/* How many of the first nb boots kept the round trips on one CPU */
static unsigned one_cpu_boots(const struct ms_cell *out, unsigned nb)
{
	unsigned n = 0;

	for (unsigned k = 0; k < nb; k++)
		n += out->boot_one_cpu[k];
	return n;
}

/* The boots' note: their range, and those whose round trips stayed on
 * one CPU */
static void boots_note(struct ms_cell *out)
{
	double lo = out->boot_cycles[0], hi = lo, one = 0;
	unsigned nones = one_cpu_boots(out, out->nboots);
	size_t n = strlen(out->note);

	for (unsigned k = 0; k < out->nboots; k++) {
		lo = out->boot_cycles[k] < lo ? out->boot_cycles[k] : lo;
		hi = out->boot_cycles[k] > hi ? out->boot_cycles[k] : hi;
		one += out->boot_one_cpu[k] ? out->boot_cycles[k] : 0;
	}
	n += (size_t)snprintf(out->note + n, sizeof(out->note) - n, "; over %u boots of the machine %.0f to %.0f",
			      out->nboots, lo, hi);
	if (nones && nones < out->nboots && n < sizeof(out->note))
		snprintf(out->note + n, sizeof(out->note) - n, ", %u of them on one CPU (%.0f, left out of the mean)",
			 nones, one / nones);
}

/* The same boots in QEMU's order: the locks its round trips reached, in
 * modelled time, before the other CPU took them - where a machine runs
 * the two critical sections the other way round, as the cell's turns by
 * modelled time do - and where there are any, that order's number (the
 * mean of the boots whose round trips crossed CPUs in it): what the
 * emulator's order would have made of the cell */
static void flips_note(const struct ms_fidelity *f, const struct hs_board_cell *c, unsigned nb, struct ms_cell *out)
{
	size_t n = strlen(out->note);
	const struct hs_path_def *d = hs_path_find(c->terms[0].path);
	double qemu = 0;
	unsigned used = 0;

	for (unsigned k = 0; k < nb && out->cpus; k++)
		if (in_mean(out, k))
			used += (unsigned)flips_in_boot(f, c, k, &out->flips, &out->flip_ops, &qemu);
	if (!out->flips || n >= sizeof(out->note))
		return;
	out->qemu_order = used && isfinite(qemu) ? qemu / used : 0;
	/* a round trip may reach several locks early: counted as locks */
	n += (size_t)snprintf(out->note + n, sizeof(out->note) - n, "; in QEMU's order (--turns qemu) the %u "
			      "sampled round trips of the mean reached a lock before the other CPU took it %u "
			      "time%s, where a machine runs the two critical sections the other way round, as the "
			      "turns by modelled time do (state --point %s --ops)", out->flip_ops, out->flips,
			      out->flips == 1 ? "" : "s", d && d->boot.point ? d->boot.point->name : c->terms[0].path);
	if (out->qemu_order > 0 && n < sizeof(out->note))
		snprintf(out->note + n, sizeof(out->note) - n, ": in that order %.0f cycles (%+.1f%%)",
			 out->qemu_order, 100 * (out->qemu_order / out->board - 1));
}

/* A cell from its terms' rows: the typical means summed, the intervals
 * added in quadrature (the paths are measured independently). On the
 * machine, the mean of the boots whose round trips crossed CPUs (an
 * unpinned number), of every boot when none did, with the interval of
 * that mean over the boots when there are several. */
static void cell(const struct ms_fidelity *f, const struct hs_board_cell *c, struct ms_cell *out)
{
	double var[HS_BOOT_MAX], v[HS_BOOT_MAX];
	unsigned nb = 1, n = 0, last = 0;

	memset(out, 0, sizeof(*out));
	out->c = c;
	out->board = c->us * (double)f->b->clock_hz / 1e6;
	out->booted = 1;
	if (!c->terms[0].path) {
		snprintf(out->note, sizeof(out->note), "%s", c->note);
		return;
	}
	for (int t = 0; t < 3 && c->terms[t].path; t++)
		nb = ms_on_machine(f->b, c, hs_path_find(c->terms[t].path)) ? f->nboots : nb;
	for (unsigned k = 0; k < nb; k++)
		if (cell_in_boot(f, c, k, out, &var[k]))
			return;
	out->one_cpu = out->cpus && one_cpu_boots(out, nb) == nb;
	for (unsigned k = 0; k < nb; k++)
		if (in_mean(out, k)) {
			v[n++] = out->boot_cycles[k];
			last = k;
		}
	if (n == 1) {
		out->hotsim = v[0];
		out->ci95 = sqrt(var[last]);
	} else {
		struct ms_dist d;

		ms_dist_of(v, n, &d);
		out->hotsim = d.mean;
		out->ci95 = d.ci95;
	}
	out->nboots = out->cpus ? nb : 0;
	out->ok = 1;
	snprintf(out->note, sizeof(out->note), "%s%s%s%s", c->note,
		 out->one_cpu ? "; here the sampled round trips never left the site's CPU (no IPI)" : "",
		 out->one_cpu && nb > 1 ? " in any boot" : "",
		 out->one_cpu ? ": the kernel woke each side there - still queued, as 6.12's delayed dequeue "
				"leaves a sleeper, on the waker's CPU, as a synchronous wakeup may place it, or "
				"no other CPU idle when it woke - so the number is not an unpinned one" : "");
	if (out->nboots > 1)
		boots_note(out);
	flips_note(f, c, nb, out);
}

/* The errors: mean |hotsim / board - 1| of the fitted cells, the
 * held-out ones, and the unpinned ones run on the board's machine (not
 * one whose round trips stayed on one CPU there: it is not unpinned).
 * An unlike cell is in none. */
static void errors(struct ms_fidelity *f)
{
	double sum[2] = { 0, 0 }, unpinned = 0;

	f->worst = 0;
	f->worst_cell = -1;
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_cell *c = &f->cells[i];
		int held = (c->c->flags & HS_CELL_HELD_OUT) != 0;
		double e;

		if (!c->ok || (c->c->flags & HS_CELL_UNLIKE))
			continue;
		e = fabs(c->hotsim / c->board - 1);
		if (c->c->flags & HS_CELL_UNPINNED) {
			unpinned += c->cpus && !c->one_cpu ? e : 0;
			f->nunpinned += c->cpus && !c->one_cpu;
			continue;
		}
		sum[held] += e;
		if (held)
			f->nheld++;
		else
			f->nfit++;
		if (e > f->worst) {
			f->worst = e;
			f->worst_cell = i;
		}
	}
	f->mape_fit = f->nfit ? 100 * sum[0] / f->nfit : 0;
	f->mape_held = f->nheld ? 100 * sum[1] / f->nheld : 0;
	f->mape_unpinned = f->nunpinned ? 100 * unpinned / f->nunpinned : 0;
	f->worst *= 100;
}

int ms_fidelity(const char *image, const struct hs_board *b, const struct ms_param *params, int nparams,
		unsigned nboots, struct ms_fidelity *out)
{
	struct ms_options o, mo[2 * HS_BOOT_MAX];
	struct hs_path_set one, set[2 * HS_BOOT_MAX];
	struct ms_image *imgs[1 + 2 * HS_BOOT_MAX] = { &out->img };
	const struct ms_options *opts[1 + 2 * HS_BOOT_MAX] = { &o };
	int nimgs = 1;

	memset(out, 0, sizeof(*out));
	out->b = b;
	if (b->ncells > MS_MAX_CELLS)
		return hs_fail("board %s: more than %d cells", b->name, MS_MAX_CELLS);
	if (nboots < 1 || nboots > HS_BOOT_MAX)
		return hs_fail("board %s: %u boots of its machine; 1 to %d", b->name, nboots, HS_BOOT_MAX);
	memset(&o, 0, sizeof(o));
	memset(&mo[0], 0, sizeof(mo[0]));
	o.want[MS_TYPICAL] = mo[0].want[MS_TYPICAL] = 1;
	o.src = HS_SRC_AUTO;
	mo[0].src = HS_SRC_BOOTED;
	o.ncores = mo[0].ncores = 1;
	if (!(o.cores[0] = mo[0].cores[0] = hs_board_core(b, &out->board_core)))
		return hs_fail("board %s: no core %s", b->name, b->core);
	if (ms_board_set(b, 0, &one) || ms_board_set(b, b->cpus, &set[0]))
		return -1;
	o.set = &one;
	mo[0].set = &set[0];
	if (cell_paths(b, &o, &mo[0]) ||
	    (o.nparams = ms_board_params(b, params, nparams, o.params, MS_MAX_PARAMS)) < 0)
		return -1;
	mo[0].nparams = o.nparams;
	memcpy(mo[0].params, o.params, sizeof(o.params));
	out->nboots = mo[0].npaths ? nboots : 0;
	if (ms_open(image, &out->img))
		return -1;
	if (out->nboots && (!(out->machine = calloc(out->nboots, sizeof(*out->machine))) ||
			    !(out->qemu = calloc(out->nboots, sizeof(*out->qemu)))))
		return hs_fail("out of memory for %u boots of board %s's machine", out->nboots, b->name);
	/* boot k of the same machine: the same paths and parameters, taking
	 * turns by modelled time as a machine's CPUs do; then each replayed
	 * in QEMU's order (the same snapshots) */
	for (unsigned k = 0; k < 2 * out->nboots; k++) {
		unsigned boot = k % out->nboots;
		struct ms_image *img = k < out->nboots ? &out->machine[boot] : &out->qemu[boot];

		set[k] = set[0];
		set[k].boot = boot;
		set[k].turns = k < out->nboots ? HS_TURNS_MODEL : HS_TURNS_QEMU;
		mo[k] = mo[0];
		mo[k].set = &set[k];
		if (ms_open(image, img))
			return -1;
		imgs[nimgs] = img;
		opts[nimgs++] = &mo[k];
	}
	if (ms_measure_images(imgs, opts, nimgs))
		return -1;
	for (unsigned i = 0; i < b->ncells; i++)
		cell(out, &b->cells[i], &out->cells[out->ncells++]);
	errors(out);
	return 0;
}

/* A machine's images, one a boot (either order), and the array */
static void free_boots(struct ms_image *v, unsigned n)
{
	for (unsigned k = 0; v && k < n; k++)
		if (v[k].img)
			ms_free(&v[k]);
	free(v);
}

void ms_fidelity_free(struct ms_fidelity *f)
{
	ms_free(&f->img);
	free_boots(f->machine, f->nboots);
	free_boots(f->qemu, f->nboots);
	f->machine = f->qemu = NULL;
}
