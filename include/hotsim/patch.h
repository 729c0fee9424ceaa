/*
 * patch.h - boot-time code patching for a chosen core.
 *
 * A vmlinux file is not the code a booted kernel runs. In the order boot does
 * it, hotsim applies to a copy of the image's memory:
 *   1. dynamic relocations (.rela.dyn R_AARCH64_RELATIVE, .relr.dyn): arm64
 *      RELOCATABLE kernels link with --no-apply-dynamic-relocs, so statically
 *      initialised pointers are zero in the file;
 *   2. CPU capabilities detected from the image's own tables (cpucaps.h);
 *   3. alternatives (.altinstructions), callbacks resolved by symbol name;
 *   4. static keys / jump labels (__jump_table), from key defaults plus the
 *      keys boot flips (cpu_hwcap_keys[], arm64_const_caps_ready...);
 *   5. runtime constants (runtime_ptr_* / runtime_shift_* / runtime_mask_*).
 * Everything is counted, and every changed site can be listed.
 */
#ifndef HOTSIM_PATCH_H
#define HOTSIM_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/core.h"
#include "hotsim/cpucaps.h"
#include "hotsim/image.h"

enum hs_site_kind {
	HS_SITE_ALT,		/* alternative: replacement copied in */
	HS_SITE_ALT_CB,		/* alternative callback */
	HS_SITE_JUMP,		/* jump label: nop <-> b */
	HS_SITE_RTCONST,	/* runtime constant immediates */
	HS_SITE_NKINDS
};

/* One changed site: before/after words live in the report's word pool. */
struct hs_site {
	uint64_t addr;
	uint8_t kind;		/* enum hs_site_kind */
	uint8_t ninsn;
	uint16_t cap;		/* alternatives: capability */
	uint32_t words;		/* index of 2*ninsn words (before, then after) */
	const char *what;	/* callback / key / constant name (in the image) */
};

enum hs_rtconst_kind { HS_RTC_PTR, HS_RTC_SHIFT, HS_RTC_MASK };

enum hs_rtconst_source {
	HS_RTC_FROM_RULE,	/* what the image's code stores (boot_values.c, boot_stores.c) */
	HS_RTC_FROM_IMAGE,	/* the variable's non-zero initial value */
	HS_RTC_FROM_STATE,	/* settled from the emulated boot state */
	HS_RTC_PENDING		/* unknown: sites left as in the file */
};

/* One runtime_<kind>_<var> section. */
struct hs_rtconst {
	const char *name;		/* section name */
	const char *var;		/* the variable boot reads the value from */
	enum hs_rtconst_kind kind;
	enum hs_rtconst_source source;
	uint64_t value;			/* when not pending */
	unsigned sites;
	const char *from;		/* how the value was found (or why not) */
};

/* The root IRQ handler boot installs (boot_values.c): what the platform's
 * interrupt controller driver passes to set_handle_irq(), and the
 * variables set_handle_irq() keeps it in, whatever they are called. */
struct hs_root_irq {
	uint64_t handler;		/* 0: the image does not say */
	uint64_t vars[4];
	unsigned nvars;
	char why[128];			/* "set_handle_irq(gic_handle_irq) in gic_init_bases()" */
};

/* Find it in the image's code (mem: the image's memory, its text as in
 * the file); -1 (hs_errmsg) when the image does not say. */
int hs_root_irq(const struct hs_image *img, uint8_t *mem, struct hs_root_irq *out);
/* Only the variables (cheap: one function's code): how many into vars. */
unsigned hs_root_irq_vars(const struct hs_image *img, uint8_t *mem, uint64_t *vars, unsigned max);

struct hs_rtconst_site {
	uint64_t addr;
	unsigned section;		/* index in rtconst[] */
};

struct hs_named_count {
	const char *name;
	unsigned count;
};

struct hs_patch_report {
	/* relocations */
	unsigned rela_total, rela_relative, rela_other;
	unsigned relr_words, relr_relocs;
	/* alternatives */
	unsigned alt_total, alt_applied, alt_skipped, alt_cb_applied, alt_cb_unknown;
	unsigned alt_per_cap[HS_MAX_CAPS];	/* applied, non-callback */
	struct hs_named_count callbacks[32];	/* applied callbacks by name */
	unsigned ncallbacks;
	struct hs_named_count unknown_cbs[16];	/* callbacks hotsim cannot run */
	unsigned nunknown_cbs;
	/* jump labels */
	unsigned jump_total, jump_enabled, jump_disabled, jump_changed;
	unsigned keys_flipped;		/* keys boot sets differently from the image */
	struct hs_root_irq root_irq;	/* boot values (boot_values.c) */
	/* runtime constants (runtime_const.c) */
	unsigned rtconst_sections, rtconst_sites;
	struct hs_rtconst rtconst[16];
	struct hs_rtconst_site *pending;	/* sites of HS_RTC_PENDING sections */
	size_t npending, pending_cap;
	/* changed sites, in address order after hs_patch() */
	struct hs_site *sites;
	size_t nsites, sites_cap;
	uint32_t *pool;
	size_t npool, pool_cap;
};

struct hs_patched {
	const struct hs_image *img;
	const struct hs_core *core;
	uint8_t *mem;			/* patched copy of img->mem */
	struct hs_caps caps;
	struct hs_patch_report rep;
};

/*
 * Copy the image memory and patch it for core. NULL with hs_errmsg() on a
 * malformed table (entry pointing outside text, bad lengths...).
 */
struct hs_patched *hs_patch(const struct hs_image *img, const struct hs_core *core);
void hs_patched_free(struct hs_patched *p);

/*
 * Patch mem in place (must be laid out like img->mem). Exposed so tests can
 * show that patching twice changes nothing. rep is reset first.
 */
int hs_patch_apply(const struct hs_image *img, const struct hs_core *core, uint8_t *mem,
		   struct hs_caps *caps, struct hs_patch_report *rep);
void hs_patch_report_free(struct hs_patch_report *rep);

/* The individual steps (sim/reloc.c, alternatives.c, jump_label.c, runtime_const.c). */
int hs_apply_relocs(const struct hs_image *img, uint8_t *mem, struct hs_patch_report *rep);
int hs_apply_alternatives(const struct hs_image *img, const struct hs_core *core, uint8_t *mem,
			  const struct hs_caps *caps, struct hs_patch_report *rep);
int hs_apply_jump_labels(const struct hs_image *img, uint8_t *mem, const struct hs_caps *caps,
			 struct hs_patch_report *rep);
int hs_apply_runtime_consts(const struct hs_image *img, uint8_t *mem,
			    struct hs_patch_report *rep);

/* Runtime-constant encoding, shared with the state that settles pending
 * constants: instructions per site, and the words rewritten for val. */
unsigned hs_rtconst_ninsn(enum hs_rtconst_kind kind);
int hs_rtconst_encode(enum hs_rtconst_kind kind, uint32_t *w, uint64_t val, char *err,
		      size_t errlen);

/* Record a changed site (used by the steps). */
int hs_report_site(struct hs_patch_report *rep, enum hs_site_kind kind, uint64_t addr,
		   const uint32_t *before, const uint32_t *after, unsigned ninsn, unsigned cap,
		   const char *what);

/* Count a name in a small named-count table; returns -1 if it is full. */
int hs_count_name(struct hs_named_count *tab, unsigned *n, unsigned cap, const char *name);

#endif
