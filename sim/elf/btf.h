/*
 * btf.h - the kernel's BTF type info (.BTF), when an image has it.
 *
 * Only what hotsim needs: struct sizes and member offsets by name, so that
 * state synthesis can cross-check offsets it derived from code.
 */
#ifndef HOTSIM_BTF_H
#define HOTSIM_BTF_H

#include <stddef.h>
#include <stdint.h>

struct hs_btf;

/* Parse a raw .BTF blob; NULL with hs_errmsg() set if malformed. */
struct hs_btf *hs_btf_parse(const uint8_t *data, size_t len);
void hs_btf_free(struct hs_btf *btf);

/* number of types (ids 1..n) */
uint32_t hs_btf_ntypes(const struct hs_btf *btf);

/* sizeof(struct name) (or union); -1 if absent */
int hs_btf_struct_size(const struct hs_btf *btf, const char *name, uint64_t *size);

/*
 * Byte offset and size of a member given as a dotted path inside a struct,
 * e.g. ("task_struct", "thread.cpu_context.sp"). Members of anonymous
 * structs/unions are found as if they were direct members, as in C. -1 if
 * absent or a bitfield.
 */
int hs_btf_member(const struct hs_btf *btf, const char *sname, const char *path,
		  uint64_t *off, uint64_t *size);

#endif
