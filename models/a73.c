/*
 * a73.c - Cortex-A73 (r0p2): 2-wide out-of-order.
 *
 * The weakest table: there is no A73 SWOG, no LLVM or GCC scheduling model
 * of its own (both use the Cortex-A57 one for -mcpu=cortex-a73) and no
 * stored microbenchmark table (docs/core-data.md §4.5, §5 #2). Structure
 * comes from AT73 (AnandTech "Artemis unveiled"), REG73 (The Register),
 * CC73 (Chips and Cheese, intro only) and GCC73 (cortexa73 tunings);
 * operation latencies are the LLVM A57 model's (L57), marked "A57 proxy";
 * the rest are named assumptions.
 */
#include "hotsim/core.h"
#include "model_internal.h"

/*
 * Cortex-A73 r0p2 (ODROID-N2 S922X, Khadas VIM3 A311D boot logs show
 * MIDR 0x410fd092): Armv8.0 like the A53; register values derived from the
 * v8.0 layout (Cortex-A73 TRM, Arm 100048, not at hand; see docs/core-data.md).
 */
static const struct hs_idreg a73_regs[] = {
	{ HS_CTR_EL0, 0x84448004 },		/* VIPT L1I ("Detected VIPT I-cache" in A73 boot logs) */
	{ HS_CLIDR_EL1, 0x0a200023 },		/* as A57/A72 (derived): LoUU 1, LoC 2, LoUIS 1 */
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },
	{ HS_ID_AA64ISAR0_EL1, 0x00011120 },
	{ HS_ID_AA64ISAR1_EL1, 0 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001122 },	/* A: v8.0 as the A53 (TRM 100048 not at hand): no 16K */
	{ HS_ID_AA64MMFR1_EL1, 0 },
	{ HS_ID_AA64MMFR2_EL1, 0 },
	{ HS_ID_AA64DFR0_EL1, 0x10305106 },
	{ 0, 0 }
};

/*
 * Errata, Spectre, Meltdown: from the MIDR and Linux's lists (see a53.c).
 * The A73 is on the KPTI safe list but on no Spectre-v2/-v4/-BHB safe or
 * BHB loop list, and has no CSV2 or SSBS: with the platform's firmware it
 * uses ARCH_WORKAROUND_1 (v2) and _3 (BHB: the EL1_VECTOR_BHB_FW vectors,
 * an SMC on every exception from EL0); Trusted Firmware-A mitigates
 * Spectre-v4 statically and answers ARCH_WORKAROUND_2 "not required", so
 * the kernel reports it not affected (docs/core-data.md 2.3).
 */

static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 2, "E: AT73/CC73 2-wide decode and rename; GCC73 issue_rate 2"),
	HS_UNCAL(FETCH_WIDTH, 4, "A: AT73 describes a 128-bit fetch for A72; A73 nf"),
	HS_UNCAL(FETCH_QUEUE, 16, "A: decoupling queue depth not published"),
	HS_UNCAL(TAKEN_BUBBLE, 0, "A: §3.4 taken direct branch 1 cycle (predicted, BTB hit)"),
	HS_UNCAL(RET_BUBBLE, 1, "A: §3.4 bl->ret default 3 = (1+0) + (1+1)"),
	HS_UNCAL(BLR_BUBBLE, 1, "A: §3.4 blr->ret default 4 = (1+1) + (1+1)"),
	HS_UNCAL(BR_BUBBLE, 1, "A: §3.4 indirect br default 2"),
	HS_UNCAL(BTIC_ENTRIES, 0, "A: no zero-bubble cache modelled (taken_bubble is 0)"),
	HS_UNCAL(MISPREDICT, 11, "A: §3.4: 11-12+ stage pipeline (AT73); L57 has 14 for A57"),
	HS_UNCAL(BP_ENTRIES, 4096, "A: predictor size not published"),
	HS_UNCAL(BP_HISTORY, 12, "A: longer history than the little cores; nf"),
	HS_UNCAL(BTAC_ENTRIES, 256, "A: nf"),
	HS_UNCAL(RAS_DEPTH, 8, "A: §3.4 default 8 (gem5 HPI)"),
	/* window, pipes */
	HS_UNCAL(ROB_SIZE, 64, "A: §3.1 no ROB size published ('unlimited', CC73); 64 uops"),
	HS_UNCAL(RETIRE_WIDTH, 4, "A: nf; wider than decode so retire does not bind"),
	HS_CAL(ALU_PIPES, 2, "E: AT73 two simple ALUs"),
	HS_CAL(LOAD_PIPES, 2, "D: §3.1 two AGUs, any mix (REG73 ambiguous)"),
	HS_CAL(STORE_PIPES, 2, "D: §3.1 two AGUs, any mix"),
	HS_CAL(MEM_PIPES, 2, "D: §3.1 two memory ops per cycle"),
	HS_CAL(BRANCH_PIPES, 1, "E: AT73 a single branch monitor"),
	HS_CAL(MUL_PIPES, 1, "D: §3.1 one multiply/divide pipe (AT73/REG73/GCC73)"),
	HS_CAL(DIV_UNITS, 1, "D: §3.1 the divider on the M pipe, not pipelined (L57 A57 proxy)"),
	HS_CAL(FP_PIPES, 2, "D: §3.1 two FP/NEON pipes (AT73/REG73/GCC73)"),
	HS_CAL(FP_ON_ALU, 0, "D: §3.1 FP/NEON pipes of their own beside the 2 ALUs"),
	HS_CAL(FP_SLOT0, 0, "E: out of order, no issue slots; unused"),
	HS_CAL(ALU_CASCADE, 0, "E: out of order; unused"),
	HS_CAL(MUL_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(PAIR_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(SHIFT_REG_TPUT, 2, "D: L57 variable shifts on both integer pipes (A57 proxy)"),
	HS_CAL(HAS_PAUTH, 0, "E: v8.0 (§1.3): PAC hints are NOPs"),
	HS_UNCAL(NOP_TPUT, 0, "A: nf; NOPs take an ALU slot like a simple op"),
	HS_CAL(CHEAP_LSL, 0, "D: L57 WriteISReg 2 for every shift (A57 proxy)"),
	HS_CAL(CHEAP_LOGIC, 0, "D: L57 WriteISReg 2 for every shift (A57 proxy)"),
	HS_UNCAL(SHIFT_ON_MUL, 0, "A: AT73's two ALUs both take shifted ops (L57's M routing not taken: nf for A73)"),
	HS_CAL(LOAD_PASS_STORE, 0, "D: TFA73 the static Spectre-v4 mitigation this file assumes (above) is "
				   "IMP_DEF_REG1's DISABLE_LOAD_PASS_STORE, set at reset: loads wait for older stores"),
	/* latencies: LLVM A57 model (A57 proxy) */
	HS_CAL(LAT_ALU, 1, "D: L57 1 (A57 proxy)"),
	HS_CAL(LAT_ALU_SHIFT, 2, "D: L57 2 (A57 proxy)"),
	HS_CAL(LAT_BITFIELD, 1, "D: L57 1 (A57 proxy)"),
	HS_CAL(LAT_SHIFT_REG, 1, "D: L57 1 (A57 proxy)"),
	HS_CAL(LAT_MUL, 5, "D: L57 64-bit multiply 5 (A57 proxy)"),
	HS_CAL(LAT_MUL32, 3, "D: L57 32-bit multiply 3 (A57 proxy)"),
	HS_CAL(LAT_MADD, 5, "D: L57 5 (A57 proxy)"),
	HS_CAL(LAT_MULL, 3, "D: L57 umaddl 3 (A57 proxy)"),
	HS_CAL(LAT_MULH, 6, "D: L57 umulh 6 (A57 proxy)"),
	HS_CAL(OCC_MUL, 1, "D: L57 RThroughput 1 (A57 proxy)"),
	HS_CAL(OCC_MADD, 1, "D: L57 RThroughput 1 (A57 proxy)"),
	HS_CAL(OCC_MULH, 1, "D: L57 RThroughput 1 (A57 proxy)"),
	HS_CAL(LAT_DIV32, 19, "D: L57 19, not pipelined (A57 proxy)"),
	HS_CAL(LAT_DIV64, 35, "D: L57 35, not pipelined (A57 proxy)"),
	HS_UNCAL(LAT_CRC, 2, "A: nf"),
	HS_UNCAL(LAT_LOAD, 4, "A: L57 LoadLatency 4 (A57 proxy; A73 nf)"),
	HS_UNCAL(LAT_LOAD_NARROW, 4, "A: §3.3 4-5; no narrow-load penalty data"),
	HS_UNCAL(LAT_LDP2, 5, "A: §3.3 4/5"),
	HS_UNCAL(OCC_LDP, 1, "A: nf"),
	HS_UNCAL(UNALIGNED_EXTRA, 1, "A: §3.3 default +1"),
	HS_UNCAL(REGOFF_EXTRA, 0, "A: nf; a register offset costs what an immediate does"),
	HS_CAL(ALU_TO_ADDR, 1, "D: L57 no extra address latency (A57 proxy)"),
	HS_UNCAL(STORE_DATA_ADV, 2, "A: store data read late, as the in-order cores"),
	HS_CAL(BRANCH_ADV, 0, "E: out of order: a branch executes when its operands are ready"),
	HS_UNCAL(LAT_FP, 5, "A: L57 FP add 5 (A57 proxy, unused on kernel paths)"),
	/* memory */
	HS_UNCAL(LINE_BYTES, 64, "A: CTR assumed as A53/A55 (§1.2)"),
	HS_CAL(L1I_SIZE, 65536, "E: REG73 64 KB"),
	HS_CAL(L1I_ASSOC, 4, "E: REG73 4-way"),
	HS_CAL(L1D_SIZE, 65536, "E: REG73 64 KB VIPT"),
	HS_UNCAL(L1D_ASSOC, 4, "A: nf"),
	HS_UNCAL(L2_SIZE, 1048576, "A: 256 KB-8 MB (Arm), S922X/A311D board value nf; 1 MB"),
	HS_UNCAL(L2_ASSOC, 16, "A: nf"),
	HS_UNCAL(L2_LATENCY, 15, "A: §3.5 (CC73 plot unreachable)"),
	HS_CAL(L3_SIZE, 0, "E: no L3 on S922X/A311D"),
	HS_CAL(L3_ASSOC, 0, "E: no L3"),
	HS_CAL(L3_LATENCY, 0, "E: no L3"),
	HS_CAL(SHARED_LEVEL, 2, "E: Arm: the L2 is the cluster's, shared by its cores"),
	HS_UNCAL(MEM_LATENCY, 216, "A: DRAM ~120 ns (S922X DDR4, §3.5) at 1.8 GHz"),
	HS_UNCAL(IPREFETCH, 2, "A: a big core prefetches further ahead; nf"),
	HS_UNCAL(ITLB_ENTRIES, 48, "A: A72 value (§3.5)"),
	HS_UNCAL(DTLB_ENTRIES, 32, "A: A72 value (§3.5)"),
	HS_UNCAL(TLB_ENTRIES, 1024, "A: A72 1024-entry 4-way (§3.5)"),
	HS_UNCAL(TLB_ASSOC, 4, "A: A72 value"),
	HS_UNCAL(TLB_LATENCY, 2, "A: nf"),
	HS_UNCAL(WALK_LATENCY, 25, "A: §3.5 default"),
	HS_UNCAL(PAGE_BYTES, 4096, "A: 4 KB pages everywhere (block mappings not modelled)"),
	/* serialising/system (§3.7) */
	HS_UNCAL(DMB, 8, "A: §3.7 OoO must also complete older loads"),
	HS_UNCAL(DMB_LD, 4, "A: §3.7"),
	HS_UNCAL(DMB_ST, 3, "A: §3.7"),
	HS_UNCAL(DSB, 15, "A: §3.7"),
	HS_UNCAL(ISB, 13, "A: §3.7 refetch after the flush"),
	HS_UNCAL(SB, 28, "A: no FEAT_SB; as dsb + isb"),
	HS_UNCAL(CSDB, 2, "A: §3.7 OoO may block the consumers"),
	HS_UNCAL(MRS_TPIDR, 3, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_SP_EL0, 3, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_DAIF, 3, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_OTHER, 6, "A: twice mrs.simple"),
	HS_UNCAL(MSR_TPIDR, 3, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_SP_EL0, 3, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_DAIF, 8, "A: §3.7 partially serialising"),
	HS_UNCAL(MSR_OTHER, 10, "A: §3.7 msr.ctx"),
	HS_UNCAL(MSR_DAIF_IMM, 8, "A: §3.7"),
	HS_UNCAL(PAN, 8, "A: as daif (A73 has no PAN; unused)"),
	HS_UNCAL(LDXR, 4, "A: = ldr (§3.3 4/6)"),
	HS_UNCAL(STXR, 6, "A: §3.3 4/6"),
	HS_UNCAL(LSE_ATOMIC, 8, "A: A73 has no LSE; unused"),
	HS_UNCAL(CAS, 8, "A: A73 has no LSE; unused"),
	HS_UNCAL(ERET, 15, "A: §3.7 not predicted (Arm TRM wording, A76)"),
	HS_UNCAL(EXC_ENTRY, 15, "A: §3.7"),
	HS_UNCAL(FIRMWARE, 600, "A: §3.7 derived from TFAJUNO A57 470-650 cycles (Spectre WA1/WA3 SMC)"),
	HS_UNCAL(IPI_LATENCY, 400, "A: guess: an SGI write through the GIC to the other core, about 250 ns; as the A72"),
	HS_UNCAL(WFI_EXIT, 50, "A: guess: clock-gated in wfi (no deeper idle state) back to the vector"),
	HS_UNCAL(PEER_LATENCY, 162, "A: guess: no A73 core-to-core measurement found; the A72 cluster's measured handover (C2C72, 89.6 ns) at 1.8 GHz"),
	HS_UNCAL(TLBI, 40, "A: §3.7"),
	HS_UNCAL(DC, 10, "A: as A53"),
	HS_UNCAL(IC, 20, "A: as A53"),
	HS_UNCAL(SYS_OTHER, 10, "A: as A53"),
	HS_UNCAL(UNKNOWN_INSN, 1, "A: an unclassified encoding takes one cycle"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_a73 = {
	.name = "a73", .full = "Cortex-A73 r0p2", .arch = "Armv8.0-A",
	.midr = 0x410fd092,			/* part 0xd09, r0p2 */
	.idregs = a73_regs,
	.source = "A73 v8.0 ID layout (derived), MIDR from boot logs; Linux 6.1 proton-pack.c; TF-A cortex_a73.S",
	.boot_cpu = "cortex-a72",
	.boot_why = "QEMU 7.2 has no Cortex-A73; the Cortex-A72 is an Armv8.0-A core like it (no LSE, no PAN), so boot takes the same feature paths; hotsim overlays its own A73 patching (errata, Spectre firmware mitigations, vectors)",
	/* PFR0: cpu64.c's 0x00002222 with GIC = 1 (virt's GICv3) */
	.boot = { 0x410fd083, 0x01002222, 0x00001124, "QEMU 7.2 target/arm/cpu64.c aarch64_a72_initfn" },
	/* LLVM has no Cortex-A73 model: -mcpu=cortex-a73 schedules as the A57 */
	.mca_cpu = "cortex-a57",
	.clock_hz = 1800000000,
	.clock_source = "ODROID-N2 (Amlogic S922X): four Cortex-A73 at 1.8 GHz",
	.description = "Cortex-A73 r0p2: 2-wide out-of-order (A57 LLVM latencies as proxy)",
	.engine = &hs_engine_ooo,
	.params = p,
};
