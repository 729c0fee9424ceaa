/*
 * image.h - a vmlinux (or any small aarch64 ELF) as hotsim sees it.
 *
 * The loader maps the file, validates every header before trusting it, and
 * builds a flat memory image of the PT_LOAD segments at their link addresses
 * (bss zeroed). That image is pristine: boot-time patching (patch.h) works on
 * copies of it, one per modelled CPU.
 */
#ifndef HOTSIM_IMAGE_H
#define HOTSIM_IMAGE_H

#include <stddef.h>
#include <stdint.h>

struct hs_btf;

struct hs_sym {
	uint64_t addr;
	uint64_t size;
	const char *name;	/* points into the mapped file's string table */
	const char *file;	/* locals: the source file (STT_FILE before it), else NULL */
	uint8_t type;		/* STT_FUNC, STT_OBJECT, STT_NOTYPE... */
	uint8_t bind;		/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
};

struct hs_section {
	const char *name;
	uint64_t addr;
	uint64_t size;
	uint64_t offset;
	uint32_t type;		/* SHT_* */
	uint64_t flags;		/* SHF_* */
};

struct hs_segment {
	uint64_t vaddr, memsz, filesz, offset;
	uint32_t flags;		/* PF_R/W/X */
};

struct hs_image {
	char *path;

	/* the file, mapped read-only */
	const uint8_t *file;
	size_t file_size;
	int mapped;		/* file is our mapping (else the caller's buffer) */

	/* PT_LOAD segments laid out at their link addresses */
	uint64_t base;		/* lowest segment address, page aligned */
	uint64_t span;		/* bytes, page aligned */
	uint8_t *mem;		/* pristine memory image, span bytes */
	int memfd;		/* mem's backing (shared memory), -1: mem is malloc'd */
	struct hs_segment *segs;
	size_t nsegs;

	struct hs_section *secs;
	size_t nsecs;

	/* symbols (mapping symbols $x/$d dropped), sorted by address */
	struct hs_sym *syms;
	size_t nsyms;
	uint32_t *by_name;	/* indexes into syms, sorted by name */

	uint64_t entry;
	uint64_t text_start, text_end;	/* _stext.._etext, or executable segments */

	/* identity, from linux_banner and the build-id note */
	char banner[256];
	char version[64];	/* "6.1.192-hotsim" */
	char compiler[160];	/* "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0" */
	char build_id[41];	/* hex, "" if none */
	int version_code;	/* KERNEL_VERSION(a,b,c) style: a<<16|b<<8|c, 0 if unknown */
	uint64_t ikconfig_hash;	/* FNV-1a of the embedded .config blob, 0 if none */
	unsigned page_size;	/* from the Image header: 4096, 16384, 65536; 0 unknown */

	/* type info */
	struct hs_btf *btf;	/* NULL if no .BTF */
	int has_dwarf;		/* .debug_info present */
};

/* Upper bound on the memory image; a vmlinux of a distro config is ~60 MB.
 * A variable so the fuzzer can lower it (it copies the image per core). */
#define HS_IMAGE_MAX_SPAN (1ULL << 30)
extern uint64_t hs_image_max_span;

/* Open and validate. Returns NULL with hs_errmsg() = "PATH: problem". */
struct hs_image *hs_image_open(const char *path);
void hs_image_close(struct hs_image *img);

/*
 * A private copy of img->mem to change (a patched image): copy-on-write
 * where the system allows it - a page is copied when first written, the
 * rest stay the image's, and a process forked afterwards maps only what
 * it touches - else a plain copy. NULL with hs_errmsg(). Release it with
 * hs_image_mem_release.
 */
uint8_t *hs_image_mem_copy(const struct hs_image *img);
void hs_image_mem_release(const struct hs_image *img, uint8_t *mem);

/* The same from bytes in memory (the caller keeps them alive until close);
 * name is used in messages. For fuzzing and tests. */
struct hs_image *hs_image_open_mem(const char *name, const uint8_t *data, size_t len);

/*
 * Symbol by name. Exact match first; otherwise a compiler-suffixed local
 * copy (name.isra.0, name.constprop.0, name.part.0, name.llvm.123...), never
 * a .cold fragment. If note is non-NULL it is set to a static explanation
 * ("resolved to finish_task_switch.isra.0") or NULL for an exact match; the
 * buffer behind it is overwritten by the next call.
 */
const struct hs_sym *hs_sym_lookup(const struct hs_image *img, const char *name,
				   const char **note);

/* Exact name defined in source file `file` ("irq-gic-v3.c"): for static
 * functions that exist once per file under the same name. */
const struct hs_sym *hs_sym_in_file(const struct hs_image *img, const char *name, const char *file);

/* "name" (as hs_sym_lookup) or "name@file.c" (as hs_sym_in_file). */
const struct hs_sym *hs_sym_spec(const struct hs_image *img, const char *spec, const char **note);

/* Exact name only (no suffix resolution). */
const struct hs_sym *hs_sym_exact(const struct hs_image *img, const char *name);

/* The sized symbol containing addr, else the nearest one below it. */
const struct hs_sym *hs_sym_at(const struct hs_image *img, uint64_t addr);

/* "name+0x1c" or "0xffff800008001234"; returns buf. */
char *hs_addr_fmt(const struct hs_image *img, uint64_t addr, char *buf, size_t len);

/* Section by exact name, NULL if absent. */
const struct hs_section *hs_section_find(const struct hs_image *img, const char *name);

/*
 * Pointer to len bytes at virtual address va inside a memory image laid out
 * like img->mem (the pristine image or a patched copy); NULL if any byte
 * falls outside.
 */
static inline uint8_t *hs_at(const struct hs_image *img, uint8_t *mem, uint64_t va, size_t len)
{
	if (va < img->base || va - img->base > img->span || len > img->span - (va - img->base))
		return NULL;
	return mem + (va - img->base);
}

/* Little-endian loads/stores in a memory image; 0 / -1 if out of range. */
int hs_read64(const struct hs_image *img, const uint8_t *mem, uint64_t va, uint64_t *out);
int hs_read32(const struct hs_image *img, const uint8_t *mem, uint64_t va, uint32_t *out);

/* File bytes of a section (not NOBITS), NULL if out of the file. */
const uint8_t *hs_section_bytes(const struct hs_image *img, const struct hs_section *s);

/* Number of BTF types (0 without .BTF). */
unsigned hs_image_type_count(const struct hs_image *img);

#endif
