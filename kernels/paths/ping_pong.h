/* ping_pong.h - the sub-rows of a round trip between two processes
 * (ping_pong.c), shared by sched-pipe, unix.stream and ctx.ring. */
#ifndef HOTSIM_DEFS_PING_PONG_H
#define HOTSIM_DEFS_PING_PONG_H

#include "paths/split.h"

void hs_ping_pong_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end);

#endif
