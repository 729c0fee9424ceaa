/*
 * json.h - a tiny streaming JSON writer for --json output. Keys are emitted
 * in the order the caller writes them, so output is byte-for-byte stable.
 */
#ifndef HOTSIM_CLI_JSON_H
#define HOTSIM_CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	int depth;
	int first[32];	/* no comma needed yet at this depth */
};

void json_init(struct json *j, FILE *f);
void json_begin_obj(struct json *j, const char *key);	/* key NULL inside arrays/top */
void json_end_obj(struct json *j);
void json_begin_arr(struct json *j, const char *key);
void json_end_arr(struct json *j);
void json_str(struct json *j, const char *key, const char *v);	/* NULL -> null */
void json_int(struct json *j, const char *key, long long v);
void json_uint(struct json *j, const char *key, unsigned long long v);
void json_hex(struct json *j, const char *key, uint64_t v);	/* "0x..." string */
void json_num(struct json *j, const char *key, double v, int decimals);
/* every bit of v (%.17g; "nan", "inf", "-inf" as strings): what a reader
 * needs to get the same double back */
void json_double(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, int v);
void json_finish(struct json *j);	/* trailing newline */

#endif
