/*
 * boot_values.c - variables that boot initialises before any hot path runs
 * and that those paths read (directly or as runtime constants). hotsim writes
 * them into the patched image and uses them as runtime-constant values.
 * Anything not listed keeps the value the image gives it.
 */
#include <string.h>

#include "boot/boot_values.h"
#include "hotsim/err.h"

static const struct hs_boot_value values[] = {
	/* gic_init_bases() -> set_handle_irq(gic_handle_irq): the GICv3 root
	 * handler (the paths emulate the GICv3 CPU interface). */
	{ "handle_arch_irq", "gic_handle_irq", "irq-gic-v3.c",
	  "set_handle_irq(gic_handle_irq) in gic_init_bases() (GICv3)" },
};

int hs_boot_value(const struct hs_image *img, const char *var, uint64_t *val, const char **why)
{
	for (size_t i = 0; i < HS_ARRAY_SIZE(values); i++) {
		const struct hs_sym *s;

		if (strcmp(values[i].var, var))
			continue;
		s = values[i].value_file ? hs_sym_in_file(img, values[i].value_sym, values[i].value_file)
					 : hs_sym_lookup(img, values[i].value_sym, NULL);
		if (!s)
			return hs_fail("%s: %s: boot sets it to %s (%s), which this image lacks", img->path,
				       var, values[i].value_sym, values[i].value_file ? values[i].value_file : "");
		*val = s->addr;
		if (why)
			*why = values[i].why;
		return 0;
	}
	return hs_fail("%s: no known boot value for %s", img->path, var);
}

int hs_apply_boot_values(const struct hs_image *img, uint8_t *mem, unsigned *nset)
{
	*nset = 0;
	for (size_t i = 0; i < HS_ARRAY_SIZE(values); i++) {
		const struct hs_sym *var = hs_sym_exact(img, values[i].var);
		uint64_t v;
		uint8_t *p;

		if (!var)
			continue;	/* e.g. no root-handler pointer in this kernel */
		p = hs_at(img, mem, var->addr, 8);
		if (!p || var->size != 8)
			return hs_fail("%s: %s is not an 8-byte object", img->path, values[i].var);
		if (hs_boot_value(img, values[i].var, &v, NULL))
			continue;	/* value's symbol absent: keep the image's own */
		memcpy(p, &v, 8);
		(*nset)++;
	}
	return 0;
}
