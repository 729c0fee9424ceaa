/*
 * qemu_cpus.c - the QEMU CPUs hotsim boots kernels on are its cores' boot
 * CPUs: each core file gives its own (-cpu name and that CPU's identity as
 * QEMU defines it), so this file knows no CPU by name.
 */
#include <string.h>

#include "vm/vm.h"

const struct hs_qemu_cpu *hs_qemu_cpu_find(const char *name)
{
	for (int i = 0; name && hs_cores[i]; i++)
		if (hs_cores[i]->boot_cpu && !strcmp(hs_cores[i]->boot_cpu, name))
			return &hs_cores[i]->boot;
	return NULL;
}
