/*
 * test_image.c - the loader on real images and on every kind of bad input:
 * each bad file gives one line naming the file and the problem, NULL from
 * the library and exit status 2 from the CLI.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf/btf.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "testutil.h"

/* Read a whole file into memory. */
static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *b = hs_test_slurp(path, len);

	cr_assert_not_null(b, "cannot read %s (did `make kernels fixtures` run?)", path);
	return b;
}

/* Write bytes to a fresh temp file; returns its path (static buffer). */
static const char *spill(const uint8_t *buf, size_t len)
{
	static char path[64];
	int fd;

	strcpy(path, "/tmp/hotsim-test-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	return path;
}

/* Open must fail, and the message must name the file and contain `what`. */
static void expect_bad(const char *path, const char *what)
{
	struct hs_image *img = hs_image_open(path);

	cr_assert_null(img, "%s opened but should be rejected (%s)", path, what);
	cr_assert(strstr(hs_errmsg(), path), "message does not name the file: %s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), what), "expected '%s' in: %s", what, hs_errmsg());
	cr_assert_null(strchr(hs_errmsg(), '\n'));
}

/* The CLI on the same file: exit 2 and exactly one line on stderr. */
static void expect_cli_error(const char *path, const char *what)
{
	char cmd[512], line[1024];
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	FILE *p;
	int lines = 0, found = 0, status;

	snprintf(cmd, sizeof(cmd), "%s image %s 2>&1 >/dev/null", bin, path);
	p = popen(cmd, "r");
	cr_assert(p);
	while (fgets(line, sizeof(line), p)) {
		lines++;
		found |= strstr(line, what) != NULL;
	}
	status = pclose(p);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "exit status %d for %s", status, path);
	cr_assert_eq(lines, 1, "expected one error line, got %d", lines);
	cr_assert(found, "error line lacks '%s'", what);
}

static Elf64_Ehdr *ehdr(uint8_t *b) { return (Elf64_Ehdr *)b; }
static Elf64_Phdr *phdr(uint8_t *b, int i) { return (Elf64_Phdr *)(b + ehdr(b)->e_phoff) + i; }
static Elf64_Shdr *shdr(uint8_t *b, int i) { return (Elf64_Shdr *)(b + ehdr(b)->e_shoff) + i; }

static int find_shdr(uint8_t *b, const char *name)
{
	Elf64_Shdr *strs = shdr(b, ehdr(b)->e_shstrndx);

	for (int i = 0; i < ehdr(b)->e_shnum; i++)
		if (!strcmp((char *)b + strs->sh_offset + shdr(b, i)->sh_name, name))
			return i;
	cr_assert_fail("no section %s", name);
	return -1;
}

Test(image, real_kernel_identity)
{
	struct hs_image *img = hs_image_open(hs_kernel("7.2-base"));
	const struct hs_sym *s;

	cr_assert_not_null(img, "%s", hs_errmsg());
	/* linux-source-7.2 with LOCALVERSION "-hotsim" (kernels/linux/base.config) */
	cr_assert(!strncmp(img->version, "7.2.", 4), "version %s", img->version);
	cr_assert(strstr(img->version, "-hotsim"), "version %s", img->version);
	cr_assert_eq(img->version_code >> 8, 0x0702);
	cr_assert(strstr(img->compiler, "aarch64-linux-gnu-gcc"), "compiler %s", img->compiler);
	cr_assert_eq(strlen(img->build_id), 40);
	cr_assert_null(img->btf, "the base image is built without debug info");
	cr_assert_eq(img->has_dwarf, 0);
	/* KIMAGE_VADDR with 48-bit VA: 0xffff800008000000 until 6.8 (a 128 MB
	 * module area below it), 0xffff800080000000 since (2 GB) */
	cr_assert_eq(img->base, 0xffff800080000000ULL);
	s = hs_sym_exact(img, "_stext");
	cr_assert_not_null(s);
	cr_assert_eq(img->text_start, s->addr);
	hs_image_close(img);
}

Test(image, mapping_symbols_dropped_and_suffixes_resolved)
{
	struct hs_image *img = hs_image_open(hs_kernel("7.2-base"));
	const char *note = NULL;
	const struct hs_sym *s;

	cr_assert_not_null(img, "%s", hs_errmsg());
	for (size_t i = 0; i < img->nsyms; i++)
		cr_assert(!(img->syms[i].name[0] == '$' &&
			    (img->syms[i].name[1] == 'x' || img->syms[i].name[1] == 'd')),
			  "mapping symbol %s kept", img->syms[i].name);
	/* An exact name resolves without a note. */
	s = hs_sym_lookup(img, "__schedule", &note);
	cr_assert_not_null(s);
	cr_assert_null(note);
	/* Find any compiler-suffixed function and resolve it by its base name. */
	for (size_t i = 0; i < img->nsyms; i++) {
		const char *n = img->syms[i].name, *dot = strstr(n, ".isra.");
		char base[128];

		if (!dot || img->syms[i].type != STT_FUNC || (size_t)(dot - n) >= sizeof(base))
			continue;
		memcpy(base, n, (size_t)(dot - n));
		base[dot - n] = 0;
		if (hs_sym_exact(img, base))
			continue;	/* an unsuffixed copy exists too */
		s = hs_sym_lookup(img, base, &note);
		cr_assert_not_null(s, "%s did not resolve", base);
		cr_assert(!strncmp(s->name, base, strlen(base)));
		cr_assert_not_null(note);
		cr_assert(strstr(note, "resolved to"), "%s", note);
		hs_image_close(img);
		return;
	}
	cr_assert_fail("no .isra. function in the image to test suffix resolution on");
}

Test(image, btf_route)
{
	struct hs_image *img = hs_image_open(hs_kernel("debian-6.1"));
	uint64_t off, size, tsize;

	cr_assert_not_null(img, "%s", hs_errmsg());
	cr_assert_not_null(img->btf, "base-btf has CONFIG_DEBUG_INFO_BTF");
	cr_assert_gt(hs_btf_ntypes(img->btf), 1000);
	/* struct list_head { next; prev; }: 16 bytes, prev at 8 - by definition */
	cr_assert_eq(hs_btf_struct_size(img->btf, "list_head", &size), 0);
	cr_assert_eq(size, 16);
	cr_assert_eq(hs_btf_member(img->btf, "list_head", "prev", &off, &size), 0);
	cr_assert_eq(off, 8);
	cr_assert_eq(size, 8);
	/* arm64 THREAD_INFO_IN_TASK: thread_info is task_struct's first member */
	cr_assert_eq(hs_btf_member(img->btf, "task_struct", "thread_info", &off, &size), 0);
	cr_assert_eq(off, 0);
	/* member path through a nested struct, inside the struct's bounds */
	cr_assert_eq(hs_btf_member(img->btf, "task_struct", "thread.cpu_context.sp", &off, &size), 0);
	cr_assert_eq(size, 8);
	cr_assert_eq(hs_btf_struct_size(img->btf, "task_struct", &tsize), 0);
	cr_assert_lt(off, tsize);
	cr_assert_neq(hs_btf_member(img->btf, "task_struct", "no_such_member", &off, &size), 0);
	hs_image_close(img);
}

Test(image, fixture_loads)
{
	struct hs_image *img = hs_image_open(HS_FIXTURE("tiny.elf"));
	const struct hs_sym *s;
	uint64_t v;

	cr_assert_not_null(img, "%s", hs_errmsg());
	s = hs_sym_exact(img, "counter");
	cr_assert_not_null(s);
	cr_assert_eq(hs_read64(img, img->mem, s->addr, &v), 0);
	cr_assert_eq(v, 42);	/* tiny.S: counter: .quad 42 */
	cr_assert_not_null(hs_sym_exact(img, "add_one"));
	hs_image_close(img);
}

Test(image_bad, missing_file)
{
	expect_bad("/nonexistent/vmlinux", "No such file");
}

Test(image_bad, not_elf)
{
	const char *p = spill((const uint8_t *)"this is not an ELF file\n", 24);

	expect_bad(p, "not an ELF file");
	expect_cli_error(p, "not an ELF file");
	unlink(p);
}

Test(image_bad, empty)
{
	const char *p = spill((const uint8_t *)"", 0);

	expect_bad(p, "empty file");
	unlink(p);
}

Test(image_bad, wrong_machine)
{
	size_t len;
	uint8_t *b = slurp(HS_FIXTURE("tiny.elf"), &len);
	const char *p;

	ehdr(b)->e_machine = EM_X86_64;
	p = spill(b, len);
	expect_bad(p, "not aarch64");
	expect_cli_error(p, "not aarch64");
	unlink(p);
	free(b);
}

Test(image_bad, elf32)
{
	size_t len;
	uint8_t *b = slurp(HS_FIXTURE("tiny.elf"), &len);
	const char *p;

	b[EI_CLASS] = ELFCLASS32;
	p = spill(b, len);
	expect_bad(p, "32-bit");
	unlink(p);
	free(b);
}

Test(image_bad, big_endian)
{
	size_t len;
	uint8_t *b = slurp(HS_FIXTURE("tiny.elf"), &len);
	const char *p;

	b[EI_DATA] = ELFDATA2MSB;
	p = spill(b, len);
	expect_bad(p, "big-endian");
	unlink(p);
	free(b);
}

Test(image_bad, truncated_kernel)
{
	size_t len;
	uint8_t *b = slurp(hs_kernel("7.2-base"), &len);
	const char *p;

	/* cut inside .text: the PT_LOAD segment no longer fits */
	p = spill(b, len / 3);
	expect_bad(p, "truncated");
	expect_cli_error(p, "truncated");
	unlink(p);
	/* cut inside the ELF header */
	p = spill(b, 40);
	expect_bad(p, "truncated");
	unlink(p);
	free(b);
}

Test(image_bad, stripped)
{
	expect_bad(HS_FIXTURE("stripped.elf"), "no .symtab");
	expect_cli_error(HS_FIXTURE("stripped.elf"), "no .symtab");
}

Test(image_bad, overlapping_segments)
{
	size_t len;
	uint8_t *b = slurp(hs_kernel("7.2-base"), &len);
	const char *p;
	int load = -1, other = -1;

	for (int i = 0; i < ehdr(b)->e_phnum; i++) {
		if (phdr(b, i)->p_type == PT_LOAD && load < 0)
			load = i;
		else if (phdr(b, i)->p_type != PT_LOAD && other < 0)
			other = i;
	}
	cr_assert(load >= 0 && other >= 0, "need a PT_LOAD and another program header");
	/* a second loadable segment lying inside the first one */
	phdr(b, other)->p_type = PT_LOAD;
	phdr(b, other)->p_offset = phdr(b, load)->p_offset + 0x1000;
	phdr(b, other)->p_vaddr = phdr(b, load)->p_vaddr + 0x1000;
	phdr(b, other)->p_filesz = phdr(b, other)->p_memsz = 0x1000;
	phdr(b, other)->p_align = 0x1000;
	p = spill(b, len);
	expect_bad(p, "overlap");
	unlink(p);
	free(b);
}

Test(image_bad, unaligned_segment)
{
	size_t len;
	uint8_t *b = slurp(hs_kernel("7.2-base"), &len);
	const char *p;

	for (int i = 0; i < ehdr(b)->e_phnum; i++)
		if (phdr(b, i)->p_type == PT_LOAD) {
			phdr(b, i)->p_vaddr += 4;	/* vaddr % align != offset % align */
			break;
		}
	p = spill(b, len);
	expect_bad(p, "not aligned");
	unlink(p);
	free(b);
}

Test(image_bad, absurd_section_size)
{
	size_t len;
	uint8_t *b = slurp(hs_kernel("7.2-base"), &len);
	const char *p;

	shdr(b, find_shdr(b, ".rodata"))->sh_size = 1ULL << 40;
	p = spill(b, len);
	expect_bad(p, ".rodata");
	unlink(p);
	free(b);
}

Test(image_bad, absurd_segment_size)
{
	size_t len;
	uint8_t *b = slurp(hs_kernel("7.2-base"), &len);
	const char *p;

	/* the last segment with contents (the linker may leave an empty one) */
	for (int i = ehdr(b)->e_phnum - 1; i >= 0; i--)
		if (phdr(b, i)->p_type == PT_LOAD && phdr(b, i)->p_memsz) {
			phdr(b, i)->p_memsz = 1ULL << 40;	/* bss of a terabyte */
			break;
		}
	p = spill(b, len);
	expect_bad(p, "1024 MiB limit");
	unlink(p);
	free(b);
}

Test(image_bad, section_table_beyond_file)
{
	size_t len;
	uint8_t *b = slurp(HS_FIXTURE("tiny.elf"), &len);
	const char *p;

	ehdr(b)->e_shoff = len + 4096;
	p = spill(b, len);
	expect_bad(p, "section header table");
	unlink(p);
	free(b);
}
