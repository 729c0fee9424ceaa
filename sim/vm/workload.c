/*
 * workload.c - the embedded workload program (kernels/workload/init.c,
 * built for aarch64 by the Makefile and linked in by workload_blob.S):
 * its identity for cache keys and the addresses of its labelled sites.
 */
#include <elf.h>
#include <string.h>

#include "hotsim/err.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

uint64_t hs_workload_id(const struct hs_workload *w)
{
	uint64_t h = hs_snap_hash(hs_workload_elf, hs_workload_elf_size, 0);

	if (!w)
		return h;
	h = hs_snap_hash(w->elf, w->size, h);
	/* a program's: what the runner starts and the archive it runs */
	return w->prog ? hs_snap_hash(w->archive, w->archive_size, hs_snap_hash(w->spec, strlen(w->spec), h)) : h;
}

/* A symbol of an ELF file in memory (its .symtab, or its .dynsym for
 * SHT_DYNSYM): -1 if it is not there; `what` names the file in messages. */
int hs_elf_sym(const unsigned char *b, size_t len, const char *what, unsigned table, const char *name,
	       Elf64_Sym *out)
{
	Elf64_Ehdr eh;

	if (len < sizeof(eh))
		return hs_fail("%s: not an ELF file", what);
	memcpy(&eh, b, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shoff > len || eh.e_shnum > (len - eh.e_shoff) / sizeof(Elf64_Shdr))
		return hs_fail("%s: bad ELF headers", what);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, str;
		const char *s;

		memcpy(&sh, b + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != table || sh.sh_link >= eh.e_shnum)
			continue;
		memcpy(&str, b + eh.e_shoff + sh.sh_link * sizeof(str), sizeof(str));
		if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset || str.sh_offset > len ||
		    str.sh_size > len - str.sh_offset)
			return hs_fail("%s: bad symbol table", what);
		for (size_t k = 0; k + sizeof(Elf64_Sym) <= sh.sh_size; k += sizeof(Elf64_Sym)) {
			Elf64_Sym sym;

			memcpy(&sym, b + sh.sh_offset + k, sizeof(sym));
			if (sym.st_name >= str.sh_size || sym.st_shndx == SHN_UNDEF)
				continue;
			s = (const char *)b + str.sh_offset + sym.st_name;
			if (strnlen(s, str.sh_size - sym.st_name) == strlen(name) && !strcmp(s, name)) {
				*out = sym;
				return 0;
			}
		}
	}
	return hs_fail("%s: no symbol %s", what, name);
}

/* A global symbol of the workload's .symtab; -1 if it is not there. */
int hs_workload_sym(const char *name, uint64_t *addr)
{
	Elf64_Sym sym;

	if (!hs_workload_elf_size)	/* the Makefile found no cross compiler */
		return hs_fail("this hotsim was built without its boot workload (apt-get install "
			       "gcc-aarch64-linux-gnu, then make)");
	if (hs_elf_sym(hs_workload_elf, hs_workload_elf_size, "workload", SHT_SYMTAB, name, &sym))
		return -1;
	*addr = sym.st_value;
	return 0;
}
