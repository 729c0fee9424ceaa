/*
 * cgroup_blob.S - /cgroup of a boot in a cgroup (kernels/workload/cgroup.c,
 * built for aarch64 by the Makefile), embedded in hotsim as the workload
 * is. HS_CGROUP is its path.
 */
	.section .rodata
	.balign 16
	.globl hs_cgroup_elf
hs_cgroup_elf:
	.incbin HS_CGROUP
hs_cgroup_elf_end:
	.balign 8
	.globl hs_cgroup_elf_size
hs_cgroup_elf_size:
	.quad hs_cgroup_elf_end - hs_cgroup_elf
	.section .note.GNU-stack, "", %progbits
