/*
 * platform.c - what hotsim assumes about the machine around the core: boot
 * patching and the paths follow from it, and `hotsim image` prints it.
 */
#include "hotsim/core.h"
#include "hotsim/cpucaps.h"

const char hs_platform_assumptions[] =
	"kernel entered at EL1 (no hypervisor, VHE/KVM unused), at its link address "
	"(no KASLR offset), SMCCC 1.1 firmware with SMC conduit implementing the "
	"Spectre workarounds the core needs, homogeneous system of the modelled core";

/*
 * That firmware's SMCCC_ARCH_FEATURES answers (sim/boot/spectre.c asks only
 * for a core the kernel found affected): Trusted Firmware-A as shipped
 * (services/arm_arch_svc/arm_arch_svc_setup.c) implements ARCH_WORKAROUND_1
 * and _3 for the cores that need them, and, built without
 * DYNAMIC_WORKAROUND_CVE_2018_3639, answers ARCH_WORKAROUND_2 with "not
 * required": its CPU files mitigate Spectre-v4 statically at reset (e.g.
 * cortex_a73.S sets IMP_DEF_REG1.DISABLE_LOAD_PASS_STORE).
 */
const struct hs_firmware hs_platform_firmware = {
	.wa1 = HS_SMCCC_SUCCESS,
	.wa2 = HS_SMCCC_NOT_REQUIRED,
	.wa3 = HS_SMCCC_SUCCESS,
};
