/*
 * cmd_fit.c - `hotsim fit VMLINUX --board NAME`: fit the board core's
 * unpublished costs to the board's lmbench cells (docs/calibration.md):
 * each knob's value, the range the cells allow and whether they determine
 * it, every cell before and after, and the resulting parameter values -
 * what the core file's fitted entries hold, so anyone can re-run the fit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/board.h"
#include "hotsim/cmdline.h"
#include "hotsim/err.h"
#include "hotsim/fit.h"
#include "report.h"

struct fit_opts {
	const char *board;
	long boots;
};

static void defaults(void *p)
{
	((struct fit_opts *)p)->boots = MS_BOARD_BOOTS;
}

static void knobs(const struct ms_fit *f)
{
	printf("\n%-12s %8s %15s %-10s %s\n", "knob", "value", "95% range", "determined", "members");
	for (int j = 0; j < f->nknobs; j++) {
		const struct ms_knob *k = f->v[j].k;
		char v[24], range[40], members[200] = "";
		int n = 0;

		snprintf(v, sizeof(v), k->scaled ? "x%.2f" : "%.0f", f->v[j].value);
		snprintf(range, sizeof(range), k->scaled ? "%.2f..%.2f" : "%.0f..%.0f", f->v[j].lo95, f->v[j].hi95);
		for (int i = 0; k->members[i]; i++, n++)
			if (i < 3)
				snprintf(members + strlen(members), sizeof(members) - strlen(members), "%s%s",
					 i ? ", " : "", k->members[i]);
		if (n > 3)
			snprintf(members + strlen(members), sizeof(members) - strlen(members), " (%d)", n);
		printf("%-12s %8s %15s %-10s %s\n", k->name, v, range, f->v[j].determined ? "yes" : "no", members);
	}
}

/* The cells with a flag the fit does not cost, named under a heading
 * (none: nothing) */
static void names(const struct ms_fit *f, unsigned flag, const char *heading)
{
	char list[600] = "";

	for (int i = 0; i < f->ncells; i++)
		if ((f->cells[i].c->flags & flag) && !f->cells[i].fitted)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "",
				 f->cells[i].c->bench);
	if (list[0]) {
		printf("%s:\n", heading);
		rp_wrap(stdout, "  ", "  ", list, RP_TEXT_WIDTH);
	}
}

static void cells(const struct ms_fit *f)
{

	printf("\n%-28s %8s %8s %8s %s\n", "lmbench (cycles per op)", "board", "before", "after", "use");
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_fit_cell *c = &f->cells[i];
		char use[64];

		snprintf(use, sizeof(use), "%s", hs_board_cell_use(c->c));
		if (c->fitted && (c->c->flags & HS_CELL_UNPINNED))
			snprintf(use, sizeof(use), "fit, unpinned, %u CPUs", f->b->cpus);
		if (c->ok)
			printf("%-28.28s %8.0f %8.0f %8.0f %s\n", c->c->bench, c->board, c->before, c->after, use);
	}
	printf("rms of the fitted cells' log ratios: %.3f before, %.3f after (%d cells, %d evaluations)\n",
	       f->rms_before, f->rms_after, f->nfit, f->evaluations);
	names(f, HS_CELL_UNPINNED, "not fitted (the board ran them across CPUs; hotsim runs them on one)");
	names(f, HS_CELL_UNLIKE, "not fitted, unlike (their notes in hotsim fidelity say why)");
}

/* Member name's value in the core file, NAN when it has none; a time as
 * the board counts it (ms_at_clock), as the fit does */
static double in_core_file(const struct ms_fit *f, const char *name)
{
	struct hs_model *m = hs_model_new(f->core);
	const struct hs_param *p;
	double v = NAN;

	for (size_t n = 0; m && (p = hs_model_param(m, n)); n++)
		if (!strcmp(p->name, name))
			v = ms_at_clock(p, f->core, f->b->clock_hz);
	hs_model_free(m);
	return v;
}

/* The determined knobs' members, as the core file's fitted entries take
 * them, and whether it holds them; the others stay the core file's
 * guesses. */
static void members(const struct ms_fit *f)
{
	int any = 0;

	for (int j = 0; j < f->nknobs; j++)
		any |= f->v[j].determined;
	if (!any) {
		printf("\nno knob is determined by these cells: the core file's values stay\n");
		return;
	}
	printf("\nparameters (%s, fit: lmbench 6.12, %s):\n", f->core->name, f->b->name);
	printf("  %-18s %8s  %-16s %s\n", "", "fitted", "95% range", "in the core file");
	for (int j = 0; j < f->nknobs; j++)
		for (int i = 0; f->v[j].determined && f->v[j].k->members[i]; i++) {
			const char *name = f->v[j].k->members[i];
			double v = ms_knob_member(f, j, name), held = in_core_file(f, name);
			double scale = f->v[j].k->scaled ? v / f->v[j].value : 1;
			char range[40], held_s[40];

			snprintf(range, sizeof(range), "%.1f..%.1f", f->v[j].lo95 * scale, f->v[j].hi95 * scale);
			snprintf(held_s, sizeof(held_s), fabs(held - v) < 0.05 + 1e-9 ? "%.1f" : "%.1f: differs", held);
			printf("  %-18s %8.1f  %-16s %s\n", name, v, range, held_s);
		}
}

static int run(void *p, char **args)
{
	const struct fit_opts *o = p;
	const struct hs_board *b = hs_board_find(o->board);
	struct ms_fit f;

	if (!b) {
		if (o->board)
			hs_fail("unknown board '%.32s' (known: %s)", o->board, hs_board_names());
		else
			hs_fail("fit needs --board NAME, the board to fit to (known: %s)", hs_board_names());
		return cli_error();
	}
	if (ms_fit(args[0], b, (unsigned)o->boots, &f))
		return cli_error();
	printf("hotsim fit %s --board %s: the %s's unpublished costs fitted to %d of the board's cells\n",
	       args[0], b->name, f.core->name, f.nfit);
	knobs(&f);
	cells(&f);
	members(&f);
	return HS_EXIT_OK;
}

static const struct cli_opt opts[] = {
	OPT("board", "NAME", OPT_STRING, struct fit_opts, board, "the board to fit to (models/boards.c)"),
	OPT_N("boots", "N", struct fit_opts, boots, 1, HS_BOOT_MAX,
	      "boots of the board's machine for its unpinned cells, as hotsim fidelity's (default 4)"),
	OPT_TABLE_END
};

static const char *const notes[] = {
	"replays the board's paths on VMLINUX once (the boards' kernel: 6.12-board), then fits its",
	"core's knobs (groups of unpublished parameters) to the fitted cells: least squares on log ratios,",
	"bounded; prints what the core file's fitted entries hold",
	NULL
};

const struct cli_cmd cmd_fit = {
	.name = "fit", .args = "VMLINUX", .nargs = 1,
	.summary = "fit a core's unpublished costs to a published board's lmbench",
	.notes = notes,
	.opts = opts, .size = sizeof(struct fit_opts), .defaults = defaults, .run = run,
};
