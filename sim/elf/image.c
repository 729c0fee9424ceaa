/*
 * image.c - load an aarch64 ELF (vmlinux) with libelf.
 *
 * Every offset and size read from the file is checked against the file size
 * before use: hotsim runs on whatever image a change produced and must answer
 * a hostile or truncated file with one line, not a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/btf.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "elf/image_internal.h"

#define PAGE 4096ULL

uint64_t hs_image_max_span = HS_IMAGE_MAX_SPAN;

static int bad(const struct hs_image *img, const char *what)
{
	return hs_fail("%s: %s", img->path, what);
}

/* off+len within [0, size) without overflow */
static int in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/*
 * The ELF header is checked by hand before libelf sees the file, so every
 * problem gets a specific message (libelf says only "invalid ELF file data").
 */
static int check_header(struct hs_image *img)
{
	const unsigned char *id = img->file;
	Elf64_Ehdr eh;

	if (img->file_size < 4 || memcmp(id, ELFMAG, SELFMAG) != 0)
		return bad(img, "not an ELF file");
	if (img->file_size < EI_NIDENT)
		return bad(img, "truncated ELF identification");
	if (id[EI_CLASS] == ELFCLASS32)
		return bad(img, "32-bit ELF (ELFCLASS32); hotsim needs a 64-bit arm64 vmlinux");
	if (id[EI_CLASS] != ELFCLASS64)
		return bad(img, "bad ELF class");
	if (id[EI_DATA] != ELFDATA2LSB)
		return bad(img, "big-endian ELF; only little-endian arm64 kernels are supported");
	if (img->file_size < sizeof(Elf64_Ehdr))
		return bad(img, "truncated ELF header");
	memcpy(&eh, img->file, sizeof(eh));
	if (eh.e_machine != EM_AARCH64)
		return hs_fail("%s: machine is %u, not aarch64 (%u)", img->path,
			       (unsigned)eh.e_machine, (unsigned)EM_AARCH64);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return hs_fail("%s: ELF type %u is not an executable image", img->path,
			       (unsigned)eh.e_type);
	if (eh.e_phoff && (eh.e_phentsize != sizeof(Elf64_Phdr) ||
			   !in_file(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr),
				    img->file_size)))
		return hs_fail("%s: truncated or malformed program header table (offset 0x%llx)",
			       img->path, (unsigned long long)eh.e_phoff);
	if (eh.e_shoff && (eh.e_shentsize != sizeof(Elf64_Shdr) ||
			   !in_file(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
				    img->file_size)))
		return hs_fail("%s: truncated or malformed section header table (offset 0x%llx, file size 0x%zx)",
			       img->path, (unsigned long long)eh.e_shoff, img->file_size);
	img->entry = eh.e_entry;
	return 0;
}

/*
 * The memory image lives in shared memory of its own (memfd) where the
 * system has it: a patched copy is then a private mapping of it, copied
 * page by page as patching writes (hs_image_mem_copy), and the measuring
 * processes compare forks inherit no page tables for it - each maps what
 * it touches. Zero until written, like the calloc it falls back to.
 */
static int alloc_mem(struct hs_image *img)
{
	int fd = memfd_create("hotsim-image", MFD_CLOEXEC);
	void *p;

	img->memfd = -1;
	if (fd >= 0 && ftruncate(fd, (off_t)img->span) == 0 &&
	    (p = mmap(NULL, img->span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) != MAP_FAILED) {
		img->mem = p;
		img->memfd = fd;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	img->mem = hs_calloc(1, img->span);
	return img->mem ? 0 : -1;
}

static void free_mem(struct hs_image *img)
{
	if (img->memfd >= 0) {
		if (img->mem)
			munmap(img->mem, img->span);
		close(img->memfd);
	} else {
		free(img->mem);
	}
	img->mem = NULL;
	img->memfd = -1;
}

uint8_t *hs_image_mem_copy(const struct hs_image *img)
{
	uint8_t *m;

	if (img->memfd >= 0) {
		m = mmap(NULL, img->span, PROT_READ | PROT_WRITE, MAP_PRIVATE, img->memfd, 0);
		if (m != MAP_FAILED)
			return m;
	}
	/* zeroed, then the segments' file contents: the rest (BSS, the gaps)
	 * is zero in the image too and stays untouched pages here */
	m = mmap(NULL, img->span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		hs_fail("out of memory for a copy of %s (%llu MiB)", img->path,
			(unsigned long long)(img->span >> 20));
		return NULL;
	}
	for (size_t i = 0; i < img->nsegs; i++) {
		const struct hs_segment *s = &img->segs[i];

		if (s->memsz && s->filesz)
			memcpy(m + (s->vaddr - img->base), img->mem + (s->vaddr - img->base), s->filesz);
	}
	return m;
}

void hs_image_mem_release(const struct hs_image *img, uint8_t *mem)
{
	if (mem)
		munmap(mem, img->span);
}

static int load_segments(struct hs_image *img, Elf *elf)
{
	size_t n, i, j;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (elf_getphdrnum(elf, &n) != 0)
		return hs_fail("%s: no program headers (%s)", img->path, elf_errmsg(-1));
	img->segs = hs_calloc(n, sizeof(*img->segs));
	if (!img->segs)
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		struct hs_segment *s;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return hs_fail("%s: program header %zu unreadable", img->path, i);
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_filesz > ph.p_memsz)
			return hs_fail("%s: PT_LOAD %zu has filesz > memsz", img->path, i);
		if (!in_file(ph.p_offset, ph.p_filesz, img->file_size))
			return hs_fail("%s: truncated: PT_LOAD %zu [0x%llx+0x%llx] beyond file size 0x%zx",
				       img->path, i, (unsigned long long)ph.p_offset,
				       (unsigned long long)ph.p_filesz, img->file_size);
		/* an empty segment (lld leaves one at vaddr 0 after the data) maps
		 * nothing, so its alignment does not matter */
		if (ph.p_memsz && ph.p_align > 1 &&
		    ((ph.p_align & (ph.p_align - 1)) ||
		     ph.p_vaddr % ph.p_align != ph.p_offset % ph.p_align))
			return hs_fail("%s: PT_LOAD %zu at 0x%llx is not aligned (p_align 0x%llx)",
				       img->path, i, (unsigned long long)ph.p_vaddr,
				       (unsigned long long)ph.p_align);
		if (ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
			return hs_fail("%s: PT_LOAD %zu wraps the address space", img->path, i);
		if (ph.p_memsz > hs_image_max_span)
			return hs_fail("%s: PT_LOAD %zu size 0x%llx exceeds the %llu MiB limit",
				       img->path, i, (unsigned long long)ph.p_memsz,
				       (unsigned long long)(hs_image_max_span >> 20));
		s = &img->segs[img->nsegs++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->filesz = ph.p_filesz;
		s->offset = ph.p_offset;
		s->flags = ph.p_flags;
		if (ph.p_memsz == 0)
			continue;
		if (ph.p_vaddr < lo)
			lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
	}
	if (img->nsegs == 0 || lo >= hi)
		return bad(img, "no loadable (PT_LOAD) segments");
	for (i = 0; i < img->nsegs; i++)
		for (j = i + 1; j < img->nsegs; j++) {
			const struct hs_segment *a = &img->segs[i], *b = &img->segs[j];

			if (a->memsz && b->memsz && a->vaddr < b->vaddr + b->memsz &&
			    b->vaddr < a->vaddr + a->memsz)
				return hs_fail("%s: PT_LOAD segments overlap at 0x%llx", img->path,
					       (unsigned long long)(a->vaddr > b->vaddr ? a->vaddr : b->vaddr));
		}
	img->base = lo & ~(PAGE - 1);
	if (hi - img->base > hs_image_max_span)
		return hs_fail("%s: loadable segments span 0x%llx bytes, over the %llu MiB limit",
			       img->path, (unsigned long long)(hi - img->base),
			       (unsigned long long)(hs_image_max_span >> 20));
	img->span = ((hi - img->base) + PAGE - 1) & ~(PAGE - 1);
	if (alloc_mem(img))
		return -1;
	for (i = 0; i < img->nsegs; i++) {
		const struct hs_segment *s = &img->segs[i];

		/* empty segments may lie anywhere: they were left out of the span */
		if (s->memsz)
			memcpy(img->mem + (s->vaddr - img->base), img->file + s->offset, s->filesz);
	}
	return 0;
}

static int load_sections(struct hs_image *img, Elf *elf)
{
	size_t n, shstrndx, i;
	Elf_Scn *scn = NULL;

	if (elf_getshdrnum(elf, &n) != 0 || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return hs_fail("%s: bad section header table (%s)", img->path, elf_errmsg(-1));
	img->secs = hs_calloc(n, sizeof(*img->secs));
	if (!img->secs)
		return -1;
	for (i = 0; (scn = elf_nextscn(elf, scn)) != NULL; i++) {
		GElf_Shdr sh;
		struct hs_section *s;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return hs_fail("%s: section %zu unreadable", img->path, i + 1);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return hs_fail("%s: section %zu has a bad name offset", img->path, i + 1);
		if (sh.sh_type != SHT_NOBITS && !in_file(sh.sh_offset, sh.sh_size, img->file_size))
			return hs_fail("%s: truncated: section %s [0x%llx+0x%llx] beyond file size 0x%zx",
				       img->path, name, (unsigned long long)sh.sh_offset,
				       (unsigned long long)sh.sh_size, img->file_size);
		if (img->nsecs >= n)
			break;
		s = &img->secs[img->nsecs++];
		s->name = name;
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->offset = sh.sh_offset;
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		/* An allocated section must lie inside the loaded image. */
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size && sh.sh_type != SHT_NOBITS &&
		    !hs_at(img, img->mem, sh.sh_addr, sh.sh_size))
			return hs_fail("%s: section %s at 0x%llx (0x%llx bytes) is outside the loaded segments",
				       img->path, name, (unsigned long long)sh.sh_addr,
				       (unsigned long long)sh.sh_size);
	}
	return 0;
}

const uint8_t *hs_section_bytes(const struct hs_image *img, const struct hs_section *s)
{
	if (!s || s->type == SHT_NOBITS || !in_file(s->offset, s->size, img->file_size))
		return NULL;
	return img->file + s->offset;
}

const struct hs_section *hs_section_find(const struct hs_image *img, const char *name)
{
	for (size_t i = 0; i < img->nsecs; i++)
		if (strcmp(img->secs[i].name, name) == 0)
			return &img->secs[i];
	return NULL;
}

int hs_read64(const struct hs_image *img, const uint8_t *mem, uint64_t va, uint64_t *out)
{
	const uint8_t *p = hs_at(img, (uint8_t *)mem, va, 8);

	if (!p)
		return -1;
	memcpy(out, p, 8);
	return 0;
}

int hs_read32(const struct hs_image *img, const uint8_t *mem, uint64_t va, uint32_t *out)
{
	const uint8_t *p = hs_at(img, (uint8_t *)mem, va, 4);

	if (!p)
		return -1;
	memcpy(out, p, 4);
	return 0;
}

static void text_range(struct hs_image *img)
{
	const struct hs_sym *s = hs_sym_exact(img, "_stext"), *e = hs_sym_exact(img, "_etext");

	if (s && e && e->addr > s->addr) {
		img->text_start = s->addr;
		img->text_end = e->addr;
		return;
	}
	/* Not a kernel: the executable segments. */
	img->text_start = UINT64_MAX;
	for (size_t i = 0; i < img->nsegs; i++)
		if (img->segs[i].flags & PF_X) {
			if (img->segs[i].vaddr < img->text_start)
				img->text_start = img->segs[i].vaddr;
			if (img->segs[i].vaddr + img->segs[i].memsz > img->text_end)
				img->text_end = img->segs[i].vaddr + img->segs[i].memsz;
		}
	if (img->text_start == UINT64_MAX)
		img->text_start = img->text_end = 0;
}

static int load_btf(struct hs_image *img)
{
	const struct hs_section *s = hs_section_find(img, ".BTF");
	const uint8_t *p;

	if (hs_section_find(img, ".debug_info"))
		img->has_dwarf = 1;
	if (!s)
		return 0;
	p = hs_section_bytes(img, s);
	if (!p)
		return hs_fail("%s: .BTF section unreadable", img->path);
	img->btf = hs_btf_parse(p, s->size);
	if (!img->btf) {
		char why[256];

		/* hs_errmsg() is the buffer hs_fail() writes: copy it first */
		snprintf(why, sizeof(why), "%s", hs_errmsg());
		return hs_fail("%s: .BTF: %s", img->path, why);
	}
	return 0;
}

/* Everything after the bytes are in place (file mapping or caller buffer). */
static struct hs_image *parse(struct hs_image *img)
{
	Elf *elf = NULL;

	if (check_header(img))
		goto fail;
	elf_version(EV_CURRENT);
	/* libelf reads from our bytes, so it never sees more than the file. */
	elf = elf_memory((char *)img->file, img->file_size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		hs_fail("%s: unreadable ELF (%s)", img->path, elf_errmsg(-1));
		goto fail;
	}
	if (load_segments(img, elf) || load_sections(img, elf) ||
	    hs_image_load_symbols(img, elf))
		goto fail;
	text_range(img);
	hs_image_read_identity(img);
	if (load_btf(img))
		goto fail;
	elf_end(elf);
	return img;
fail:
	if (elf)
		elf_end(elf);
	hs_image_close(img);
	return NULL;
}

struct hs_image *hs_image_open(const char *path)
{
	struct hs_image *img;
	struct stat st;
	int fd;

	img = hs_calloc(1, sizeof(*img));
	if (!img)
		return NULL;
	img->memfd = -1;
	img->path = hs_strdup(path);
	if (!img->path)
		goto fail;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		hs_fail("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		hs_fail("%s: not a regular file", path);
		close(fd);
		goto fail;
	}
	if (st.st_size == 0) {
		hs_fail("%s: empty file, not an ELF file", path);
		close(fd);
		goto fail;
	}
	img->file_size = (size_t)st.st_size;
	img->file = mmap(NULL, img->file_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (img->file == MAP_FAILED) {
		img->file = NULL;
		hs_fail("%s: mmap: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	img->mapped = 1;
	close(fd);
	if (!parse(img))
		return NULL;	/* parse() closed it */
	/* everything parsed is in memory of its own now: the file's pages go
	 * (a later read faults them in again from the page cache), so a 58 MB
	 * distro image does not stay resident beside its loaded copy */
	madvise((void *)img->file, img->file_size, MADV_DONTNEED);
	return img;
fail:
	hs_image_close(img);
	return NULL;
}

struct hs_image *hs_image_open_mem(const char *name, const uint8_t *data, size_t len)
{
	struct hs_image *img = hs_calloc(1, sizeof(*img));

	if (!img)
		return NULL;
	img->memfd = -1;
	img->path = hs_strdup(name);
	if (!img->path) {
		free(img);
		return NULL;
	}
	if (len == 0) {
		hs_fail("%s: empty file, not an ELF file", name);
		hs_image_close(img);
		return NULL;
	}
	img->file = data;
	img->file_size = len;
	return parse(img);
}

void hs_image_close(struct hs_image *img)
{
	if (!img)
		return;
	if (img->file && img->mapped)
		munmap((void *)img->file, img->file_size);
	hs_btf_free(img->btf);
	free_mem(img);
	free(img->segs);
	free(img->secs);
	free(img->syms);
	free(img->by_name);
	free(img->path);
	free(img);
}
