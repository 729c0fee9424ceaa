/*
 * workload_blob.S - the workload program (kernels/workload/init.c, built
 * for aarch64 by the Makefile) embedded in hotsim, so a boot needs no file
 * beside the binary. HS_WORKLOAD is its path, given by the Makefile.
 */
	.section .rodata
	.balign 16
	.globl hs_workload_elf
hs_workload_elf:
	.incbin HS_WORKLOAD
hs_workload_elf_end:
	.balign 8
	.globl hs_workload_elf_size
hs_workload_elf_size:
	.quad hs_workload_elf_end - hs_workload_elf
	.section .note.GNU-stack, "", %progbits
