/*
 * n1.c - Neoverse N1 (r3p1: Ampere Altra, AWS Graviton2): 4-wide
 * out-of-order.
 *
 * Opt-in (not in the default set). Sources (keys as in
 * docs/core-data-a72-a76-n1.md §0): IBG2/IBALT = insn_bench_aarch64
 * measured on Graviton2 (2.5 GHz) and Ampere Altra (3.0 GHz), which agree
 * to 0.1 cycle on every row used, the primary timing source; LN1 = LLVM's
 * AArch64SchedNeoverseN1.td and GN1 = GCC's neoverse-n1.md, both from the
 * N1 Software Optimization Guide (whose tables could not be read); SWN1 =
 * that guide through LLVM issue 136374; ATG2/ATALT = AnandTech's Graviton2
 * and Altra articles; WCN1/WCV1 = WikiChip; G2REG = a Graviton2 register
 * capture (an EC2 guest's view). The front end, predictor sizes and TLBs
 * are the Cortex-A76's, which the N1 is derived from (WCN1): the table
 * below lists what differs from a76.c's, and takes the rest from there
 * (.params_base).
 */
#include "hotsim/core.h"
#include "model_internal.h"

/*
 * Neoverse N1 r3p1 (Graviton2 register capture and an Ampere Mt. Jade boot
 * log: MIDR 0x413fd0c1; QEMU 7.2's neoverse-n1 is r4p1). Armv8.2 with LSE,
 * RCpc, PAN, RAS, CSV2/CSV3, SSBS (PFR1.SSBS = 2), DotProd. CTR_EL0 from
 * G2REG: IDC = 1 and DIC = 1, the N1's coherent-I-cache configuration
 * (QEMU's N1 has DIC = 0). MMFR2 and DFR0 are QEMU's, from the N1 TRM:
 * G2REG shows a hypervisor's view of them (no IESB, no SPE).
 */
static const struct hs_idreg n1_regs[] = {
	{ HS_CTR_EL0, 0xb444c004 },		/* G2REG: DIC, IDC, 64-byte lines */
	{ HS_CLIDR_EL1, 0x82000023 },		/* Q72 aarch64_neoverse_n1_initfn: LoUU 0, LoUIS 0 */
	{ HS_ID_AA64PFR0_EL1, 0x1100000011111112 },	/* G2REG: CSV3, CSV2, RAS, GIC, FP16 */
	{ HS_ID_AA64PFR1_EL1, 0x20 },		/* G2REG: SSBS = 2 (MSR/MRS form) */
	{ HS_ID_AA64ISAR0_EL1, 0x0000100010211120 },	/* G2REG: DP, Atomic = 2, RDM, crypto, CRC32 */
	{ HS_ID_AA64ISAR1_EL1, 0x00100001 },	/* G2REG: LRCPC, DPB */
	{ HS_ID_AA64MMFR0_EL1, 0x00101125 },	/* G2REG: 48-bit PA, 4K/16K/64K granules */
	{ HS_ID_AA64MMFR1_EL1, 0x10212122 },	/* G2REG: HAFDBS=2 VMID16 VH HPDS=2 LO PAN=2 XNX */
	{ HS_ID_AA64MMFR2_EL1, 0x00001011 },	/* Q72: CnP, UAO, IESB */
	{ HS_ID_AA64DFR0_EL1, 0x110305408 },	/* Q72: PMUv3.1, Debug v8.2, SPE */
	{ 0, 0 }
};

/*
 * Errata, Spectre, Meltdown: from the MIDR and Linux's lists (see a53.c).
 * CSV2 (v2 unaffected), SSBS (v4 mitigated in hardware), CSV3 (no
 * Meltdown), the BHB k=24 list (the loop). r3p1 is in erratum 1418040's
 * range (r0p0-r3p1; QEMU's r4p1 is not), 3194386 and 4118414 take every
 * revision; 1542419 needs CTR_EL0.DIC, which this N1 has.
 */

extern const struct hs_core hs_core_a76;

/* What differs from the A76's table (value or source); the rest (fetch
 * queue, predictor sizes, prefetch, walk latency, the rules an
 * out-of-order core leaves unused and the ones nobody publishes) is
 * a76.c's, which serves the N1 as it stands. */
static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 4, "E: SWN1 §4.1 decode 4 per cycle (LLVM issue 136374; LN1's 8/3 are tuning values)"),
	HS_CAL(FETCH_WIDTH, 4, "D: AT76 16 bytes per cycle (the A76's front end, WCN1)"),
	HS_CAL(TAKEN_BUBBLE, 2, "D: IBG2 b (pc+8) 2.76 cycles per taken branch = 1 + 1.76"),
	HS_CAL(RET_BUBBLE, 2, "D: IBG2 bl-ret 6.26 = (1 + taken 2) + (1 + 2.26)"),
	HS_CAL(BLR_BUBBLE, 6, "D: IBG2 blr-ret 10.34 = (1 + 6) + (1 + ret 2) + 0.34"),
	HS_CAL(BR_BUBBLE, 2, "D: IBG2 adr->br (pc+4) 2.76 = 1 + 1.76"),
	HS_CAL(MISPREDICT, 9, "D: IBG2 tbz full random 6.19 = ½(P + 2) + ¼(1 + 1.76) + ¼·½: P = 9; P + 2 = 11 = LN1, AT76"),
	HS_UNCAL(RAS_DEPTH, 16, "A: nf"),
	/* window, pipes */
	HS_CAL(ROB_SIZE, 128, "E: WCV1 'up from 128' for the N1; LN1 MicroOpBufferSize 128"),
	HS_UNCAL(RETIRE_WIDTH, 8, "A: nf; the µop dispatch width, so retire does not bind"),
	HS_CAL(ALU_PIPES, 3, "E: LN1 N1UnitI = S0 + S1 + M; IBG2 add 3.00 per cycle"),
	HS_CAL(LOAD_PIPES, 2, "E: LN1 two L pipes; IBG2 ldr 2.00 per cycle"),
	HS_CAL(STORE_PIPES, 2, "E: LN1 L x2 + D x2; IBG2 str 1.99 per cycle"),
	HS_CAL(MEM_PIPES, 2, "E: LN1 two load/store pipes shared by loads and stores"),
	HS_CAL(BRANCH_PIPES, 1, "E: LN1 N1UnitB 1"),
	HS_CAL(MUL_PIPES, 1, "E: LN1 one M pipe; GN1 mx"),
	HS_CAL(DIV_UNITS, 1, "D: LN1 the divider on M, not pipelined"),
	HS_CAL(FP_PIPES, 2, "E: LN1 V0, V1"),
	HS_CAL(FP_ON_ALU, 0, "E: LN1 FP/ASIMD pipes of their own"),
	HS_CAL(SHIFT_REG_TPUT, 3, "E: IBG2 lslv/lsrv/asrv/rorv 3.00 per cycle"),
	HS_CAL(HAS_PAUTH, 0, "E: ID_AA64ISAR1 APA/API = 0 (G2REG): PAC hints are NOPs"),
	HS_CAL(NOP_TPUT, 4, "E: IBG2 nop 4.00 per cycle (decode width; movz #0 4.00)"),
	HS_CAL(CHEAP_LSL, 4, "E: IBG2 add (reg<<2) 1.00 at 3 per cycle, (reg<<17) 2.00 at 1; LN1 IsCheapLSL <= 4"),
	HS_CAL(CHEAP_LOGIC, 1, "E: IBG2 and/orr/eor (reg<<2, <<17, >>17, ror) 1.00 at 3 per cycle; ands/bics 2.00"),
	HS_CAL(SHIFT_ON_MUL, 1, "E: IBG2 the other shifted ops 1.00 per cycle; LN1 N1Write_2c_1M"),
	/* latencies: IBG2/IBALT measured */
	HS_CAL(LAT_ALU, 1, "E: IBG2 add 1.00"),
	HS_CAL(LAT_ALU_SHIFT, 2, "E: IBG2 add (reg<<17), ands (reg<<2) 2.00 (the cheap forms: cheap_lsl_max, cheap_logic_shift)"),
	HS_CAL(LAT_BITFIELD, 1, "E: IBG2 ubfx/sbfx/extr 1.00 (bfi/bfxil 2.00 not told apart)"),
	HS_CAL(LAT_SHIFT_REG, 1, "E: IBG2 lslv 1.00"),
	HS_CAL(LAT_MUL, 4, "E: IBG2 mul 4.00; LN1 WriteIM64 4"),
	HS_CAL(LAT_MUL32, 2, "D: LN1 WriteIM32 2; GN1 mul 2 (IBG2 measures X forms only)"),
	HS_CAL(LAT_MADD, 4, "E: IBG2 madd 4.00"),
	HS_CAL(LAT_MULL, 2, "E: IBG2 smull/umaddl 2.00; GN1 2"),
	HS_CAL(LAT_MULH, 5, "E: IBG2 umulh 5.25; LN1 5"),
	HS_CAL(OCC_MUL, 3, "E: IBG2 mul 0.33 per cycle; LN1 ResourceCycles 3"),
	HS_CAL(OCC_MADD, 3, "E: IBG2 madd 0.33 per cycle"),
	HS_CAL(OCC_MULH, 4, "E: IBG2 umulh 0.25 per cycle"),
	HS_CAL(LAT_DIV32, 12, "D: LN1 WriteID32 12; GN1 12, not pipelined (IBG2 5.00 = early out)"),
	HS_CAL(LAT_DIV64, 20, "D: LN1 WriteID64 20"),
	HS_CAL(LAT_CRC, 2, "E: IBG2 crc32x 2.00; LN1 2"),
	HS_CAL(LAT_LOAD, 4, "E: IBG2 ldr 4.00; ATG2 4 cycles"),
	HS_CAL(LAT_LOAD_NARROW, 4, "E: IBG2 ldrb/ldrh/ldrsw 4.00"),
	HS_CAL(LAT_LDP2, 4, "E: IBG2 ldp (x) 2nd element 4.00"),
	HS_CAL(OCC_LDP, 2, "E: IBG2 ldp 1.00 per cycle against ldr 2.00: an ldp holds a load pipe 2 cycles"),
	HS_CAL(UNALIGNED_EXTRA, 0, "E: IBG2 unaligned inside a line 4.00 = aligned (a line crossing +7: not modelled)"),
	HS_CAL(REGOFF_EXTRA, 0, "E: IBG2 ldr (reg) and (reg; <<3) 4.00 = ldr (imm)"),
	HS_CAL(ALU_TO_ADDR, 1, "D: LN1 ReadAdrBase: no extra address latency"),
	HS_CAL(LAT_FP, 2, "D: LN1 WriteF 2; GN1 fp_alu 2"),
	/* memory (Ampere Altra Q80-30) */
	HS_CAL(LINE_BYTES, 64, "E: CTR_EL0 DminLine 4 (G2REG)"),
	HS_CAL(L1I_SIZE, 65536, "E: ATALT 64 KB"),
	HS_CAL(L1I_ASSOC, 4, "E: WCN1 4-way"),
	HS_CAL(L1D_SIZE, 65536, "E: ATALT 64 KB"),
	HS_CAL(L1D_ASSOC, 4, "E: WCN1 4-way"),
	HS_CAL(L2_SIZE, 1048576, "E: ATALT 1 MB per core"),
	HS_CAL(L2_ASSOC, 8, "E: WCN1 8-way"),
	HS_CAL(L2_LATENCY, 7, "E: ATG2 1 MB L2 11 cycles load-to-use - ldr 4 (WCN1 9-11)"),
	HS_CAL(L3_SIZE, 33554432, "E: ATALT 32 MB system level cache"),
	HS_UNCAL(L3_ASSOC, 16, "A: SLC associativity nf"),
	HS_UNCAL(L3_LATENCY, 79, "A: nf; SLC over the CMN-600 mesh ~30 ns (90 cycles at 3 GHz) - 4 - l2 7"),
	HS_CAL(SHARED_LEVEL, 3, "E: ATALT each core's L2 its own, the SLC on the mesh shared"),
	HS_UNCAL(MEM_LATENCY, 243, "A: ATG2 81 ns measured on Graviton2, taken for Altra at 3.0 GHz"),
	HS_CAL(ITLB_ENTRIES, 48, "D: TRM76 Table A5-1 48 entries (A76 proxy)"),
	HS_CAL(DTLB_ENTRIES, 48, "D: TRM76 48 entries (A76 proxy)"),
	HS_CAL(TLB_ENTRIES, 1280, "D: TRM76 1280-entry L2 TLB (A76 proxy)"),
	HS_CAL(TLB_ASSOC, 5, "D: TRM76 5-way (A76 proxy)"),
	HS_CAL(TLB_LATENCY, 3, "D: TRM76 'usually three cycles' (A76 proxy)"),
	HS_CAL(PAGE_BYTES, 4096, "E: Debian's 4 KB pages (DC61/DC72)"),
	/* serialising/system: the N1's measured atomics (the §3.7 rules: a76.c's) */
	HS_UNCAL(LSE_ATOMIC, 13, "A: IBG2/IBALT ldaddal/ldsetal 13.00 (AL forms, uncontended); other forms nf"),
	HS_UNCAL(CAS, 14, "A: IBG2/IBALT casal 14.00 (AL form, uncontended); other forms nf"),
	HS_UNCAL(FIRMWARE, 600, "A: TFAJUNO A57 fast SMC 470-650 cycles (no SMC on the N1's hot paths)"),
	HS_UNCAL(PEER_LATENCY, 143, "A: C2CG2 measured on Graviton2 (N1, CMN-600 mesh), taken for Altra: one way of a CAS ping-pong, mean 47.6 ns over 2016 core pairs (30.4-58.4) = 143 cycles at 3.0 GHz (91-175)"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_n1 = {
	.name = "n1", .full = "Neoverse N1 r3p1", .arch = "Armv8.2-A",
	.opt_in = 1,
	.midr = 0x413fd0c1,			/* part 0xd0c, r3p1 */
	.idregs = n1_regs,
	.source = "Graviton2 register capture (an EC2 guest's view), Ampere Mt. Jade boot log (MIDR); "
		  "QEMU 7.2 aarch64_neoverse_n1_initfn (CLIDR, MMFR2, DFR0)",
	.boot_cpu = "neoverse-n1",
	.boot_why = "QEMU 7.2 models the Neoverse N1 itself (as r4p1: hotsim overlays what r3p1 patches otherwise)",
	/* PFR0: cpu64.c's 0x1100000010111112 with GIC = 1 (virt's GICv3) */
	.boot = { 0x414fd0c1, 0x1100000011111112ull, 0x00101125,
		  "QEMU 7.2 target/arm/cpu64.c aarch64_neoverse_n1_initfn" },
	.mca_cpu = "neoverse-n1",		/* LLVM 14 schedules it with its Cortex-A57 model */
	.clock_hz = 3000000000ull,
	.clock_source = "Ampere Altra Q80-30: 80 Neoverse N1 at 3.0 GHz (AWS Graviton2: 64 at 2.5 GHz)",
	.description = "Neoverse N1 r3p1: 4-wide out-of-order (Ampere Altra; IBG2/IBALT measured latencies)",
	.engine = &hs_engine_ooo,
	.params = p,
	.params_base = &hs_core_a76,
};
