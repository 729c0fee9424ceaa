/* json_read.c - see json_read.h. Recursive descent over the whole text. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "json_read.h"

#define MAX_DEPTH 64

struct rd {
	const char *p, *end, *start;
	int depth;
};

static int line_of(const struct rd *r)
{
	int line = 1;

	for (const char *q = r->start; q < r->p && q < r->end; q++)
		line += *q == '\n';
	return line;
}

static int bad(const struct rd *r, const char *what)
{
	return hs_fail("line %d: %s", line_of(r), what);
}

static void skip_ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;

		if (d > 15)
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

/* A code point as UTF-8 (the writer only escapes control characters). */
static size_t utf8(unsigned cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	o[0] = (char)(0xe0 | cp >> 12);
	o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* A string at r->p (the opening quote), decoded into a new buffer. */
static int string(struct rd *r, char **out)
{
	const char *q = ++r->p;
	size_t n = 0;
	char *s;

	while (q < r->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= r->end)
		return bad(r, "unterminated string");
	if (!(s = malloc((size_t)(q - r->p) * 3 + 1)))
		return hs_fail("out of memory");
	while (r->p < q) {
		char c = *r->p++;
		unsigned cp;

		if ((unsigned char)c < 0x20) {
			free(s);
			return bad(r, "control character in a string");
		}
		if (c != '\\') {
			s[n++] = c;
			continue;
		}
		c = *r->p++;
		switch (c) {
		case '"': case '\\': case '/': s[n++] = c; break;
		case 'b': s[n++] = '\b'; break;
		case 'f': s[n++] = '\f'; break;
		case 'n': s[n++] = '\n'; break;
		case 'r': s[n++] = '\r'; break;
		case 't': s[n++] = '\t'; break;
		case 'u':
			if (q - r->p < 4 || hex4(r->p, &cp) || !cp) {
				free(s);
				return bad(r, "bad \\u escape");
			}
			r->p += 4;
			n += utf8(cp, s + n);
			break;
		default:
			free(s);
			return bad(r, "bad escape in a string");
		}
	}
	s[n] = 0;
	r->p = q + 1;
	*out = s;
	return 0;
}

static int value(struct rd *r, struct jr *v);

/* The elements of an array or members of an object, after the bracket. */
static int items(struct rd *r, struct jr *v, char close)
{
	size_t cap = 0;

	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		struct jr *k;

		skip_ws(r);
		if (r->p >= r->end)
			return bad(r, "the document ends early (a truncated file?)");
		if (v->n == cap) {
			struct jr *nk = realloc(v->kids, (cap = cap ? 2 * cap : 4) * sizeof(*nk));

			if (!nk)
				return hs_fail("out of memory");
			v->kids = nk;
		}
		k = &v->kids[v->n];
		memset(k, 0, sizeof(*k));
		v->n++;
		skip_ws(r);
		if (close == '}') {
			if (r->p >= r->end || *r->p != '"')
				return bad(r, "an object member without a name");
			if (string(r, &k->key))
				return -1;
			skip_ws(r);
			if (r->p >= r->end || *r->p++ != ':')
				return bad(r, "':' expected");
		}
		if (value(r, k))
			return -1;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 0;
		}
		return bad(r, close == '}' ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static int number(struct rd *r, struct jr *v)
{
	const char *q = r->p;

	while (q < r->end && strchr("+-0123456789.eE", *q))
		q++;
	if (q == r->p || q - r->p > 40)
		return bad(r, "bad number");
	if (!(v->s = malloc((size_t)(q - r->p) + 1)))
		return hs_fail("out of memory");
	memcpy(v->s, r->p, (size_t)(q - r->p));
	v->s[q - r->p] = 0;
	v->t = JR_NUM;
	r->p = q;
	return 0;
}

static int word(struct rd *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return 0;
	r->p += n;
	return 1;
}

static int value(struct rd *r, struct jr *v)
{
	int rc;

	skip_ws(r);
	if (r->p >= r->end)
		return bad(r, "a value expected");
	if (++r->depth > MAX_DEPTH)
		return bad(r, "nested too deeply");
	switch (*r->p) {
	case '{': case '[':
		v->t = *r->p == '{' ? JR_OBJ : JR_ARR;
		rc = items(r, v, *r->p++ == '{' ? '}' : ']');
		break;
	case '"':
		v->t = JR_STR;
		rc = string(r, &v->s);
		break;
	default:
		if (word(r, "null")) {
			v->t = JR_NULL;
			rc = 0;
		} else if (word(r, "true") || word(r, "false")) {
			v->t = JR_BOOL;
			v->b = r->p[-1] == 'e' && r->p[-2] == 'u';
			rc = 0;
		} else {
			rc = number(r, v);
		}
	}
	r->depth--;
	return rc;
}

static void free_kids(struct jr *v)
{
	for (size_t i = 0; i < v->n; i++)
		free_kids(&v->kids[i]);
	free(v->kids);
	free(v->key);
	free(v->s);
}

void jr_free(struct jr *v)
{
	if (!v)
		return;
	free_kids(v);
	free(v);
}

struct jr *jr_parse(const char *text, size_t len)
{
	struct rd r = { text, text + len, text, 0 };
	struct jr *v = calloc(1, sizeof(*v));

	if (!v) {
		hs_fail("out of memory");
		return NULL;
	}
	if (value(&r, v) || (skip_ws(&r), r.p != r.end && bad(&r, "text after the document"))) {
		jr_free(v);
		return NULL;
	}
	return v;
}

const struct jr *jr_get(const struct jr *v, const char *key)
{
	for (size_t i = 0; v && v->t == JR_OBJ && i < v->n; i++)
		if (!strcmp(v->kids[i].key, key))
			return &v->kids[i];
	return NULL;
}

int jr_u64(const struct jr *v, uint64_t *out)
{
	char *end;

	if (!v || v->t != JR_NUM || v->s[0] == '-')
		return -1;
	errno = 0;
	*out = strtoull(v->s, &end, 10);
	return errno || *end ? -1 : 0;
}

int jr_int(const struct jr *v, long long lo, long long hi, long long *out)
{
	char *end;

	if (!v || v->t != JR_NUM)
		return -1;
	errno = 0;
	*out = strtoll(v->s, &end, 10);
	return errno || *end || *out < lo || *out > hi ? -1 : 0;
}

int jr_double(const struct jr *v, double *out)
{
	char *end;

	/* the writer spells the values JSON has no number for */
	if (v && v->t == JR_STR && (!strcmp(v->s, "nan") || !strcmp(v->s, "inf") || !strcmp(v->s, "-inf"))) {
		*out = v->s[0] == 'n' ? NAN : v->s[0] == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	if (!v || v->t != JR_NUM)
		return -1;
	*out = strtod(v->s, &end);
	return *end ? -1 : 0;
}

const char *jr_str(const struct jr *v)
{
	return v && v->t == JR_STR ? v->s : NULL;
}
