/*
 * fit_knobs.c - what the fit may move on each fitted core, and within what
 * (measure.h, struct ms_knob; docs/calibration.md): the parameters nobody
 * publishes, grouped where the lmbench cells cannot tell them apart, each
 * group bounded by what the core can physically do. Only the cores with a
 * board in the fitting set (models/boards.c) have knobs.
 */
#include <string.h>

#include "hotsim/core.h"
#include "measure_internal.h"

/* Taking an exception and eret, the barriers and the system-register
 * accesses run together in every kernel entry and exit the cells time, and
 * the cells cannot tell them apart: fitted as two knobs (the first two one
 * value, the rest one factor) to the J721E's eight cells, each's 95% range
 * spanned more than ten times even with the L2 and the DRAM held, where one
 * factor on all of them is pinned */
#define ENTRY_MEMBERS { "exception_entry", "eret", "isb", "dsb", "dmb", "dmb_ld", "dmb_st", "sb", "csdb", \
			"msr_daif", "msr_daif_imm", "msr_other", "mrs_other", "msr_sp_el0", "mrs_sp_el0", \
			"mrs_tpidr", "msr_tpidr", "mrs_daif", "pan", NULL }
#define ENTRY_WHY "taking an exception and eret (each a pipeline flush and a redirect), the barriers and the " \
		  "system-register accesses run together in every kernel entry and exit, and the cells cannot " \
		  "tell them apart: one factor on the core file's values, whose ratios stay (docs/core-data.md 3.7)"
#define WAKE_WHY "an SGI's delivery to an idle CPU and its way out of wfi: every wake in the unpinned round " \
		 "trips pays both, so the cells see their sum: one factor on the guesses (the IPI's at the board's " \
		 "clock), a quarter to eight times"
#define MAINT_WHY "TLB and cache maintenance (tlbi, dc, ic, at): fork, exec and munmap run them " \
		  "together: one factor on the core file's values"

static const struct ms_knob a53_entry = {
	"entry", ENTRY_MEMBERS, 1, 0.5, 4,
	ENTRY_WHY "; bounded: half to four times, and entry plus return at most seL4's whole null system call, "
	"130 cycles on the A53 (sel4bench): 65 each, 5.4 times the core file's 12",
};
static const struct ms_knob a53_memory = {
	"memory", { "mem_latency", NULL }, 0, 60, 400,
	"DRAM load-to-use latency at the board's clock: 43 to 285 ns at 1.4 GHz, around LPDDR4's ~100 ns",
};
static const struct ms_knob a53_maint = {
	"maintenance", { "tlbi", "dc", "ic", "sys_other", NULL }, 1, 0.25, 8, MAINT_WHY "; a quarter to eight times",
};
static const struct ms_knob a53_wake = {
	"wake", { "ipi_latency", "wfi_exit", NULL }, 1, 0.25, 8, WAKE_WHY " (an IPI 62 ns to 2.0 us)",
};
static const struct ms_knob *const a53_knobs[] = { &a53_entry, &a53_memory, &a53_maint,
						   &a53_wake, NULL };

static const struct ms_knob a72_entry = {
	"entry", ENTRY_MEMBERS, 1, 0.88, 4,
	ENTRY_WHY "; bounded: to four times, and an exception entry or eret at least the mispredict penalty "
	"(a redirect), 15 cycles: 0.88 of the core file's 17",
};
static const struct ms_knob a72_memory = {
	"memory", { "mem_latency", NULL }, 0, 80, 600,
	"DRAM load-to-use latency at the board's clock: 40 to 300 ns at 2.0 GHz, around LPDDR4's ~100 ns",
};
static const struct ms_knob a72_l2 = {
	"l2", { "l2_latency", NULL }, 0, 8, 40,
	"L2 hit latency: more than the L1's 4, at most twice a 20-cycle shared 1 MB L2",
};
static const struct ms_knob a72_maint = {
	"maintenance", { "tlbi", "dc", "ic", "sys_other", NULL }, 1, 0.25, 8, MAINT_WHY "; a quarter to eight times",
};
static const struct ms_knob a72_wake = {
	"wake", { "ipi_latency", "wfi_exit", NULL }, 1, 0.25, 8, WAKE_WHY " (an IPI 67 ns to 2.1 us)",
};
static const struct ms_knob *const a72_knobs[] = { &a72_entry, &a72_memory, &a72_l2,
						   &a72_maint, &a72_wake, NULL };

static const struct { const char *core; const struct ms_knob *const *knobs; } by_core[] = {
	{ "a53", a53_knobs },
	{ "a72", a72_knobs },
};

const struct ms_knob *const *ms_knobs(const struct hs_core *core)
{
	for (size_t i = 0; i < sizeof(by_core) / sizeof(by_core[0]); i++)
		if (!strcmp(core->name, by_core[i].core))
			return by_core[i].knobs;
	return NULL;
}
