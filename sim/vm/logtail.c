/*
 * logtail.c - the last lines of what a guest kernel said, as one line for
 * an error: led by the first line that says why a kernel died (panic,
 * oops, BUG), which a stack dump pushes out of the last lines, then the
 * last four. The console (qemu.c) and the kernel's own log buffer
 * (klog.c) are summed up the same way. Before them, on the console, the
 * cause when the boot's own programs gave up: "HOTSIM cgroup: ..." just
 * before the kernel's "Attempted to kill init!".
 */
#include <stdio.h>
#include <string.h>

#include "vm/vm.h"

void hs_vm_tail_add(struct hs_vm_tail *t, const char *line)
{
	static const char *const fatal[] = { "Kernel panic", "Internal error: Oops", "BUG:", "Unable to handle" };

	if (!line[0])
		return;
	/* "HOTSIM <program>: why" - progress lines have no colon there */
	if (!strncmp(line, "HOTSIM ", 7) && line[7 + strcspn(line + 7, " :")] == ':')
		snprintf(t->said, sizeof(t->said), "%s", line);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]) && !t->first[0]; i++)
		if (strstr(line, fatal[i]))
			snprintf(t->first, sizeof(t->first), "%s", line);
	snprintf(t->last[t->n++ % 4], sizeof(t->last[0]), "%s", line);
}

const char *hs_vm_tail_str(const struct hs_vm_tail *t, char *buf, size_t len)
{
	buf[0] = 0;
	if (t->said[0])
		snprintf(buf, len, "%s | ", t->said);
	if (t->first[0])
		snprintf(buf + strlen(buf), len - strlen(buf), "%s ...", t->first);
	for (unsigned i = t->n > 4 ? t->n - 4 : 0; i < t->n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " | " : "", t->last[i % 4]);
	return buf;
}
