/*
 * err.h - one-line error reporting.
 *
 * Library code never prints or exits: a failing function records one line
 * naming the file, symbol or address and the problem, and returns -1 (or
 * NULL). The CLI prints that line and exits with status 2.
 */
#ifndef HOTSIM_ERR_H
#define HOTSIM_ERR_H

#include <stddef.h>

#if defined(__GNUC__)
#define HS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HS_PRINTF(a, b)
#endif

/* Record the message (replacing any earlier one); returns -1. */
int hs_fail(const char *fmt, ...) HS_PRINTF(1, 2);

/* Last recorded message, "" if none. */
const char *hs_errmsg(void);

/* Allocation helpers: on failure they record "out of memory" and return NULL. */
void *hs_malloc(size_t n);
void *hs_calloc(size_t n, size_t size);
void *hs_realloc(void *p, size_t n);
char *hs_strdup(const char *s);

#define HS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
