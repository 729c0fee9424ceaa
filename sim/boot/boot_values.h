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

/* Boot-time value of var from the stores the image's own code makes to it
 * (boot_stores.c): the one function address stored, or the platform
 * driver's among several; -1 (hs_errmsg) when that does not decide it. */
int hs_boot_stored_value(const struct hs_image *img, uint8_t *mem, const char *var, uint64_t *val,
			 const char **why);

/* Write every known boot value whose variable the image has. */
int hs_apply_boot_values(const struct hs_image *img, uint8_t *mem, unsigned *nset);

#endif
