/*
 * cpulist.h - CPU lists as `taskset -c` names them ("0", "0,2", "1-3"),
 * and their masks (CPUs 0-63; 0 is no CPU: unpinned). --taskset pins a
 * workload's processes with one (sim/vm: kernels/workload/taskset.c).
 */
#ifndef HOTSIM_CPULIST_H
#define HOTSIM_CPULIST_H

#include <stddef.h>
#include <stdint.h>

/* list's mask; -1 with a one-line hs_errmsg() naming the list */
int hs_cpulist_parse(const char *list, uint64_t *mask);
/* 0 when a machine of ncpus CPUs (0: one) has every CPU of mask; else -1
 * with a one-line hs_errmsg() naming both */
int hs_cpulist_fits(uint64_t mask, unsigned ncpus);
/* mask's shortest list ("0-2,5") into buf; "" for 0 */
void hs_cpulist_format(uint64_t mask, char *buf, size_t len);

#endif
