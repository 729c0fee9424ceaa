/*
 * a55.c - Cortex-A55 (r2p0): in-order, dual issue, separate load and store
 * pipes, private L2 and a DSU L3.
 *
 * Sources (keys as in docs/core-data.md §0): L55 = LLVM AArch64SchedA55.td
 * (which quotes the Software Optimization Guide), SLO = slothy's cortex_a55
 * target ("derived from the SWOG", some values microbenchmarked), AT55 =
 * AnandTech's A55 microarchitecture page, TRM55 = Arm 100442, AGX5 = Intel
 * Agilex 5 HPS TRM (A55 MMU). No A55 microbenchmark table is public, so most
 * values are D (SWOG via L55/SLO) and where nothing exists the A53 value is
 * taken and marked A.
 */
#include "hotsim/core.h"
#include "model_internal.h"

/*
 * Cortex-A55 r2p0: Cortex-A55 Core TRM, Arm 100442_0200, section B2.x
 * AArch64 identification registers. Armv8.2 with LSE atomics (Atomic = 2),
 * RCpc (LRCPC = 1), PAN (PAN = 2, v8.2 ATS1E1RP), RAS, UAO, CnP, HAFDBS.
 */
static const struct hs_idreg a55_regs[] = {
	{ HS_CTR_EL0, 0x84448004 },
	{ HS_CLIDR_EL1, 0x82000023 },		/* LoUU 0, LoUIS 0: IDC implied (QEMU aarch64_a55_initfn) */
	{ HS_ID_AA64PFR0_EL1, 0x11112222 },	/* + FP/AdvSIMD half-precision, GIC, RAS */
	{ HS_ID_AA64PFR1_EL1, 0x10 },		/* SSBS (QEMU's A55 model, from the TRM) */
	{ HS_ID_AA64ISAR0_EL1, 0x0000100010211120 },	/* + Atomic=2, RDM, DP */
	{ HS_ID_AA64ISAR1_EL1, 0x0000000000100001 },	/* DPB, LRCPC */
	{ HS_ID_AA64MMFR0_EL1, 0x00101122 },	/* TRM55 r2p0 B2.4 (QEMU55): 40-bit PA, 4K/16K/64K */
	{ HS_ID_AA64MMFR1_EL1, 0x10212122 },	/* HAFDBS=2 VMID16 VH HPDS=2 LO PAN=2 XNX */
	{ HS_ID_AA64MMFR2_EL1, 0x00001011 },	/* CnP, UAO, IESB */
	{ HS_ID_AA64DFR0_EL1, 0x10305408 },
	{ 0, 0 }
};

/* Errata, Spectre, Meltdown: from the MIDR and Linux's lists (see a53.c);
 * on every safe list, and on cpu_has_broken_dbm's (erratum 1024718). */

static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 2, "E: L55 IssueWidth=2; AT55 'symmetric dual-issue'"),
	HS_UNCAL(FETCH_WIDTH, 2, "A: not published; taken equal to the issue width"),
	HS_UNCAL(FETCH_QUEUE, 8, "A: as A53"),
	HS_UNCAL(TAKEN_BUBBLE, 2, "A: not published; A53 value (§3.4 default 1 assumes a BTAC hit)"),
	HS_UNCAL(RET_BUBBLE, 2, "A: A53 value (§3.4 bl->ret default 6)"),
	HS_UNCAL(BLR_BUBBLE, 4, "A: A53 value (§3.4 blr->ret default 8)"),
	HS_UNCAL(BR_BUBBLE, 3, "A: A53 value (§3.4 indirect br default 4)"),
	HS_UNCAL(BTIC_ENTRIES, 1, "A: TRM55 lists a BTAC; its size is not published, A53's 1 taken"),
	HS_CAL(MISPREDICT, 8, "D: L55 MispredictPenalty 8 ('branch direction mispredict')"),
	HS_UNCAL(BP_ENTRIES, 2048, "A: TRM55 'dynamic branch predictor history', size nf; A53 value"),
	HS_UNCAL(BP_HISTORY, 8, "A: A53 value"),
	HS_UNCAL(BTAC_ENTRIES, 256, "A: TRM55 indirect predictor, size nf; A53 value"),
	HS_UNCAL(RAS_DEPTH, 8, "A: TRM55 return stack, depth nf"),
	/* issue, pipes */
	HS_CAL(ROB_SIZE, 0, "E: in-order (L55 MicroOpBufferSize=0); unused"),
	HS_CAL(RETIRE_WIDTH, 2, "E: in-order; unused"),
	HS_CAL(ALU_PIPES, 2, "E: L55 two ALU units; AT55"),
	HS_CAL(LOAD_PIPES, 1, "E: L55 one Ld unit; AT55 separate load and store AGUs"),
	HS_CAL(STORE_PIPES, 1, "E: L55 one St unit"),
	HS_CAL(MEM_PIPES, 2, "E: AT55 load and store 'in parallel' (one of each)"),
	HS_UNCAL(BRANCH_PIPES, 1, "A: one branch unit as A53"),
	HS_CAL(MUL_PIPES, 1, "D: L55 one MAC unit"),
	HS_CAL(DIV_UNITS, 1, "D: L55 divide 8, not pipelined: one divider"),
	HS_CAL(FP_PIPES, 2, "D: AT55 'both issue slots can feed any pipeline'; L55 two FP/ASIMD units"),
	HS_CAL(FP_ON_ALU, 0, "E: L55 FP/ASIMD units of their own; unused in order"),
	HS_CAL(FP_SLOT0, 0, "D: AT55 'both issue slots can feed any pipeline'; SLO: only Q-form slot 0"),
	HS_UNCAL(ALU_CASCADE, 1, "A: A53 rule (QSDR), not measured on A55"),
	HS_UNCAL(MUL_SINGLE, 1, "A: A53 rule; L55 one MAC unit"),
	HS_CAL(PAIR_SINGLE, 1, "D: L55 LDP Wt single-issue (CortexA55WriteVLD1SI); stp as A53"),
	HS_CAL(SHIFT_REG_TPUT, 0.5, "D: SLO lsr (register) latency 1, inverse throughput 2"),
	HS_CAL(HAS_PAUTH, 0, "E: ID_AA64ISAR1 APA/API = 0 (QEMU55, §1.3): PAC hints are NOPs"),
	HS_CAL(NOP_TPUT, 0, "E: in order: a NOP takes an issue slot; unused"),
	HS_CAL(CHEAP_LSL, 0, "D: SLO add_shifted 2 for any shift (the lat_alu_shift source)"),
	HS_CAL(CHEAP_LOGIC, 0, "D: SLO shifted logical ops 2, as add_shifted"),
	HS_UNCAL(SHIFT_ON_MUL, 0, "A: both pipes take shifted ops (AT55 symmetric dual issue); nf"),
	HS_CAL(LOAD_PASS_STORE, 1, "E: in order: no load issues ahead of an older store; unused"),
	/* latencies */
	HS_CAL(LAT_ALU, 1, "D: L55 WriteI 3 with ReadAdvance 2; SLO add 1"),
	HS_CAL(LAT_ALU_SHIFT, 2, "D: SLO add_shifted 2; L55 ReadShifted"),
	HS_CAL(LAT_BITFIELD, 2, "D: SLO bfi/ubfx/lsr imm 2"),
	HS_CAL(LAT_SHIFT_REG, 1, "D: SLO lsr (register) 1"),
	HS_CAL(LAT_MUL, 4, "D: L55 WriteIM 4"),
	HS_CAL(LAT_MUL32, 3, "D: SLO mul_wform 3"),
	HS_UNCAL(LAT_MADD, 4, "A: L55 WriteIM 4, no accumulate measurement"),
	HS_CAL(LAT_MULL, 3, "D: SLO umaddl 3"),
	HS_UNCAL(LAT_MULH, 6, "A: A53 value (nf)"),
	HS_CAL(OCC_MUL, 1, "D: L55 multiplier RThroughput 1"),
	HS_CAL(OCC_MADD, 1, "D: L55 RThroughput 1; SLO umaddl accumulate 1 per cycle"),
	HS_UNCAL(OCC_MULH, 1, "A: L55 RThroughput 1"),
	HS_CAL(LAT_DIV32, 8, "D: L55 divide 8, not pipelined"),
	HS_CAL(LAT_DIV64, 8, "D: L55 divide 8, not pipelined"),
	HS_UNCAL(LAT_CRC, 2, "A: A53 value"),
	HS_CAL(LAT_LOAD, 3, "D: L55 WriteLD 3; SWOG 'most loads 3'"),
	HS_CAL(LAT_LOAD_NARROW, 4, "D: L55 WriteLDIdx 4 (SLO ldr_sxtw 5)"),
	HS_CAL(LAT_LDP2, 4, "D: SLO Ldp_X 4 (L55 WriteLDP2 5)"),
	HS_CAL(OCC_LDP, 2, "D: SLO Ldp_X inverse throughput 2"),
	HS_UNCAL(UNALIGNED_EXTRA, 2, "A: A53 value (§3.3)"),
	HS_UNCAL(REGOFF_EXTRA, 0, "A: A53 value (IB: none)"),
	HS_CAL(ALU_TO_ADDR, 2, "D: L55 ALU write 3 with ReadAdrBase advance 1"),
	HS_UNCAL(STORE_DATA_ADV, 2, "A: A53 value (GCC53)"),
	HS_UNCAL(BRANCH_ADV, 1, "A: A53 value (QSDR)"),
	HS_UNCAL(LAT_FP, 4, "A: L55 FP add 4 (not used on kernel paths)"),
	/* memory */
	HS_CAL(LINE_BYTES, 64, "E: TRM55 64-byte lines"),
	HS_UNCAL(L1I_SIZE, 32768, "A: TRM55 16/32/64 KB; 32 KB taken"),
	HS_CAL(L1I_ASSOC, 4, "E: TRM55 4-way"),
	HS_UNCAL(L1D_SIZE, 32768, "A: TRM55 16/32/64 KB; 32 KB taken"),
	HS_CAL(L1D_ASSOC, 4, "E: TRM55 4-way"),
	HS_CAL(L2_SIZE, 131072, "D: RK3588 A55 sysfs L2 128 KB (§3.5)"),
	HS_CAL(L2_ASSOC, 4, "E: TRM55 private L2 4-way (cores-and-peers [S15])"),
	HS_UNCAL(L2_LATENCY, 9, "A: §3.5 private L2, closer than A53's shared one"),
	HS_CAL(L3_SIZE, 3145728, "D: RK3588 DSU L3 3 MB (§3.5)"),
	HS_UNCAL(L3_ASSOC, 12, "A: nf; 12 ways gives 3 MB a power-of-two number of sets"),
	HS_UNCAL(L3_LATENCY, 30, "A: §3.5 DSU L3 hit"),
	HS_CAL(SHARED_LEVEL, 3, "E: DynamIQ: each core's L2 its own, the DSU's L3 shared"),
	HS_UNCAL(MEM_LATENCY, 216, "A: DRAM ~120 ns (RK3568/RK3588, §3.5) at 1.8 GHz"),
	HS_UNCAL(IPREFETCH, 1, "A: as A53"),
	HS_CAL(ITLB_ENTRIES, 15, "E: AGX5 L1 ITLB 15 entries"),
	HS_CAL(DTLB_ENTRIES, 16, "E: AGX5 L1 DTLB 16 entries"),
	HS_CAL(TLB_ENTRIES, 1024, "E: AGX5/TRM55 L2 TLB 1024 entries"),
	HS_CAL(TLB_ASSOC, 4, "E: AGX5 L2 TLB 4-way"),
	HS_UNCAL(TLB_LATENCY, 2, "A: A53 value"),
	HS_UNCAL(WALK_LATENCY, 20, "A: §3.5 default"),
	HS_UNCAL(PAGE_BYTES, 4096, "A: 4 KB pages everywhere (block mappings not modelled)"),
	/* serialising/system (§3.7) */
	HS_UNCAL(DMB, 4, "A: §3.7 dmb ish base 4, plus the wait for older memory ops"),
	HS_UNCAL(DMB_LD, 2, "A: §3.7"),
	HS_UNCAL(DMB_ST, 2, "A: §3.7"),
	HS_UNCAL(DSB, 8, "A: §3.7"),
	HS_UNCAL(ISB, 10, "A: §3.7 mispredict + 2"),
	HS_UNCAL(SB, 18, "A: no FEAT_SB; as dsb + isb"),
	HS_UNCAL(CSDB, 0, "A: §3.7 a NOP slot in order"),
	HS_UNCAL(MRS_TPIDR, 2, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_SP_EL0, 2, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_DAIF, 2, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_OTHER, 4, "A: twice mrs.simple (GIC CPU interface...)"),
	HS_UNCAL(MSR_TPIDR, 2, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_SP_EL0, 2, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_DAIF, 3, "A: §3.7"),
	HS_UNCAL(MSR_OTHER, 4, "A: §3.7 msr.ctx"),
	HS_UNCAL(MSR_DAIF_IMM, 3, "A: §3.7"),
	HS_UNCAL(PAN, 3, "A: §3.7 msr pan,#imm like daif (A55 has PAN)"),
	HS_UNCAL(LDXR, 3, "A: = ldr"),
	HS_UNCAL(STXR, 4, "A: L55 WriteSTX 4, not measured"),
	HS_UNCAL(LSE_ATOMIC, 8, "A: §3.7 near atomic in L1 (TRM55 near/far rule)"),
	HS_UNCAL(CAS, 8, "A: §3.7 as ldadd"),
	HS_UNCAL(ERET, 12, "A: §3.7 not predicted (TRM55)"),
	HS_UNCAL(EXC_ENTRY, 12, "A: §3.7"),
	HS_UNCAL(FIRMWARE, 1900, "A: A53 TFAJUNO figure taken (§3.7)"),
	HS_UNCAL(IPI_LATENCY, 300, "A: guess: an SGI write through the GIC to the other core, about 250 ns; as the A53"),
	HS_UNCAL(WFI_EXIT, 50, "A: guess: clock-gated in wfi (no deeper idle state) back to the vector"),
	HS_UNCAL(PEER_LATENCY, 162, "A: guess: no A55 core-to-core measurement found; the A72 cluster's measured handover (C2C72, 89.6 ns) at 1.8 GHz, through the DSU's L3"),
	HS_UNCAL(TLBI, 40, "A: §3.7 (x2 with REPEAT_TLBI is in the code itself)"),
	HS_UNCAL(DC, 10, "A: as A53"),
	HS_UNCAL(IC, 20, "A: as A53"),
	HS_UNCAL(SYS_OTHER, 10, "A: as A53"),
	HS_UNCAL(UNKNOWN_INSN, 1, "A: an unclassified encoding issues alone for 1 cycle"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_a55 = {
	.name = "a55", .full = "Cortex-A55 r2p0", .arch = "Armv8.2-A",
	.midr = 0x412fd050,			/* part 0xd05, r2p0 */
	.idregs = a55_regs,
	.source = "Cortex-A55 Core TRM (Arm 100442_0200) B2 via QEMU aarch64_a55_initfn; Linux 6.1 proton-pack.c",
	.boot_cpu = "cortex-a76",
	.boot_why = "QEMU 7.2 has no Cortex-A55; the Cortex-A76 is the QEMU CPU with the A55's Armv8.2-A features (LSE atomics, RCpc, RAS, PAN, DotProd, SSBS), so boot takes the same feature paths and the kernel text can run in QEMU; hotsim overlays its own A55 patching (errata, Spectre-BHB)",
	/* PFR0: cpu64.c's 0x1100000010111112 (CSV2, CSV3) with GIC = 1 (virt's GICv3) */
	.boot = { 0x414fd0b1, 0x1100000011111112ull, 0x00101122,
		  "QEMU 7.2 target/arm/cpu64.c aarch64_a76_initfn" },
	.mca_cpu = "cortex-a55",
	.clock_hz = 1800000000,
	.clock_source = "Rockchip RK3566: four Cortex-A55 at up to 1.8 GHz",
	.description = "Cortex-A55 r2p0: in-order, dual issue, separate load and store pipes (SWOG via LLVM/slothy)",
	.engine = &hs_engine_inorder,
	.params = p,
};
