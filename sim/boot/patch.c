/*
 * patch.c - boot-time patching in boot's order (see patch.h), and the record
 * of what changed.
 */
#include <stdlib.h>
#include <string.h>

#include "boot/boot_values.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"

int hs_count_name(struct hs_named_count *tab, unsigned *n, unsigned cap, const char *name)
{
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(tab[i].name, name)) {
			tab[i].count++;
			return 0;
		}
	if (*n >= cap)
		return -1;
	tab[*n].name = name;
	tab[*n].count = 1;
	(*n)++;
	return 0;
}

int hs_report_site(struct hs_patch_report *rep, enum hs_site_kind kind, uint64_t addr,
		   const uint32_t *before, const uint32_t *after, unsigned ninsn, unsigned cap,
		   const char *what)
{
	struct hs_site *s;

	if (rep->nsites == rep->sites_cap) {
		size_t nc = rep->sites_cap ? 2 * rep->sites_cap : 256;
		struct hs_site *ns = hs_realloc(rep->sites, nc * sizeof(*ns));

		if (!ns)
			return -1;
		rep->sites = ns;
		rep->sites_cap = nc;
	}
	while (rep->npool + 2 * ninsn > rep->pool_cap) {
		size_t nc = rep->pool_cap ? 2 * rep->pool_cap : 1024;
		uint32_t *np = hs_realloc(rep->pool, nc * sizeof(*np));

		if (!np)
			return -1;
		rep->pool = np;
		rep->pool_cap = nc;
	}
	s = &rep->sites[rep->nsites++];
	s->addr = addr;
	s->kind = (uint8_t)kind;
	s->ninsn = (uint8_t)ninsn;
	s->cap = (uint16_t)cap;
	s->words = (uint32_t)rep->npool;
	s->what = what;
	memcpy(rep->pool + rep->npool, before, 4 * ninsn);
	memcpy(rep->pool + rep->npool + ninsn, after, 4 * ninsn);
	rep->npool += 2 * ninsn;
	return 0;
}

void hs_patch_report_free(struct hs_patch_report *rep)
{
	free(rep->sites);
	free(rep->pool);
	free(rep->pending);
	memset(rep, 0, sizeof(*rep));
}

static int cmp_site(const void *a, const void *b)
{
	const struct hs_site *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

int hs_patch_apply(const struct hs_image *img, const struct hs_core *core, uint8_t *mem,
		   struct hs_caps *caps, struct hs_patch_report *rep)
{
	hs_patch_report_free(rep);
	if (hs_apply_relocs(img, mem, rep))
		return -1;
	if (hs_apply_boot_values(img, mem, rep))
		return -1;
	if (hs_cpucaps_eval(img, mem, core, caps))
		return -1;
	if (hs_apply_alternatives(img, core, mem, caps, rep) ||
	    hs_apply_jump_labels(img, mem, caps, rep) || hs_apply_runtime_consts(img, mem, rep))
		return -1;
	if (rep->nsites)
		qsort(rep->sites, rep->nsites, sizeof(*rep->sites), cmp_site);
	return 0;
}

struct hs_patched *hs_patch(const struct hs_image *img, const struct hs_core *core)
{
	struct hs_patched *p = hs_calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->img = img;
	p->core = core;
	if (!(p->mem = hs_image_mem_copy(img))) {
		free(p);
		return NULL;
	}
	if (hs_patch_apply(img, core, p->mem, &p->caps, &p->rep)) {
		hs_patched_free(p);
		return NULL;
	}
	return p;
}

void hs_patched_free(struct hs_patched *p)
{
	if (!p)
		return;
	hs_patch_report_free(&p->rep);
	hs_image_mem_release(p->img, p->mem);
	free(p);
}
