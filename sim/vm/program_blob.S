/*
 * program_blob.S - the runner of a boot that runs a Debian program
 * (kernels/workload/program.c, built for aarch64 by the Makefile),
 * embedded in hotsim as the workload is. HS_RUNNER is its path.
 */
	.section .rodata
	.balign 16
	.globl hs_program_runner
hs_program_runner:
	.incbin HS_RUNNER
hs_program_runner_end:
	.balign 8
	.globl hs_program_runner_size
hs_program_runner_size:
	.quad hs_program_runner_end - hs_program_runner
	.section .note.GNU-stack, "", %progbits
