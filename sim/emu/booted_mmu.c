/*
 * booted_mmu.c - the booted replay's MMU. Unicorn runs with its MMU off,
 * over the pages the walked tables map (backend_booted.c); those mappings
 * are the TLB. An access they do not let through is a miss, and the
 * tables are walked again for that address, as QEMU walks them on a miss:
 *
 *   - the walk finds a page the kernel mapped since (a table it filled
 *     in a fault handler, a vmalloc'd stack): it is mapped and the access
 *     goes on;
 *   - the hardware updates the descriptor itself first (TCR_EL1.HA sets
 *     the access flag, TCR_EL1.HD makes a writable-clean page dirty):
 *     the update is written, logged like any store, and the access goes
 *     on;
 *   - else the walk ends in a fault - translation, access flag or
 *     permission, at its level - and the guest takes the abort (a page
 *     fault, the kernel's to handle: fault.page, mmap, fork).
 *
 * Entries the kernel removes or weakens it must invalidate (tlbi, then
 * dsb: break-before-make); at that dsb the half a tlbi named is walked
 * again. Only the user half has permissions here: the kernel's own pages
 * are mapped for everything, as before.
 */
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/booted_internal.h"

#define PAGE 4096ULL
#define STALE_USER 1u
#define STALE_KERNEL 2u

/* Fault status codes (Arm ARM D17.2.40, ESR_ELx.ISS DFSC/IFSC), + level */
#define FSC_TRANSLATION 0x04
#define FSC_ACCESS 0x08
#define FSC_PERMISSION 0x0c
/* Exception classes (ESR_ELx.EC); +1: taken from the current level */
#define EC_IABT_LOW 0x20
#define EC_DABT_LOW 0x24
#define ESR_IL (1u << 25)
#define ESR_WNR (1u << 6)

uint32_t hs_bt_user_prot(uint64_t d, uint64_t tattr)
{
	uint32_t prot = UC_PROT_READ;

	if (!(d & HS_PT_AF))
		return 0;	/* the first access sets it, or faults: a miss */
	if (!(d & HS_PT_RDONLY) && !(tattr & HS_PT_APTABLE_RO))
		prot |= UC_PROT_WRITE;
	if (!(d & HS_PT_UXN) && !(tattr & HS_PT_UXNTABLE))
		prot |= UC_PROT_EXEC;
	return prot;
}

/* One address through the tables of a half (ptwalk.c, in the granule and
 * geometry TCR_EL1 gives it). What Unicorn maps for it (x->map_va, pa,
 * len): the leaf - a 4K, 16K or 64K page - or of a block, its 64K around
 * the address (a 1G block of the linear map is mapped as the walk maps it,
 * not on a miss). */
#define MAP_MAX 0x10000ULL
static int translate(const struct hs_booted *bt, uint64_t ttbr, int hi, uint64_t va, struct hs_pt_xlat *x)
{
	struct hs_pt_geom g;
	struct hs_pt_ram ram = { bt->ram, bt->ram_base, bt->ram_size };

	memset(x, 0, sizeof(*x));
	if (hs_pt_geometry(bt->tcr, hi, bt->what, &g))
		return -1;
	if (hs_pt_translate(&g, &ram, ttbr, hi, va, x)) {
		uint64_t len = x->len < MAP_MAX ? x->len : MAP_MAX;

		x->pa = x->pa & ~(len - 1);
		x->len = len;
		x->valid = x->pa >= bt->ram_base && x->pa + len - bt->ram_base <= bt->ram_size;
	}
	return 0;
}

/* The fault status code of a walk that ended at level (-1: FEAT_LPA2's
 * level -1, which has its own code, 0x2b; only translation faults) */
static unsigned fsc_at(unsigned kind, int level)
{
	return level < 0 ? 0x2b : kind + (unsigned)level;
}

/* The abort the guest takes for this access, entered when the run stops. */
static int abort_for(struct hs_runner *r, int write, int fetch, uint64_t va, unsigned fsc)
{
	struct hs_booted *bt = bt_of(r);
	int el0 = (hs_rt_reg(r, UC_ARM64_REG_PSTATE) & 0xf) == 4;	/* hotsim's EL1t */
	uint32_t ec = (fetch ? EC_IABT_LOW : EC_DABT_LOW) + (el0 ? 0 : 1);

	bt->abort = (struct bt_abort){
		.pending = 1, .fetch = fetch,
		.elr = fetch ? va : hs_rt_reg(r, UC_ARM64_REG_PC), .far = va,
		.esr = (ec << 26) | ESR_IL | (write && !fetch ? ESR_WNR : 0) | fsc,
	};
	return HS_FAULT_ABORT;
}

/* A descriptor update the hardware makes (access flag, dirty state):
 * written into RAM and logged, as the kernel would see it. */
static int update_desc(struct hs_runner *r, struct hs_pt_xlat *x, uint64_t set, uint64_t clear)
{
	struct hs_booted *bt = bt_of(r);
	uint64_t off = x->desc_at - bt->ram_base;

	if (hs_bt_save_page(bt, off / PAGE))
		return -1;
	x->desc = (x->desc | set) & ~clear;
	memcpy(bt->ram + off, &x->desc, 8);
	return 0;
}

/* A user-half miss: the page mapped now (HS_FAULT_MAPPED), or an abort. */
static int user_miss(struct hs_runner *r, int type, uint64_t va)
{
	struct hs_booted *bt = bt_of(r);
	int write = type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT;
	int fetch = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT;
	int prot_miss = type == UC_MEM_WRITE_PROT || type == UC_MEM_FETCH_PROT || type == UC_MEM_READ_PROT;
	struct hs_pt_xlat x;
	uint32_t prot;

	if (translate(bt, bt->user_ttbr, 0, va, &x))
		return HS_FAULT_NONE;
	if (!x.valid)
		return abort_for(r, write, fetch, va, fsc_at(FSC_TRANSLATION, x.level));
	if (!(x.desc & HS_PT_AF) && !(bt->tcr & HS_TCR_HA))
		return abort_for(r, write, fetch, va, fsc_at(FSC_ACCESS, x.level));
	prot = hs_bt_user_prot(x.desc | HS_PT_AF, x.tattr);
	if (write && !(prot & UC_PROT_WRITE) &&
	    !((x.desc & HS_PT_DBM) && (bt->tcr & HS_TCR_HD) && !(x.tattr & HS_PT_APTABLE_RO)))
		return abort_for(r, write, fetch, va, fsc_at(FSC_PERMISSION, x.level));
	if (fetch && !(prot & UC_PROT_EXEC))
		return abort_for(r, write, fetch, va, fsc_at(FSC_PERMISSION, x.level));
	/* the hardware's own updates, then the page as it now is */
	if (!(x.desc & HS_PT_AF) && update_desc(r, &x, HS_PT_AF, 0))
		return HS_FAULT_NONE;
	if (write && (x.desc & HS_PT_RDONLY) && update_desc(r, &x, 0, HS_PT_RDONLY))
		return HS_FAULT_NONE;
	prot = hs_bt_user_prot(x.desc, x.tattr);
	if (!prot_miss)
		return hs_bt_put_page(r, &bt->user, va & ~(x.len - 1), x.pa, x.len, prot) ? HS_FAULT_NONE
											 : HS_FAULT_MAPPED;
	/* mapped with less: this access goes on, and the page is re-protected
	 * before the next instruction (not from inside Unicorn's store) */
	if (bt->nreprot < sizeof(bt->reprot) / sizeof(bt->reprot[0])) {
		bt->reprot[bt->nreprot].va = va & ~(x.len - 1);
		bt->reprot[bt->nreprot].pa = x.pa;
		bt->reprot[bt->nreprot].len = x.len;
		bt->reprot[bt->nreprot++].prot = prot;
		r->next_event = r->icount;
	}
	return HS_FAULT_MAPPED;
}

int hs_bt_fault(struct hs_runner *r, int type, uint64_t addr, int size)
{
	struct hs_booted *bt = bt_of(r);
	struct hs_pt_xlat x;

	(void)size;
	if (bt->abort.pending)
		return HS_FAULT_NONE;
	if (!hs_bt_hi(addr))
		return user_miss(r, type, addr);
	/* the kernel's half: a page mapped since (a new task's vmalloc'd
	 * stack); anything else is a fault hotsim reports */
	if (type != UC_MEM_READ_UNMAPPED && type != UC_MEM_WRITE_UNMAPPED && type != UC_MEM_FETCH_UNMAPPED)
		return HS_FAULT_NONE;
	if (translate(bt, bt->kernel_ttbr, 1, addr, &x) || !x.valid)
		return HS_FAULT_NONE;
	return hs_bt_put_page(r, &bt->kernel, addr & ~(x.len - 1), x.pa, x.len, UC_PROT_ALL)
		       ? HS_FAULT_NONE : HS_FAULT_MAPPED;
}

void hs_bt_reprotect(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	for (unsigned i = 0; i < bt->nreprot; i++)
		if (hs_bt_put_page(r, &bt->user, bt->reprot[i].va, bt->reprot[i].pa, bt->reprot[i].len,
				   bt->reprot[i].prot))
			hs_rt_stop(r, "%s", hs_errmsg());
	bt->nreprot = 0;
}

/*
 * tlbi at EL1 (sys #0, C8, Cm, #op2): which half it invalidates. The
 * by-address forms carry VA[55:12] in Xt[43:0], so bit 43 says the half;
 * by ASID it is the user half; all of EL1, or a range form (FEAT_TLBIRANGE,
 * no address bit to tell), both.
 */
void hs_bt_tlbi(struct hs_runner *r, uint32_t word, uint64_t xt)
{
	struct hs_booted *bt = bt_of(r);
	unsigned crm = a64_sys_crm(word), op2 = a64_sys_op2(word);
	int by_va = (crm == 1 || crm == 3 || crm == 7) && (op2 & 1);

	if (by_va)
		bt->stale |= (xt >> 43) & 1 ? STALE_KERNEL : STALE_USER;
	else if ((crm == 1 || crm == 3 || crm == 7) && op2 == 2)
		bt->stale |= STALE_USER;
	else
		bt->stale |= STALE_USER | STALE_KERNEL;
	r->tlb_stale = 1;
	/* inner shareable (CRm 3): QEMU queues the flush on every vCPU
	 * (tlb_flush_*_all_cpus_synced), which kicks the one running */
	if (bt->ncpus > 1 && crm == 3)
		hs_bt_end_turn(r, 1);
}

void hs_bt_dsb(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	unsigned stale = bt->stale;

	r->tlb_stale = 0;
	bt->stale = 0;
	if (((stale & STALE_USER) && hs_bt_rewalk_user(r)) ||
	    ((stale & STALE_KERNEL) && hs_bt_set_kernel(r, bt->kernel_ttbr)))
		hs_rt_stop(r, "%s", hs_errmsg());
}
