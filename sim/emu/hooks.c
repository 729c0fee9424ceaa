/*
 * hooks.c - what the runner does on each event of a run (runner.h): the
 * per-instruction hook (budget, host stubs/shims, the stop address, the
 * shadow call stack for fault reports, the trace, and the backend's eret
 * and dc zva), the memory hooks (data addresses for the trace, stores for
 * the backend), the fault hook and the interrupt hook (GICv3 CPU interface
 * emulation, firmware calls, svc for the backend, or a reported stop).
 * The runner's lifecycle is runner.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "emu/runner.h"
#include "emu/runner_internal.h"

static const struct hs_hookfn *find_fn(struct hs_runner *r, uint64_t pc)
{
	unsigned b = hs_rt_bloom_bit(pc);

	if (pc < r->fn_lo || pc > r->fn_hi || !(r->fn_bloom[b >> 6] & (1ULL << (b & 63))))
		return NULL;
	for (unsigned i = 0; i < r->nfns; i++)
		if (r->fns[i].addr == pc)
			return &r->fns[i];
	return NULL;
}

/* Stop the current run with a message (first one wins). */
void hs_rt_stop(struct hs_runner *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->stop_msg[0]) {
		va_start(ap, fmt);
		vsnprintf(r->stop_msg, sizeof(r->stop_msg), fmt, ap);
		va_end(ap);
	}
	uc_emu_stop(r->uc);
}

static void call_stack(struct hs_runner *r, char *buf, size_t len)
{
	size_t used = 0;
	char where[128];

	buf[0] = 0;
	for (int i = r->csp - 1, n = 0; i >= 0 && n < 8 && used + 2 < len; i--, n++) {
		int w = snprintf(buf + used, len - used, "%s%s", n ? " <- " : "",
				 hs_addr_fmt(r->img, r->cstack[i] - 4, where, sizeof(where)));
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

/* Before anything runs at pc: the budget and the run's stop. 1: stop here. */
static int at_limits(struct hs_runner *r, uc_engine *uc, uint64_t pc)
{
	if (++r->icount > r->budget_end) {
		char where[128];

		hs_rt_stop(r, "instruction budget of %llu exhausted at %s (runaway?)",
			   (unsigned long long)r->budget, hs_addr_fmt(r->img, pc, where, sizeof(where)));
		return 1;
	}
	if (r->stop_pc && pc == r->stop_pc) {
		uint64_t sp = 0, ttbr0 = 0;

		if (r->stop_sp_min)
			uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
		if (r->stop_mm)
			uc_reg_read(uc, UC_ARM64_REG_TTBR0_EL1, &ttbr0);
		if ((!r->stop_sp_min || sp >= r->stop_sp_min) && (!r->stop_mm || HS_TTBR_BADDR(ttbr0) == r->stop_mm) &&
		    --r->stop_hits_left == 0) {
			r->reached_stop = 1;
			uc_emu_stop(uc);
			return 1;
		}
	}
	if (pc >= r->poison_lo && pc < r->poison_hi)
		for (unsigned i = 0; i < r->npoison; i++)
			if (pc >= r->poison[i].lo && pc < r->poison[i].hi) {
				hs_rt_stop(r, "%s", r->poison[i].why);
				return 1;
			}
	return 0;
}

/* A call hotsim answers: a stub returns its value, a shim runs on the host. */
static void answer_call(struct hs_runner *r, uc_engine *uc, const struct hs_hookfn *f)
{
	uint64_t x[8], lr;

	for (unsigned i = 0; i < 8; i++)
		x[i] = hs_rt_x(r, i);
	if (f->fn) {
		if (f->fn(r, f->ctx, x)) {
			hs_rt_stop(r, "%s", hs_errmsg());
			return;
		}
	} else {
		x[0] = f->ret;
	}
	if (r->tr) {
		hs_trace_note_stub(r->tr, f->name, f->addr);
		if (r->tr->n)
			r->tr->v[r->tr->n - 1].flags |= HS_T_STUB;
	}
	uc_reg_write(uc, UC_ARM64_REG_X0, &x[0]);
	uc_reg_read(uc, UC_ARM64_REG_X30, &lr);
	uc_reg_write(uc, UC_ARM64_REG_PC, &lr);
	if (r->csp > 0)
		r->csp--;
}

/* What the code hook does for an instruction beyond tracing it. */
#define HK_SYSREG	0x01	/* MRS/MSR/SYS: noted in the trace */
#define HK_CALL		0x02	/* pushes the call stack */
#define HK_RET		0x04	/* pops it */
#define HK_BACKEND	0x08	/* eret, wfi, wfe, yield, dc zva, tlbi, dsb: the backend's */

static uint8_t kind_of(const struct a64_insn *in)
{
	return (uint8_t)((in->cls == A64_C_MRS || in->cls == A64_C_MSR || in->cls == A64_C_SYS ? HK_SYSREG : 0) |
			 (in->cls == A64_C_CALL || in->cls == A64_C_CALL_IND ? HK_CALL : 0) |
			 (in->cls == A64_C_RET ? HK_RET : 0) |
			 (in->cls == A64_C_ERET || a64_is_wfi(in->word) || a64_is_spin_hint(in->word) || a64_is_dc_zva(in->word) ||
			  (in->cls == A64_C_SYS && a64_is_tlbi_el1(in->word)) || a64_is_dsb(in->word) ? HK_BACKEND : 0));
}

#define HK_UNKNOWN	0xff	/* not classified yet (an entry others decoded) */

/* Entry idx's kind, classified on first use; HK_UNKNOWN: out of memory.
 * The first use is also where the backend learns that Unicorn translated
 * code from pc's page - an entry may have been decoded without running
 * (a per-CPU site's window, measure.c), so the decode is not that moment. */
static uint8_t kind(struct hs_runner *r, long idx, uint64_t pc, const struct a64_insn *in)
{
	if ((size_t)idx >= r->nkind) {
		size_t n = r->nkind ? r->nkind : 1024;
		uint8_t *k;

		while (n <= (size_t)idx)
			n *= 2;
		if (!(k = realloc(r->kind, n))) {
			hs_fail("out of memory");
			return HK_UNKNOWN;
		}
		memset(k + r->nkind, HK_UNKNOWN, n - r->nkind);
		r->kind = k;
		r->nkind = n;
	}
	if (r->kind[idx] == HK_UNKNOWN) {
		r->kind[idx] = kind_of(in);
		if (r->be->code_seen)
			r->be->code_seen(r, pc);
	}
	return r->kind[idx];
}

/* The instruction at pc, decoded once per address; the word comes straight
 * from our own mapping (uc_mem_read per instruction was an eighth of the
 * run time). NULL: not mapped (the fetch fault hook reports it) or out of
 * memory (the run stops). */
static const struct a64_insn *decoded(struct hs_runner *r, uint64_t pc, long *idx)
{
	uint32_t word;
	long next = r->dc_last + 1;

	/* straight-line code was decoded in order: the one after the last
	 * instruction's is most often this one, without a hash probe */
	*idx = next > 0 && (size_t)next < r->dc.n && r->dc.v[next].pc == pc ? next : hs_dcache_find(&r->dc, pc);
	if (*idx < 0) {
		const void *p = hs_rt_host(r, pc, 4);

		if (!p)
			return NULL;
		memcpy(&word, p, 4);
		*idx = hs_dcache_get(&r->dc, pc, word);
	}
	if (*idx < 0) {
		hs_rt_stop(r, "%s", hs_errmsg());
		return NULL;
	}
	r->dc_last = *idx;
	return &r->dc.v[*idx].in;
}

/* The trace record of the instruction, and what the reports keep of it. */
static int trace(struct hs_runner *r, uint64_t pc, long idx, const struct a64_insn *in, uint8_t k)
{
	if (r->tr && !r->tracing && pc == r->trace_from)
		r->tracing = 1;
	if (!r->tracing)
		return 0;
	if (hs_trace_push(r->tr, pc, (uint32_t)idx)) {
		hs_rt_stop(r, "%s", hs_errmsg());
		return -1;
	}
	if (r->next_flags) {
		r->tr->v[r->tr->n - 1].flags |= r->next_flags;
		r->next_flags = 0;
	}
	if (k & HK_SYSREG)
		hs_trace_note_sysreg(r->tr, in->sysreg, in->cls != A64_C_MRS);
	return 0;
}

void hs_rt_on_code(uc_engine *uc, uint64_t pc, uint32_t size, void *ud)
{
	struct hs_runner *r = ud;
	const struct hs_hookfn *f;
	const struct a64_insn *in;
	long idx;
	uint8_t k;

	(void)size;
	if (at_limits(r, uc, pc))
		return;
	/* the backend's stop sites, then its interrupts (QEMU takes one
	 * before the instruction at the deadline executes) */
	if (pc >= r->warp_lo && pc <= r->warp_hi) {
		r->be->at_warp(r, pc);
		if (r->reached_stop)
			return;		/* the backend ended the run before pc */
	}
	if (r->icount > r->next_event && r->be->event(r, pc)) {
		r->icount--;	/* the instruction at pc did not execute */
		return;
	}
	if ((f = find_fn(r, pc)) != NULL) {
		answer_call(r, uc, f);
		return;
	}
	if (!(in = decoded(r, pc, &idx)))
		return;
	if ((k = kind(r, idx, pc, in)) == HK_UNKNOWN) {
		hs_rt_stop(r, "%s", hs_errmsg());
		return;
	}
	if (trace(r, pc, idx, in, k) || !k)
		return;
	if ((k & HK_SYSREG) && r->be->el0_sysreg && r->be->el0_sysreg(r, pc, in))
		return;
	if (k & HK_CALL) {
		if (r->csp < HS_CSTACK)
			r->cstack[r->csp++] = pc + 4;
	} else if ((k & HK_RET) && r->csp > 0) {
		r->csp--;
	}
	if (!(k & HK_BACKEND))
		return;
	if (in->cls == A64_C_ERET && r->be->eret)
		r->be->eret(r);
	else if (r->be->wfx && a64_is_wfi(in->word))
		r->be->wfx(r);
	else if (r->be->spin_hint && a64_is_spin_hint(in->word))
		r->be->spin_hint(r);
	else if (r->be->written && a64_is_dc_zva(in->word))
		/* dc zva has no store hook: the largest block (DCZID_EL0.BS 7, 512 bytes) */
		r->be->written(r, hs_rt_x(r, a64_rt(in->word)) & ~511ULL, 512);
	else if (r->be->tlbi && in->cls == A64_C_SYS && a64_is_tlbi_el1(in->word))
		r->be->tlbi(r, in->word, a64_rt(in->word) == 31 ? 0 : hs_rt_x(r, a64_rt(in->word)));
	else if (r->tlb_stale && a64_is_dsb(in->word))
		r->be->dsb(r);
}

void hs_rt_on_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *ud)
{
	struct hs_runner *r = ud;

	(void)uc, (void)value;
	if (r->tracing && r->tr->n && !r->tr->v[r->tr->n - 1].addr)
		r->tr->v[r->tr->n - 1].addr = addr;
	if (type == UC_MEM_WRITE && r->be->written)
		r->be->written(r, addr, (uint64_t)size);
}

static const char *fault_kind(uc_mem_type type)
{
	switch (type) {
	case UC_MEM_WRITE_UNMAPPED:	return "write to unmapped";
	case UC_MEM_FETCH_UNMAPPED:	return "instruction fetch from unmapped";
	case UC_MEM_READ_UNMAPPED:	return "read of unmapped";
	case UC_MEM_WRITE_PROT:		return "write to read-only";
	case UC_MEM_FETCH_PROT:		return "instruction fetch from non-executable";
	default:			return "read of unreadable";
	}
}

/* An access without a mapping or permission: the backend's, when it maps
 * it now or the guest takes an abort for it (a page fault the kernel
 * handles), else a reported fault. */
bool hs_rt_on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
			void *ud)
{
	struct hs_runner *r = ud;
	char where[128], stack[512];
	uint64_t pc = 0;

	(void)value;
	if (r->be->fault && !r->stop_msg[0])
		switch (r->be->fault(r, (int)type, addr, size)) {
		case HS_FAULT_MAPPED:
			return true;
		case HS_FAULT_ABORT:
			return false;
		default:
			break;
		}
	uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
	call_stack(r, stack, sizeof(stack));
	hs_rt_stop(r, "fault: %s 0x%llx (%d bytes) at %s%s%s", fault_kind(type),
		   (unsigned long long)addr, size, hs_addr_fmt(r->img, pc, where, sizeof(where)),
		   stack[0] ? ", called from " : "", stack);
	return false;
}

void hs_rt_on_intr(uc_engine *uc, uint32_t intno, void *ud)
{
	struct hs_runner *r = ud;
	char where[128], stack[512];
	uint64_t pc = 0;
	uint32_t word = 0;

	uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
	uc_mem_read(uc, pc, &word, 4);
	switch (intno) {
	case 1:	/* UDEF: maybe a system register Unicorn lacks (GIC CPU interface) */
		if (a64_is_sys_space(word) && hs_rt_emulate_sysreg(r, pc, word) == 0)
			return;
		break;
	case 2:		/* SVC: from user code (booted state; PC is past it) */
		if (r->be->svc && r->be->svc(r) == 0)
			return;
		break;
	case 11: case 13:	/* HVC / SMC: firmware (PC is already past it) */
		if (hs_rt_firmware_call(r) == 0)
			return;
		break;
	default:
		break;
	}
	if (r->stop_msg[0]) {
		uc_emu_stop(uc);
		return;
	}
	call_stack(r, stack, sizeof(stack));
	if (intno == 7 && a64_imm16(word) == 0x800) {	/* BUG_BRK_IMM */
		char msg[900];

		hs_kmsg_trap(r, pc, stack, msg, sizeof(msg));
		hs_rt_stop(r, "%s", msg);
	} else if (intno == 7)
		hs_rt_stop(r, "brk #0x%x at %s%s%s", a64_imm16(word),
			   hs_addr_fmt(r->img, pc, where, sizeof(where)), stack[0] ? ", called from " : "",
			   stack);
	else if (intno == 1)
		hs_rt_stop(r, "undefined instruction 0x%08x at %s%s%s", word,
			   hs_addr_fmt(r->img, pc, where, sizeof(where)), stack[0] ? ", called from " : "",
			   stack);
	else
		hs_rt_stop(r, "exception %u at %s%s%s", intno, hs_addr_fmt(r->img, pc, where, sizeof(where)),
			   stack[0] ? ", called from " : "", stack);
}

/*
 * SYS instructions: dc zva done here when the backend can. Unicorn 2.0.1's
 * own helper, with memory hooks installed, takes its slow path for every
 * block - a byte store that looks for translated code to invalidate,
 * allocating and freeing as it goes, ~1,000 host instructions a block: a
 * third of a fork's replay, whose clear_page zeroes ~1,000 pages. The
 * backend zeroes a block it maps writable and no code was ever decoded
 * from (so no translation of it can be stale); the rest is Unicorn's.
 */
uint32_t hs_rt_on_sys(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud)
{
	struct hs_runner *r = ud;
	uint64_t va;

	if (cp->op0 != 1 || cp->op1 != 3 || cp->crn != 7 || cp->crm != 4 || cp->op2 != 1 || !r->zva_len ||
	    !r->be->zero || reg == UC_ARM64_REG_XZR || uc_reg_read(uc, reg, &va) != UC_ERR_OK)
		return 0;
	va &= ~(r->zva_len - 1);
	if (!r->be->zero(r, va, r->zva_len))
		return 0;
	/* the block's first byte, as Unicorn's store reports it to the memory hook */
	if (r->tracing && r->tr->n && !r->tr->v[r->tr->n - 1].addr)
		r->tr->v[r->tr->n - 1].addr = va;
	return 1;
}

uint32_t hs_rt_on_mrs(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud)
{
	return hs_rt_sysreg_hook(ud, uc, reg, cp, 0);
}

uint32_t hs_rt_on_msr(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp, void *ud)
{
	return hs_rt_sysreg_hook(ud, uc, reg, cp, 1);
}

