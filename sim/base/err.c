/* err.c - the last error, as one line (see include/hotsim/err.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"

static char errbuf[2048];	/* fault reports with call stacks run to ~1 KB */

int hs_fail(const char *fmt, ...)
{
	char tmp[sizeof(errbuf)];
	va_list ap;

	/* format aside: an argument may be hs_errmsg() itself */
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	memcpy(errbuf, tmp, sizeof(errbuf));
	/* Keep it one line whatever the inputs contained. */
	for (char *p = errbuf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return -1;
}

const char *hs_errmsg(void)
{
	return errbuf;
}

void *hs_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		hs_fail("out of memory (%zu bytes)", n);
	return p;
}

void *hs_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		hs_fail("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *hs_realloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p)
		hs_fail("out of memory (%zu bytes)", n);
	return p;
}

char *hs_strdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		hs_fail("out of memory");
	return p;
}
