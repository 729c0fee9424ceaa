/*
 * cmdline.h - kernel parameters a workload's boot adds to the guest's
 * command line (--cmdline; a board's), as a boot loader passes them:
 * audit=1, mitigations=off, preempt=none. Each set of parameters is a
 * boot of its own (the command line is in the snapshot's key). The ones
 * hotsim's boot depends on stay hotsim's: where it starts (rdinit=,
 * init=), its console, its fixed layout (kaslr), its programs' own
 * (hotsim_*).
 */
#ifndef HOTSIM_CMDLINE_H
#define HOTSIM_CMDLINE_H

/* Longest parameter list taken, in bytes. */
#define HS_CMDLINE_MAX 160

/* 0 when args can be added: printable, unquoted, at most HS_CMDLINE_MAX
 * bytes, none of hotsim's own; else -1 with hs_errmsg() naming the one
 * refused. */
int hs_cmdline_check(const char *args);

/* Boots of one machine hotsim tells apart: boot K > 0 adds hotsim_boot=K
 * to the command line (0 .. HS_BOOT_MAX - 1; hs_path_set.boot). */
#define HS_BOOT_MAX 8

#endif
