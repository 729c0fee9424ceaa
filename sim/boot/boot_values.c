/*
 * boot_values.c - variables boot initialises before any hot path runs and
 * that those paths read (directly or as runtime constants), found from the
 * code that sets them, not from their names. hotsim writes them into the
 * patched image; runtime_const.c gives them to the constants of those
 * variables. Anything else keeps the value the image gives it.
 *
 * The root IRQ handler: the interrupt controller driver's init hands it to
 * set_handle_irq() (on QEMU virt's GICv3, gic_init_bases() calls
 * set_handle_irq(gic_handle_irq)), which keeps it in the variable the
 * entry code reads - handle_arch_irq, or whatever a kernel calls it (a
 * patch's _handle_arch_irq, arm64_root_irq), loaded from memory or
 * materialised by a runtime constant set from it. So the handler is what
 * the image's code passes to set_handle_irq() (the platform driver's,
 * when several irqchips are built in), and its variables are every one
 * set_handle_irq() stores that argument to (boot_stores.c).
 */
#include <stdio.h>
#include <string.h>

#include "boot/boot_values.h"
#include "hotsim/err.h"

unsigned hs_root_irq_vars(const struct hs_image *img, uint8_t *mem, uint64_t *vars, unsigned max)
{
	const struct hs_sym *f = hs_sym_exact(img, "set_handle_irq");

	return f ? hs_boot_arg_stores(img, mem, f, 0, vars, max) : 0;
}

int hs_root_irq(const struct hs_image *img, uint8_t *mem, struct hs_root_irq *out)
{
	const struct hs_sym *f = hs_sym_exact(img, "set_handle_irq");
	struct hs_stored st;

	memset(out, 0, sizeof(*out));
	if (!f)
		return hs_fail("%s: no set_handle_irq()", img->path);
	out->nvars = hs_root_irq_vars(img, mem, out->vars, HS_ARRAY_SIZE(out->vars));
	if (!out->nvars)
		return hs_fail("%s: set_handle_irq() keeps its handler in no variable hotsim sees", img->path);
	if (hs_boot_passed(img, mem, f, 0, &st)) {
		out->nvars = 0;
		return -1;
	}
	out->handler = st.value;
	snprintf(out->why, sizeof(out->why), "set_handle_irq(%s) in %s()", st.fn->name,
		 st.from ? st.from->name : "?");
	return 0;
}

int hs_apply_boot_values(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep)
{
	struct hs_root_irq *ri = &rep->root_irq;
	unsigned n = 0;

	if (hs_root_irq(img, mem, ri))
		return 0;	/* the image does not say: its own values stay */
	for (unsigned i = 0; i < ri->nvars; i++) {
		const struct hs_sym *v = hs_sym_at(img, ri->vars[i]);
		uint8_t *p = hs_at(img, mem, ri->vars[i], 8);

		/* a pointer variable of its own, not a field of something */
		if (!p || !v || v->addr != ri->vars[i] || v->size != 8)
			continue;
		memcpy(p, &ri->handler, 8);
		ri->vars[n++] = ri->vars[i];
	}
	ri->nvars = n;
	if (!n)
		memset(ri, 0, sizeof(*ri));
	return 0;
}
