/*
 * cmd_trace.c - `hotsim trace VMLINUX PATH [--cpu X] [--limit N]`: the
 * dynamic instruction stream of one path (index, address, symbol+offset,
 * disassembly, data address), capped at --limit lines (default 2000).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/paths.h"

#define TRACE_LIMIT 1000000

int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' }, { "limit", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },     { NULL, 0, NULL, 0 }
	};
	const struct hs_core *core = hs_cores[0];
	const struct hs_path_def *def;
	struct hs_path_run pr;
	struct hs_patched *pt;
	struct hs_image *img;
	long limit = 2000;
	int c, rc = HS_EXIT_OK;

	optind = 1;
	opterr = 0;	/* our own one-line message instead of getopt's */
	while ((c = getopt_long(argc, argv, "c:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!(core = hs_core_find(optarg)))
				return cli_usage("trace", "unknown cpu '%s' (known: a53, a55, a73)", optarg);
			break;
		case 'n':
			if ((limit = cli_parse_count(optarg)) < 0)
				return cli_usage("trace", "--limit needs a non-negative number");
			break;
		case 'h':
			printf("usage: hotsim trace VMLINUX PATH [--cpu a53|a55|a73] [--limit N]\n");
			return HS_EXIT_OK;
		default:
			return cli_usage("trace", "usage: hotsim trace VMLINUX PATH [--cpu X] [--limit N]");
		}
	}
	if (optind != argc - 2)
		return cli_usage("trace", "expects VMLINUX and PATH");
	if (!(def = hs_path_find(argv[optind + 1])))
		return cli_usage("trace", "unknown path '%s' (see hotsim paths)", argv[optind + 1]);
	if (!(img = hs_image_open(argv[optind])))
		return cli_error();
	if (!(pt = hs_patch(img, core))) {
		hs_image_close(img);
		return cli_error();
	}
	if (hs_path_run(def, pt, TRACE_LIMIT, &pr)) {
		rc = cli_error();
	} else if (!pr.ok) {
		fprintf(stderr, "hotsim: %s on %s cannot run: %s\n", def->name, core->name, pr.why);
		rc = HS_EXIT_ERROR;
	} else {
		printf("# %s on %s (%s): %zu instructions from %s\n", def->name, core->name, core->full,
		       pr.tr.n, pr.entry_desc);
		for (size_t i = 0; i < pr.tr.n; i++) {
			const struct hs_tinsn *t = &pr.tr.v[i];
			char where[128], text[96];

			if ((long)i >= limit) {
				printf("# ... %zu more instructions (raise --limit)\n", pr.tr.n - i);
				break;
			}
			a64_disasm(hs_trace_insn(&pr.tr, i)->word, t->pc, text, sizeof(text));
			printf("%6zu  %016llx  %-40s %s", i, (unsigned long long)t->pc,
			       hs_addr_fmt(img, t->pc, where, sizeof(where)), text);
			if (t->addr)
				printf("%*s[0x%llx]", strlen(text) < 40 ? (int)(41 - strlen(text)) : 1, "",
				       (unsigned long long)t->addr);
			if (t->flags & HS_T_STUB)
				printf(" <stubbed callee>");
			if (t->flags & HS_T_FIRMWARE)
				printf(" <firmware>");
			if (t->flags & HS_T_SYSREG_EMU)
				printf(" <emulated sysreg>");
			printf("\n");
		}
	}
	hs_path_run_free(&pr);
	hs_patched_free(pt);
	hs_image_close(img);
	return rc;
}
