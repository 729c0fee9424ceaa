/*
 * versions.c - which emulator the pipeline runs on (`hotsim --version`).
 */
#include <stdio.h>

#include <unicorn/unicorn.h>

#include "hotsim/measure.h"

const char *ms_unicorn_version(char *buf, size_t len)
{
	unsigned major = 0, minor = 0;

	uc_version(&major, &minor);
	snprintf(buf, len, "%d.%d.%d (library %u.%u)", UC_VERSION_MAJOR, UC_VERSION_MINOR, UC_VERSION_PATCH,
		 major, minor);
	return buf;
}
