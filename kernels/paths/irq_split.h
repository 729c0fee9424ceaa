/* irq_split.h - the IRQ paths' sub-rows (irq_split.c), shared by irq-el0
 * and irq-el1. */
#ifndef HOTSIM_DEFS_IRQ_SPLIT_H
#define HOTSIM_DEFS_IRQ_SPLIT_H

#include "paths/split.h"

void hs_irq_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end);

#endif
