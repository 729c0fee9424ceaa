/*
 * registry.c - the modelled cores, in report order. A new core is one file
 * (models/<core>.c defining `const struct hs_core hs_core_<core>`) and one
 * line here; every list of cores hotsim prints or accepts comes from this
 * array. The default set - what a command runs without --cpu - is the
 * cores not marked opt_in (the design card's A53, A55, A73); the others
 * are run by name or by --cpu all.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hotsim/core.h"

extern const struct hs_core hs_core_a53, hs_core_a55, hs_core_a73;
extern const struct hs_core hs_core_a72, hs_core_a76, hs_core_n1;

/* A test links a throwaway core under this name to see it appear
 * everywhere (tests/extra_registry.c); otherwise the weak reference is NULL
 * and ends the list. */
extern const struct hs_core hs_core_extra __attribute__((weak));

const struct hs_core *const hs_cores[] = {
	&hs_core_a53,
	&hs_core_a55,
	&hs_core_a73,
	&hs_core_a72,		/* opt-in: Raspberry Pi 4 */
	&hs_core_a76,		/* opt-in: Raspberry Pi 5 */
	&hs_core_n1,		/* opt-in: Ampere Altra, AWS Graviton2 */
	&hs_core_extra,
	NULL
};

const struct hs_core *hs_core_find(const char *name)
{
	if (!name)
		return NULL;
	if (strncasecmp(name, "cortex-", 7) == 0)
		name += 7;
	else if (strncasecmp(name, "neoverse-", 9) == 0)
		name += 9;
	for (int i = 0; hs_cores[i]; i++)
		if (strcasecmp(hs_cores[i]->name, name) == 0)
			return hs_cores[i];
	return NULL;
}

/* "a, b, c" from the registry's names (only the default set's: dflt) */
static const char *names(char *buf, size_t len, int dflt)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; hs_cores[i] && used < len; i++)
		if (!dflt || !hs_cores[i]->opt_in)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 hs_cores[i]->name);
	return buf;
}

const char *hs_core_names(void)
{
	static char buf[256];

	return names(buf, sizeof(buf), 0);
}

const char *hs_core_default_names(void)
{
	static char buf[256];

	return names(buf, sizeof(buf), 1);
}
