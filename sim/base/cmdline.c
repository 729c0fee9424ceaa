/*
 * cmdline.c - which kernel parameters a boot may add (cmdline.h). The
 * kernel splits its command line at spaces and takes quotes itself, so a
 * quote or a control character would make the parameters mean something
 * else than what the snapshot's description says; the refused names are
 * those of hotsim's own line (snapcache.c's APPEND) and its programs'.
 */
#include <string.h>

#include "hotsim/cmdline.h"
#include "hotsim/err.h"

/* Parameter names (up to '=') hotsim's boot sets or reads itself. */
static const char *const owned[] = { "rdinit", "init", "console", "kaslr", "nokaslr", NULL };

int hs_cmdline_check(const char *args)
{
	const char *p = args;

	if (!args || !*args)
		return hs_fail("--cmdline needs kernel parameters (audit=1, mitigations=off ...)");
	if (strlen(args) > HS_CMDLINE_MAX)
		return hs_fail("--cmdline: %zu bytes of parameters; at most %d", strlen(args), HS_CMDLINE_MAX);
	for (; *p; p++)
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\'' || *p == '\\')
			return hs_fail("--cmdline: byte 0x%02x at %ld: kernel parameters are printable and unquoted",
				       (unsigned char)*p, (long)(p - args));
	for (p = args; *p;) {
		size_t len = strcspn(p, " "), name = strcspn(p, "= ");

		if (len && !strncmp(p, "hotsim_", 7))
			return hs_fail("--cmdline: %.*s: hotsim_ parameters are hotsim's own", (int)len, p);
		for (int i = 0; len && owned[i]; i++)
			if (strlen(owned[i]) == name && !strncmp(p, owned[i], name))
				return hs_fail("--cmdline: %.*s: hotsim's boot sets %s itself", (int)len, p, owned[i]);
		p += len;
		p += strspn(p, " ");
	}
	return 0;
}
