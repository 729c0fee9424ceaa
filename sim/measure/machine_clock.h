/* machine_clock.h - a machine's CPU clocks (machine_cost.c makes them from
 * each CPU's costs; machine_timeline.c joins them at the wakes and walks
 * each operation's critical path). */
#ifndef HOTSIM_MACHINE_CLOCK_H
#define HOTSIM_MACHINE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/machine_cost.h"

/* A wake that waited: at record `at` the CPU, free to go on at `now`,
 * went on at `now + cycles` - the SGI sent at `sent` by CPU `from`
 * arrived at `arrive`, then wfi_exit. */
struct ms_cpu_wait {
	uint64_t at, cycles;
	uint64_t now, sent, arrive;
	uint64_t before;	/* the cycles of the CPU's earlier waits */
	unsigned from;
};

/* One CPU's clock: its instructions' cycles so far (pre[i]: before
 * record i) and the waits at its wakes, in order of their records: its
 * time at record i is pre[i] and the waits at or before it (a time per
 * record is not kept: a machine's streams run to millions of records). */
struct ms_cpu_clock {
	uint64_t *pre, *upre;	/* upre: the uncalibrated share of pre */
	uint64_t *ipre;		/* of pre: taking IRQs (in_irq) */
	uint32_t *icnt;		/* records taking IRQs before record i */
	size_t n;
	struct ms_cpu_wait *w;
	unsigned nw;
	size_t room;		/* the arrays', in records */
};

/* The clocks joined: each wake's wait (in the order they happened), every
 * CPU's time at each record, and per operation its latency, each CPU's
 * busy and idle cycles and the latency's critical path in parts
 * (machine_timeline.c). clk[i] holds CPU i's costs (pre, upre, ipre,
 * icnt, n); out->run its wakes; tr the streams. */
void ms_machine_timeline(struct ms_machine_cost *out, struct ms_cpu_clock *clk, const struct hs_trace *tr);

#endif
