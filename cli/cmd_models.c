/*
 * cmd_models.c - `hotsim models [--cpu X] [--uncalibrated] [--json]`: every
 * cost model and every parameter with its value, unit, calibration status
 * and source, so a reviewer can trace any number in a result to a published
 * fact or see that it is a named assumption.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/model.h"
#include "json.h"

#define MAX_MODELS 16

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

		if (only_uncal && p->calibrated)
			continue;
		printf("    %-22s %10g %-14s %-6s %s\n", p->name, p->value, p->unit,
		       p->calibrated ? "cal" : "UNCAL", p->source);
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
		json_bool(j, "calibrated", p->calibrated);
		json_str(j, "source", p->source);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

int cmd_models(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "uncalibrated", no_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int sel[MAX_MODELS], nsel = 0, as_json = 0, only_uncal = 0, c;
	struct json j;

	optind = 1;
	opterr = 0;	/* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "c:ujh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			nsel = cli_parse_models(optarg, sel, MAX_MODELS);
			if (nsel < 0)
				return cli_error();
			break;
		case 'u': only_uncal = 1; break;
		case 'j': as_json = 1; break;
		case 'h':
			printf("usage: hotsim models [--cpu a53,a55,a73] [--uncalibrated] [--json]\n");
			return HS_EXIT_OK;
		default:
			return cli_usage("models", "usage: hotsim models [--cpu X] [--uncalibrated] [--json]");
		}
	}
	if (optind != argc)
		return cli_usage("models", "takes no arguments (got '%.40s')", argv[optind]);
	if (!nsel)
		nsel = cli_parse_models("all", sel, MAX_MODELS);
	if (as_json) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_int(&j, "schema", 1);
		json_begin_arr(&j, "models");
	}
	for (int i = 0; i < nsel; i++) {
		struct hs_model *m = hs_model_new(hs_model_names[sel[i]]);

		if (!m)
			return cli_error();
		if (as_json) {
			print_json(&j, m, only_uncal);
		} else {
			if (i)
				printf("\n");
			print_text(m, only_uncal);
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
