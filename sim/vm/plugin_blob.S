/*
 * plugin_blob.S - the QEMU plugin that records instruction streams
 * (kernels/qemu/record_plugin.c, built by the Makefile against the
 * installed QEMU's plugin header) embedded in hotsim; empty when hotsim
 * was built without it. HS_PLUGIN is its path, given by the Makefile.
 */
	.section .rodata
	.balign 16
	.globl hs_record_plugin
hs_record_plugin:
	.incbin HS_PLUGIN
hs_record_plugin_end:
	.balign 8
	.globl hs_record_plugin_size
hs_record_plugin_size:
	.quad hs_record_plugin_end - hs_record_plugin
	.section .note.GNU-stack, "", %progbits
