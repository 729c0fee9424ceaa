/*
 * program.c - a Debian program's boot (program.h): the runner, the
 * program's archive from the cache (kernels/programs/fetch.sh), what the
 * runner starts, and where in the program's library a point's svc is.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/program.h"
#include "vm/vm.h"

#define MAX_ARCHIVE (512u << 20)
#define SVC0 0xd4000001u

/* The newest archive of p in the cache's programs/: its path. */
static int find_archive(const struct hs_program *p, char *path, size_t len)
{
	char dir[512], best[256] = "";
	size_t n = strlen(p->name);
	struct dirent *e;
	DIR *d;

	hs_cache_dir(dir, sizeof(dir) - 16);
	strcat(dir, "/programs");
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);

			if (!strncmp(e->d_name, p->name, n) && e->d_name[n] == '-' && l > 5 &&
			    !strcmp(e->d_name + l - 5, ".cpio") && strcmp(e->d_name, best) > 0 &&
			    l < sizeof(best))
				memcpy(best, e->d_name, l + 1);
		}
		closedir(d);
	}
	if (!best[0])
		return hs_fail("%s (Debian's %s) is not in %s: kernels/programs/fetch.sh %s fetches it "
			       "(make kernels does)", p->name, p->package, dir, p->name);
	snprintf(path, len, "%s/%s", dir, best);
	return 0;
}

int hs_program_load(const struct hs_program *p, struct hs_workload *w)
{
	char path[800];
	const char *lib = strrchr(p->lib, '/'), *base;
	size_t n;

	memset(w, 0, sizeof(*w));
	if (!hs_program_runner_size)
		return hs_fail("this hotsim was built without its program runner (apt-get install "
			       "gcc-aarch64-linux-gnu, then make)");
	if (find_archive(p, path, sizeof(path)) || hs_vm_slurp(path, MAX_ARCHIVE, &w->archive, &w->archive_size))
		return -1;
	if (!(w->elf = malloc(hs_program_runner_size))) {
		hs_workload_free(w);
		return hs_fail("out of memory");
	}
	memcpy(w->elf, hs_program_runner, hs_program_runner_size);
	w->size = hs_program_runner_size;
	w->prog = p;
	/* the library's file name, then argv, a line each */
	n = (size_t)snprintf(w->spec, sizeof(w->spec), "%s\n", lib ? lib + 1 : p->lib);
	for (unsigned i = 0; p->argv[i] && n < sizeof(w->spec); i++)
		n += (size_t)snprintf(w->spec + n, sizeof(w->spec) - n, "%s\n", p->argv[i]);
	base = strrchr(path, '/') + 1;
	/* "perf-6.1.176-1.cpio" -> "linux-perf 6.1.176-1" */
	snprintf(w->file, sizeof(w->file), "%s %.*s", p->package, (int)(strlen(base) - strlen(p->name) - 6),
		 base + strlen(p->name) + 1);
	return 0;
}

static unsigned hex8(const unsigned char *h)
{
	char b[9];

	memcpy(b, h, 8);
	b[8] = 0;
	return (unsigned)strtoul(b, NULL, 16);
}

/* The file `name` of a newc archive: its bytes. */
static const unsigned char *archive_file(const unsigned char *a, size_t len, const char *name, size_t *size)
{
	size_t at = 0;

	while (at + 110 <= len && !memcmp(a + at, "070701", 6)) {
		unsigned fsize = hex8(a + at + 54), nsize = hex8(a + at + 94);
		size_t data = (at + 110 + nsize + 3) & ~(size_t)3;
		const char *n = (const char *)a + at + 110;

		if (data > len || fsize > len - data || !nsize || n[nsize - 1])
			return NULL;
		if (!strcmp(n, "TRAILER!!!"))
			return NULL;
		if (!strcmp(n, name)) {
			*size = fsize;
			return a + data;
		}
		at = (data + fsize + 3) & ~(size_t)3;
	}
	return NULL;
}

int hs_program_svc(const struct hs_workload *w, const char *fn, uint64_t *off)
{
	const struct hs_program *p = w->prog;
	const unsigned char *lib;
	char what[480];
	size_t len = 0;
	Elf64_Ehdr eh;
	Elf64_Sym sym;
	uint64_t first = UINT64_MAX;

	snprintf(what, sizeof(what), "%s in %s", p->lib, w->file);
	if (!(lib = archive_file(w->archive, w->archive_size, p->lib, &len)) || len < sizeof(eh))
		return hs_fail("%s: not in the archive", what);
	if (hs_elf_sym(lib, len, what, SHT_DYNSYM, fn, &sym))
		return -1;
	memcpy(&eh, lib, sizeof(eh));
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > len ||
	    eh.e_phnum > (len - eh.e_phoff) / sizeof(Elf64_Phdr))
		return hs_fail("%s: bad program headers", what);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, lib + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		if (first == UINT64_MAX)
			first = ph.p_vaddr & ~0xfffULL;	/* where the base the runner reads maps */
		if (sym.st_value < ph.p_vaddr || sym.st_value + sym.st_size > ph.p_vaddr + ph.p_filesz ||
		    ph.p_offset + (sym.st_value - ph.p_vaddr) + sym.st_size > len)
			continue;
		for (uint64_t k = 0; k + 4 <= sym.st_size; k += 4) {
			uint32_t insn;

			memcpy(&insn, lib + ph.p_offset + (sym.st_value - ph.p_vaddr) + k, 4);
			if (insn == SVC0) {
				*off = sym.st_value + k - first;
				return 0;
			}
		}
	}
	return hs_fail("%s: %s has no svc #0", what, fn);
}
