/*
 * qemu_cpus.c - the QEMU CPUs hotsim boots kernels on, as data. MIDR
 * values are QEMU 7.2's (target/arm/cpu64.c, aarch64_a53_initfn /
 * aarch64_a72_initfn / aarch64_a76_initfn); the gdbstub does not show
 * MIDR_EL1, so the boot profile takes it from here. The Spectre-BHB loop
 * counts are Linux's (arch/arm64/kernel/proton-pack.c,
 * spectre_bhb_loop_affected(): Cortex-A72 k=8, Cortex-A76 k=24; A53 is on
 * no list). QEMU's virt firmware implements no SMCCC workaround, so the
 * firmware-mitigated Spectre variants stay unmitigated on every one.
 * ID_AA64MMFR0_EL1 is QEMU's too (the same init functions): cortex-a53 and
 * cortex-a72 have no 16K granule, cortex-a76 has all three.
 */
#include <string.h>

#include "vm/vm.h"

static const struct hs_qemu_cpu cpus[] = {
	{ "cortex-a53", 0x410fd034, 0x00001122, 0, "QEMU 7.2 aarch64_a53_initfn" },
	{ "cortex-a72", 0x410fd083, 0x00001124, 8, "QEMU 7.2 aarch64_a72_initfn" },
	{ "cortex-a76", 0x414fd0b1, 0x00101122, 24, "QEMU 7.2 aarch64_a76_initfn" },
};

const struct hs_qemu_cpu *hs_qemu_cpu_find(const char *name)
{
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		if (!strcmp(cpus[i].name, name))
			return &cpus[i];
	return NULL;
}
