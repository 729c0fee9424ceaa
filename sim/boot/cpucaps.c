/*
 * cpucaps.c - evaluate the image's arm64_features[] and arm64_errata[] for a
 * modelled core, the way arch/arm64/kernel/cpufeature.c does at boot.
 *
 * struct arm64_cpu_capabilities changed shape over time; the layouts hotsim
 * recognises are listed below and the one in use is reported. Entries are
 * validated (desc points into the image, matches points at a function) before
 * any field is believed.
 *
 * This file finds the layout and walks the tables; what each entry's
 * matches() function answers is cpucap_matchers.c's job.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "boot/cpucaps_internal.h"
#include "elf/ksyms.h"

/*
 * desc@0, capability@8 (u16), type@10, matches@16, cpu_enable@24, then a
 * union at 32: {midr_range{model,rv_min,rv_max}@32, fixed_revs@48} |
 * midr_range_list@32 | {sys_reg@32, field_pos@36, ...}; match_list@56.
 */
static const struct layout layouts[] = {
	/* 6.10-era: + max_field_value, + const struct cpumask *cpus at 64 */
	{ "v6.4+ (field_width, max_field_value, cpus)", 72, 0x060400, 36, 37, 38, 39, 41 },
	/* 5.18 .. 6.x: field_width added after field_pos */
	{ "v5.18+ (field_width)", 64, 0x051200, 36, 37, 38, -1, 40 },
	/* 5.4 .. 5.17: width implicitly 4 */
	{ "v5.4+ (no field_width)", 64, 0x050400, 36, -1, 37, -1, 39 },
};

/* Name of the function a pointer designates, suffix (.isra.0...) stripped
 * into buf; NULL if it is not the start of a function. */
static const char *func_name(struct ctx *c, uint64_t addr, char *buf, size_t len)
{
	const struct hs_sym *s = hs_sym_at(c->img, addr);

	if (!s || s->addr != addr || s->type != STT_FUNC)
		return NULL;
	snprintf(buf, len, "%s", s->name);
	buf[strcspn(buf, ".")] = 0;
	return buf;
}

static const char *str_in_image(struct ctx *c, uint64_t va)
{
	const uint8_t *p = hs_at(c->img, (uint8_t *)c->mem, va, 1);
	size_t avail;

	if (!p)
		return NULL;
	avail = c->img->span - (va - c->img->base);
	return memchr(p, 0, avail > 256 ? 256 : avail) ? (const char *)p : NULL;
}

/*
 * One entry: 1 present, 0 absent, -1 unknown matcher. The matcher is
 * identified by its function name in the image; the rules are Linux's,
 * one table row each in cpucap_matchers.c - a name not in the tables is
 * reported, never guessed.
 */
int cc_eval_entry(struct ctx *c, uint64_t e, int depth)
{
	char buf[96];
	const char *m = func_name(c, rd64(c, e + OFF_MATCHES), buf, sizeof(buf));

	c->why = NULL;
	if (!m || depth > 4)
		return -1;
	return cc_match(c, m, e, depth);
}

/* Does stride S describe the table? Every entry before the zero terminator
 * must have a function (or NULL) as matcher and a string (or NULL) as desc. */
static int stride_fits(struct ctx *c, uint64_t base, uint64_t size, unsigned s)
{
	char buf[96];
	uint64_t n = size / s;

	if (size % s || n < 2)
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t e = base + i * s, m = rd64(c, e + OFF_MATCHES), d = rd64(c, e + OFF_DESC);

		if (i == n - 1)
			return m == 0 && d == 0;
		if (m && !func_name(c, m, buf, sizeof(buf)))
			return 0;
		if (d && !str_in_image(c, d))
			return 0;
		if (!m && !d)
			return 0;
	}
	return 1;
}

static int pick_layout(struct ctx *c, const struct hs_sym *t)
{
	for (size_t i = 0; i < HS_ARRAY_SIZE(layouts); i++) {
		const struct layout *l = &layouts[i];

		if (!stride_fits(c, t->addr, t->size, l->size))
			continue;
		if (c->img->version_code && c->img->version_code < l->min_version)
			continue;
		c->lay = l;
		return 0;
	}
	return hs_fail("%s: %s[] (%llu bytes) does not match any known struct arm64_cpu_capabilities layout",
		       c->img->path, t->name, (unsigned long long)t->size);
}

static void find_ncaps(struct ctx *c, unsigned max_seen)
{
	const struct hs_sym *k = hs_sym_exact(c->img, "cpu_hwcap_keys");
	const struct hs_sym *b = hs_ksym_opt(c->img, "cpucap bitmap");
	const struct hs_sym *ptrs = hs_ksym_opt(c->img, "cpucap pointers");

	/* DEFINE_STATIC_KEY_ARRAY_FALSE(cpu_hwcap_keys, ARM64_NCAPS): 16-byte keys */
	if (k && k->size && k->size % 16 == 0 && k->size / 16 <= HS_MAX_CAPS) {
		c->out->ncaps = (unsigned)(k->size / 16);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of cpu_hwcap_keys[]");
	} else if (ptrs && ptrs->size && ptrs->size % 8 == 0 && ptrs->size / 8 <= HS_MAX_CAPS) {
		/* static const struct arm64_cpu_capabilities *cpu_hwcaps_ptrs[ARM64_NCAPS] */
		c->out->ncaps = (unsigned)(ptrs->size / 8);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of %s[]", ptrs->name);
	} else if (b && b->size && b->size * 8 <= HS_MAX_CAPS) {
		c->out->ncaps = (unsigned)(b->size * 8);
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from), "size of %s (upper bound)",
			 b->name);
		c->out->ncaps_bound = 1;
	} else {
		c->out->ncaps = max_seen + 1;
		snprintf(c->out->ncaps_from, sizeof(c->out->ncaps_from),
			 "highest capability in the tables");
		c->out->ncaps_bound = -1;
	}
}

static int walk_table(struct ctx *c, const struct hs_sym *t, unsigned *max_seen)
{
	uint64_t n = t->size / c->lay->size;

	for (uint64_t i = 0; i + 1 < n; i++) {
		uint64_t e = t->addr + i * c->lay->size;
		unsigned cap = rd8(c, e + OFF_CAP) | (unsigned)rd8(c, e + OFF_CAP + 1) << 8;
		uint64_t d = rd64(c, e + OFF_DESC);
		struct hs_cap_info *ci;
		char buf[96];
		int r;

		if (cap >= HS_MAX_CAPS)
			return hs_fail("%s: %s[%llu] has capability %u, beyond %u", c->img->path,
				       t->name, (unsigned long long)i, cap, HS_MAX_CAPS);
		if (cap > *max_seen)
			*max_seen = cap;
		ci = &c->out->cap[cap];
		ci->listed = 1;
		if (d && !ci->desc)
			ci->desc = str_in_image(c, d);
		r = cc_eval_entry(c, e, 0);
		if (r < 0) {
			const char *m = func_name(c, rd64(c, e + OFF_MATCHES), buf, sizeof(buf));
			const struct hs_sym *s = hs_sym_at(c->img, rd64(c, e + OFF_MATCHES));

			if (c->out->nunknown < HS_ARRAY_SIZE(c->out->unknown)) {
				c->out->unknown[c->out->nunknown].matcher = (m && s) ? s->name : "(none)";
				c->out->unknown[c->out->nunknown].cap = cap;
				c->out->nunknown++;
			}
			if (!ci->present && !ci->why)
				ci->why = "unknown matcher: left off";
			continue;
		}
		if (r == 1 && !ci->present) {
			const struct hs_sym *s = hs_sym_at(c->img, rd64(c, e + OFF_MATCHES));

			ci->present = 1;
			ci->matcher = s ? s->name : NULL;
			snprintf(c->out->why_buf[cap], sizeof(c->out->why_buf[cap]), "%s",
				 c->why ? c->why : "");
			ci->why = c->out->why_buf[cap];
		} else if (!ci->present && c->why) {
			snprintf(c->out->why_buf[cap], sizeof(c->out->why_buf[cap]), "%s", c->why);
			ci->why = c->out->why_buf[cap];
		}
	}
	return 0;
}

int hs_cpucaps_eval(const struct hs_image *img, const uint8_t *mem, const struct hs_core *core,
		    struct hs_caps *out)
{
	const struct hs_sym *feat = hs_sym_exact(img, "arm64_features");
	const struct hs_sym *errata = hs_sym_exact(img, "arm64_errata");
	struct ctx c = { .img = img, .mem = mem, .core = core, .out = out };
	unsigned max_seen = 0;

	memset(out, 0, sizeof(*out));
	hs_spectre_eval(core, &out->spectre);
	if (!feat || !feat->size)
		return hs_fail("%s: no arm64_features[] table; cannot tell which CPU features boot enables",
			       img->path);
	if (pick_layout(&c, feat))
		return -1;
	out->entry_size = c.lay->size;
	out->layout = c.lay->name;
	if (walk_table(&c, feat, &max_seen))
		return -1;
	if (errata && errata->size) {
		if (!stride_fits(&c, errata->addr, errata->size, c.lay->size))
			return hs_fail("%s: arm64_errata[] does not match the layout of arm64_features[]",
				       img->path);
		if (walk_table(&c, errata, &max_seen))
			return -1;
	}
	find_ncaps(&c, max_seen);
	if (max_seen >= out->ncaps)
		return hs_fail("%s: capability %u beyond ARM64_NCAPS %u (%s)", img->path, max_seen,
			       out->ncaps, out->ncaps_from);
	return 0;
}

const char *hs_cpucap_label(const struct hs_image *img, const struct hs_caps *caps, unsigned cap,
			    char *buf, unsigned len)
{
	const char *n = hs_cpucap_name(img->version_code, caps->ncaps, caps->ncaps_bound, cap);

	if (n)
		snprintf(buf, len, "%s", n);
	else if (cap < HS_MAX_CAPS && caps->cap[cap].desc)
		snprintf(buf, len, "cap %u (%s)", cap, caps->cap[cap].desc);
	else
		snprintf(buf, len, "cap %u", cap);
	return buf;
}
