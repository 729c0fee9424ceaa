/*
 * backend_booted.c - the runner over a booted kernel's snapshot (see
 * backend_booted.h): the mappings its page tables give (walked by
 * ptwalk.c), the user half and switch_mm, the undo log that returns RAM
 * to a point between runs, the overlay, and entering a point. Exceptions are booted_exc.c, time and
 * the GIC booted_timer.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "emu/booted_internal.h"
#include "emu/ptwalk.h"

/* RAM's unit here (the undo log, the console's page): the snapshot's
 * page and Unicorn's, whatever the guest's granule (that is ptwalk.c's) */
#define PAGE 4096ULL
#define TIMER_INTID 27			/* the EL1 virtual timer's PPI */
#define VIRT_UART 0x09000000ULL		/* QEMU virt's PL011 (hw/arm/virt.c) */
#define UARTFR 0x18			/* PL011 flag register: TXFE | RXFE, idle */
#define UARTFR_IDLE 0x90

/* --- page tables -------------------------------------------------------- */

static int add_run(struct bt_runs *rs, uint64_t va, uint64_t pa, uint64_t len, uint32_t prot)
{
	struct bt_run *last = rs->n ? &rs->v[rs->n - 1] : NULL;

	if (last && last->va + last->len == va && last->pa + last->len == pa && last->prot == prot) {
		last->len += len;
		return 0;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 256;
		void *v = realloc(rs->v, cap * sizeof(*rs->v));

		if (!v)
			return hs_fail("out of memory for the page-table walk");
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = (struct bt_run){ va, pa, len, prot };
	return 0;
}

/* A leaf of the walk: guest RAM becomes a run; the console's page is
 * noted (map_uart); every other device stays unmapped, so an access faults
 * with its address. */
struct leaf_ctx {
	struct hs_booted *bt;
	struct bt_runs *rs;
	uint64_t page;		/* the granule's page size */
};

static int leaf(void *p, uint64_t va, uint64_t pa, uint64_t len, uint64_t desc, uint64_t tattr)
{
	struct leaf_ctx *c = p;
	uint32_t prot;

	if (pa == VIRT_UART && len == c->page)
		c->bt->uart_va = va;
	if (pa < c->bt->ram_base || pa - c->bt->ram_base >= c->bt->ram_size)
		return 0;
	/* the user half as Unicorn may touch it: what the descriptor allows
	 * without the MMU updating it first (booted_mmu.c) */
	prot = hs_bt_hi(va) ? UC_PROT_ALL : hs_bt_user_prot(desc, tattr);
	return prot && add_run(c->rs, va, pa, len, prot) ? -1 : 0;
}

/* Every page a translation table maps: TTBR1 for the kernel half (hi),
 * TTBR0 for the user half, in the granule and geometry TCR_EL1 gives that
 * half (ptwalk.c). */
static int walk_table(struct hs_booted *bt, uint64_t ttbr, int hi, struct bt_runs *rs)
{
	struct hs_pt_geom g;
	struct hs_pt_ram ram = { bt->ram, bt->ram_base, bt->ram_size };
	struct leaf_ctx c = { bt, rs, 0 };

	if (hs_pt_geometry(bt->tcr, hi, bt->what, &g))
		return -1;
	c.page = 1ULL << g.gshift;
	rs->n = 0;
	return hs_pt_walk(&g, &ram, ttbr, hi, leaf, &c);
}

/*
 * The console UART, idle: a kernel that prints while a path runs (a
 * printk's console thread, a user workload's console write) polls the
 * PL011's flag register and writes its data register. QEMU's PL011 is
 * never busy and its FIFO never full under TCG, so its registers read as
 * an idle one's (FR = TXFE | RXFE) and writes go to a page nobody reads:
 * the same instructions as QEMU's. Every other device still faults, named.
 */
static int map_uart(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uc_err e;

	if (!bt->uart_va || bt->uart)
		return 0;
	if (posix_memalign((void **)&bt->uart, PAGE, PAGE))
		return hs_fail("out of memory for the console page");
	memset(bt->uart, 0, PAGE);
	bt->uart[UARTFR / 4] = UARTFR_IDLE;
	e = uc_mem_map_ptr(r->uc, bt->uart_va, PAGE, UC_PROT_READ | UC_PROT_WRITE, bt->uart);
	return e == UC_ERR_OK ? 0 : hs_fail("%s: cannot map the console at 0x%llx: %s", bt->what,
					   (unsigned long long)bt->uart_va, uc_strerror(e));
}

static int map_runs(struct hs_runner *r, const struct bt_runs *rs)
{
	struct hs_booted *bt = bt_of(r);

	for (size_t i = 0; i < rs->n; i++) {
		uc_err e = uc_mem_map_ptr(r->uc, rs->v[i].va, rs->v[i].len, rs->v[i].prot,
					  bt->ram + (rs->v[i].pa - bt->ram_base));

		if (e != UC_ERR_OK)
			return hs_fail("%s: cannot map 0x%llx (+0x%llx): %s", bt->what,
				       (unsigned long long)rs->v[i].va, (unsigned long long)rs->v[i].len,
				       uc_strerror(e));
	}
	return 0;
}

static int same_run(const struct bt_run *a, const struct bt_run *b)
{
	return a->va == b->va && a->len == b->len && a->pa == b->pa && a->prot == b->prot;
}

/* Is run x (sorted list rs) also in other, exactly? Both are sorted by va,
 * so a binary search finds the only candidate. */
static int has_run(const struct bt_runs *other, const struct bt_run *x)
{
	size_t lo = 0, hi = other->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (other->v[mid].va < x->va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < other->n && same_run(&other->v[lo], x);
}

/*
 * Switch a half (cur: bt->user or bt->kernel) to next (taken over): only
 * the runs that differ are unmapped and mapped. Two processes of one
 * program share most of their mappings (the text, what fork left shared),
 * and every Unicorn map or unmap rebuilds its whole memory map - a context
 * switch that remapped everything cost more than the switch's own replay.
 */
static int remap(struct hs_runner *r, struct bt_runs *cur, struct bt_runs *next)
{
	struct hs_booted *bt = bt_of(r);
	struct bt_runs add = { 0 };
	int rc;

	for (size_t i = 0; i < cur->n; i++)
		if (!has_run(next, &cur->v[i]))
			uc_mem_unmap(r->uc, cur->v[i].va, cur->v[i].len);
	add.v = malloc((next->n ? next->n : 1) * sizeof(*add.v));
	if (!add.v) {
		free(next->v);
		return hs_fail("%s: out of memory", bt->what);
	}
	for (size_t i = 0; i < next->n; i++)
		if (!has_run(cur, &next->v[i]))
			add.v[add.n++] = next->v[i];
	free(cur->v);
	*cur = *next;
	rc = map_runs(r, &add);
	free(add.v);
	return rc;
}

/* No valid entry at the top level: software PAN's reserved table (a
 * table whose pages are all old - a child's after fork - maps nothing
 * Unicorn may touch yet, but is the one to walk on a miss). */
static int table_empty(const struct hs_booted *bt, uint64_t table)
{
	struct hs_pt_geom g;

	/* the start level's entries only: a small table (16K, 48-bit: two
	 * entries) may share its page with another process's */
	if (hs_pt_geometry(bt->tcr, 0, bt->what, &g) || table < bt->ram_base ||
	    table - bt->ram_base + 8ULL * g.top > bt->ram_size)
		return 1;
	for (uint64_t i = 0; i < g.top; i++) {
		uint64_t d;

		memcpy(&d, bt->ram + (table - bt->ram_base) + 8 * i, 8);
		if (d & 1)
			return 0;
	}
	return 1;
}

/* The user half for a new TTBR0 table; an empty table (software PAN's
 * reserved one) keeps the current mapping. */
int hs_bt_set_user(struct hs_runner *r, uint64_t ttbr0, int force)
{
	struct hs_booted *bt = bt_of(r);
	struct bt_runs next = { 0 };
	uint64_t table = hs_pt_table(bt->tcr, 0, ttbr0);

	if (table == bt->user_table && !force)
		return 0;
	if (walk_table(bt, ttbr0, 0, &next)) {
		free(next.v);
		return -1;
	}
	if (!next.n && table_empty(bt, table)) {
		free(next.v);
		return 0;
	}
	bt->user_table = table;
	bt->user_ttbr = ttbr0;
	bt->remaps++;
	return remap(r, &bt->user, &next);
}

/* The user half again from the current table, after a tlbi: whatever it
 * maps now, nothing when it is empty (an exiting process's). */
int hs_bt_rewalk_user(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	struct bt_runs next = { 0 };

	if (walk_table(bt, bt->user_ttbr, 0, &next)) {
		free(next.v);
		return -1;
	}
	return remap(r, &bt->user, &next);
}

/* The kernel half again (a point may map more: vmalloc, the page cache;
 * a tlbi unmapped some), the runs that differ remapped. */
int hs_bt_set_kernel(struct hs_runner *r, uint64_t ttbr1)
{
	struct hs_booted *bt = bt_of(r);
	struct bt_runs next = { 0 };

	if (walk_table(bt, ttbr1, 1, &next)) {
		free(next.v);
		return -1;
	}
	bt->kernel_ttbr = ttbr1;
	return remap(r, &bt->kernel, &next) || map_uart(r);
}

/* --- memory -------------------------------------------------------------- */

static const struct bt_run *find_run(const struct bt_runs *rs, uint64_t va)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (va < rs->v[mid].va)
			hi = mid;
		else if (va - rs->v[mid].va >= rs->v[mid].len)
			lo = mid + 1;
		else
			return &rs->v[mid];
	}
	return NULL;
}

/* RAM offset of a virtual address, or -1 (kernel runs are sorted by the
 * walk; user runs too, both walks visit addresses in order). */
static int64_t offset_of(struct hs_booted *bt, uint64_t va)
{
	const struct bt_run *run = find_run(&bt->kernel, va);

	if (!run)
		run = find_run(&bt->user, va);
	if (!run)
		return -1;
	return (int64_t)(run->pa - bt->ram_base + (va - run->va));
}

static void *host_of(struct hs_booted *bt, uint64_t va, uint64_t len)
{
	int64_t off = offset_of(bt, va);

	if (off < 0 || (uint64_t)off + len > bt->ram_size)
		return NULL;
	if (len && offset_of(bt, va + len - 1) != off + (int64_t)len - 1)
		return NULL;	/* crosses into another run */
	return bt->ram + off;
}

/* Keep the page's content before its first write since the last enter. */
int hs_bt_save_page(struct hs_booted *bt, uint64_t pfn)
{
	if (bt->saved[pfn >> 3] & (1u << (pfn & 7)))
		return 0;
	if (bt->nundo == bt->capundo) {
		size_t cap = bt->capundo ? 2 * bt->capundo : 1024;
		void *p = realloc(bt->undo_pfn, cap * sizeof(*bt->undo_pfn)), *d;

		if (!p)
			return hs_fail("out of memory for the undo log");
		bt->undo_pfn = p;
		if (!(d = realloc(bt->undo_data, cap * PAGE)))
			return hs_fail("out of memory for the undo log");
		bt->undo_data = d;
		bt->capundo = cap;
	}
	bt->saved[pfn >> 3] |= (uint8_t)(1u << (pfn & 7));
	bt->undo_pfn[bt->nundo] = (uint32_t)pfn;
	memcpy(bt->undo_data + bt->nundo * PAGE, bt->ram + pfn * PAGE, PAGE);
	bt->nundo++;
	return 0;
}

/* Take [va, va + len) out of the run at index i (it overlaps it): what
 * stays of it, on either side, stays mapped. */
static void cut_run(struct hs_runner *r, struct bt_runs *rs, size_t i, uint64_t va, uint64_t len)
{
	struct bt_run o = rs->v[i], parts[2];
	uint64_t lo = va > o.va ? va : o.va, hi = va + len < o.va + o.len ? va + len : o.va + o.len;
	size_t k = 0;

	uc_mem_unmap(r->uc, lo, hi - lo);
	if (lo > o.va)
		parts[k++] = (struct bt_run){ o.va, o.pa, lo - o.va, o.prot };
	if (hi < o.va + o.len)
		parts[k++] = (struct bt_run){ hi, o.pa + (hi - o.va), o.va + o.len - hi, o.prot };
	memmove(&rs->v[i + k], &rs->v[i + 1], (rs->n - i - 1) * sizeof(*rs->v));
	memcpy(&rs->v[i], parts, k * sizeof(*parts));
	rs->n = rs->n - 1 + k;
}

/*
 * Map [va, va + len) of a half (rs: bt->user or bt->kernel) onto pa: what
 * the MMU found on a miss (a whole leaf, so a 64K page is one region, not
 * sixteen). Runs that covered any of it are cut around it.
 */
int hs_bt_put_page(struct hs_runner *r, struct bt_runs *rs, uint64_t va, uint64_t pa, uint64_t len,
		   uint32_t prot)
{
	struct hs_booted *bt = bt_of(r);
	size_t at = 0;
	uc_err e;

	for (size_t i = 0; i < rs->n;) {
		if (rs->v[i].va < va + len && va < rs->v[i].va + rs->v[i].len) {
			if (rs->n + 2 > rs->cap)
				goto grow;
			cut_run(r, rs, i, va, len);
			continue;	/* what stays of it is at i now, or past it */
		}
		i++;
		continue;
grow:		{
			size_t cap = 2 * rs->cap + 4;
			void *v = realloc(rs->v, cap * sizeof(*rs->v));

			if (!v)
				return hs_fail("out of memory for a mapping");
			rs->v = v;
			rs->cap = cap;
		}
	}
	if (rs->n + 1 > rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 256;
		void *v = realloc(rs->v, cap * sizeof(*rs->v));

		if (!v)
			return hs_fail("out of memory for a mapping");
		rs->v = v;
		rs->cap = cap;
	}
	while (at < rs->n && rs->v[at].va < va)
		at++;
	memmove(&rs->v[at + 1], &rs->v[at], (rs->n - at) * sizeof(*rs->v));
	rs->v[at] = (struct bt_run){ va, pa, len, prot };
	rs->n++;
	e = uc_mem_map_ptr(r->uc, va, len, prot, bt->ram + (pa - bt->ram_base));
	return e == UC_ERR_OK ? 0 : hs_fail("%s: cannot map 0x%llx: %s", bt->what,
					   (unsigned long long)va, uc_strerror(e));
}

static void written(struct hs_runner *r, uint64_t va, uint64_t len)
{
	struct hs_booted *bt = bt_of(r);

	for (uint64_t p = va & ~(PAGE - 1); p < va + len; p += PAGE) {
		int64_t off = offset_of(bt, p);

		if (off >= 0 && hs_bt_save_page(bt, (uint64_t)off / PAGE))
			hs_rt_stop(r, "%s", hs_errmsg());
	}
}

static void undo(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	for (size_t i = 0; i < bt->nundo; i++) {
		uint64_t pfn = bt->undo_pfn[i];

		memcpy(bt->ram + pfn * PAGE, bt->undo_data + i * PAGE, PAGE);
		bt->saved[pfn >> 3] &= (uint8_t)~(1u << (pfn & 7));
	}
	bt->nundo = 0;
}

uint64_t hs_bt_dirty_pages(const struct hs_runner *r)
{
	return bt_of(r) ? bt_of(r)->nundo : 0;
}

/* --- registers --------------------------------------------------------- */

void hs_bt_set_cp(struct hs_runner *r, int op0, int op1, int crn, int crm, int op2, uint64_t v)
{
	uc_arm64_cp_reg cp = { .crn = (uint32_t)crn, .crm = (uint32_t)crm, .op0 = (uint32_t)op0,
			       .op1 = (uint32_t)op1, .op2 = (uint32_t)op2, .val = v };

	uc_reg_write(r->uc, UC_ARM64_REG_CP_REG, &cp);
}

/* SPSR_EL1 has no Unicorn register id: by encoding */
uint64_t hs_bt_get_spsr(struct hs_runner *r)
{
	uc_arm64_cp_reg cp = { .crn = 4, .crm = 0, .op0 = 3, .op1 = 0, .op2 = 0 };

	uc_reg_read(r->uc, UC_ARM64_REG_CP_REG, &cp);
	return cp.val;
}

static void set_regs(struct hs_runner *r, const struct hs_snap_regs *s, uint64_t pc)
{
	struct hs_booted *bt = bt_of(r);
	int user = (s->pstate & 0xf) == 0;

	for (unsigned i = 0; i < 31; i++)
		hs_rt_set_x(r, i, s->x[i]);
	for (int i = 0; i < 32; i++) {
		uint8_t v[16];	/* Unicorn 2.0.1 takes the 128 bits as bytes */

		memcpy(v, s->v[i], 16);
		uc_reg_write(r->uc, UC_ARM64_REG_V0 + i, v);
	}
	hs_rt_set_reg(r, UC_ARM64_REG_FPCR, s->fpcr);
	hs_rt_set_reg(r, UC_ARM64_REG_FPSR, s->fpsr);
	hs_rt_set_reg(r, UC_ARM64_REG_ELR_EL1, s->elr);
	hs_bt_set_cp(r, 3, 0, 4, 0, 0, s->spsr);	/* SPSR_EL1 */
	hs_rt_set_reg(r, UC_ARM64_REG_ESR_EL1, s->esr);
	hs_rt_set_reg(r, UC_ARM64_REG_FAR_EL1, s->far);
	hs_rt_set_reg(r, UC_ARM64_REG_VBAR_EL1, bt->vbar ? bt->vbar : s->vbar);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDR_EL1, s->tpidr_el1);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDR_EL0, s->tpidr_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_TPIDRRO_EL0, s->tpidrro_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_TTBR0_EL1, s->ttbr0);
	hs_rt_set_reg(r, UC_ARM64_REG_TTBR1_EL1, s->ttbr1);
	hs_rt_set_reg(r, UC_ARM64_REG_MAIR_EL1, s->mair);
	hs_rt_set_reg(r, UC_ARM64_REG_CPACR_EL1, s->cpacr);
	hs_bt_set_cp(r, 3, 0, 2, 0, 2, s->tcr);		/* TCR_EL1 */
	hs_bt_set_cp(r, 3, 0, 1, 0, 0, s->sctlr & ~1ULL);	/* SCTLR_EL1, MMU off */
	hs_bt_set_cp(r, 3, 0, 13, 0, 1, s->contextidr);	/* CONTEXTIDR_EL1 */
	hs_bt_set_cp(r, 3, 0, 14, 1, 0, s->cntkctl);		/* CNTKCTL_EL1 */
	/* banked stack pointers, then the level, then the live one: the host
	 * writes do not move SP between banks (backend_booted.h) */
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL0, s->sp_el0);
	hs_rt_set_reg(r, UC_ARM64_REG_SP_EL1, s->sp_el1);
	hs_rt_set_reg(r, UC_ARM64_REG_PSTATE, user ? (s->pstate & ~0xfULL) | 4 : s->pstate);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, user ? s->sp_el0 : s->sp_el1);
	bt->sp_el1 = s->sp_el1;
	hs_rt_set_reg(r, UC_ARM64_REG_PC, pc);
}

/* --- the runner ------------------------------------------------------------ */

static void *host(struct hs_runner *r, uint64_t va, uint64_t len)
{
	return host_of(bt_of(r), va, len);
}

static void booted_free(struct hs_runner *r);

static void at_warp(struct hs_runner *r, uint64_t pc)
{
	const struct hs_booted *bt = bt_of(r);

	for (int i = 0; i < 4; i++)
		if (bt->spec.warp[i] == pc) {
			hs_bt_warp(r);
			return;
		}
	if (bt->spec.range_begin)
		hs_bt_range_mark(r, pc);
}

/* Widen [warp_lo, warp_hi] to hold w (the hook's one range check). */
static void watch(struct hs_runner *r, uint64_t w)
{
	if (!w)
		return;
	if (w < r->warp_lo || r->warp_lo > r->warp_hi)
		r->warp_lo = w;
	if (w > r->warp_hi)
		r->warp_hi = w;
}

static const struct hs_backend booted_backend = {
	.name = "booted",
	.host = host,
	.written = written,
	.svc = hs_bt_svc_entry,
	.eret = hs_bt_eret,
	.sysreg = hs_bt_sysreg,
	.event = hs_bt_event,
	.at_warp = at_warp,
	.wfx = hs_bt_wfx,
	.gic_ack = hs_bt_gic_ack,
	.gic_pending = hs_bt_pending,
	.gic_eoi = hs_bt_gic_eoi,
	.gic_sgi = hs_bt_gic_sgi,
	.fault = hs_bt_fault,
	.take_abort = hs_bt_take_abort,
	.tlbi = hs_bt_tlbi,
	.dsb = hs_bt_dsb,
	.free = booted_free,
};

struct hs_runner *hs_runner_booted(const struct hs_image *img, const struct hs_snap *snap,
				   const struct hs_core *core)
{
	struct hs_runner *r = hs_rt_new_common(img, core);
	struct hs_booted *bt;
	const struct hs_snap_regs *s0 = &snap->pts[0].regs;

	if (!r)
		return NULL;
	if (!(bt = r->bes = hs_calloc(1, sizeof(*bt))))
		goto fail;
	r->be = &booted_backend;
	snprintf(bt->what, sizeof(bt->what), "%s (booted on %s)", img->path, snap->h.cpu);
	bt->snap = snap;
	bt->ram_base = snap->h.ram_base;
	bt->ram_size = snap->h.ram_size;
	bt->tcr = s0->tcr;
	bt->ram = mmap(NULL, bt->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bt->ram == MAP_FAILED) {
		bt->ram = NULL;
		hs_fail("out of memory for the guest RAM (%llu MiB)", (unsigned long long)(bt->ram_size >> 20));
		goto fail;
	}
	bt->saved = hs_calloc(bt->ram_size / PAGE / 8 + 1, 1);
	if (!bt->saved)
		goto fail;
	hs_snap_fill_ram(snap, 0, bt->ram);
	bt->kernel_ttbr = s0->ttbr1;
	if (walk_table(bt, s0->ttbr1, 1, &bt->kernel) || map_runs(r, &bt->kernel) || map_uart(r) ||
	    hs_bt_set_user(r, s0->ttbr0, 1))
		goto fail;
	if (!bt->kernel.n) {
		hs_fail("%s: TTBR1_EL1 maps nothing", bt->what);
		goto fail;
	}
	bt->cntfrq = s0->cntfrq ? s0->cntfrq : 62500000;
	bt->point = -1;
	return r;
fail:
	hs_runner_free(r);
	return NULL;
}

int hs_bt_patch(struct hs_runner *r, uint64_t va, const void *bytes, size_t len)
{
	struct hs_booted *bt = bt_of(r);
	uint8_t *p = host_of(bt, va, len);

	if (!p)
		return hs_fail("%s: overlay at 0x%llx outside the mapped kernel", bt->what,
			       (unsigned long long)va);
	memcpy(p, bytes, len);
	for (uint64_t a = va & ~(PAGE - 1); a < va + len; a += PAGE) {
		uint32_t pfn = (uint32_t)((uint64_t)offset_of(bt, a) / PAGE);
		size_t i;

		for (i = 0; i < bt->nsealed && bt->sealed_pfn[i] != pfn; i++)
			;
		if (i < bt->nsealed)
			continue;
		void *np = realloc(bt->sealed_pfn, (bt->nsealed + 1) * sizeof(*bt->sealed_pfn));

		if (!np)
			return hs_fail("out of memory");
		bt->sealed_pfn = np;
		bt->sealed_pfn[bt->nsealed++] = pfn;
	}
	return 0;
}

int hs_bt_seal(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	/* the overlay was written through host pointers, not logged: it
	 * stays, and the log starts empty; its pages are kept for checks */
	bt->nundo = 0;
	memset(bt->saved, 0, bt->ram_size / PAGE / 8 + 1);
	free(bt->sealed_data);
	bt->sealed_data = malloc(bt->nsealed * PAGE + 1);
	if (!bt->sealed_data)
		return hs_fail("out of memory");
	for (size_t i = 0; i < bt->nsealed; i++)
		memcpy(bt->sealed_data + i * PAGE, bt->ram + (uint64_t)bt->sealed_pfn[i] * PAGE, PAGE);
	return 0;
}

int hs_bt_enter(struct hs_runner *r, unsigned k)
{
	struct hs_booted *bt = bt_of(r);
	const struct hs_snap *snap = bt->snap;
	const struct hs_snap_regs *s = &snap->pts[k].regs;

	if (k >= snap->h.npoints)
		return hs_fail("%s: no point %u in the snapshot", bt->what, k);
	undo(r);
	/* point k's own pages, logged so the next enter undoes them too */
	for (uint32_t i = 0; i < snap->h.npages; i++)
		if (snap->pages[i].point == (uint32_t)k && k != 0) {
			uint64_t pfn = snap->pages[i].pfn;

			if (hs_bt_save_page(bt, pfn))
				return -1;
			memcpy(bt->ram + pfn * PAGE, snap->data + (size_t)i * PAGE, PAGE);
		}
	/* each point's tables are its own: walk both halves again */
	if (hs_bt_set_kernel(r, s->ttbr1) || hs_bt_set_user(r, s->ttbr0, 1))
		return -1;
	if (bt->uart) {		/* idle again, whatever the last run wrote */
		memset(bt->uart, 0, PAGE);
		bt->uart[UARTFR / 4] = UARTFR_IDLE;
	}
	set_regs(r, s, s->pc);
	bt->point = (int)k;
	/* the guest stopped at the point: QEMU resumes it at its next timer
	 * deadline (the point's counter is its CNTV_CVAL), so the tick comes
	 * at once */
	bt->counter0 = bt->counter_override ? bt->counter_override : s->counter;
	bt->icount0 = r->icount;
	bt->cval = s->cntv_cval;
	bt->ctl = s->cntv_ctl & 3;
	bt->timer_active = 0;
	bt->sgi_pending = bt->sgi_active = 0;
	memset(&bt->abort, 0, sizeof(bt->abort));
	bt->stale = bt->nreprot = 0;
	r->tlb_stale = 0;
	hs_bt_ops_reset(bt);
	r->next_flags = 0;
	hs_bt_next_event(r);
	/* pages a previous run wrote may hold code Unicorn translated */
	uc_ctl_remove_cache(r->uc, 0, ~0ULL);
	return 0;
}

void hs_bt_set_vbar(struct hs_runner *r, uint64_t vbar)
{
	bt_of(r)->vbar = vbar;
}

uint64_t hs_bt_pa(struct hs_runner *r, uint64_t va)
{
	int64_t off = offset_of(bt_of(r), va);

	return off < 0 ? 0 : bt_of(r)->ram_base + (uint64_t)off;
}

void hs_bt_counter_override(struct hs_runner *r, uint64_t counter)
{
	bt_of(r)->counter_override = counter;
}

void hs_bt_set_ops(struct hs_runner *r, const struct hs_bt_opspec *spec)
{
	struct hs_booted *bt = bt_of(r);

	bt->spec = *spec;
	r->warp_lo = 1;
	r->warp_hi = 0;
	for (int i = 0; i < 4; i++)
		watch(r, spec->warp[i]);
	watch(r, spec->range_begin);
	for (int i = 0; i < 8; i++)
		watch(r, spec->range_end[i]);
}

const struct hs_bt_op *hs_bt_ops(const struct hs_runner *r, unsigned *n)
{
	*n = bt_of(r)->nops;
	return bt_of(r)->ops;
}

unsigned hs_bt_irqs(const struct hs_runner *r)
{
	return bt_of(r) ? bt_of(r)->irqs : 0;
}

unsigned hs_bt_aborts(const struct hs_runner *r)
{
	return bt_of(r) ? bt_of(r)->aborts : 0;
}

unsigned hs_bt_warps(const struct hs_runner *r)
{
	return bt_of(r) ? bt_of(r)->warps : 0;
}

unsigned hs_bt_remaps(const struct hs_runner *r)
{
	return bt_of(r) ? bt_of(r)->remaps : 0;
}

int hs_bt_check_pristine(struct hs_runner *r, unsigned k)
{
	struct hs_booted *bt = bt_of(r);
	uint8_t *want = mmap(NULL, bt->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int rc = 0;

	if (want == MAP_FAILED)
		return hs_fail("out of memory");
	hs_snap_fill_ram(bt->snap, k, want);
	for (size_t i = 0; i < bt->nsealed && bt->sealed_data; i++)
		memcpy(want + (uint64_t)bt->sealed_pfn[i] * PAGE, bt->sealed_data + i * PAGE, PAGE);
	for (uint64_t off = 0; off < bt->ram_size && !rc; off += PAGE)
		if (memcmp(want + off, bt->ram + off, PAGE))
			rc = hs_fail("RAM page at 0x%llx differs from the point's",
				     (unsigned long long)(bt->ram_base + off));
	munmap(want, bt->ram_size);
	return rc;
}

static void booted_free(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);

	if (!bt)
		return;
	r->bes = NULL;
	if (bt->ram)
		munmap(bt->ram, bt->ram_size);
	free(bt->kernel.v);
	free(bt->user.v);
	free(bt->uart);
	free(bt->saved);
	free(bt->undo_pfn);
	free(bt->undo_data);
	free(bt->sealed_pfn);
	free(bt->sealed_data);
	free(bt->ops);
	free(bt);
}
