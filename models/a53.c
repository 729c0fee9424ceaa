/*
 * a53.c - Cortex-A53 (r0p4): in-order, dual issue, one load/store pipe.
 *
 * Sources (keys as in docs/core-data.md §0): IB = insn_bench_aarch64 on a
 * Raspberry Pi 3 (measured), QSDR = qsdr instruction benchmarks (expected
 * cycles asserted on an A53), GCC53 = gcc/config/arm/cortex-a53.md (Arm),
 * L53 = LLVM AArch64SchedA53.td, TRM53 = Arm DDI 0500, MW = Arm's A53 feature
 * table (mirror), CAQA = Hennessy & Patterson 6e §2.6 summary. "E" exact,
 * "D" derived, "A" assumed (uncalibrated). Sections refer to core-data.md.
 */
#include "hotsim/core.h"
#include "model_internal.h"

/*
 * Cortex-A53 r0p4 (Raspberry Pi 3's BCM2837): Cortex-A53 MPCore TRM, ARM DDI
 * 0500J, section 4.3 AArch64 register summary / 4.3.x ID register
 * descriptions. Armv8.0: no LSE, no PAN, no RAS.
 */
static const struct hs_idreg a53_regs[] = {
	{ HS_CTR_EL0, 0x84448004 },		/* 64-byte lines, VIPT L1I */
	{ HS_CLIDR_EL1, 0x0a200023 },		/* LoUU 1, LoC 2, LoUIS 1 (TRM 4.3.22; QEMU aarch64_a53_initfn) */
	{ HS_ID_AA64PFR0_EL1, 0x01002222 },	/* EL0-3 AArch64+32, FP, AdvSIMD, GIC sysregs */
	{ HS_ID_AA64ISAR0_EL1, 0x00011120 },	/* AES+PMULL, SHA1, SHA2, CRC32 */
	{ HS_ID_AA64ISAR1_EL1, 0 },
	{ HS_ID_AA64MMFR0_EL1, 0x00001122 },	/* TRM53 Table 4-51: 40-bit PA, ASID 16, 4K/64K, TGran16 0: no 16K */
	{ HS_ID_AA64MMFR1_EL1, 0 },
	{ HS_ID_AA64MMFR2_EL1, 0 },
	{ HS_ID_AA64DFR0_EL1, 0x10305106 },
	{ 0, 0 }
};

/*
 * How Linux treats the core (errata, Spectre, Meltdown) is not stated here:
 * it follows from the MIDR above and Linux's own lists (sim/cpu/midr_lists.c,
 * read by sim/boot/spectre.c and cpucaps.c). For the A53: on the
 * Spectre-v2, -v4, -BHB and KPTI safe lists (docs/core-data.md 2.3).
 */

static const struct hs_param p[HS_NPARAMS] = {
	/* front end, prediction */
	HS_CAL(ISSUE_WIDTH, 2, "E: L53 IssueWidth=2; GCC53 slot 0 + slot 1 (§3.1)"),
	HS_UNCAL(FETCH_WIDTH, 2, "A: not published; taken equal to the issue width"),
	HS_UNCAL(FETCH_QUEUE, 8, "A: decoupling queue depth not published"),
	HS_CAL(TAKEN_BUBBLE, 2, "D: IB 'b (pc+4)' 3.03 cycles per taken branch = 1 + 2; "
				"TRM53 IFU: the BTIC removes the shadow"),
	HS_CAL(RET_BUBBLE, 2, "D: IB 'bl-ret' 6.05 = (1+2 bl) + (1+2 ret)"),
	HS_CAL(BLR_BUBBLE, 4, "D: IB 'blr-ret' 8.04 = (1+4 blr) + (1+2 ret)"),
	HS_CAL(BR_BUBBLE, 3, "D: IB 'adr -> br (pc+4)' 4.03 = 1 + 3"),
	HS_CAL(BTIC_ENTRIES, 1, "E: TRM53 ddi0500/f IFU 'single entry Branch Target Instruction Cache'"),
	HS_CAL(MISPREDICT, 7, "E: QSDR branch.rs basic loop 5N+7 (exit mispredict 7 extra cycles); "
			      "L53 says 9 from a different reference point (§3.4)"),
	HS_CAL(BP_ENTRIES, 2048, "D: MW '4Kbit conditional predictor' = 2048 2-bit counters "
				 "(tagged history entries over as many bimodal counters)"),
	HS_CAL(BP_HISTORY, 8, "D: QSDR: loops of <= 8 iterations learned, >= 9 mispredict the exit "
			      "-> 8 bits of global history"),
	HS_CAL(BTAC_ENTRIES, 256, "E: TRM53 IFU '256-entry BTAC' for indirect branches; MW"),
	HS_UNCAL(RAS_DEPTH, 8, "A: return-stack depth not published (gem5 HPI uses 8)"),
	/* issue, pipes */
	HS_CAL(ROB_SIZE, 0, "E: in-order (L53 MicroOpBufferSize=0); unused"),
	HS_CAL(RETIRE_WIDTH, 2, "E: in-order, retires as it issues; unused"),
	HS_CAL(ALU_PIPES, 2, "E: GCC53 two integer pipelines; IB add 1.99/cycle"),
	HS_CAL(LOAD_PIPES, 1, "E: GCC53 one load/store pipeline; IB ldr 1.0/cycle"),
	HS_CAL(STORE_PIPES, 1, "E: GCC53 one load/store pipeline; IB str 1.0/cycle"),
	HS_CAL(MEM_PIPES, 1, "E: GCC53 'two load/stores cannot simultaneously issue'"),
	HS_CAL(BRANCH_PIPES, 1, "E: GCC53 one branch pipeline; IB cbz not taken 1.01 cycles each"),
	HS_CAL(MUL_PIPES, 1, "D: GCC53 'Multiplies can only single-issue': one multiplier"),
	HS_CAL(DIV_UNITS, 1, "D: GCC53 divide 'blocks the divider' (§3.1): one, not pipelined"),
	HS_CAL(FP_PIPES, 1, "D: GCC53 FP/NEON issue from slot 0 only: one per cycle"),
	HS_CAL(FP_ON_ALU, 0, "E: GCC53 FP/NEON pipeline of its own; unused in order"),
	HS_CAL(FP_SLOT0, 1, "E: GCC53 FP/NEON reservations use slot 0"),
	HS_CAL(ALU_CASCADE, 1, "E: QSDR arith.rs: 2 dependent adds in 1 cycle, 3 in 2, 4 in 3"),
	HS_CAL(MUL_SINGLE, 1, "E: GCC53 'Multiplies can only single-issue'"),
	HS_CAL(PAIR_SINGLE, 1, "E: GCC53 load2/store2 use cortex_a53_single_issue"),
	HS_CAL(SHIFT_REG_TPUT, 1, "E: IB lslv/lsrv/asrv/rorv throughput 1.00 per cycle"),
	HS_CAL(HAS_PAUTH, 0, "E: v8.0, ID_AA64ISAR1 APA/API = 0 (§1.3): PAC hints are NOPs"),
	HS_CAL(NOP_TPUT, 0, "E: in order: a NOP takes an issue slot (IB nop 1.99/cycle = issue width)"),
	HS_CAL(CHEAP_LSL, 0, "E: IB add (reg<<2) 2.01: no cheap shifted forms"),
	HS_CAL(CHEAP_LOGIC, 0, "E: IB and/orr/eor (reg<<2) 2.01: no cheap shifted forms"),
	HS_CAL(SHIFT_ON_MUL, 0, "E: IB add/and (reg<<2) 1.99 per cycle: on both ALU pipes"),
	HS_CAL(LOAD_PASS_STORE, 1, "E: in order: no load issues ahead of an older store; unused"),
	/* latencies */
	HS_CAL(LAT_ALU, 1, "E: IB add/sub/logic/csel 1.00"),
	HS_CAL(LAT_ALU_SHIFT, 2, "E: IB add (reg<<2) 2.01"),
	HS_CAL(LAT_BITFIELD, 2, "E: IB ubfx/sbfx/bfi/lsl imm/extr 2.01"),
	HS_CAL(LAT_SHIFT_REG, 1, "E: IB lslv 1.00"),
	HS_CAL(LAT_MUL, 4, "E: IB mul 4.02"),
	HS_CAL(LAT_MUL32, 3, "D: GCC53 cortex_a53_mul 3; IB smull/umull (32x32) 3.01"),
	HS_CAL(LAT_MADD, 5, "E: IB madd 5.02 (llvm-exegesis 4.01 through the accumulator, §4.3)"),
	HS_CAL(LAT_MULL, 3, "E: IB smull/umull/smaddl/umaddl 3.01"),
	HS_CAL(LAT_MULH, 6, "E: IB smulh/umulh 6.03"),
	HS_CAL(OCC_MUL, 2, "E: IB mul throughput 0.50 per cycle"),
	HS_CAL(OCC_MADD, 3, "E: IB madd throughput 0.33 per cycle"),
	HS_CAL(OCC_MULH, 4, "E: IB umulh throughput 0.25 per cycle"),
	HS_UNCAL(LAT_DIV32, 12, "A: IB 3.01 with trivial operands, GCC53 8/9; non-trivial guess (§3.2)"),
	HS_UNCAL(LAT_DIV64, 20, "A: as lat_div32, 64-bit operands (§3.2)"),
	HS_CAL(LAT_CRC, 2, "E: IB crc32x 2.01"),
	HS_CAL(LAT_LOAD, 3, "E: IB ldr 3.02 (pointer chase)"),
	HS_CAL(LAT_LOAD_NARROW, 4, "E: IB ldrb/ldrh/ldrsb/ldrsw 4.02"),
	HS_CAL(LAT_LDP2, 4, "E: IB ldp x 1st 3.01, 2nd element 4.02"),
	HS_CAL(OCC_LDP, 2, "E: IB ldp x throughput 0.50 per cycle"),
	HS_CAL(UNALIGNED_EXTRA, 2, "E: IB ldr unaligned 5.02 vs 3.02 (crossing an 8-byte boundary)"),
	HS_CAL(REGOFF_EXTRA, 0, "E: IB ldr (reg) and (reg; <<3) 3.01 = ldr (imm)"),
	HS_CAL(ALU_TO_ADDR, 3, "D: GCC53 bypass 3 ALU -> load/store address ('required early in Issue')"),
	HS_CAL(STORE_DATA_ADV, 2, "D: GCC53 bypasses ALU->store data 0, load->store data 1"),
	HS_CAL(BRANCH_ADV, 1, "D: QSDR cmp + b.eq issue in the same cycle (ALU 1 - 1)"),
	HS_CAL(LAT_FP, 4, "D: GCC53 cortex_a53_fpalu 4"),
	/* memory */
	HS_CAL(LINE_BYTES, 64, "E: TRM53 64-byte lines"),
	HS_UNCAL(L1I_SIZE, 32768, "A: TRM53 allows 8-64 KB; 32 KB taken (board-dependent)"),
	HS_CAL(L1I_ASSOC, 2, "E: TRM53 IFU 2-way"),
	HS_UNCAL(L1D_SIZE, 32768, "A: TRM53 allows 8-64 KB; 32 KB taken (board-dependent)"),
	HS_CAL(L1D_ASSOC, 4, "E: TRM53 §6.7.1 4-way; CAQA"),
	HS_UNCAL(L2_SIZE, 524288, "A: shared 128 KB-2 MB (TRM53); 512 KB taken"),
	HS_CAL(L2_ASSOC, 16, "E: TRM53 l2-memory-system 16-way"),
	HS_CAL(L2_LATENCY, 13, "D: CAQA A53 L1 miss penalty 13 cycles (L2 hit)"),
	HS_CAL(L3_SIZE, 0, "E: no L3 on A53 clusters"),
	HS_CAL(L3_ASSOC, 0, "E: no L3"),
	HS_CAL(L3_LATENCY, 0, "E: no L3"),
	HS_CAL(SHARED_LEVEL, 2, "E: TRM53 the L2 is the cluster's, its SCU snoops the other cores' L1s"),
	HS_UNCAL(MEM_LATENCY, 180, "A: DRAM ~150 ns (RPi 3 LPDDR2, §3.5) at 1.2 GHz"),
	HS_UNCAL(IPREFETCH, 1, "A: TRM53 IFU does 'instruction prefetches'; depth not published"),
	HS_CAL(ITLB_ENTRIES, 10, "E: MW/CAQA 10-entry instruction micro-TLB"),
	HS_CAL(DTLB_ENTRIES, 10, "E: MW/CAQA 10-entry data micro-TLB"),
	HS_CAL(TLB_ENTRIES, 512, "E: TRM53 main TLB 512 entries"),
	HS_CAL(TLB_ASSOC, 4, "E: TRM53 main TLB 4-way"),
	HS_CAL(TLB_LATENCY, 2, "E: MW/CAQA 2-cycle refill from the main TLB"),
	HS_CAL(WALK_LATENCY, 20, "D: CAQA 20-cycle miss penalty (walk hitting the caches)"),
	HS_UNCAL(PAGE_BYTES, 4096, "A: 4 KB pages everywhere (block mappings not modelled)"),
	/* serialising/system: nobody publishes these (§3.7) */
	HS_UNCAL(DMB, 4, "A: §3.7 dmb ish base 4, plus the wait for older memory ops"),
	HS_UNCAL(DMB_LD, 2, "A: §3.7 one-direction dmb"),
	HS_UNCAL(DMB_ST, 2, "A: §3.7 one-direction dmb"),
	HS_UNCAL(DSB, 8, "A: §3.7 dsb base 8, plus completion of everything older"),
	HS_UNCAL(ISB, 10, "A: §3.7 pipeline flush = redirect path (mispredict) + 2"),
	HS_UNCAL(SB, 18, "A: no FEAT_SB; as dsb + isb (§3.7)"),
	HS_UNCAL(CSDB, 0, "A: §3.7 executes as a NOP slot on an in-order core"),
	HS_UNCAL(MRS_TPIDR, 2, "A: §3.7 mrs.simple latency 2, single issue"),
	HS_UNCAL(MRS_SP_EL0, 2, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_DAIF, 2, "A: §3.7 mrs.simple"),
	HS_UNCAL(MRS_OTHER, 4, "A: other system registers (GIC CPU interface...): twice mrs.simple"),
	HS_UNCAL(MSR_TPIDR, 2, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_SP_EL0, 2, "A: §3.7 msr.simple"),
	HS_UNCAL(MSR_DAIF, 3, "A: §3.7 msr daif"),
	HS_UNCAL(MSR_OTHER, 4, "A: §3.7 msr.ctx (ttbr/vbar/contextidr...); GIC writes alike"),
	HS_UNCAL(MSR_DAIF_IMM, 3, "A: §3.7 msr daifset/daifclr"),
	HS_UNCAL(PAN, 3, "A: §3.7 as daif (A53 has no PAN; unused)"),
	HS_UNCAL(LDXR, 3, "A: = ldr (§3.3); exclusive monitor set for free"),
	HS_UNCAL(STXR, 4, "A: L53 WriteSTX 4 (status result), not measured"),
	HS_UNCAL(LSE_ATOMIC, 8, "A: A53 has no LSE; the A55 guess (§3.7), unused"),
	HS_UNCAL(CAS, 8, "A: A53 has no LSE; unused"),
	HS_UNCAL(ERET, 12, "A: §3.7 not predicted (TRMs): full redirect + fetch at ELR"),
	HS_UNCAL(EXC_ENTRY, 12, "A: §3.7 flush + vector fetch, as eret"),
	HS_UNCAL(FIRMWARE, 1900, "A: TFAJUNO fast SMC 2940-3060 ns on A53 @650 MHz (§3.7)"),
	HS_UNCAL(IPI_LATENCY, 300, "A: guess: an SGI write through the GIC to the other core, about 250 ns; the A53 at 1.2 GHz"),
	HS_UNCAL(WFI_EXIT, 50, "A: guess: clock-gated in wfi (no deeper idle state) back to the vector"),
	HS_UNCAL(PEER_LATENCY, 108, "A: guess: no A53 core-to-core measurement found; the A72 cluster's measured handover (C2C72, 89.6 ns) at the A53's 1.2 GHz"),
	HS_UNCAL(TLBI, 40, "A: §3.7 broadcast completion, waited for by the next DSB"),
	HS_UNCAL(DC, 10, "A: cache maintenance by VA, completion waited for by DSB"),
	HS_UNCAL(IC, 20, "A: instruction cache invalidation, completion waited for by DSB"),
	HS_UNCAL(SYS_OTHER, 10, "A: at s1e1r and other sys ops"),
	HS_UNCAL(UNKNOWN_INSN, 1, "A: an unclassified encoding issues alone for 1 cycle"),
};

/* How boot sees the core (MIDR, ID registers, its boot CPU under QEMU) and
 * how it times instructions (engine, table above). */
const struct hs_core hs_core_a53 = {
	.name = "a53", .full = "Cortex-A53 r0p4", .arch = "Armv8.0-A",
	.midr = 0x410fd034,			/* implementer 0x41, part 0xd03, r0p4 */
	.idregs = a53_regs,
	.source = "Cortex-A53 MPCore TRM (ARM DDI 0500J) 4.3; Linux 6.1 proton-pack.c safe lists",
	.boot_cpu = "cortex-a53",
	.boot_why = "QEMU models the Cortex-A53 itself",
	/* PFR0: cpu64.c's 0x00002222 with GIC = 1 (id_aa64pfr0_read, virt's GICv3) */
	.boot = { 0x410fd034, 0x01002222, 0x00001122, "QEMU 7.2 target/arm/cpu64.c aarch64_a53_initfn" },
	.mca_cpu = "cortex-a53",
	.clock_hz = 1200000000,
	.clock_source = "Raspberry Pi 3 Model B (Broadcom BCM2837): four Cortex-A53 at 1.2 GHz",
	.description = "Cortex-A53 r0p4: in-order, dual issue, one load/store pipe (RPi 3 anchors)",
	.engine = &hs_engine_inorder,
	.params = p,
};
