/*
 * taskset_blob.S - /taskset of a pinned boot (kernels/workload/taskset.c,
 * built for aarch64 by the Makefile), embedded in hotsim as the workload
 * is. HS_TASKSET is its path.
 */
	.section .rodata
	.balign 16
	.globl hs_taskset_elf
hs_taskset_elf:
	.incbin HS_TASKSET
hs_taskset_elf_end:
	.balign 8
	.globl hs_taskset_elf_size
hs_taskset_elf_size:
	.quad hs_taskset_elf_end - hs_taskset_elf
	.section .note.GNU-stack, "", %progbits
