/*
 * platform.c - what hotsim assumes about the machine around the core: boot
 * patching and the paths follow from it, and `hotsim image` prints it.
 */
#include "hotsim/core.h"

const char hs_platform_assumptions[] =
	"kernel entered at EL1 (no hypervisor, VHE/KVM unused), at its link address "
	"(no KASLR offset), SMCCC 1.1 firmware with SMC conduit implementing the "
	"Spectre workarounds the core needs, homogeneous system of the modelled core";
