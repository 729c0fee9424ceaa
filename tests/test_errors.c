/*
 * test_errors.c - the error catalogue (docs/errors.md): every entry is
 * triggered here, its message must contain the catalogued text, be one
 * line, and name the file, symbol or address. A last test checks that
 * every catalogued text appears in docs/errors.md, so the two cannot drift.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "emu/kshims.h"
#include "emu/kstate.h"
#include "elf/ksyms.h"
#include "hotsim/patch.h"
#include "emu/runner.h"
#include "testutil.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *b = hs_test_slurp(path, len);

	cr_assert_not_null(b, "cannot read %s (did `make kernels fixtures` run?)", path);
	return b;
}

static Elf64_Ehdr *eh(uint8_t *b) { return (Elf64_Ehdr *)b; }
static Elf64_Shdr *sh(uint8_t *b, int i) { return (Elf64_Shdr *)(b + eh(b)->e_shoff) + i; }
static Elf64_Phdr *ph(uint8_t *b, int i) { return (Elf64_Phdr *)(b + eh(b)->e_phoff) + i; }

static int section(uint8_t *b, const char *name)
{
	Elf64_Shdr *strs = sh(b, eh(b)->e_shstrndx);

	for (int i = 0; i < eh(b)->e_shnum; i++)
		if (!strcmp((char *)b + strs->sh_offset + sh(b, i)->sh_name, name))
			return i;
	cr_assert_fail("no section %s", name);
	return -1;
}

/* File offset of a symbol's address. */
static uint64_t file_off(uint8_t *b, const char *symname)
{
	int symtab = section(b, ".symtab");
	Elf64_Shdr *st = sh(b, symtab), *strs = sh(b, (int)st->sh_link);

	for (uint64_t i = 0; i < st->sh_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym *s = (Elf64_Sym *)(b + st->sh_offset) + i;

		if (strcmp((char *)b + strs->sh_offset + s->st_name, symname))
			continue;
		for (int k = 0; k < eh(b)->e_shnum; k++) {
			Elf64_Shdr *x = sh(b, k);

			if (x->sh_type != SHT_NOBITS && s->st_value >= x->sh_addr &&
			    s->st_value < x->sh_addr + x->sh_size)
				return x->sh_offset + (s->st_value - x->sh_addr);
		}
	}
	cr_assert_fail("no symbol %s", symname);
	return 0;
}

static Elf64_Sym *symbol(uint8_t *b, const char *symname)
{
	Elf64_Shdr *st = sh(b, section(b, ".symtab")), *strs = sh(b, (int)st->sh_link);

	for (uint64_t i = 0; i < st->sh_size / sizeof(Elf64_Sym); i++) {
		Elf64_Sym *s = (Elf64_Sym *)(b + st->sh_offset) + i;

		if (!strcmp((char *)b + strs->sh_offset + s->st_name, symname))
			return s;
	}
	cr_assert_fail("no symbol %s", symname);
	return NULL;
}

/* The message checks shared by every entry. */
static void check(const char *want, const char *names)
{
	cr_assert(strstr(hs_errmsg(), want), "expected '%s' in: %s", want, hs_errmsg());
	cr_assert(strstr(hs_errmsg(), names), "expected the message to name '%s': %s", names,
		  hs_errmsg());
	cr_assert_null(strchr(hs_errmsg(), '\n'));
}

/* Open a mutated minikernel; expect the loader to fail. */
static void expect_load_error(uint8_t *b, size_t len, const char *want)
{
	struct hs_image *img = hs_image_open_mem("mutated.elf", b, len);

	cr_assert_null(img, "mutated image loaded; expected '%s'", want);
	check(want, "mutated.elf");
}

/* Open a mutated minikernel fine; expect patching for a55 to fail. */
static void expect_patch_error(uint8_t *b, size_t len, const char *want)
{
	struct hs_image *img = hs_image_open_mem("mutated.elf", b, len);

	cr_assert_not_null(img, "%s", hs_errmsg());
	cr_assert_null(hs_patch(img, hs_core_find("a55")), "patched; expected '%s'", want);
	check(want, "mutated.elf");
	hs_image_close(img);
}

#define MINI HS_FIXTURE("minikernel.elf")

Test(errors, load_not_elf)
{
	expect_load_error((uint8_t *)strdup("#!/bin/sh\necho\n"), 15, "not an ELF file");
}

Test(errors, load_elf32)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	b[EI_CLASS] = ELFCLASS32;
	expect_load_error(b, n, "32-bit ELF");
	free(b);
}

Test(errors, load_big_endian)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	b[EI_DATA] = ELFDATA2MSB;
	expect_load_error(b, n, "big-endian ELF");
	free(b);
}

Test(errors, load_wrong_machine)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	eh(b)->e_machine = EM_RISCV;
	expect_load_error(b, n, "not aarch64");
	free(b);
}

Test(errors, load_not_executable)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	eh(b)->e_type = ET_REL;
	expect_load_error(b, n, "is not an executable image");
	free(b);
}

Test(errors, load_truncated)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	expect_load_error(b, n / 2, "truncated");
	free(b);
}

Test(errors, load_filesz_over_memsz)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	ph(b, 0)->p_memsz = ph(b, 0)->p_filesz - 1;
	expect_load_error(b, n, "filesz > memsz");
	free(b);
}

Test(errors, load_section_outside_segments)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	sh(b, section(b, ".altinstructions"))->sh_addr = 0xffff900000000000ULL;
	expect_load_error(b, n, "outside the loaded segments");
	free(b);
}

Test(errors, load_stripped)
{
	cr_assert_null(hs_image_open(HS_FIXTURE("stripped.elf")));
	check("no .symtab", "stripped.elf");
}

Test(errors, load_bad_btf)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	b[sh(b, section(b, ".BTF"))->sh_offset] ^= 0xff;
	expect_load_error(b, n, "bad BTF magic");
	free(b);
}

Test(errors, patch_no_cpucap_tables)
{
	struct hs_image *img = hs_image_open(HS_FIXTURE("tiny.elf"));

	cr_assert_not_null(img);
	cr_assert_null(hs_patch(img, hs_core_find("a53")));
	check("no arm64_features[] table", "tiny.elf");
	hs_image_close(img);
}

Test(errors, patch_unknown_cpucap_layout)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);

	symbol(b, "arm64_features")->st_size = 196;
	expect_patch_error(b, n, "does not match any known struct arm64_cpu_capabilities layout");
	free(b);
}

Test(errors, patch_alternative_outside_text)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);
	int32_t far = 0x40000000;

	memcpy(b + file_off(b, "__alt_instructions"), &far, 4);
	expect_patch_error(b, n, "outside kernel text");
	free(b);
}

Test(errors, patch_jump_label_site)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);
	uint32_t mov = 0xd2800000u;	/* mov x0, #0 where a nop should be */

	memcpy(b + file_off(b, "jl_off"), &mov, 4);
	expect_patch_error(b, n, "neither nop nor b");
	free(b);
}

Test(errors, patch_runtime_const_site)
{
	size_t n;
	uint8_t *b = slurp(MINI, &n);
	uint32_t add = 0x91000400u;	/* add x0, x0, #1 */

	memcpy(b + file_off(b, "rt_site"), &add, 4);
	expect_patch_error(b, n, "is not movz/movk");
	free(b);
}

static struct hs_runner *runner(struct hs_image **img)
{
	struct hs_runner *r;

	*img = hs_image_open(HS_FIXTURE("runner.elf"));
	cr_assert_not_null(*img);
	r = hs_runner_new(*img, (*img)->mem, NULL);
	cr_assert_not_null(r);
	return r;
}

static void run_fn(const char *fn, uint64_t budget, size_t trace_limit, const char *want)
{
	struct hs_image *img;
	struct hs_runner *r = runner(&img);
	const struct hs_sym *s = hs_sym_exact(img, fn);
	struct hs_trace t;
	struct hs_run run = { .what = "catalogue-path", .budget = budget };

	cr_assert_not_null(s, "%s", fn);
	hs_trace_init(&t, hs_rt_dcache(r), trace_limit);
	run.pc = s->addr;
	run.trace = trace_limit ? &t : NULL;
	hs_rt_set_reg(r, UC_ARM64_REG_X0, 0x1234000);	/* an unmapped pointer */
	hs_rt_set_reg(r, UC_ARM64_REG_X30, HS_EXIT_VA);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, HS_HEAP_VA + 0x100000);
	cr_assert_neq(hs_rt_run(r, &run), 0, "%s ran", fn);
	check(want, "catalogue-path");
	hs_trace_free(&t);
	hs_runner_free(r);
	hs_image_close(img);
}

Test(errors, run_budget)
{
	run_fn("spin", 3000, 0, "instruction budget of 3000 exhausted at spin+0x0");
}

Test(errors, run_trace_cap)
{
	run_fn("spin", 100000, 500, "trace exceeds 500 instructions");
}

Test(errors, run_fault)
{
	run_fn("calls_load", 100, 0, "fault: read of unmapped 0x");
}

Test(errors, run_bug)
{
	run_fn("bug", 100, 0, "kernel BUG()/WARN() (brk #0x800) at bug+0x0");
}

Test(errors, run_unknown_sysreg)
{
	run_fn("unknown_sysreg", 100, 0, "unimplemented system register");
}

Test(errors, run_unknown_firmware_call)
{
	run_fn("fw_unknown", 100, 0, "firmware call 0x1234 hotsim does not emulate");
}

/* kernels/fixtures/kmsg.S: the kernel's own words (see test_kmsg.c) */
static void kmsg_fn(const char *fn, int settle, const char *want)
{
	struct hs_image *img = hs_image_open(HS_FIXTURE("kmsg.elf"));
	struct hs_runner *r;
	struct hs_patch_report rep = { 0 };
	uint8_t *mem;

	cr_assert_not_null(img, "%s", hs_errmsg());
	mem = malloc(img->span);
	memcpy(mem, img->mem, img->span);
	cr_assert_eq(hs_apply_runtime_consts(img, mem, &rep), 0, "%s", hs_errmsg());
	r = hs_runner_new(img, mem, NULL);
	cr_assert_not_null(r, "%s", hs_errmsg());
	if (settle)
		cr_assert_eq(hs_rtconst_settle(r, &rep), 0, "%s", hs_errmsg());
	cr_assert_neq(hs_rt_call(r, "catalogue-path", hs_sym_exact(img, fn)->addr, NULL, 0, 0, 1000,
				 NULL), 0, "%s ran", fn);
	check(want, "catalogue-path");
	hs_runner_free(r);
	hs_patch_report_free(&rep);
	free(mem);
	hs_image_close(img);
}

Test(errors, run_pending_runtime_const)
{
	kmsg_fn("uses_pending", 1, "does not know the value boot gives unknown_var");
}

Test(errors, run_panic)
{
	kmsg_fn("do_panic", 0, "kernel panic: \"state fork broken");
}

Test(errors, run_warn)
{
	kmsg_fn("do_warn", 0, "kernel WARNING at kernel/fake.c:77");
}

Test(errors, run_stack_protector)
{
	kmsg_fn("do_chk", 0, "stack protector: __stack_chk_fail");
}

/* The runner fixture is no kernel: none of the allocator names, no init
 * stack - the state's lookups name what they tried. */
Test(errors, state_missing_allocator)
{
	struct hs_image *img;
	struct hs_runner *r = runner(&img);
	struct hs_kshims k = { 0 };

	cr_assert_neq(hs_kshims_install(r, &k), 0);
	check("no allocator entry point for kmalloc(size, flags) (tried __kmalloc_noprof, __kmalloc)",
	      HS_FIXTURE("runner.elf"));
	hs_runner_free(r);
	hs_image_close(img);
}

Test(errors, state_missing_symbol_role)
{
	struct hs_image *img = hs_image_open(HS_FIXTURE("runner.elf"));

	cr_assert_null(hs_ksym(img, "init stack start"));
	check("no symbol for the init stack start (tried __start_init_stack, __start_init_task)",
	      HS_FIXTURE("runner.elf"));
	hs_image_close(img);
}

/* The catalogue in docs/errors.md lists exactly these texts. */
static const char *const catalogue[] = {
	"not an ELF file", "32-bit ELF", "big-endian ELF", "not aarch64", "is not an executable image",
	"truncated", "filesz > memsz", "outside the loaded segments", "no .symtab", "bad BTF magic",
	"not aligned", "overlap", "MiB limit", "section header table",
	"no arm64_features[] table", "does not match any known struct arm64_cpu_capabilities layout",
	"outside kernel text", "neither nop nor b", "is not movz/movk",
	"does not know the value boot gives", "instruction budget", "trace exceeds", "fault:",
	"kernel BUG()/WARN()", "kernel panic:", "kernel WARNING at", "stack protector:",
	"no allocator entry point", "no symbol for the",
	"unimplemented system register", "does not emulate",
	"cannot run", "unknown cpu", "unknown path", "--param",
};

Test(errors, docs_list_the_catalogue)
{
	size_t n;
	char *doc = (char *)slurp("docs/errors.md", &n);

	doc[n] = 0;
	for (size_t i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++)
		cr_assert(strstr(doc, catalogue[i]), "docs/errors.md's catalogue lacks '%s'", catalogue[i]);
	free(doc);
}

/* A fault report with a call stack runs past 512 bytes: kept whole. */
Test(errors, long_messages_are_not_cut)
{
	char big[1500];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	hs_fail("start %s end", big);
	cr_assert_eq(strlen(hs_errmsg()), strlen(big) + 10);
	cr_assert(strstr(hs_errmsg(), " end"));
}
