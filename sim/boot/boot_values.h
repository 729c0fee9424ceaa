/* boot_values.h - variables boot sets before hot paths run (see boot_values.c). */
#ifndef HOTSIM_BOOT_VALUES_H
#define HOTSIM_BOOT_VALUES_H

#include <stdint.h>

#include "hotsim/image.h"

struct hs_boot_value {
	const char *var;	/* variable */
	const char *value_sym;	/* boot stores this symbol's address */
	const char *value_file;	/* ... the one defined in this source file (statics) */
	const char *why;	/* where boot does it */
};

/* Boot-time value of var; -1 (hs_errmsg) if hotsim does not know it. */
int hs_boot_value(const struct hs_image *img, const char *var, uint64_t *val, const char **why);

/* Write every known boot value whose variable the image has. */
int hs_apply_boot_values(const struct hs_image *img, uint8_t *mem, unsigned *nset);

#endif
