/*
 * json_read.h - a small JSON reader for the documents hotsim writes and
 * reads back (`hotsim merge` of `compare --shard` output): the whole text
 * into a tree, numbers kept as their literal text so that an integer
 * reads back exactly and a double written with %.17g reads back to the
 * same bits. Depth and size are bounded; errors name the line.
 */
#ifndef HOTSIM_CLI_JSON_READ_H
#define HOTSIM_CLI_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct jr {
	enum jr_type t;
	char *key;		/* the member's name (inside an object), else NULL */
	char *s;		/* JR_STR: the string; JR_NUM: the number's text */
	int b;			/* JR_BOOL */
	struct jr *kids;	/* JR_ARR, JR_OBJ: the elements, members */
	size_t n;
};

/* Parse text (len bytes); NULL with hs_errmsg() "line L: what". */
struct jr *jr_parse(const char *text, size_t len);
void jr_free(struct jr *v);

/* Member key of an object (NULL: absent, or v not an object). */
const struct jr *jr_get(const struct jr *v, const char *key);
/* Values; -1 when v is absent or of another type (or out of range). */
int jr_u64(const struct jr *v, uint64_t *out);
int jr_int(const struct jr *v, long long lo, long long hi, long long *out);
int jr_double(const struct jr *v, double *out);
/* The string, NULL when v is not a string. */
const char *jr_str(const struct jr *v);

#endif
