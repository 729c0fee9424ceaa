/*
 * a72.c - Cortex-A72 (r0p3, Raspberry Pi 4): 3-wide out-of-order.
 *
 * Opt-in (not in the default set). Sources (keys as in
 * docs/core-data-a72-a76-n1.md §0): IB72 = insn_bench_aarch64 measured on
 * a Cortex-A72 (NXP LX2160A at 2.0 GHz), the primary timing source; L57 =
 * LLVM's Cortex-A57 model, which LLVM uses for -mcpu=cortex-a72 (the SWOG
 * tables could not be read); SW72 = the A72 Software Optimization Guide's
 * front matter, OS72 = OSACA's A72 port model, MYN72/WK72 = load/store
 * ports and cache geometry, TRM72 = the A72 TRM, RPD = Raspberry Pi docs.
 * Where nothing is published the value is a named assumption.
 */
#include "hotsim/core.h"
#include "model_internal.h"

/* Fitted (docs/calibration.md): `hotsim fit build/kernels/6.12-board.vmlinux
 * --board j721e` determines one factor on exception entry, eret, the
 * barriers and the system-register accesses - x3.57, 95% 2.91 to 4.00 - from
 * the J721E's eight like-for-like cells; each entry's guess and its reason
 * follow its value. */
#define FIT72 "F: hotsim fit --board j721e, the entry knob x3.57 of the guess; guessed: "

/*
 * Cortex-A72 r0p3 as the BCM2711 has it (Pi 4 boot logs: MIDR 0x410fd083).
 * Armv8.0: no LSE, no PAN, no CSV2/CSV3/SSBS. The BCM2711 has no crypto
 * extension (CRC32 only), unlike QEMU's cortex-a72; no cpucap depends on
 * it. PFR0.GIC = 1 is the platform's (QEMU virt's GICv3); the Pi 4's
 * GIC-400 reads 0 (docs/kernels.md, "Known limits").
 */
static const struct hs_idreg a72_regs[] = {
	{ HS_CTR_EL0, 0x8444c004 },		/* PIPT L1I (Pi 4: "Detected PIPT I-cache") */
	{ HS_CLIDR_EL1, 0x0a200023 },		/* LoUU 1, LoC 2, LoUIS 1 (Q72) */
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },	/* EL0-EL3 AArch64+AArch32, FP, AdvSIMD, GIC */
	{ HS_ID_AA64PFR1_EL1, 0 },
	{ HS_ID_AA64ISAR0_EL1, 0x00010000 },	/* CRC32 only (Pi 4: "CRC32 instructions") */
	{ HS_ID_AA64ISAR1_EL1, 0 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001124 },	/* Q72 (the TRM's): 44-bit PA, 4K/64K, TGran16 0: no 16K */
	{ HS_ID_AA64MMFR1_EL1, 0 },
	{ HS_ID_AA64MMFR2_EL1, 0 },
	{ HS_ID_AA64DFR0_EL1, 0x10305106 },	/* PMUv3, 6 breakpoints, 4 watchpoints */
	{ 0, 0 }
};

/*
 * Errata, Spectre, Meltdown: from the MIDR and Linux's lists (see a53.c).
 * The A72 is on kpti_safe_list, the Spectre-v3a list and the BHB k=8 list,
 * on no v2/v4 safe list, with no CSV2 or SSBS. The Pi 4's stock firmware
 * (the armstub, no PSCI/SMCCC: its boot log has no "psci:" line; RPT121's
 * baseline "spectre_v2: Vulnerable, spec_store_bypass: Vulnerable") gives
 * Linux no conduit, so v2 and v4 are vulnerable and BHB unmitigated:
 * no_smccc below, as QEMU's virt machine.
 */

static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 3, "D: SW72 §4.1 'up to three µops per cycle' (SLO72, TB72); L57 IssueWidth 3"),
	HS_UNCAL(FETCH_WIDTH, 4, "A: 16-byte fetch (the AT73 remark on the A72), not verified"),
	HS_UNCAL(FETCH_QUEUE, 16, "A: decoupling queue depth not published"),
	HS_CAL(TAKEN_BUBBLE, 2, "D: IB72 b (pc+8) 3.02 cycles per taken branch = 1 + 2"),
	HS_CAL(RET_BUBBLE, 2, "D: IB72 bl-ret 6.48 = (1 + taken 2) + (1 + 2.5), rounded down"),
	HS_CAL(BLR_BUBBLE, 8, "D: IB72 blr-ret 11.98 = (1 + 8) + (1 + ret 2)"),
	HS_CAL(BR_BUBBLE, 2, "D: IB72 adr->br (pc+4) 3.02 = 1 + 2"),
	HS_UNCAL(BTIC_ENTRIES, 0, "A: every taken branch in IB72 costs >= 3 cycles: no zero-bubble cache evident"),
	HS_CAL(MISPREDICT, 13, "D: IB72 tbz full random 8.43 a branch = ½(P + 2) + ¼(1 + 2) + ¼·½: P = 13 (L57 14)"),
	HS_UNCAL(BP_ENTRIES, 4096, "A: predictor size not published"),
	HS_UNCAL(BP_HISTORY, 12, "A: nf"),
	HS_UNCAL(BTAC_ENTRIES, 256, "A: nf"),
	HS_UNCAL(RAS_DEPTH, 8, "A: nf"),
	/* window, pipes */
	HS_UNCAL(ROB_SIZE, 128, "A: L57 MicroOpBufferSize 128 is the A57's; A72 nf"),
	HS_UNCAL(RETIRE_WIDTH, 4, "A: nf; wider than dispatch so retire does not bind"),
	HS_CAL(ALU_PIPES, 2, "E: SW72/OS72 Integer 0 and 1; IB72 add 2.00 per cycle"),
	HS_CAL(LOAD_PIPES, 1, "E: OS72 port L, MYN72 one load port; IB72 ldr 1.00 per cycle"),
	HS_CAL(STORE_PIPES, 1, "E: OS72 port S, MYN72 one store port; IB72 str 0.99 per cycle"),
	HS_CAL(MEM_PIPES, 2, "E: MYN72 a load and a store in parallel"),
	HS_CAL(BRANCH_PIPES, 1, "E: SW72/OS72 the branch pipe"),
	HS_CAL(MUL_PIPES, 1, "E: OS72 port M, SW72 one multi-cycle integer pipe"),
	HS_CAL(DIV_UNITS, 1, "D: L57 the divider on the M pipe, not pipelined"),
	HS_CAL(FP_PIPES, 2, "E: SW72 FP/ASIMD 0 and 1"),
	HS_CAL(FP_ON_ALU, 0, "E: SW72 FP/ASIMD pipes of their own"),
	HS_CAL(FP_SLOT0, 0, "E: out of order, no issue slots; unused"),
	HS_CAL(ALU_CASCADE, 0, "E: out of order; unused"),
	HS_CAL(MUL_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(PAIR_SINGLE, 0, "E: out of order; unused"),
	HS_CAL(SHIFT_REG_TPUT, 2, "E: IB72 lslv/lsrv/asrv/rorv 2.00 per cycle"),
	HS_CAL(HAS_PAUTH, 0, "E: v8.0, ID_AA64ISAR1 = 0: PAC hints are NOPs"),
	HS_CAL(NOP_TPUT, 1, "E: IB72 nop 1.00 per cycle (mov/movz 2.00)"),
	HS_CAL(CHEAP_LSL, 0, "E: IB72 add (reg<<2) 2.00: no cheap shifted forms"),
	HS_CAL(CHEAP_LOGIC, 0, "E: IB72 and/orr/eor (reg<<2) 2.00: no cheap shifted forms"),
	HS_CAL(SHIFT_ON_MUL, 1, "E: IB72 shifted add/logical 1.00 per cycle against 2.00; L57 WriteISReg on M"),
	HS_CAL(LOAD_PASS_STORE, 1, "D: TFA72 TF-A sets CPUACTLR_EL1[55] DIS_LOAD_PASS_STORE only as its "
				   "CVE-2018-3639 workaround; the Pi 4's firmware has none (RPF1451): loads pass "
				   "older stores; a board whose firmware sets it says so (models/boards.c)"),
	/* latencies: IB72 measured */
	HS_CAL(LAT_ALU, 1, "E: IB72 add 1.00"),
	HS_CAL(LAT_ALU_SHIFT, 2, "E: IB72 add/and (reg<<2) 2.00"),
	HS_CAL(LAT_BITFIELD, 1, "E: IB72 ubfx/sbfx/lsl (imm) 1.00 (bfi/bfxil 2.00 not told apart)"),
	HS_CAL(LAT_SHIFT_REG, 1, "E: IB72 lslv 1.00"),
	HS_CAL(LAT_MUL, 5, "E: IB72 mul 5.00; L57 WriteIM64 5"),
	HS_CAL(LAT_MUL32, 3, "D: L57 WriteIM32 3 (IB72 measures X forms only)"),
	HS_CAL(LAT_MADD, 5, "E: IB72 madd 5.00"),
	HS_CAL(LAT_MULL, 3, "E: IB72 smull/umaddl 3.00"),
	HS_CAL(LAT_MULH, 6, "E: IB72 umulh 6.00; L57 6"),
	HS_CAL(OCC_MUL, 3, "E: IB72 mul 0.33 per cycle"),
	HS_CAL(OCC_MADD, 3, "E: IB72 madd 0.33 per cycle"),
	HS_CAL(OCC_MULH, 4, "E: IB72 umulh 0.25 per cycle"),
	HS_UNCAL(LAT_DIV32, 10, "A: L57's 19 halved (MYN72: the A72 halved the A57's divide); IB72 4.00 = early out"),
	HS_UNCAL(LAT_DIV64, 18, "A: L57's 35 halved (MYN72); worst case nf"),
	HS_CAL(LAT_CRC, 2, "E: IB72 crc32x 2.00"),
	HS_CAL(LAT_LOAD, 4, "E: IB72 ldr (imm) 4.00; L57 LoadLatency 4"),
	HS_CAL(LAT_LOAD_NARROW, 4, "E: IB72 ldrb/ldrh/ldrsw 4.00"),
	HS_CAL(LAT_LDP2, 5, "E: IB72 ldp (x) 2nd element 5.00"),
	HS_CAL(OCC_LDP, 1, "E: IB72 ldp 1.00 per cycle on the one load pipe"),
	HS_CAL(UNALIGNED_EXTRA, 0, "E: IB72 unaligned inside a line 4.00 = aligned (a line crossing +1: not modelled)"),
	HS_CAL(REGOFF_EXTRA, 1, "E: IB72 ldr (reg) and (reg; <<3) 5.00 against ldr (imm) 4.00; narrower 4.00"),
	HS_CAL(ALU_TO_ADDR, 1, "D: L57 ReadAdrBase: no extra address latency"),
	HS_UNCAL(STORE_DATA_ADV, 2, "A: store data read late, as a73.c"),
	HS_CAL(BRANCH_ADV, 0, "E: out of order: a branch executes when its operands are ready"),
	HS_CAL(LAT_FP, 3, "D: L57 WriteF 3 (A57 proxy); OS72 fadd 3"),
	/* memory (BCM2711) */
	HS_CAL(LINE_BYTES, 64, "E: CTR_EL0 DminLine 4 (Q72 0x8444c004)"),
	HS_CAL(L1I_SIZE, 49152, "E: RPD 48 KB L1I; Q72 CCSIDR '48KB L1 icache'"),
	HS_CAL(L1I_ASSOC, 3, "E: WK72 3-way"),
	HS_CAL(L1D_SIZE, 32768, "E: RPD 32 KB L1D"),
	HS_CAL(L1D_ASSOC, 2, "E: WK72 2-way"),
	HS_CAL(L2_SIZE, 1048576, "E: RPD 1 MB L2, shared by the four cores"),
	HS_CAL(L2_ASSOC, 16, "E: WK72 16-way"),
	HS_UNCAL(L2_LATENCY, 16, "A: nf (SSS measured it, not retrievable); ~20 load-to-use for a shared 1 MB L2"),
	HS_CAL(L3_SIZE, 0, "E: no L3 on the BCM2711 (RPD, WK72)"),
	HS_CAL(L3_ASSOC, 0, "E: no L3"),
	HS_CAL(L3_LATENCY, 0, "E: no L3"),
	HS_CAL(SHARED_LEVEL, 2, "E: RPD the L2 is shared by the four cores"),
	HS_UNCAL(MEM_LATENCY, 180, "A: nf; ~120 ns LPDDR4-3200 at 1.5 GHz"),
	HS_UNCAL(IPREFETCH, 2, "A: nf"),
	HS_CAL(ITLB_ENTRIES, 48, "E: WK72 48-entry fully associative L1 I-TLB"),
	HS_CAL(DTLB_ENTRIES, 32, "E: WK72 32-entry L1 D-TLB"),
	HS_CAL(TLB_ENTRIES, 1024, "E: TRM72 1024-entry L2 TLB"),
	HS_CAL(TLB_ASSOC, 4, "E: TRM72 4-way"),
	HS_UNCAL(TLB_LATENCY, 2, "A: TRM72 'a variable number of cycles'"),
	HS_UNCAL(WALK_LATENCY, 25, "A: nf"),
	HS_CAL(PAGE_BYTES, 4096, "E: Debian's 4 KB pages; the A72 has no 16K granule (MMFR0)"),
	/* serialising/system (docs/core-data.md §3.7 out-of-order rules; P = 13) */
	HS_FIT(DMB, 28.6, 8, 23.3, 32.0, FIT72 "§3.7 OoO must also complete older loads"),
	HS_FIT(DMB_LD, 14.3, 4, 11.7, 16.0, FIT72 "§3.7"),
	HS_FIT(DMB_ST, 10.7, 3, 8.7, 12.0, FIT72 "§3.7"),
	HS_FIT(DSB, 53.6, 15, 43.7, 60.0, FIT72 "§3.7"),
	HS_FIT(ISB, 53.6, 15, 43.7, 60.0, FIT72 "mispredict_penalty + 2: a refetch after the flush"),
	HS_FIT(SB, 107.2, 30, 87.4, 120.0, FIT72 "no FEAT_SB; Linux's sb is dsb nsh + isb"),
	HS_FIT(CSDB, 7.1, 2, 5.8, 8.0, FIT72 "§3.7 OoO may block the consumers"),
	HS_FIT(MRS_TPIDR, 10.7, 3, 8.7, 12.0, FIT72 "§3.7 mrs.simple"),
	HS_FIT(MRS_SP_EL0, 10.7, 3, 8.7, 12.0, FIT72 "§3.7 mrs.simple"),
	HS_FIT(MRS_DAIF, 10.7, 3, 8.7, 12.0, FIT72 "§3.7 mrs.simple"),
	HS_FIT(MRS_OTHER, 21.4, 6, 17.5, 24.0, FIT72 "twice mrs.simple"),
	HS_FIT(MSR_TPIDR, 10.7, 3, 8.7, 12.0, FIT72 "§3.7 msr.simple"),
	HS_FIT(MSR_SP_EL0, 10.7, 3, 8.7, 12.0, FIT72 "§3.7 msr.simple"),
	HS_FIT(MSR_DAIF, 28.6, 8, 23.3, 32.0, FIT72 "§3.7 partially serialising"),
	HS_FIT(MSR_OTHER, 35.7, 10, 29.1, 40.0, FIT72 "§3.7 msr.ctx"),
	HS_FIT(MSR_DAIF_IMM, 28.6, 8, 23.3, 32.0, FIT72 "§3.7"),
	HS_FIT(PAN, 28.6, 8, 23.3, 32.0, FIT72 "as daif (the A72 has no PAN; unused)"),
	HS_UNCAL(LDXR, 4, "A: = ldr"),
	HS_UNCAL(STXR, 6, "A: as a73.c"),
	HS_UNCAL(LSE_ATOMIC, 8, "A: the A72 has no LSE; unused"),
	HS_UNCAL(CAS, 8, "A: the A72 has no LSE; unused"),
	HS_FIT(ERET, 60.8, 17, 49.5, 68.0, FIT72 "mispredict_penalty + 4: not predicted (Arm TRMs)"),
	HS_FIT(EXC_ENTRY, 60.8, 17, 49.5, 68.0, FIT72 "mispredict_penalty + 4, as eret"),
	HS_UNCAL(FIRMWARE, 600, "A: TFAJUNO A57 fast SMC 470-650 cycles (only with TF-A; the Pi 4's armstub has none)"),
	HS_UNCAL(IPI_LATENCY, 400, "A: guess: an SGI write through the GIC to the other core, about 250 ns; the A72 at 1.5 GHz: the same ns, more cycles"),
	HS_UNCAL(WFI_EXIT, 50, "A: guess: clock-gated in wfi (no deeper idle state) back to the vector"),
	HS_CAL(PEER_LATENCY, 161, "D: C2C72 a line's handover between two cores, one way of a CAS ping-pong: 89.6 ns (89-90 for every pair) on a Pi 4 Rev 1.4, which Raspberry Pi OS runs at 1.8 GHz (arm_boost=1 in its config.txt since 2021-10: RPi-Distro/pi-gen d0eed3b7) = 161 cycles of the cluster, whose L2 serves it"),
	HS_UNCAL(TLBI, 40, "A: §3.7"),
	HS_UNCAL(DC, 10, "A: as A53"),
	HS_UNCAL(IC, 20, "A: as A53"),
	HS_UNCAL(SYS_OTHER, 10, "A: as A53"),
	HS_UNCAL(UNKNOWN_INSN, 1, "A: an unclassified encoding takes one cycle"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_a72 = {
	.name = "a72", .full = "Cortex-A72 r0p3", .arch = "Armv8.0-A",
	.opt_in = 1,
	.midr = 0x410fd083,			/* part 0xd08, r0p3 */
	.idregs = a72_regs,
	.no_smccc = 1,				/* the Pi 4's armstub: no PSCI/SMCCC */
	.source = "Pi 4 boot log (MIDR, PA size, PIPT L1I, CRC32 only); QEMU 7.2 aarch64_a72_initfn (CTR, CLIDR, DFR0)",
	.boot_cpu = "cortex-a72",
	.boot_why = "QEMU 7.2 models the Cortex-A72 itself",
	/* PFR0: cpu64.c's 0x00002222 with GIC = 1 (virt's GICv3) */
	.boot = { 0x410fd083, 0x01002222, 0x00001124, "QEMU 7.2 target/arm/cpu64.c aarch64_a72_initfn" },
	.mca_cpu = "cortex-a72",		/* LLVM schedules it with its Cortex-A57 model */
	.clock_hz = 1500000000,
	.clock_source = "Raspberry Pi 4 Model B (Broadcom BCM2711): four Cortex-A72 at 1.5 GHz (1.8 GHz on C0 boards)",
	.description = "Cortex-A72 r0p3: 3-wide out-of-order (Raspberry Pi 4; IB72 measured latencies)",
	.engine = &hs_engine_ooo,
	.params = p,
};
