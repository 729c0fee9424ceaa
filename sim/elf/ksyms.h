/*
 * ksyms.h - kernel symbols by role, across the names they have had.
 *
 * Kernels rename what hotsim needs (the init stack bounds became
 * __start_init_stack in 6.x; the allocators grew _noprof suffixes in 6.10).
 * Each role lists the names in one table (sim/ksyms.c), newest first; the
 * first name the image has wins. No match is an error that names every name
 * tried, never a silent skip.
 */
#ifndef HOTSIM_KSYMS_H
#define HOTSIM_KSYMS_H

#include "hotsim/image.h"

#define HS_KSYM_MAX_NAMES 6

struct hs_ksym_role {
	const char *role;			/* "init stack start" */
	const char *names[HS_KSYM_MAX_NAMES];	/* NULL-terminated, newest first */
};

/* The symbol playing role in img (compiler suffixes resolved); NULL with
 * hs_errmsg() naming the role and the names tried. */
const struct hs_sym *hs_ksym(const struct hs_image *img, const char *role);

/* The same, without an error (NULL: no name of the role in this image). */
const struct hs_sym *hs_ksym_opt(const struct hs_image *img, const char *role);

/* "a, b, c": up to max names (NULL-terminated list) into buf. */
const char *hs_ksym_join(const char *const *names, int max, char *buf, size_t len);

#endif
