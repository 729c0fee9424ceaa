/* json.c - see json.h. */
#include <math.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
}

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void put_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct json *j, const char *k)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		indent(j);
	}
	j->first[j->depth] = 0;
	if (k) {
		put_escaped(j->f, k);
		fputs(": ", j->f);
	}
}

static void open_(struct json *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close_(struct json *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

void json_begin_obj(struct json *j, const char *k) { open_(j, k, '{'); }
void json_end_obj(struct json *j) { close_(j, '}'); }
void json_begin_arr(struct json *j, const char *k) { open_(j, k, '['); }
void json_end_arr(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *k, const char *v)
{
	key(j, k);
	if (v)
		put_escaped(j->f, v);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, const char *k, long long v)
{
	key(j, k);
	fprintf(j->f, "%lld", v);
}

void json_uint(struct json *j, const char *k, unsigned long long v)
{
	key(j, k);
	fprintf(j->f, "%llu", v);
}

void json_hex(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "\"0x%llx\"", (unsigned long long)v);
}

void json_num(struct json *j, const char *k, double v, int decimals)
{
	key(j, k);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_double(struct json *j, const char *k, double v)
{
	key(j, k);
	if (isnan(v) || isinf(v))
		fputs(isnan(v) ? "\"nan\"" : v < 0 ? "\"-inf\"" : "\"inf\"", j->f);
	else
		fprintf(j->f, "%.17g", v);
}

void json_bool(struct json *j, const char *k, int v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
