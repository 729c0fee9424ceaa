/*
 * registry.c - the paths hotsim knows, in report order. A new path is a new
 * file with its definition (kernels/paths/<name>.c) plus one line here;
 * every list of paths hotsim prints or accepts comes from this array.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/paths.h"

extern const struct hs_path_def hs_path_irq_el1, hs_path_irq_el0, hs_path_syscall_getpid,
	hs_path_syscall_invalid, hs_path_sched_pipe, hs_path_cswitch, hs_path_percpu,
	hs_path_syscall_getppid, hs_path_syscall_read, hs_path_syscall_write, hs_path_signal_install,
	hs_path_signal_catch, hs_path_futex_wake, hs_path_ctx_yield, hs_path_fault_page, hs_path_mmap,
	hs_path_fork, hs_path_syscall_stat, hs_path_syscall_fstat, hs_path_syscall_open,
	hs_path_signal_send, hs_path_signal_prot, hs_path_fault_file, hs_path_mmap_file, hs_path_proc_fork,
	hs_path_proc_exec, hs_path_unix_stream, hs_path_ctx_ring, hs_path_ctx_overhead;

/* A test links a throwaway path under this name to see it appear
 * everywhere (tests/extra_registry.c); otherwise the weak reference is NULL
 * and ends the list. */
extern const struct hs_path_def hs_path_extra __attribute__((weak));

const struct hs_path_def *const hs_paths[] = {
	&hs_path_irq_el1,
	&hs_path_irq_el0,
	&hs_path_syscall_getpid,
	&hs_path_syscall_invalid,
	&hs_path_sched_pipe,
	&hs_path_cswitch,
	&hs_path_percpu,
	&hs_path_syscall_getppid,
	&hs_path_syscall_read,
	&hs_path_syscall_write,
	&hs_path_signal_install,
	&hs_path_signal_catch,
	&hs_path_futex_wake,
	&hs_path_ctx_yield,
	&hs_path_fault_page,
	&hs_path_mmap,
	&hs_path_fork,
	&hs_path_syscall_stat,
	&hs_path_syscall_fstat,
	&hs_path_syscall_open,
	&hs_path_signal_send,
	&hs_path_signal_prot,
	&hs_path_fault_file,
	&hs_path_mmap_file,
	&hs_path_proc_fork,
	&hs_path_proc_exec,
	&hs_path_unix_stream,
	&hs_path_ctx_ring,
	&hs_path_ctx_overhead,
	&hs_path_extra,
	NULL
};

const struct hs_path_set hs_path_set_builtin = { .defs = hs_paths, .wl = NULL };

extern const struct hs_path_def hs_path_perf_sched_pipe;

/* Paths in a Debian program's process (program.h): each boots its program
 * instead of hotsim's workload (`--workload perf`). */
const struct hs_path_def *const hs_program_paths[] = {
	&hs_path_perf_sched_pipe,
	NULL
};

const struct hs_path_def *hs_path_find(const char *name)
{
	for (int i = 0; hs_paths[i]; i++)
		if (!strcmp(hs_paths[i]->name, name))
			return hs_paths[i];
	return NULL;
}

const struct hs_path_def *hs_path_tick(void)
{
	for (int i = 0; hs_paths[i]; i++)
		if (hs_paths[i]->tick)
			return hs_paths[i];
	return NULL;
}

/* A list that does not fit ends in "..." rather than mid-name. */
const char *hs_path_machine_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; hs_paths[i]; i++) {
		size_t w;

		if (!hs_paths[i]->boot.machine)
			continue;
		w = strlen(hs_paths[i]->name) + (n ? 2 : 0);
		if (n + w + 6 > len) {
			snprintf(buf + n, len - n, "%s...", n ? ", " : "");
			break;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", hs_paths[i]->name);
	}
	return buf;
}
