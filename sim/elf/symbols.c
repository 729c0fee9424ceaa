/*
 * symbols.c - the image's symbol table: load, look up by name (with the
 * compiler's .isra/.constprop/.part suffixes resolved), and by address.
 */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "elf/image_internal.h"

/* AArch64 mapping symbols ($x, $d, $x.123) mark code/data, not objects. */
static int is_mapping_symbol(const char *name)
{
	return name[0] == '$' && (name[1] == 'x' || name[1] == 'd') &&
	       (name[2] == 0 || name[2] == '.');
}

static int cmp_addr(const void *a, const void *b)
{
	const struct hs_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Sized symbols after unsized ones at the same address, so the last
	 * one <= addr is the most specific; then by name for a total order. */
	if ((x->size != 0) != (y->size != 0))
		return x->size ? 1 : -1;
	if (x->type != y->type)
		return x->type == STT_FUNC ? 1 : (y->type == STT_FUNC ? -1 : 0);
	return strcmp(x->name, y->name);
}

static const struct hs_sym *sort_base;

static int cmp_name(const void *a, const void *b)
{
	const struct hs_sym *x = &sort_base[*(const uint32_t *)a];
	const struct hs_sym *y = &sort_base[*(const uint32_t *)b];
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* Globals before locals, then by address: deterministic. */
	if ((x->bind == STB_LOCAL) != (y->bind == STB_LOCAL))
		return x->bind == STB_LOCAL ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int hs_image_load_symbols(struct hs_image *img, Elf *elf)
{
	const struct hs_section *symtab = NULL;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t i, n, strndx = 0;
	const char *file = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	}
	if (!scn)
		return hs_fail("%s: no .symtab (stripped image); hotsim needs vmlinux's symbol table",
			       img->path);
	for (i = 0; i < img->nsecs; i++)
		if (img->secs[i].type == SHT_SYMTAB)
			symtab = &img->secs[i];
	if (!symtab || sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_size % sizeof(Elf64_Sym))
		return hs_fail("%s: malformed .symtab", img->path);
	strndx = sh.sh_link;
	if (strndx == 0 || strndx >= img->nsecs + 1 || img->secs[strndx - 1].type != SHT_STRTAB)
		return hs_fail("%s: .symtab has no string table", img->path);
	data = elf_getdata(scn, NULL);
	if (!data || data->d_size != sh.sh_size)
		return hs_fail("%s: .symtab unreadable (%s)", img->path, elf_errmsg(-1));
	n = sh.sh_size / sizeof(Elf64_Sym);
	img->syms = hs_calloc(n ? n : 1, sizeof(*img->syms));
	if (!img->syms)
		return -1;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		struct hs_sym *o;

		if (!gelf_getsym(data, (int)i, &s))
			return hs_fail("%s: symbol %zu unreadable", img->path, i);
		if (s.st_name == 0 || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, strndx, s.st_name);
		if (!name)
			return hs_fail("%s: symbol %zu has a bad name offset", img->path, i);
		if (GELF_ST_TYPE(s.st_info) == STT_FILE) {
			file = name;
			continue;
		}
		if (is_mapping_symbol(name) || GELF_ST_TYPE(s.st_info) == STT_SECTION)
			continue;
		o = &img->syms[img->nsyms++];
		o->addr = s.st_value;
		o->size = s.st_size;
		o->name = name;
		o->file = GELF_ST_BIND(s.st_info) == STB_LOCAL ? file : NULL;
		o->type = GELF_ST_TYPE(s.st_info);
		o->bind = GELF_ST_BIND(s.st_info);
	}
	if (img->nsyms == 0)
		return hs_fail("%s: .symtab holds no usable symbols", img->path);
	qsort(img->syms, img->nsyms, sizeof(*img->syms), cmp_addr);
	img->by_name = hs_calloc(img->nsyms, sizeof(*img->by_name));
	if (!img->by_name)
		return -1;
	for (i = 0; i < img->nsyms; i++)
		img->by_name[i] = (uint32_t)i;
	sort_base = img->syms;
	qsort(img->by_name, img->nsyms, sizeof(*img->by_name), cmp_name);
	sort_base = NULL;
	return 0;
}

/* First index in by_name whose name is >= key (or has key as prefix when prefix). */
static size_t lower_bound(const struct hs_image *img, const char *key)
{
	size_t lo = 0, hi = img->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(img->syms[img->by_name[mid]].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct hs_sym *hs_sym_exact(const struct hs_image *img, const char *name)
{
	size_t i = lower_bound(img, name);

	if (i < img->nsyms && strcmp(img->syms[img->by_name[i]].name, name) == 0)
		return &img->syms[img->by_name[i]];
	return NULL;
}

const struct hs_sym *hs_sym_in_file(const struct hs_image *img, const char *name, const char *file)
{
	for (size_t i = lower_bound(img, name); i < img->nsyms; i++) {
		const struct hs_sym *s = &img->syms[img->by_name[i]];

		if (strcmp(s->name, name))
			break;
		if (s->file && !strcmp(s->file, file))
			return s;
	}
	return NULL;
}

const struct hs_sym *hs_sym_spec(const struct hs_image *img, const char *spec, const char **note)
{
	const char *at = strchr(spec, '@');
	char name[128];

	if (!at)
		return hs_sym_lookup(img, spec, note);
	if (note)
		*note = NULL;
	if ((size_t)(at - spec) >= sizeof(name))
		return NULL;
	memcpy(name, spec, (size_t)(at - spec));
	name[at - spec] = 0;
	return hs_sym_in_file(img, name, at + 1);
}

/* Suffixes gcc and clang add to local copies of a function. */
static int acceptable_suffix(const char *suffix)
{
	static const char *const ok[] = { ".isra.", ".constprop.", ".part.", ".llvm.", ".lto_priv.", ".specialized." };

	if (strstr(suffix, ".cold"))
		return 0;
	for (size_t i = 0; i < HS_ARRAY_SIZE(ok); i++)
		if (strncmp(suffix, ok[i], strlen(ok[i])) == 0)
			return 1;
	return 0;
}

const struct hs_sym *hs_sym_lookup(const struct hs_image *img, const char *name, const char **note)
{
	static char notebuf[256];
	const struct hs_sym *best = NULL;
	size_t len = strlen(name), i, count = 0;

	if (note)
		*note = NULL;
	best = hs_sym_exact(img, name);
	if (best)
		return best;
	/* name.<suffix>: they sort right after "name." */
	for (i = lower_bound(img, name); i < img->nsyms; i++) {
		const struct hs_sym *s = &img->syms[img->by_name[i]];

		if (strncmp(s->name, name, len) != 0)
			break;
		if (s->name[len] != '.' || !acceptable_suffix(s->name + len))
			continue;
		count++;
		/* Prefer functions, then the lowest address (by_name order). */
		if (!best || (s->type == STT_FUNC && best->type != STT_FUNC))
			best = s;
	}
	if (best && note) {
		if (count > 1)
			snprintf(notebuf, sizeof(notebuf), "%s resolved to %s (%zu suffixed copies)",
				 name, best->name, count);
		else
			snprintf(notebuf, sizeof(notebuf), "%s resolved to %s", name, best->name);
		*note = notebuf;
	}
	return best;
}

const struct hs_sym *hs_sym_at(const struct hs_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nsyms;
	const struct hs_sym *below = NULL;

	/* below the image: user space (a booted state's processes), or an
	 * absolute symbol's small value - never a kernel function */
	if (addr < img->base)
		return NULL;
	/* last symbol with addr <= target */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* Walk back over symbols at or below addr for one whose extent covers it;
	 * a few steps suffice since sized symbols rarely nest. */
	for (size_t i = lo, steps = 0; i > 0 && steps < 16; i--, steps++) {
		const struct hs_sym *s = &img->syms[i - 1];

		if (!below)
			below = s;
		if (s->size && addr < s->addr + s->size &&
		    (s->type == STT_FUNC || s->type == STT_OBJECT))
			return s;
		if (s->addr != below->addr && below->size == 0 && s->size && addr >= s->addr + s->size)
			break;
	}
	return below;
}

char *hs_addr_fmt(const struct hs_image *img, uint64_t addr, char *buf, size_t len)
{
	const struct hs_sym *s = img ? hs_sym_at(img, addr) : NULL;

	if (s && (addr - s->addr < 0x100000))
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	else
		snprintf(buf, len, "0x%016llx", (unsigned long long)addr);
	return buf;
}
