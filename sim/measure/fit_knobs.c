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

#define EXCEPTION_WHY "taking an exception and eret are a pipeline flush and a redirect each, and every " \
		      "operation the cells time has as many of one as of the other: the cells see their " \
		      "sum, so one value for both"
#define SERIALIZE_MEMBERS { "isb", "dsb", "dmb", "dmb_ld", "dmb_st", "sb", "csdb", "msr_daif", \
			    "msr_daif_imm", "msr_other", "mrs_other", "msr_sp_el0", "mrs_sp_el0", \
			    "mrs_tpidr", "msr_tpidr", "mrs_daif", "pan", NULL }
#define SERIALIZE_WHY "barriers and system-register accesses run together in every kernel entry and " \
		      "exit: one factor on the core file's values, whose ratios (docs/core-data.md 3.7) stay"
#define MAINT_WHY "TLB and cache maintenance (tlbi, dc, ic, at): fork, exec and munmap run them " \
		  "together: one factor on the core file's values"

static const struct ms_knob a53_exception = {
	"exception", { "exception_entry", "eret", NULL }, 0, 5, 65,
	EXCEPTION_WHY "; bounded by seL4's whole null system call, 130 cycles on the A53 (sel4bench): "
	"entry plus return at most 130",
};
static const struct ms_knob a53_serialize = {
	"serialize", SERIALIZE_MEMBERS, 1, 0.5, 4, SERIALIZE_WHY "; bounded: half to four times",
};
static const struct ms_knob a53_memory = {
	"memory", { "mem_latency", NULL }, 0, 60, 400,
	"DRAM load-to-use latency at the board's clock: 43 to 285 ns at 1.4 GHz, around LPDDR4's ~100 ns",
};
static const struct ms_knob a53_maint = {
	"maintenance", { "tlbi", "dc", "ic", "sys_other", NULL }, 1, 0.25, 8, MAINT_WHY "; a quarter to eight times",
};
static const struct ms_knob *const a53_knobs[] = { &a53_exception, &a53_serialize, &a53_memory, &a53_maint, NULL };

static const struct ms_knob a72_exception = {
	"exception", { "exception_entry", "eret", NULL }, 0, 15, 150,
	EXCEPTION_WHY "; bounded below by the mispredict penalty (a redirect at least), above by ten of it",
};
static const struct ms_knob a72_serialize = {
	"serialize", SERIALIZE_MEMBERS, 1, 0.5, 4, SERIALIZE_WHY "; bounded: half to four times",
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
static const struct ms_knob *const a72_knobs[] = { &a72_exception, &a72_serialize, &a72_memory, &a72_l2,
						   &a72_maint, NULL };

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
