/*
 * registry.c - the modelled cores, in report order. A new core is one file
 * (models/<core>.c defining `const struct hs_core hs_core_<core>`) and one
 * line here; every list of cores hotsim prints or accepts comes from this
 * array.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hotsim/core.h"

extern const struct hs_core hs_core_a53, hs_core_a55, hs_core_a73;

/* A test links a throwaway core under this name to see it appear
 * everywhere (tests/extra_registry.c); otherwise the weak reference is NULL
 * and ends the list. */
extern const struct hs_core hs_core_extra __attribute__((weak));

const struct hs_core *const hs_cores[] = {
	&hs_core_a53,
	&hs_core_a55,
	&hs_core_a73,
	&hs_core_extra,
	NULL
};

const struct hs_core *hs_core_find(const char *name)
{
	if (!name)
		return NULL;
	if (strncasecmp(name, "cortex-", 7) == 0)
		name += 7;
	for (int i = 0; hs_cores[i]; i++)
		if (strcasecmp(hs_cores[i]->name, name) == 0)
			return hs_cores[i];
	return NULL;
}

const char *hs_core_names(void)
{
	static char buf[256];
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; hs_cores[i] && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? ", " : "",
					 hs_cores[i]->name);
	return buf;
}
