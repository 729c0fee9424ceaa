/* cpulist.c - `taskset -c` CPU lists and their masks (cpulist.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/cpulist.h"

/* One number of a list at *p: 0-63, *p moved past it. */
static int cpu_at(const char **p, unsigned *cpu)
{
	char *end;
	unsigned long v;

	if (**p < '0' || **p > '9')
		return -1;
	v = strtoul(*p, &end, 10);
	*p = end;
	*cpu = (unsigned)v;
	return v < 64 ? 0 : -1;
}

int hs_cpulist_parse(const char *list, uint64_t *mask)
{
	const char *p = list;

	*mask = 0;
	do {
		unsigned lo, hi;

		if (cpu_at(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-' && (p++, cpu_at(&p, &hi) || hi < lo))
			goto bad;
		for (unsigned c = lo; c <= hi; c++)
			*mask |= 1ull << c;
	} while (*p == ',' && *p++);
	if (!*p)
		return 0;
bad:
	return hs_fail("--taskset %s: not a CPU list (taskset -c's: 0, 0,2 or 0-3; CPUs 0 to 63)", list);
}

int hs_cpulist_fits(uint64_t mask, unsigned ncpus)
{
	char list[200], has[48] = "CPU 0 (one CPU";

	if (!(mask >> (ncpus > 1 ? ncpus : 1)))
		return 0;
	if (ncpus > 1)
		snprintf(has, sizeof(has), "CPUs 0-%u (--smp %u", ncpus - 1, ncpus);
	hs_cpulist_format(mask, list, sizeof(list));
	return hs_fail("--taskset %s: the machine has %s)", list, has);
}

void hs_cpulist_format(uint64_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned c = 0; c < 64 && n < len; c++) {
		unsigned hi = c;

		if (!(mask >> c & 1))
			continue;
		while (hi < 63 && mask >> (hi + 1) & 1)
			hi++;
		n += (size_t)snprintf(buf + n, len - n, hi > c ? "%s%u-%u" : "%s%u", n ? "," : "", c, hi);
		c = hi;
	}
}
