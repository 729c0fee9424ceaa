/* registry.c - the paths hotsim knows, in report order. A new path is a new
 * file with its definition plus one line here. */
#include "hotsim/paths.h"

extern const struct hs_path_def hs_path_irq_el1, hs_path_irq_el0, hs_path_cswitch, hs_path_percpu;

const struct hs_path_def *const hs_paths[] = {
	&hs_path_irq_el1,
	&hs_path_irq_el0,
	&hs_path_cswitch,
	&hs_path_percpu,
	NULL
};
