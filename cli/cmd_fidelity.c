/*
 * cmd_fidelity.c - `hotsim fidelity VMLINUX`: per published board, each
 * lmbench cell beside hotsim's number for it on the board's core, the
 * ratio and the error, and the mean absolute error of the fitted cells
 * and of the cells held out of the fit (docs/calibration.md). VMLINUX is
 * the kernel to measure: the boards' like-config kernel is 6.12-board.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/board.h"
#include "hotsim/cmdline.h"
#include "hotsim/err.h"
#include "json.h"
#include "report.h"

struct fidelity_opts {
	const char *boards;
	long boots;
	struct opt_params params;
	enum opt_format format;
};

static void defaults(void *p)
{
	struct fidelity_opts *o = p;

	o->boots = MS_BOARD_BOOTS;
}

/* fit, held out, unlike, or unpinned - on the board's machine (fitted
 * too: hotsim fit replays them there) or on one CPU */
static const char *use_of(const struct ms_cell *c)
{
	static char buf[40];

	if (!(c->c->flags & HS_CELL_UNPINNED) || (c->c->flags & HS_CELL_UNLIKE) || !c->ok)
		return hs_board_cell_use(c->c);
	if (!c->cpus)
		return "unpinned, hotsim 1 CPU";
	if (c->one_cpu)
		snprintf(buf, sizeof(buf), "fit, unpinned, ran on 1 of %u", c->cpus);
	else
		snprintf(buf, sizeof(buf), "fit, unpinned, %u CPUs", c->cpus);
	return buf;
}

/* The first row's state of m (less what the line above said, its prefix
 * `said`): where its numbers come from. Returns that state, or NULL. */
static const char *state_line(const char *head, const struct ms_image *m, const char *said)
{
	char line[1000];

	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].state[0]) {
			const char *st = m->rows[i].state;
			size_t n = said ? strlen(said) : 0;

			if (n && !strncmp(st, said, n) && !strncmp(st + n, "; ", 2))
				st += n + 2;
			snprintf(line, sizeof(line), "%s: %s", m->rows[i].core->name, st);
			rp_wrap(stdout, head, "         ", line, RP_TEXT_WIDTH);
			return m->rows[i].state;
		}
	return NULL;
}

static void text_head(const struct ms_fidelity *f)
{
	const struct hs_board *b = f->b;

	printf("\nboard %s: %s\n", b->name, b->full);
	rp_wrap(stdout, "  ran    ", "         ", b->kernel, RP_TEXT_WIDTH);
	rp_wrap(stdout, "  cells  ", "         ", b->source, RP_TEXT_WIDTH);
	/* what the board's core runs with beside its core file (the list the
	 * measuring uses): the board's own values, then the core file's times
	 * at the board's clock */
	struct ms_param l[MS_MAX_PARAMS];
	int nl = ms_board_params(b, NULL, 0, l, MS_MAX_PARAMS), nt = 0;
	char own[300] = "";

	for (int i = 0; i < nl; i++)
		if (l[i].from == MS_FROM_BOARD)
			snprintf(own + strlen(own), sizeof(own) - strlen(own), "%s%s %.10g", own[0] ? ", " : "",
				 l[i].name, l[i].value);
	if (own[0])
		snprintf(own + strlen(own), sizeof(own) - strlen(own), " (the board's, over the core file's)");
	for (int i = 0; i < nl; i++)
		if (l[i].from == MS_FROM_TIME)
			snprintf(own + strlen(own), sizeof(own) - strlen(own), "%s%s %.10g",
				 nt++ ? ", " : own[0] ? "; " : "", l[i].name, l[i].value);
	if (nt > 0)
		snprintf(own + strlen(own), sizeof(own) - strlen(own), " (the core file's times at %.1f GHz, "
			 "written at %.1f)", b->clock_hz / 1e9, hs_core_find(b->core)->clock_hz / 1e9);
	if (own[0])
		rp_wrap(stdout, "  params ", "         ", own, RP_TEXT_WIDTH);
	const char *said = state_line("  state  ", &f->img, NULL);

	if (!f->nboots)
		return;
	state_line("  cpus   ", &f->machine[0], said);
	if (f->nboots > 1) {
		char line[300];

		snprintf(line, sizeof(line), "%u of the machine, each a state of its own (the later ones with hotsim_boot="
			 "1..%u on the command line): an unpinned cell is the mean of the boots whose round trips crossed "
			 "CPUs", f->nboots, f->nboots - 1);
		rp_wrap(stdout, "  boots  ", "         ", line, RP_TEXT_WIDTH);
	}
}

/* The error line's unpinned part, "" when no cell ran on the machine */
static const char *unpinned_error(const struct ms_fidelity *f, const char *lead, char *buf, size_t len)
{
	if (!f->nunpinned)
		return "";
	snprintf(buf, len, "%s%.1f%% over %d unpinned on %u CPUs (fitted too)", lead,
		 f->mape_unpinned, f->nunpinned, f->b->cpus);
	return buf;
}

static void text(const struct ms_fidelity *f)
{
	text_head(f);
	char more[200];

	printf("\n%-28s %7s %7s %5s %7s %s\n", "lmbench (cycles per op)", "board", "hotsim", "ratio", "error",
	       "use");
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_cell *c = &f->cells[i];

		if (!c->ok)
			printf("%-28.28s %7.0f %7s %5s %7s %s\n", c->c->bench, c->board, "-", "", "", use_of(c));
		else
			printf("%-28.28s %7.0f %7.0f %5.2f %+6.1f%% %s\n", c->c->bench, c->board, c->hotsim,
			       c->hotsim / c->board, 100 * (c->hotsim / c->board - 1), use_of(c));
	}
	printf("mean absolute error: %.1f%% over %d fitted cells, %.1f%% over %d held out\n%s%s", f->mape_fit,
	       f->nfit, f->mape_held, f->nheld, unpinned_error(f, "  and ", more, sizeof(more)), f->nunpinned ? "\n" : "");
	if (f->worst_cell >= 0)
		printf("largest: %.1f%% (%s)\n", f->worst, f->cells[f->worst_cell].c->bench);
	for (int i = 0; i < f->ncells; i++) {
		char note[1100];

		snprintf(note, sizeof(note), "%s: %s", f->cells[i].c->bench, f->cells[i].note);
		rp_wrap(stdout, "  ", "    ", note, RP_TEXT_WIDTH);
	}
}

static void markdown(const struct ms_fidelity *f)
{
	char more[200];

	printf("\n### %s: %s\n\n%s; cells: %s\n\n", f->b->name, f->b->full, f->b->kernel, f->b->source);
	printf("| lmbench | board (cycles) | hotsim (cycles) | ratio | error | use |\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_cell *c = &f->cells[i];

		if (!c->ok)
			printf("| %s | %.0f | - | | | %s |\n", c->c->bench, c->board, use_of(c));
		else
			printf("| %s | %.0f | %.0f | %.2f | %+.1f%% | %s |\n", c->c->bench, c->board, c->hotsim,
			       c->hotsim / c->board, 100 * (c->hotsim / c->board - 1), use_of(c));
	}
	printf("\nMean absolute error: %.1f%% over %d fitted cells, %.1f%% over %d held out%s.\n", f->mape_fit,
	       f->nfit, f->mape_held, f->nheld, unpinned_error(f, "; ", more, sizeof(more)));
}

static void json_board(struct json *j, const struct ms_fidelity *f)
{
	json_begin_obj(j, NULL);
	json_str(j, "board", f->b->name);
	json_str(j, "core", f->b->core);
	json_uint(j, "clock_hz", f->b->clock_hz);
	json_num(j, "mape_fit", f->mape_fit, 2);
	json_num(j, "mape_held_out", f->mape_held, 2);
	json_uint(j, "cpus", f->b->cpus);
	json_uint(j, "boots", f->nboots);
	/* what the board's core runs with beside its core file: the core
	 * file's times at the board's clock, then the board's own */
	struct ms_param l[MS_MAX_PARAMS];
	int nl = ms_board_params(f->b, NULL, 0, l, MS_MAX_PARAMS);

	json_begin_arr(j, "params");
	for (int i = 0; i < nl; i++) {
		json_begin_obj(j, NULL);
		json_str(j, "name", l[i].name);
		json_num(j, "value", l[i].value, 0);
		json_str(j, "from", l[i].from == MS_FROM_TIME ? "time" : "board");
		json_end_obj(j);
	}
	json_end_arr(j);
	json_num(j, "mape_unpinned", f->mape_unpinned, 2);
	json_begin_arr(j, "cells");
	for (int i = 0; i < f->ncells; i++) {
		const struct ms_cell *c = &f->cells[i];

		json_begin_obj(j, NULL);
		json_str(j, "bench", c->c->bench);
		json_str(j, "use", use_of(c));
		json_num(j, "board_cycles", c->board, 0);
		if (c->ok) {
			json_num(j, "hotsim_cycles", c->hotsim, 1);
			json_num(j, "ci95", c->ci95, 1);
			json_num(j, "ratio", c->hotsim / c->board, 4);
			json_bool(j, "booted", c->booted);
			json_uint(j, "cpus", c->cpus ? c->cpus : 1);
			json_bool(j, "one_cpu", c->one_cpu);
		}
		if (c->ok && c->nboots) {
			json_begin_arr(j, "boots");
			for (unsigned k = 0; k < c->nboots; k++) {
				json_begin_obj(j, NULL);
				json_uint(j, "boot", k);
				json_num(j, "hotsim_cycles", c->boot_cycles[k], 1);
				json_bool(j, "one_cpu", c->boot_one_cpu[k]);
				json_end_obj(j);
			}
			json_end_arr(j);
			json_uint(j, "order_flips", c->flips);
			json_uint(j, "sampled_round_trips", c->flip_ops);
			if (c->qemu_order > 0)
				json_num(j, "qemu_order_cycles", c->qemu_order, 1);
		}
		json_str(j, "note", c->note);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

/* The board --board names, or every one. */
static int boards_of(const char *name, const struct hs_board **v, int max)
{
	int n = 0;

	for (int i = 0; hs_boards[i] && n < max; i++)
		if (!name || !strcmp(name, hs_boards[i]->name))
			v[n++] = hs_boards[i];
	return n ? n : hs_fail("unknown board '%.32s' (known: %s)", name, hs_board_names());
}

static int run(void *p, char **args)
{
	const struct fidelity_opts *o = p;
	const struct hs_board *b[8];
	int n = boards_of(o->boards, b, 8), rc = HS_EXIT_OK;
	struct json j;

	if (n < 0 || cli_check_params(&o->params, &(struct opt_cpus){ .n = 0 }))
		return cli_error();
	if (o->format == FORMAT_JSON) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-fidelity/2");
		json_str(&j, "image", args[0]);
		json_begin_arr(&j, "boards");
	} else {
		printf("hotsim fidelity %s: hotsim's cycles beside published boards' lmbench\n", args[0]);
	}
	for (int i = 0; i < n && rc == HS_EXIT_OK; i++) {
		struct ms_fidelity f;

		if (ms_fidelity(args[0], b[i], o->params.v, o->params.n, (unsigned)o->boots, &f))
			rc = cli_error();
		else if (o->format == FORMAT_JSON)
			json_board(&j, &f);
		else if (o->format == FORMAT_MARKDOWN)
			markdown(&f);
		else
			text(&f);
		ms_fidelity_free(&f);
	}
	if (o->format == FORMAT_JSON && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("board", "NAME", OPT_STRING, struct fidelity_opts, boards, "one board (default: every one)"),
	OPT("param", "[CORE.]NAME=V", OPT_PARAM, struct fidelity_opts, params, "override a model parameter"),
	OPT_N("boots", "N", struct fidelity_opts, boots, 1, HS_BOOT_MAX,
	      "boots of each board's machine for its unpinned cells: their mean, their range (default 4)"),
	OPT_CHOICE("format", "FMT", OPT_FORMAT, struct fidelity_opts, format, "text markdown json",
		   "text, markdown or json (--json)"),
	OPT_TABLE_END
};

static const char *const notes[] = {
	"each board's lmbench cells (models/boards.c) beside hotsim's, on the board's core with its caches;",
	"VMLINUX should be configured as the boards' kernel (6.12-board: arm64 defconfig); held-out cells",
	"were not fitted to; unpinned ones ran on several CPUs on the board: those a machine replays run",
	"unpinned on the board's CPUs (their own error: the IPI and idle exit costs are guessed), booted",
	"--boots times: each boot is one draw of where the kernel puts each task; unlike ones measured",
	"what hotsim does not boot (their note says what) and are in no mean",
	NULL
};

const struct cli_cmd cmd_fidelity = {
	.name = "fidelity", .args = "VMLINUX", .nargs = 1,
	.summary = "hotsim's cycles beside published boards' lmbench: ratio and error per cell",
	.notes = notes,
	.opts = opts, .size = sizeof(struct fidelity_opts), .defaults = defaults, .run = run,
};
