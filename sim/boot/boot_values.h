/* boot_values.h - variables boot sets before hot paths run (see boot_values.c). */
#ifndef HOTSIM_BOOT_VALUES_H
#define HOTSIM_BOOT_VALUES_H

#include <stdint.h>

#include "hotsim/image.h"
#include "hotsim/patch.h"

/* A function's address the image's code stores or passes (boot_stores.c). */
struct hs_stored {
	uint64_t value;			/* the address */
	const struct hs_sym *fn;	/* that function */
	const struct hs_sym *from;	/* the function whose code stores or passes it */
	unsigned nfn;			/* functions given in all */
};

/* Boot-time value of var from the stores the image's own code makes to
 * it: the one function address stored, or the platform driver's among
 * several; -1 (hs_errmsg) when that does not decide it. */
int hs_boot_stored_value(const struct hs_image *img, uint8_t *mem, const char *var, uint64_t *val,
			 const char **why);
/* What the image's code passes to f as argument x<arg>, decided the same
 * way (the platform's drivers' calls looked at first). */
int hs_boot_passed(const struct hs_image *img, uint8_t *mem, const struct hs_sym *f, unsigned arg,
		   struct hs_stored *out);
/* The variables function f stores its argument x<arg> to: up to max
 * addresses into vars, how many. */
unsigned hs_boot_arg_stores(const struct hs_image *img, uint8_t *mem, const struct hs_sym *f, unsigned arg,
			    uint64_t *vars, unsigned max);

/* Write the boot values the image's code gives (the root IRQ handler,
 * into rep->root_irq and every variable that keeps it). */
int hs_apply_boot_values(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep);

#endif
