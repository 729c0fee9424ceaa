/*
 * a76.c - Cortex-A76 (r4p1, Raspberry Pi 5): 4-wide out-of-order.
 *
 * Opt-in (not in the default set). No A76 instruction timing table is
 * readable (the SWOG's tables were not reachable) and none has been
 * measured, so the pipeline's timings are the Neoverse N1's, which is
 * derived from the A76 and "almost identical" to it (WCN1), and which
 * current LLVM also uses for -mcpu=cortex-a76 (LPR211209): marked "(N1
 * proxy)". What is the A76's own comes from AT76 (AnandTech's front-end
 * article), WP76/WC76 (Wikipedia, WikiChip), TRM76 (the A76 TRM: TLBs,
 * ID registers), TD and UPT (the Pi 5's caches and clock). Keys as in
 * docs/core-data-a72-a76-n1.md §0. The N1 (n1.c) is derived from this
 * core: every entry of the table below that n1.c does not set is the
 * N1's too.
 */
#include "hotsim/core.h"
#include "model_internal.h"

/*
 * Cortex-A76 r4p1 (Pi 5 boot log: MIDR 0x414fd0b1 on all four CPUs, as
 * QEMU 7.2's cortex-a76, whose registers are copied from the TRM, B2.4).
 * Armv8.2 with LSE, RCpc, PAN, RAS, CSV2/CSV3, SSBS, DotProd, crypto
 * (the BCM2712 has it). PFR0.GIC = 1 is the platform's (QEMU virt's
 * GICv3); the Pi 5's GIC-400 reads 0.
 */
static const struct hs_idreg a76_regs[] = {
	{ HS_CTR_EL0, 0x8444c004 },		/* Q72: 64-byte lines, PIPT L1I */
	{ HS_CLIDR_EL1, 0x82000023 },		/* Q72: LoUU 0, LoUIS 0 (Linux takes IDC) */
	{ HS_ID_AA64PFR0_EL1, 0x1100000011111112 },	/* CSV3, CSV2, RAS, GIC, FP16 */
	{ HS_ID_AA64PFR1_EL1, 0x10 },		/* SSBS (Pi 5: "detected: SSBS") */
	{ HS_ID_AA64ISAR0_EL1, 0x0000100010211120 },	/* DP, Atomic = 2, RDM, crypto, CRC32 */
	{ HS_ID_AA64ISAR1_EL1, 0x00100001 },	/* LRCPC (Pi 5: "RCpc load-acquire"), DPB */
	{ HS_ID_AA64MMFR0_EL1, 0x00101122 },	/* TRM76 B2.58: 40-bit PA, 4K/16K/64K granules */
	{ HS_ID_AA64MMFR1_EL1, 0x10212122 },	/* HAFDBS=2 VMID16 VH HPDS=2 LO PAN=2 XNX */
	{ HS_ID_AA64MMFR2_EL1, 0x00001011 },	/* CnP, UAO, IESB */
	{ HS_ID_AA64DFR0_EL1, 0x10305408 },	/* PMUv3.1, Debug v8.2, 6 BP / 4 WP */
	{ 0, 0 }
};

/*
 * Errata, Spectre, Meltdown: from the MIDR and Linux's lists (see a53.c).
 * CSV2 (v2 unaffected), SSBS (v4 mitigated in hardware), CSV3 (no
 * Meltdown), the BHB k=24 list (the loop) - as the Pi 5 reports ("Spectre
 * v2: Mitigation; CSV2, BHB"). r4p1 is past the r0p0-r3p1 errata; 3194386
 * and 4118414 take every revision.
 */

static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 4, "E: AT76/WP76 4-wide decode, 4 MOPs renamed per cycle"),
	HS_CAL(FETCH_WIDTH, 4, "E: AT76 'fetch unit operates at 16B/cycle'"),
	HS_UNCAL(FETCH_QUEUE, 32, "A: AT76 a 12-block queue before fetch; instruction queue depth nf"),
	HS_CAL(TAKEN_BUBBLE, 2, "D: IBG2 b (pc+8) 2.76 = 1 + 1.76 (N1 proxy)"),
	HS_CAL(RET_BUBBLE, 2, "D: IBG2 bl-ret 6.26 = (1 + 2) + (1 + 2.26) (N1 proxy)"),
	HS_CAL(BLR_BUBBLE, 6, "D: IBG2 blr-ret 10.34 = (1 + 6) + (1 + 2) + 0.34 (N1 proxy)"),
	HS_CAL(BR_BUBBLE, 2, "D: IBG2 adr->br (pc+4) 2.76 (N1 proxy)"),
	HS_UNCAL(BTIC_ENTRIES, 0, "A: AT76's 16-entry nanoBTB is not evident in IBG2 (every taken branch >= 2.76 cycles)"),
	HS_CAL(MISPREDICT, 9, "D: IBG2 tbz full random 6.19: P = 9 (N1 proxy); P + 2 = 11, AT76 '11 stage'"),
	HS_UNCAL(BP_ENTRIES, 8192, "A: predictor size not published"),
	HS_UNCAL(BP_HISTORY, 16, "A: nf"),
	HS_UNCAL(BTAC_ENTRIES, 1024, "A: AT76 a hybrid indirect predictor, size nf"),
	HS_UNCAL(RAS_DEPTH, 16, "A: TRM76 A6.3 names a return stack, depth nf"),
	/* window, pipes */
	HS_CAL(ROB_SIZE, 128, "E: WP76 'out-of-order execution window includes 128 entries'"),
	HS_UNCAL(RETIRE_WIDTH, 8, "A: nf; the µop dispatch width (AT76 8 µops), so retire does not bind"),
	HS_CAL(ALU_PIPES, 3, "D: LN1 N1UnitI = S0 + S1 + M; IBG2 add 3.00 per cycle (N1 proxy)"),
	HS_CAL(LOAD_PIPES, 2, "D: LN1 two L pipes; IBG2 ldr 2.00 per cycle (N1 proxy)"),
	HS_CAL(STORE_PIPES, 2, "D: LN1 L x2 + D x2; IBG2 str 1.99 per cycle (N1 proxy)"),
	HS_CAL(MEM_PIPES, 2, "D: LN1 two load/store pipes (N1 proxy)"),
	HS_CAL(BRANCH_PIPES, 1, "D: LN1 N1UnitB 1 (N1 proxy)"),
	HS_CAL(MUL_PIPES, 1, "D: LN1 one M pipe (N1 proxy)"),
	HS_CAL(DIV_UNITS, 1, "D: LN1 the divider on M, not pipelined (N1 proxy)"),
	HS_CAL(FP_PIPES, 2, "D: LN1 V0, V1 (N1 proxy)"),
	HS_CAL(FP_ON_ALU, 0, "D: LN1 FP/ASIMD pipes of their own (N1 proxy)"),
	HS_CAL(FP_SLOT0, 0, "E: out of order, no issue slots; unused"),
	HS_CAL(ALU_CASCADE, 0, "E: out of order; unused"),
	HS_CAL(MUL_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(PAIR_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(SHIFT_REG_TPUT, 3, "D: IBG2 lslv 3.00 per cycle (N1 proxy)"),
	HS_CAL(HAS_PAUTH, 0, "E: ID_AA64ISAR1 APA/API = 0 (TRM76/Q72): PAC hints are NOPs"),
	HS_CAL(NOP_TPUT, 4, "D: IBG2 nop 4.00 per cycle (N1 proxy)"),
	HS_CAL(CHEAP_LSL, 4, "D: IBG2 add (reg<<2) 1.00, (reg<<17) 2.00; LN1 IsCheapLSL <= 4 (N1 proxy)"),
	HS_CAL(CHEAP_LOGIC, 1, "D: IBG2 and/orr/eor shifted 1.00, ands/bics 2.00 (N1 proxy)"),
	HS_CAL(SHIFT_ON_MUL, 1, "D: IBG2 the other shifted ops 1.00 per cycle; LN1 N1Write_2c_1M (N1 proxy)"),
	HS_CAL(LOAD_PASS_STORE, 0, "D: with SSBS Linux runs the kernel with PSTATE.SSBS clear (proton-pack.c "
				   "spectre_v4_enable_hw_mitigation; SCTLR_EL1.DSSBS 0 sets it so at every exception "
				   "entry): the kernel's loads wait for older stores"),
	/* latencies (N1 proxy: IBG2/IBALT measured) */
	HS_CAL(LAT_ALU, 1, "D: IBG2 add 1.00 (N1 proxy)"),
	HS_CAL(LAT_ALU_SHIFT, 2, "D: IBG2 add (reg<<17), ands (reg<<2) 2.00 (N1 proxy)"),
	HS_CAL(LAT_BITFIELD, 1, "D: IBG2 ubfx 1.00 (N1 proxy)"),
	HS_CAL(LAT_SHIFT_REG, 1, "D: IBG2 lslv 1.00 (N1 proxy)"),
	HS_CAL(LAT_MUL, 4, "D: IBG2 mul 4.00; LN1 4 (N1 proxy)"),
	HS_CAL(LAT_MUL32, 2, "D: LN1 WriteIM32 2 (N1 proxy)"),
	HS_CAL(LAT_MADD, 4, "D: IBG2 madd 4.00 (N1 proxy)"),
	HS_CAL(LAT_MULL, 2, "D: IBG2 smull/umaddl 2.00 (N1 proxy)"),
	HS_CAL(LAT_MULH, 5, "D: IBG2 umulh 5.25; LN1 5 (N1 proxy)"),
	HS_CAL(OCC_MUL, 3, "D: IBG2 mul 0.33 per cycle (N1 proxy)"),
	HS_CAL(OCC_MADD, 3, "D: IBG2 madd 0.33 per cycle (N1 proxy)"),
	HS_CAL(OCC_MULH, 4, "D: IBG2 umulh 0.25 per cycle (N1 proxy)"),
	HS_CAL(LAT_DIV32, 12, "D: LN1 WriteID32 12 (N1 proxy)"),
	HS_CAL(LAT_DIV64, 20, "D: LN1 WriteID64 20 (N1 proxy)"),
	HS_CAL(LAT_CRC, 2, "D: IBG2 crc32x 2.00 (N1 proxy)"),
	HS_CAL(LAT_LOAD, 4, "D: IBG2 ldr 4.00; WCN1 4-cycle load-to-use (N1 proxy)"),
	HS_CAL(LAT_LOAD_NARROW, 4, "D: IBG2 ldrb/ldrsw 4.00 (N1 proxy)"),
	HS_CAL(LAT_LDP2, 4, "D: IBG2 ldp 2nd element 4.00 (N1 proxy)"),
	HS_CAL(OCC_LDP, 2, "D: IBG2 ldp 1.00 per cycle against ldr 2.00 (N1 proxy)"),
	HS_CAL(UNALIGNED_EXTRA, 0, "D: IBG2 unaligned inside a line 4.00 (N1 proxy; a line crossing: not modelled)"),
	HS_CAL(REGOFF_EXTRA, 0, "D: IBG2 ldr (reg) 4.00 = ldr (imm) (N1 proxy)"),
	HS_CAL(ALU_TO_ADDR, 1, "D: LN1 ReadAdrBase: no extra address latency (N1 proxy)"),
	HS_UNCAL(STORE_DATA_ADV, 2, "A: store data read late, as a73.c"),
	HS_CAL(BRANCH_ADV, 0, "E: out of order: a branch executes when its operands are ready"),
	HS_CAL(LAT_FP, 2, "D: LN1 WriteF 2 (N1 proxy)"),
	/* memory (BCM2712) */
	HS_CAL(LINE_BYTES, 64, "E: CTR_EL0 DminLine 4 (Q72)"),
	HS_CAL(L1I_SIZE, 65536, "E: TD Pi 5 64 KB L1I"),
	HS_CAL(L1I_ASSOC, 4, "E: WC76 4-way"),
	HS_CAL(L1D_SIZE, 65536, "E: TD Pi 5 64 KB L1D"),
	HS_CAL(L1D_ASSOC, 4, "E: WC76 4-way"),
	HS_CAL(L2_SIZE, 524288, "E: UPT/TD 512 KB L2 per core"),
	HS_CAL(L2_ASSOC, 8, "E: WC76 8-way"),
	HS_CAL(L2_LATENCY, 5, "D: WC76 L2 'fastest load-to-use 9 cycles' - ldr 4"),
	HS_CAL(L3_SIZE, 2097152, "E: UPT 2 MB L3 (DSU)"),
	HS_CAL(L3_ASSOC, 16, "E: WC76 L3 16-way"),
	HS_CAL(L3_LATENCY, 17, "D: WC76 DSU L3 load-to-use 26 at 2 MB - ldr 4 - l2_latency 5 (it adds to the L2's)"),
	HS_CAL(SHARED_LEVEL, 3, "E: DynamIQ: each core's L2 its own, the DSU's L3 shared"),
	HS_UNCAL(MEM_LATENCY, 240, "A: nf; ~100 ns LPDDR4X-4267 at 2.4 GHz"),
	HS_UNCAL(IPREFETCH, 4, "A: nf (predictor-directed fetch, AT76)"),
	HS_CAL(ITLB_ENTRIES, 48, "E: TRM76 Table A5-1 48-entry L1 I-TLB"),
	HS_CAL(DTLB_ENTRIES, 48, "E: TRM76 48-entry L1 D-TLB"),
	HS_CAL(TLB_ENTRIES, 1280, "E: TRM76 '5-way, set associative, 1280-entry' L2 TLB"),
	HS_CAL(TLB_ASSOC, 5, "E: TRM76 5-way"),
	HS_CAL(TLB_LATENCY, 3, "E: TRM76 'access to the L2 TLB usually takes three cycles'"),
	HS_UNCAL(WALK_LATENCY, 25, "A: nf"),
	HS_UNCAL(PAGE_BYTES, 4096, "A: Debian's 4 KB pages; Raspberry Pi OS runs the Pi 5 with 16 KB (BOOTPI5)"),
	/* serialising/system (docs/core-data.md §3.7 out-of-order rules; P = 9) */
	HS_UNCAL(DMB, 8, "A: §3.7 OoO must also complete older loads"),
	HS_UNCAL(DMB_LD, 4, "A: §3.7"),
	HS_UNCAL(DMB_ST, 3, "A: §3.7"),
	HS_UNCAL(DSB, 15, "A: §3.7"),
	HS_UNCAL(ISB, 11, "A: mispredict_penalty + 2: a refetch after the flush"),
	HS_UNCAL(SB, 26, "A: no FEAT_SB; Linux's sb is dsb nsh + isb"),
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
	HS_UNCAL(PAN, 8, "A: as msr daif (PAN = 2: hardware PAN)"),
	HS_UNCAL(LDXR, 4, "A: = ldr"),
	HS_UNCAL(STXR, 6, "A: as a73.c"),
	HS_UNCAL(LSE_ATOMIC, 13, "A: N1 proxy: IBG2 ldaddal 13.00 (AL form, uncontended); other forms nf"),
	HS_UNCAL(CAS, 14, "A: N1 proxy: IBG2 casal 14.00 (AL form, uncontended); other forms nf"),
	HS_UNCAL(ERET, 13, "A: mispredict_penalty + 4: not predicted (TRM76 A6.3.1)"),
	HS_UNCAL(EXC_ENTRY, 13, "A: mispredict_penalty + 4, as eret"),
	HS_UNCAL(FIRMWARE, 600, "A: TFAJUNO A57 fast SMC 470-650 cycles (no SMC on the A76's hot paths)"),
	HS_UNCAL(IPI_LATENCY, 500, "A: guess: an SGI write through the GIC to the other core, about 250 ns; the A76 at 2 GHz: the same ns, more cycles"),
	HS_UNCAL(WFI_EXIT, 50, "A: guess: clock-gated in wfi (no deeper idle state) back to the vector"),
	HS_UNCAL(PEER_LATENCY, 154, "A: guess: C2C485 Kryo 485 Gold (built on the A76, DSU) cores 5-7 one way 61-70 ns, ~64 ns at 2.4 GHz; not this SoC"),
	HS_UNCAL(TLBI, 40, "A: §3.7 (erratum 4118414 doubles each broadcast sync)"),
	HS_UNCAL(DC, 10, "A: as A53"),
	HS_UNCAL(IC, 20, "A: as A53"),
	HS_UNCAL(SYS_OTHER, 10, "A: as A53"),
	HS_UNCAL(UNKNOWN_INSN, 1, "A: an unclassified encoding takes one cycle"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_a76 = {
	.name = "a76", .full = "Cortex-A76 r4p1", .arch = "Armv8.2-A",
	.opt_in = 1,
	.midr = 0x414fd0b1,			/* part 0xd0b, r4p1 */
	.idregs = a76_regs,
	.source = "Cortex-A76 TRM 100798 B2.4 as QEMU 7.2 aarch64_a76_initfn copies it; Pi 5 boot log (MIDR, SSBS, RCpc)",
	.boot_cpu = "cortex-a76",
	.boot_why = "QEMU 7.2 models the Cortex-A76 itself (r4p1, the Pi 5's revision)",
	/* PFR0: cpu64.c's 0x1100000010111112 with GIC = 1 (virt's GICv3) */
	.boot = { 0x414fd0b1, 0x1100000011111112ull, 0x00101122,
		  "QEMU 7.2 target/arm/cpu64.c aarch64_a76_initfn" },
	.mca_cpu = "cortex-a76",		/* LLVM 14 schedules it with its Cortex-A57 model */
	.clock_hz = 2400000000ull,
	.clock_source = "Raspberry Pi 5 (Broadcom BCM2712): four Cortex-A76 at 2.4 GHz",
	.description = "Cortex-A76 r4p1: 4-wide out-of-order (Raspberry Pi 5; Neoverse N1 timings as proxy)",
	.engine = &hs_engine_ooo,
	.params = p,
};
