/*
 * machine_cost.h - a machine of more than one CPU in cycles (`run` and
 * `compare --smp N`, `state --ops`): the replay of every CPU from a boot
 * point costed on one core's model each and joined into one timeline, per
 * operation (sim/measure/machine_cost.c, machine_timeline.c), and the
 * words its rows and state --ops say it in (machine_rows.c).
 */
#ifndef HOTSIM_MACHINE_COST_H
#define HOTSIM_MACHINE_COST_H

#include <stddef.h>
#include <stdint.h>

#include "hotsim/measure.h"

/*
 * The machine replayed from point k (hs_session_machine_trace) in cycles
 * on core, every CPU on a model of its own, and one timeline through them
 * (machine_cost.c): a halted CPU waits for the SGI that woke it, sent at
 * the sender's time then, plus the core's ipi_latency and wfi_exit.
 * Per operation: the site CPU's latency (the round trip of an unpinned
 * ping-pong), and each CPU's busy cycles in it (its instructions' cost)
 * and idle ones (the latency less its busy cycles).
 */
struct ms_machine_op {
	uint64_t latency;
	uint64_t busy[HS_MACHINE_MAX_CPUS], idle[HS_MACHINE_MAX_CPUS];
	uint64_t busy_uncal[HS_MACHINE_MAX_CPUS];	/* of busy: charged by uncalibrated parameters */
	/* data accesses to a line another CPU wrote (HS_T_REMOTE, trace.h) */
	unsigned remote[HS_MACHINE_MAX_CPUS];
	/* the latency's critical path, walked back from the op's end: the
	 * site CPU's work, the other CPUs' work, the IPIs' deliveries, the
	 * exits from wfi and the IRQs taken on it - from each IRQ vector to
	 * its eret, out of the work (they sum to the latency) */
	uint64_t path_site, path_other, path_ipi, path_exit, path_irq;
	unsigned irq_insns[HS_MACHINE_MAX_CPUS];	/* each CPU's, on the path or not */
};
/* The operations a machine's replay warms up with before its samples:
 * op 0 takes the point's tick (on more than one CPU op 1 the other
 * CPU's), and the models start cold, so op 1 fills their caches. */
#define MS_MACHINE_WARM_OPS 2
/* The steady ops' (MS_MACHINE_WARM_OPS on) mean latency and critical-path parts, cycles */
struct ms_machine_means {
	double latency, site, other, ipi, exit, irq;
};
#define MS_MACHINE_MAX_LAYOUTS 17
struct ms_machine_cost {
	struct hs_machine_run run;		/* what each ran and sent, who woke whom */
	struct ms_machine_op op[HS_MACHINE_MAX_OPS];
	double ipi_latency, wfi_exit, peer_latency;	/* the parameters used, cycles */
	int ipi_calibrated, wfi_calibrated, peer_calibrated;
	unsigned sgi_wakes, timer_wakes;	/* timer wakes wait nothing */
	/* reads that waited for another CPU's store (its clock was later),
	 * spin-waits a store ended and their iterations' records, left
	 * uncosted (machine_cost.c) */
	unsigned read_waits, spin_waits;
	/* of read_waits, in the sampled ops (MS_MACHINE_WARM_OPS on): locks
	 * a CPU reached, in modelled time, before the other CPU took them - a
	 * machine would have run the two critical sections the other way
	 * round; the replay keeps the order its turns took */
	unsigned order_flips;
	uint64_t spin_insns;
	/* distinct instruction bytes of ops 2 on: every CPU, the site's and
	 * the others' outside IRQs, every CPU's in them */
	uint64_t code_bytes, code_bytes_site, code_bytes_other, code_bytes_irq;
	/* with o->noise: the recorded layout's means and each other's (the
	 * layout band, as cost.c moves a path's code and data) */
	struct ms_machine_means layout[MS_MACHINE_MAX_LAYOUTS];
	unsigned nlayouts;
};
/* The booted point named name (a path's boot.point) in session s: 0 and
 * its index, or -1 saying why it is not there (no booted state, the
 * kernel's workload skipped its operation, no such point). */
int ms_machine_point(struct hs_session *s, const char *name, unsigned *k);
int ms_machine_cost(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		    unsigned nops, struct ms_machine_cost *out);
/* The replay ms_machine_cost costs: session s's machine from point k for
 * nops operations, every CPU's stream in tr (at most limit records each,
 * freed with hs_trace_free), its turns by modelled time on o's models of
 * core where the session's set asks for them (HS_TURNS_MODEL). */
int ms_machine_trace(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		     unsigned nops, struct hs_machine_run *run, struct hs_trace *tr, size_t limit);
/* A machine's replay kept to be costed again at other parameters (the
 * fit): what ms_machine_trace recorded, in the order it took then. */
struct ms_machine_replay {
	struct hs_machine_run run;
	struct hs_trace tr[HS_MACHINE_MAX_CPUS];
};
int ms_machine_replay(const struct ms_options *o, const struct hs_core *core, struct hs_session *s, unsigned k,
		      unsigned nops, struct ms_machine_replay *out);
/* The replay costed on o's models of core, in its recorded order, one
 * timeline through its CPUs: its steady ops' mean latency in cycles, and
 * whether one CPU did them all (ms_one_cpu). */
int ms_machine_recost(const struct ms_options *o, const struct hs_core *core, const struct ms_machine_replay *r,
		      double *latency, int *one_cpu);
void ms_machine_replay_free(struct ms_machine_replay *r);
/* The parameters of what crosses CPUs (ipi_latency, wfi_exit,
 * peer_latency), in words for a row's state line and state --ops:
 * "ipi_latency 300 (guessed), ... cycles". */
void ms_machine_params_said(const struct ms_machine_cost *mc, char *buf, size_t len);
/* The reads the timeline made wait (read_waits, spin_waits), in words
 * for a row's state line and state --ops: each sentence after sep, ""
 * when there were none. */
void ms_machine_waits_said(const struct ms_machine_cost *mc, const char *sep, char *buf, size_t len);

#endif
