/*
 * cmd_models.c - `hotsim models`: every cost model and every parameter with
 * its value, unit, calibration status and source, so a reviewer can trace
 * any number in a result to a published fact or see that it is a named
 * assumption.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/model.h"
#include "json.h"

struct models_opts {
	struct opt_cpus cpus;
	int uncalibrated;
	enum opt_format format;
};

static void print_text(const struct hs_model *m, int only_uncal)
{
	size_t n = hs_model_nparams(m), nu = 0;

	for (size_t i = 0; i < n; i++)
		nu += !hs_model_param(m, i)->calibrated;
	printf("%s  %s\n    engine: %s; %zu parameters, %zu uncalibrated\n", hs_model_name(m),
	       hs_model_description(m), hs_model_engine(m), n, nu);
	printf("    %-22s %10s %-14s %-6s %s\n", "parameter", "value", "unit", "status", "source");
	for (size_t i = 0; i < n; i++) {
		const struct hs_param *p = hs_model_param(m, i);
		char src[400], unit[40];

		if (only_uncal && p->calibrated)
			continue;
		if (p->hi > 0)
			snprintf(src, sizeof(src), "%s (95%%: %g..%g; guessed %g)", p->source, p->lo, p->hi, p->guess);
		else
			snprintf(src, sizeof(src), "%s", p->source);
		/* a time outside the core's clock: a board at another clock
		 * counts more or fewer cycles of it (ms_at_clock) */
		snprintf(unit, sizeof(unit), p->timed ? "%s (time)" : "%s", p->unit);
		printf("    %-22s %10g %-14s %-6s %s\n", p->name, p->value, unit,
		       !p->calibrated ? "UNCAL" : p->hi > 0 ? "fit" : "cal", src);
	}
}

static void print_json(struct json *j, const struct hs_model *m, int only_uncal)
{
	size_t n = hs_model_nparams(m);

	json_begin_obj(j, NULL);
	json_str(j, "name", hs_model_name(m));
	json_str(j, "description", hs_model_description(m));
	json_str(j, "engine", hs_model_engine(m));
	json_begin_arr(j, "params");
	for (size_t i = 0; i < n; i++) {
		const struct hs_param *p = hs_model_param(m, i);

		if (only_uncal && p->calibrated)
			continue;
		json_begin_obj(j, NULL);
		json_str(j, "name", p->name);
		json_num(j, "value", p->value, p->value == (long long)p->value ? 0 : 3);
		json_str(j, "unit", p->unit);
		json_bool(j, "time", p->timed);
		json_bool(j, "calibrated", p->calibrated);
		if (p->hi > 0) {
			json_num(j, "fit_lo", p->lo, 1);
			json_num(j, "fit_hi", p->hi, 1);
			json_num(j, "guess", p->guess, p->guess == (long long)p->guess ? 0 : 3);
		}
		json_str(j, "source", p->source);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void defaults(void *p)
{
	opt_all_cpus(&((struct models_opts *)p)->cpus);
}

static int run(void *p, char **args)
{
	const struct models_opts *o = p;
	int as_json = o->format == FORMAT_JSON;
	struct json j;

	(void)args;
	if (as_json) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-models/1");
		json_begin_arr(&j, "models");
	}
	for (int i = 0; i < o->cpus.n; i++) {
		struct hs_model *m = hs_model_new(o->cpus.v[i]);

		if (!m)
			return cli_error();
		if (as_json) {
			print_json(&j, m, o->uncalibrated);
		} else {
			if (i)
				printf("\n");
			print_text(m, o->uncalibrated);
		}
		hs_model_free(m);
	}
	if (as_json) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	return HS_EXIT_OK;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct models_opts, cpus, "cores"),
	OPT("uncalibrated", NULL, OPT_FLAG, struct models_opts, uncalibrated,
	    "only the parameters nobody has published"),
	OPT("format", "FMT", OPT_FORMAT, struct models_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_models = {
	.name = "models", .args = "", .nargs = 0,
	.summary = "every model parameter: value, unit, source, calibration",
	.opts = opts, .size = sizeof(struct models_opts), .defaults = defaults, .run = run,
};
