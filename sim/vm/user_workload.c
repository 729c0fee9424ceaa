/*
 * user_workload.c - a user's own workload (vm.h, struct hs_workload): the
 * program `--workload FILE` names, compiled from C by the cross compiler
 * against include/hotsim/workload.h when it is source, checked to be a
 * static aarch64 executable, and its markers read from its hotsim_ops
 * section. Every failure is one line naming the file: the compiler's own
 * first error, not an executable of the right kind, no markers.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define MAX_PROGRAM (64u << 20)
#define COMPILE_TIMEOUT_S 120

/* A whole file into memory, at most max bytes: 0, or -1 with a one-line
 * reason naming the file. */
int hs_vm_slurp(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	*buf = NULL;
	if (!f)
		return hs_fail("%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || st.st_size <= 0 || (size_t)st.st_size > max) {
		fclose(f);
		return hs_fail("%s: empty, or larger than %zu MiB", path, max >> 20);
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len);
	if (!*buf || fread(*buf, 1, *len, f) != *len) {
		fclose(f);
		free(*buf);
		*buf = NULL;
		return hs_fail("%s: cannot read", path);
	}
	fclose(f);
	return 0;
}

/* hotsim's include directory: beside the binary (build/ or bin/ ->
 * ../include, as make install lays it out), or $HOTSIM_INCLUDE. */
static int include_dir(char *buf, size_t len)
{
	const char *env = getenv("HOTSIM_INCLUDE");
	char exe[512], probe[700];
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		if ((slash = strrchr(exe, '/')) != NULL)
			*slash = 0;
		snprintf(buf, len, "%s/../include", exe);
		snprintf(probe, sizeof(probe), "%s/hotsim/workload.h", buf);
		if (access(probe, R_OK) == 0)
			return 0;
	}
	return hs_fail("hotsim/workload.h not found beside hotsim (set HOTSIM_INCLUDE to its include/)");
}

/* The compiler's first error line of log (or its first line). */
static void first_error(const char *log, char *out, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[600], first[600] = "";

	snprintf(out, len, "(no message)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!first[0] && line[0])
			snprintf(first, sizeof(first), "%s", line);
		if (strstr(line, "error:")) {
			snprintf(out, len, "%s", line);
			fclose(f);
			return;
		}
	}
	fclose(f);
	if (first[0])
		snprintf(out, len, "%s", first);
}

/* C source -> a static aarch64 program, read into w. */
static int compile(const char *file, struct hs_workload *w)
{
	char inc[600], dir[] = "/tmp/hotsim-workload-XXXXXX", out[700], log[700], cmd[2400], err[600];
	int rc;

	if (include_dir(inc, sizeof(inc)) || !mkdtemp(dir))
		return hs_errmsg()[0] ? -1 : hs_fail("cannot create a scratch directory");
	snprintf(out, sizeof(out), "%s/user", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	snprintf(cmd, sizeof(cmd), "timeout %d aarch64-linux-gnu-gcc -std=gnu11 -O2 -static -no-pie -I'%s' "
		 "-o '%s' '%s' > '%s' 2>&1", COMPILE_TIMEOUT_S, inc, out, file, log);
	rc = system(cmd);
	if (rc != 0) {
		first_error(log, err, sizeof(err));
		rc = WIFEXITED(rc) && WEXITSTATUS(rc) == 124 ?
			hs_fail("%s: the compiler did not finish in %d s", file, COMPILE_TIMEOUT_S) :
			WIFEXITED(rc) && WEXITSTATUS(rc) == 127 ?
			hs_fail("%s: no aarch64-linux-gnu-gcc to compile it (apt-get install "
				"gcc-aarch64-linux-gnu)", file) :
			hs_fail("%s: does not compile: %s", file, err);
	} else {
		rc = hs_vm_slurp(out, MAX_PROGRAM, &w->elf, &w->size);
	}
	unlink(out);
	unlink(log);
	rmdir(dir);
	return rc;
}

/* A static aarch64 executable (no interpreter, not position-independent). */
static int check_elf(const struct hs_workload *w, Elf64_Ehdr *eh)
{
	if (w->size < sizeof(*eh) || memcmp(w->elf, ELFMAG, SELFMAG))
		return hs_fail("%s: neither C source nor an ELF program", w->file);
	memcpy(eh, w->elf, sizeof(*eh));
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_AARCH64)
		return hs_fail("%s: not an aarch64 program", w->file);
	if (eh->e_phoff > w->size || eh->e_phnum > (w->size - eh->e_phoff) / sizeof(Elf64_Phdr) ||
	    eh->e_shoff > w->size || eh->e_shnum > (w->size - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return hs_fail("%s: truncated ELF headers", w->file);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, w->elf + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_INTERP)
			return hs_fail("%s: dynamically linked (link it with -static -no-pie)", w->file);
	}
	if (eh->e_type != ET_EXEC)
		return hs_fail("%s: not a static executable (link it with -static -no-pie)", w->file);
	return 0;
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

/* One hotsim_ops entry at off: pc, kind, name, 8-aligned; the next's offset. */
static long parse_mark(struct hs_workload *w, const unsigned char *p, size_t size, size_t off)
{
	struct hs_wl_mark *m;
	uint64_t pc, kind;
	size_t n;

	if (off + 16 > size)
		return hs_fail("%s: a truncated hotsim_ops entry", w->file);
	memcpy(&pc, p + off, 8);
	memcpy(&kind, p + off + 8, 8);
	n = strnlen((const char *)p + off + 16, size - off - 16);
	if (off + 16 + n >= size || kind > 1)
		return hs_fail("%s: a malformed hotsim_ops entry (not built with hotsim/workload.h?)", w->file);
	if (w->nmarks == HS_WL_MAX_MARKS)
		return hs_fail("%s: more than %d markers", w->file, HS_WL_MAX_MARKS);
	m = &w->marks[w->nmarks++];
	m->pc = pc;
	m->end = kind == 1;
	if (!m->end && (n >= sizeof(m->name) || !valid_name((const char *)p + off + 16)))
		return hs_fail("%s: the marker name \"%.40s\" is not 1-%zu letters, digits, '_' or '-'",
			       w->file, (const char *)p + off + 16, sizeof(m->name) - 1);
	snprintf(m->name, sizeof(m->name), "%s", (const char *)p + off + 16);
	return (long)((off + 16 + n + 1 + 7) & ~(size_t)7);
}

/* The markers from the section hotsim_ops. */
static int read_marks(struct hs_workload *w, const Elf64_Ehdr *eh)
{
	Elf64_Shdr strs, sh;
	unsigned begins = 0, ends = 0, found = 0;

	memcpy(&strs, w->elf + eh->e_shoff + eh->e_shstrndx * sizeof(strs), sizeof(strs));
	for (unsigned i = 0; i < eh->e_shnum && !found; i++) {
		memcpy(&sh, w->elf + eh->e_shoff + i * sizeof(sh), sizeof(sh));
		found = sh.sh_name < strs.sh_size && strs.sh_offset <= w->size &&
			strs.sh_offset + sh.sh_name + 11 <= w->size &&
			!memcmp(w->elf + strs.sh_offset + sh.sh_name, "hotsim_ops", 11);
	}
	if (!found || sh.sh_type == SHT_NOBITS)
		return hs_fail("%s: no hotsim_op_begin() marker (#include <hotsim/workload.h> and mark "
			       "the loop)", w->file);
	if (sh.sh_offset > w->size || sh.sh_size > w->size - sh.sh_offset)
		return hs_fail("%s: hotsim_ops lies outside the file", w->file);
	for (long off = 0; off >= 0 && (size_t)off < sh.sh_size;)
		if ((off = parse_mark(w, w->elf + sh.sh_offset, sh.sh_size, (size_t)off)) < 0)
			return -1;
	for (unsigned i = 0; i < w->nmarks; i++) {
		begins += !w->marks[i].end;
		ends += w->marks[i].end;
	}
	if (!begins || !ends)
		return hs_fail("%s: %s", w->file, !begins ? "no hotsim_op_begin() marker" :
			       "no hotsim_op_end() marker: an operation would never end");
	return 0;
}

int hs_workload_load(const char *file, struct hs_workload *w)
{
	unsigned char magic[4] = { 0 };
	Elf64_Ehdr eh;
	FILE *f;

	memset(w, 0, sizeof(*w));
	snprintf(w->file, sizeof(w->file), "%s", file);
	if (!(f = fopen(file, "rb")))
		return hs_fail("%s: %s", file, strerror(errno));
	if (fread(magic, 1, 4, f) != 4)
		magic[0] = 0;
	fclose(f);
	if (memcmp(magic, ELFMAG, SELFMAG) ? compile(file, w) : hs_vm_slurp(file, MAX_PROGRAM, &w->elf, &w->size))
		return -1;
	if (check_elf(w, &eh) || read_marks(w, &eh)) {
		hs_workload_free(w);
		return -1;
	}
	return 0;
}

void hs_workload_free(struct hs_workload *w)
{
	free(w->elf);
	free(w->archive);
	w->archive = NULL;
	w->archive_size = 0;
	w->elf = NULL;
	w->size = 0;
	w->nmarks = 0;
}
