/*
 * ksyms.c - the names kernel symbols hotsim needs have had (see ksyms.h).
 * A new kernel that renames one adds a name here, not a special case.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "elf/ksyms.h"

static const struct hs_ksym_role roles[] = {
	/* include/asm-generic/vmlinux.lds.h INIT_TASK_DATA */
	{ "init stack start", { "__start_init_stack", "__start_init_task" } },
	{ "init stack end", { "__end_init_stack", "__end_init_task" } },
	{ "init stack", { "init_stack", "__start_init_stack", "__start_init_task" } },
	/* where .data..percpu's initial contents sit: __per_cpu_load until 6.x,
	 * the section itself since (no separate load address) */
	{ "per-cpu load", { "__per_cpu_load", "__per_cpu_start" } },
	/* arch/arm64/kernel/cpufeature.c: ARM64_NCAPS-sized tables, renamed in 6.4 */
	{ "cpucap pointers", { "cpucap_ptrs", "cpu_hwcaps_ptrs" } },
	{ "cpucap bitmap", { "system_cpucaps", "cpu_hwcaps" } },
	/* kernel/time: init_timers() became timers_init() in 6.x */
	{ "timers init", { "timers_init", "init_timers" } },
};

static const struct hs_ksym_role *find_role(const char *role)
{
	for (size_t i = 0; i < HS_ARRAY_SIZE(roles); i++)
		if (!strcmp(roles[i].role, role))
			return &roles[i];
	return NULL;
}

const struct hs_sym *hs_ksym_opt(const struct hs_image *img, const char *role)
{
	const struct hs_ksym_role *r = find_role(role);

	for (int i = 0; r && i < HS_KSYM_MAX_NAMES && r->names[i]; i++) {
		const struct hs_sym *s = hs_sym_lookup(img, r->names[i], NULL);

		if (s)
			return s;
	}
	return NULL;
}

const char *hs_ksym_join(const char *const *names, int max, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < max && names[i]; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);

		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	return buf;
}

const struct hs_sym *hs_ksym(const struct hs_image *img, const char *role)
{
	const struct hs_ksym_role *r = find_role(role);
	const struct hs_sym *s = hs_ksym_opt(img, role);
	char tried[256];

	if (s)
		return s;
	if (!r)
		hs_fail("internal: no symbol role '%s'", role);
	else
		hs_fail("%s: no symbol for the %s (tried %s)", img->path, role,
			hs_ksym_join(r->names, HS_KSYM_MAX_NAMES, tried, sizeof(tried)));
	return NULL;
}
