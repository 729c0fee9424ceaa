/*
 * cmd_image.c - `hotsim image VMLINUX`: what the image is and what
 * boot-time patching does to it on each core.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"
#include "json.h"

struct image_opts {
	struct opt_cpus cpus;
	int list;
	long limit;
	enum opt_format format;
};

static const char *const site_kind_name[] = { "alternative", "alt-callback", "jump-label",
					      "runtime-const" };

static unsigned count_funcs(const struct hs_image *img)
{
	unsigned n = 0;

	for (size_t i = 0; i < img->nsyms; i++)
		n += img->syms[i].type == STT_FUNC;
	return n;
}

static const char *type_info(const struct hs_image *img, char *buf, size_t len)
{
	if (img->btf)
		snprintf(buf, len, "BTF (%u types)%s", hs_image_type_count(img),
			 img->has_dwarf ? ", DWARF present" : "");
	else
		snprintf(buf, len, "%s", img->has_dwarf ? "DWARF only (no BTF)" : "none (no BTF, no DWARF)");
	return buf;
}

static void print_identity(const struct hs_image *img)
{
	char buf[128];

	printf("image        %s\n", img->path);
	printf("kernel       %s\n", img->version[0] ? img->version : "(no linux_banner)");
	printf("compiler     %s\n", img->compiler[0] ? img->compiler : "(unknown)");
	printf("build id     %s\n", img->build_id[0] ? img->build_id : "(none)");
	printf("symbols      %zu (%u functions)\n", img->nsyms, count_funcs(img));
	printf("text         %llu bytes (0x%llx-0x%llx)\n",
	       (unsigned long long)(img->text_end - img->text_start),
	       (unsigned long long)img->text_start, (unsigned long long)img->text_end);
	if (img->page_size)
		printf("pages        %u KiB (the Image header's flags)\n", img->page_size >> 10);
	else
		printf("pages        unspecified in the Image header (taken as 4 KiB)\n");
	printf("type info    %s\n", type_info(img, buf, sizeof(buf)));
}

static void print_caps(const struct hs_image *img, const struct hs_patched *p)
{
	char buf[160];
	unsigned n = 0;

	printf("  cpucaps      %u (ARM64_NCAPS from %s; struct layout %s)\n", p->caps.ncaps,
	       p->caps.ncaps_from, p->caps.layout);
	for (unsigned c = 0; c < p->caps.ncaps; c++)
		n += p->caps.cap[c].present;
	printf("  detected     %u:", n);
	for (unsigned c = 0, col = 15; c < p->caps.ncaps; c++) {
		if (!p->caps.cap[c].present)
			continue;
		hs_cpucap_label(img, &p->caps, c, buf, sizeof(buf));
		if (col + strlen(buf) + 1 > 100) {
			printf("\n               ");
			col = 15;
		}
		printf(" %s", buf);
		col += (unsigned)strlen(buf) + 1;
	}
	printf("\n");
	for (unsigned i = 0; i < p->caps.nunknown; i++)
		printf("  unknown      matcher %s for %s: capability left off\n",
		       p->caps.unknown[i].matcher,
		       hs_cpucap_label(img, &p->caps, p->caps.unknown[i].cap, buf, sizeof(buf)));
}

static void print_core(const struct hs_image *img, const struct hs_patched *p)
{
	const struct hs_patch_report *r = &p->rep;
	char buf[160];

	printf("\ncpu %s       %s (%s)\n", p->core->name, p->core->full, p->core->arch);
	printf("  relocations  %u R_AARCH64_RELATIVE applied", r->rela_relative);
	if (r->rela_other)
		printf(", %u other types skipped (as head.S does)", r->rela_other);
	printf("; RELR %u relocations in %u words\n", r->relr_relocs, r->relr_words);
	print_caps(img, p);
	printf("  alternatives %u entries: %u applied, %u callbacks run, %u not for this cpu",
	       r->alt_total, r->alt_applied, r->alt_cb_applied, r->alt_skipped);
	if (r->alt_cb_unknown)
		printf(", %u UNKNOWN callbacks left unpatched", r->alt_cb_unknown);
	printf("\n");
	for (unsigned c = 0; c < HS_MAX_CAPS; c++)
		if (r->alt_per_cap[c])
			printf("    %-40s %5u\n", hs_cpucap_label(img, &p->caps, c, buf, sizeof(buf)),
			       r->alt_per_cap[c]);
	for (unsigned i = 0; i < r->ncallbacks; i++)
		printf("    callback %-31s %5u\n", r->callbacks[i].name, r->callbacks[i].count);
	for (unsigned i = 0; i < r->nunknown_cbs; i++)
		printf("    UNKNOWN callback %-23s %5u (hotsim cannot run it; sites left as in the file)\n",
		       r->unknown_cbs[i].name, r->unknown_cbs[i].count);
	printf("  jump labels  %u sites: %u jump, %u nop; %u changed from the file (%u keys set by boot)\n",
	       r->jump_total, r->jump_enabled, r->jump_disabled, r->jump_changed, r->keys_flipped);
	if (!r->rtconst_sections)
		printf("  runtime consts none in this image\n");
	for (unsigned i = 0; i < r->rtconst_sections && i < HS_ARRAY_SIZE(r->rtconst); i++) {
		const struct hs_rtconst *c = &r->rtconst[i];
		const struct hs_sym *s = hs_sym_at(img, c->value);

		if (c->source == HS_RTC_PENDING)
			printf("  runtime const %s at %u sites: value unknown at load (%s); "
			       "settled from the boot state, or a path that runs a site stops\n",
			       c->name, c->sites, c->from);
		else if (c->kind == HS_RTC_PTR)
			printf("  runtime const %s = %s (0x%llx) at %u sites: %s\n", c->name,
			       s && s->addr == c->value ? s->name : "?",
			       (unsigned long long)c->value, c->sites, c->from);
		else
			printf("  runtime const %s = %llu at %u sites: %s\n", c->name,
			       (unsigned long long)c->value, c->sites, c->from);
	}
	printf("  changed      %zu sites (--list shows them)\n", r->nsites);
}

static void print_sites(const struct hs_image *img, const struct hs_patched *p, long limit)
{
	const struct hs_patch_report *r = &p->rep;
	char where[160], before[64], after[64];
	long shown = 0;

	printf("\n  sites changed on %s (address, kind, before -> after):\n", p->core->name);
	for (size_t i = 0; i < r->nsites; i++) {
		const struct hs_site *s = &r->sites[i];

		for (unsigned k = 0; k < s->ninsn; k++) {
			uint32_t b = r->pool[s->words + k], a = r->pool[s->words + s->ninsn + k];
			uint64_t pc = s->addr + 4 * k;

			if (limit >= 0 && shown >= limit) {
				printf("  ... %zu more sites (raise --limit)\n", r->nsites - i);
				return;
			}
			a64_disasm(b, pc, before, sizeof(before));
			a64_disasm(a, pc, after, sizeof(after));
			printf("  %-44s %-13s %-30s -> %s", hs_addr_fmt(img, pc, where, sizeof(where)),
			       k ? "" : site_kind_name[s->kind], before, after);
			if (k == 0 && s->what)
				printf("   [%s]", s->what);
			printf("\n");
			shown++;
		}
	}
}

static void json_core(struct json *j, const struct hs_image *img, const struct hs_patched *p,
		      int list, long limit)
{
	const struct hs_patch_report *r = &p->rep;
	char buf[160], d1[64], d2[64];

	json_begin_obj(j, NULL);
	json_str(j, "cpu", p->core->name);
	json_str(j, "core", p->core->full);
	json_begin_obj(j, "relocations");
	json_uint(j, "relative", r->rela_relative);
	json_uint(j, "other", r->rela_other);
	json_uint(j, "relr", r->relr_relocs);
	json_end_obj(j);
	json_uint(j, "ncaps", p->caps.ncaps);
	json_begin_arr(j, "cpucaps");
	for (unsigned c = 0; c < p->caps.ncaps; c++)
		if (p->caps.cap[c].present)
			json_str(j, NULL, hs_cpucap_label(img, &p->caps, c, buf, sizeof(buf)));
	json_end_arr(j);
	json_begin_obj(j, "alternatives");
	json_uint(j, "entries", r->alt_total);
	json_uint(j, "applied", r->alt_applied);
	json_uint(j, "callbacks", r->alt_cb_applied);
	json_uint(j, "skipped", r->alt_skipped);
	json_uint(j, "unknown_callbacks", r->alt_cb_unknown);
	json_begin_obj(j, "per_feature");
	for (unsigned c = 0; c < HS_MAX_CAPS; c++)
		if (r->alt_per_cap[c])
			json_uint(j, hs_cpucap_label(img, &p->caps, c, buf, sizeof(buf)), r->alt_per_cap[c]);
	json_end_obj(j);
	json_end_obj(j);
	json_begin_obj(j, "jump_labels");
	json_uint(j, "sites", r->jump_total);
	json_uint(j, "jump", r->jump_enabled);
	json_uint(j, "nop", r->jump_disabled);
	json_uint(j, "changed", r->jump_changed);
	json_end_obj(j);
	json_begin_arr(j, "runtime_consts");
	for (unsigned i = 0; i < r->rtconst_sections && i < HS_ARRAY_SIZE(r->rtconst); i++) {
		json_begin_obj(j, NULL);
		static const char *const src[] = { "rule", "image", "state", "pending" };

		json_str(j, "section", r->rtconst[i].name);
		json_str(j, "variable", r->rtconst[i].var);
		json_str(j, "source", src[r->rtconst[i].source]);
		if (r->rtconst[i].source != HS_RTC_PENDING)
			json_hex(j, "value", r->rtconst[i].value);
		json_uint(j, "sites", r->rtconst[i].sites);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_uint(j, "changed_sites", r->nsites);
	if (list) {
		json_begin_arr(j, "sites");
		for (size_t i = 0; i < r->nsites && (limit < 0 || (long)i < limit); i++) {
			const struct hs_site *s = &r->sites[i];

			json_begin_obj(j, NULL);
			json_hex(j, "addr", s->addr);
			json_str(j, "where", hs_addr_fmt(img, s->addr, buf, sizeof(buf)));
			json_str(j, "kind", site_kind_name[s->kind]);
			json_begin_arr(j, "before");
			for (unsigned k = 0; k < s->ninsn; k++) {
				a64_disasm(r->pool[s->words + k], s->addr + 4 * k, d1, sizeof(d1));
				json_str(j, NULL, d1);
			}
			json_end_arr(j);
			json_begin_arr(j, "after");
			for (unsigned k = 0; k < s->ninsn; k++) {
				a64_disasm(r->pool[s->words + s->ninsn + k], s->addr + 4 * k, d2, sizeof(d2));
				json_str(j, NULL, d2);
			}
			json_end_arr(j);
			json_end_obj(j);
		}
		json_end_arr(j);
	}
	json_end_obj(j);
}

static void defaults(void *p)
{
	struct image_opts *o = p;

	opt_default_cpus(&o->cpus);
	o->limit = 10000;
}

/* The walk's first stage is all image prints: each core's patching. */
struct printing {
	const struct image_opts *o;
	const struct hs_image *img;
	struct json *j;
};

static int patched_stage(void *ctx, const struct hs_patched *pt)
{
	const struct printing *p = ctx;

	if (p->j) {
		json_core(p->j, p->img, pt, p->o->list, p->o->limit);
	} else {
		print_core(p->img, pt);
		if (p->o->list)
			print_sites(p->img, pt, p->o->limit);
	}
	return 0;
}

static int run(void *p, char **args)
{
	const struct image_opts *o = p;
	int as_json = o->format == FORMAT_JSON, rc = HS_EXIT_OK;
	struct hs_image *img = hs_image_open(args[0]);
	struct ms_options m;
	struct json j;
	struct printing pr = { o, img, as_json ? &j : NULL };
	char buf[128];

	if (!img)
		return cli_error();
	cli_walk_options(&m, &o->cpus, NULL, HS_SRC_AUTO);
	if (as_json) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-image/1");
		json_str(&j, "image", img->path);
		json_str(&j, "kernel", img->version);
		json_str(&j, "compiler", img->compiler);
		json_str(&j, "build_id", img->build_id);
		json_uint(&j, "page_size", img->page_size);
		json_uint(&j, "symbols", img->nsyms);
		json_uint(&j, "text_bytes", img->text_end - img->text_start);
		json_str(&j, "type_info", type_info(img, buf, sizeof(buf)));
		json_begin_arr(&j, "cpus");
	} else {
		print_identity(img);
		printf("platform     %s\n", hs_platform_assumptions);
	}
	if (ms_walk(img, &m, &(struct ms_stages){ .ctx = &pr, .patched = patched_stage })) {
		fflush(stdout);
		rc = cli_error();
	}
	if (as_json && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	hs_image_close(img);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct image_opts, cpus, "cores to patch for"),
	OPT("list", NULL, OPT_FLAG, struct image_opts, list, "list every changed site"),
	OPT_N("limit", "N", struct image_opts, limit, 0, 10000000, "sites --list prints (default 10000)"),
	OPT("format", "FMT", OPT_FORMAT, struct image_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_image = {
	.name = "image", .args = "VMLINUX", .nargs = 1,
	.summary = "identity, type info, and boot-time patching per core",
	.opts = opts, .size = sizeof(struct image_opts), .defaults = defaults, .run = run,
};
