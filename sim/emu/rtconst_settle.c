/*
 * rtconst_settle.c - runtime constants the patcher left pending (see
 * runtime_const.c), settled once the emulated boot state exists: the
 * variable's value there, when it has one, is patched into the runner's copy
 * of every site; a site whose value is still unknown is poisoned, so a run
 * that executes it stops and names it instead of computing with the
 * placeholder 0x0123456789abcdef.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/kstate.h"
#include "emu/runner_internal.h"

int hs_rtconst_settle(struct hs_runner *r, const struct hs_patch_report *rep)
{
	const struct hs_image *img = r->img;

	for (size_t i = 0; i < rep->npending; i++) {
		const struct hs_rtconst_site *ps = &rep->pending[i];
		const struct hs_rtconst *c = &rep->rtconst[ps->section];
		const struct hs_sym *var = hs_sym_exact(img, c->var);
		unsigned n = hs_rtconst_ninsn(c->kind);
		uint64_t val = 0;
		uint32_t w[4];
		void *site = hs_rt_host(r, ps->addr, 4ULL * n);
		char err[96], where[128];

		if (!site)
			return hs_fail("%s: runtime constant %s site 0x%llx is not mapped", img->path,
				       c->name, (unsigned long long)ps->addr);
		if (var && c->kind == HS_RTC_PTR)
			hs_rt_read64(r, var->addr, &val);
		else if (var && hs_rt_host(r, var->addr, 4))
			memcpy(&val, hs_rt_host(r, var->addr, 4), 4);
		memcpy(w, site, 4ULL * n);
		if (val && hs_rtconst_encode(c->kind, w, val, err, sizeof(err)) == 0) {
			memcpy(site, w, 4ULL * n);
			hs_rt_code_changed(r, ps->addr, 4ULL * n);
			continue;
		}
		hs_addr_fmt(img, ps->addr, where, sizeof(where));
		if (hs_rt_poison(r, ps->addr, 4ULL * n,
				 "runtime constant %s site at %s: hotsim does not know the value boot "
				 "gives %s (%s)", c->name, where, c->var, c->from))
			return -1;
	}
	return 0;
}
