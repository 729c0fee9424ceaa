/*
 * btf.c - a small reader for the kernel's BTF (Documentation/bpf/btf.rst):
 * header, type section, string section. Every index and length is checked;
 * a malformed blob is an error, never an out-of-bounds read.
 */
#include <stdlib.h>
#include <string.h>

#include "elf/btf.h"
#include "hotsim/image.h"
#include "hotsim/err.h"

enum {
	K_INT = 1, K_PTR, K_ARRAY, K_STRUCT, K_UNION, K_ENUM, K_FWD, K_TYPEDEF,
	K_VOLATILE, K_CONST, K_RESTRICT, K_FUNC, K_FUNC_PROTO, K_VAR, K_DATASEC,
	K_FLOAT, K_DECL_TAG, K_TYPE_TAG, K_ENUM64
};

struct hs_btf {
	const uint8_t *types;	/* type section */
	uint32_t types_len;
	const char *strs;	/* string section */
	uint32_t strs_len;
	uint32_t n;		/* types 1..n */
	uint32_t *off;		/* off[id] = byte offset of type id in types */
};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t kind_of(uint32_t info) { return (info >> 24) & 0x1f; }
static uint32_t vlen_of(uint32_t info) { return info & 0xffff; }
static int kflag_of(uint32_t info) { return (int)(info >> 31); }

/* Bytes after the 12-byte common header for a type of this kind. */
static int extra_size(uint32_t kind, uint32_t vlen, uint64_t *out)
{
	switch (kind) {
	case K_INT: case K_VAR: case K_DECL_TAG: *out = 4; return 0;
	case K_PTR: case K_FWD: case K_TYPEDEF: case K_VOLATILE: case K_CONST:
	case K_RESTRICT: case K_FUNC: case K_FLOAT: case K_TYPE_TAG: *out = 0; return 0;
	case K_ARRAY: *out = 12; return 0;
	case K_STRUCT: case K_UNION: case K_DATASEC: case K_ENUM64: *out = 12ULL * vlen; return 0;
	case K_ENUM: case K_FUNC_PROTO: *out = 8ULL * vlen; return 0;
	default: return -1;
	}
}

struct hs_btf *hs_btf_parse(const uint8_t *data, size_t len)
{
	struct hs_btf *b;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, cap = 1024;
	uint64_t pos;

	if (len < 24 || data[0] != 0x9f || data[1] != 0xeb)
		return hs_fail("bad BTF magic"), NULL;
	if (data[2] != 1)
		return hs_fail("unsupported BTF version %u", data[2]), NULL;
	hdr_len = rd32(data + 4);
	type_off = rd32(data + 8);
	type_len = rd32(data + 12);
	str_off = rd32(data + 16);
	str_len = rd32(data + 20);
	if (hdr_len < 24 || hdr_len > len ||
	    (uint64_t)type_off + type_len > len - hdr_len ||
	    (uint64_t)str_off + str_len > len - hdr_len || str_len == 0)
		return hs_fail("BTF header sections out of bounds"), NULL;
	b = hs_calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->types = data + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = (const char *)data + hdr_len + str_off;
	b->strs_len = str_len;
	if (b->strs[str_len - 1] != 0) {
		hs_fail("BTF string section not NUL-terminated");
		goto fail;
	}
	b->off = hs_malloc(cap * sizeof(*b->off));
	if (!b->off)
		goto fail;
	b->off[0] = 0;
	for (pos = 0; pos < type_len;) {
		uint32_t info;
		uint64_t extra;

		if (type_len - pos < 12) {
			hs_fail("BTF type %u truncated", b->n + 1);
			goto fail;
		}
		info = rd32(b->types + pos + 4);
		if (extra_size(kind_of(info), vlen_of(info), &extra) ||
		    extra > type_len - pos - 12) {
			hs_fail("BTF type %u: bad kind %u or truncated", b->n + 1, kind_of(info));
			goto fail;
		}
		if (b->n + 1 >= cap) {
			uint32_t *o;

			if (cap > (1u << 24)) {
				hs_fail("BTF has too many types");
				goto fail;
			}
			cap *= 2;
			o = hs_realloc(b->off, cap * sizeof(*b->off));
			if (!o)
				goto fail;
			b->off = o;
		}
		b->off[++b->n] = (uint32_t)pos;
		pos += 12 + extra;
	}
	return b;
fail:
	hs_btf_free(b);
	return NULL;
}

void hs_btf_free(struct hs_btf *b)
{
	if (!b)
		return;
	free(b->off);
	free(b);
}

uint32_t hs_btf_ntypes(const struct hs_btf *b)
{
	return b ? b->n : 0;
}

static const char *str_at(const struct hs_btf *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : "";
}

static const uint8_t *type_at(const struct hs_btf *b, uint32_t id)
{
	return (id >= 1 && id <= b->n) ? b->types + b->off[id] : NULL;
}

/* Follow typedef/const/volatile/restrict/type_tag to the real type. */
static uint32_t resolve(const struct hs_btf *b, uint32_t id)
{
	for (int depth = 0; depth < 32; depth++) {
		const uint8_t *t = type_at(b, id);
		uint32_t k;

		if (!t)
			return 0;
		k = kind_of(rd32(t + 4));
		if (k != K_TYPEDEF && k != K_CONST && k != K_VOLATILE && k != K_RESTRICT &&
		    k != K_TYPE_TAG)
			return id;
		id = rd32(t + 8);
	}
	return 0;
}

static int type_size(const struct hs_btf *b, uint32_t id, uint64_t *size, int depth)
{
	const uint8_t *t;
	uint32_t k;

	if (depth > 32 || !(id = resolve(b, id)) || !(t = type_at(b, id)))
		return -1;
	k = kind_of(rd32(t + 4));
	switch (k) {
	case K_INT: case K_STRUCT: case K_UNION: case K_ENUM: case K_ENUM64: case K_FLOAT:
	case K_DATASEC:
		*size = rd32(t + 8);
		return 0;
	case K_PTR:
		*size = 8;
		return 0;
	case K_ARRAY: {
		uint64_t es;

		if (type_size(b, rd32(t + 12), &es, depth + 1))
			return -1;
		*size = es * rd32(t + 20);
		return 0;
	}
	default:
		return -1;
	}
}

static uint32_t find_struct(const struct hs_btf *b, const char *name)
{
	uint32_t fallback = 0;

	for (uint32_t id = 1; id <= b->n; id++) {
		const uint8_t *t = type_at(b, id);
		uint32_t k = kind_of(rd32(t + 4));

		if ((k == K_STRUCT || k == K_UNION) && strcmp(str_at(b, rd32(t)), name) == 0) {
			if (rd32(t + 8))
				return id;
			fallback = id;
		}
	}
	return fallback;
}

int hs_btf_struct_size(const struct hs_btf *b, const char *name, uint64_t *size)
{
	uint32_t id;

	if (!b || !(id = find_struct(b, name)))
		return -1;
	*size = rd32(type_at(b, id) + 8);
	return 0;
}

/* Find member `name` (len bytes) in struct/union id, descending into
 * anonymous members. Returns the member's type id and adds its byte offset. */
static uint32_t find_member(const struct hs_btf *b, uint32_t id, const char *name, size_t len,
			    uint64_t *off, int depth)
{
	const uint8_t *t;
	uint32_t info, k, vlen;

	if (depth > 16 || !(id = resolve(b, id)) || !(t = type_at(b, id)))
		return 0;
	info = rd32(t + 4);
	k = kind_of(info);
	if (k != K_STRUCT && k != K_UNION)
		return 0;
	vlen = vlen_of(info);
	for (uint32_t i = 0; i < vlen; i++) {
		const uint8_t *m = t + 12 + 12 * i;
		const char *mname = str_at(b, rd32(m));
		uint32_t moff = rd32(m + 8), bits = moff;

		if (kflag_of(info)) {
			if (moff >> 24)		/* bitfield: no byte offset to give */
				bits = UINT32_MAX;
			else
				bits = moff & 0xffffff;
		}
		if (mname[0] == 0) {
			uint64_t sub = 0;
			uint32_t r;

			if (bits == UINT32_MAX || bits % 8)
				continue;
			r = find_member(b, rd32(m + 4), name, len, &sub, depth + 1);
			if (r) {
				*off += bits / 8 + sub;
				return r;
			}
			continue;
		}
		if (strlen(mname) == len && memcmp(mname, name, len) == 0) {
			if (bits == UINT32_MAX || bits % 8)
				return 0;
			*off += bits / 8;
			return rd32(m + 4);
		}
	}
	return 0;
}

int hs_btf_member(const struct hs_btf *b, const char *sname, const char *path,
		  uint64_t *off, uint64_t *size)
{
	uint32_t id;
	uint64_t o = 0;

	if (!b || !(id = find_struct(b, sname)))
		return -1;
	while (*path) {
		size_t len = strcspn(path, ".");

		id = find_member(b, id, path, len, &o, 0);
		if (!id)
			return -1;
		path += len;
		if (*path == '.')
			path++;
	}
	if (type_size(b, id, size, 0))
		return -1;
	*off = o;
	return 0;
}

unsigned hs_image_type_count(const struct hs_image *img)
{
	return img->btf ? hs_btf_ntypes(img->btf) : 0;
}
