/*
 * cgroup.h - where in the cgroup tree a workload runs (--cgroup; a board's
 * benchmarks). A row says the cgroup a systemd system puts a process in
 * and the controllers it enables above it; the boot recreates both
 * (kernels/workload/cgroup.c) before the workload starts, and every
 * operation then pays what the kernel does per level: the scheduler's
 * group entities at each wakeup and switch, the memory controller's
 * charges, the task counter at fork. NULL: the root cgroup, the boot's
 * own (no hierarchy mounted).
 */
#ifndef HOTSIM_CGROUP_H
#define HOTSIM_CGROUP_H

struct hs_cgroup {
	const char *name;		/* "session", used on the command line */
	const char *path;		/* below the root: "user.slice/..." */
	const char *controllers;	/* enabled from the root to path's parent,
					 * commas: "cpu,memory,pids" */
	const char *what;		/* whose setting it is, and its source */
};

/* The rows, terminated by name NULL; by name (NULL if none). */
extern const struct hs_cgroup hs_cgroups[];
const struct hs_cgroup *hs_cgroup_find(const char *name);

#endif
