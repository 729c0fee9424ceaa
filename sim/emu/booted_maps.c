/*
 * booted_maps.c - the booted replay's mappings: every page the snapshot's
 * tables map (walked by ptwalk.c) as Unicorn regions onto one copy of the
 * guest's RAM, kept per half as sorted runs (bt->kernel, bt->user); the
 * kernel half is mapped whole and a tlbi remaps the runs that differ; a new
 * TTBR0 table (switch_mm) or a user tlbi unmaps what the table no longer
 * maps the same way, and the user pages are mapped as they are touched; a
 * miss (booted_mmu.c) maps one leaf, and the console's page is an idle
 * PL011.
 */
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "emu/booted_internal.h"
#include "emu/ptwalk.h"

/* RAM's unit (Unicorn's page), whatever the guest's granule */
#define PAGE 4096ULL
#define VIRT_UART 0x09000000ULL		/* QEMU virt's PL011 (hw/arm/virt.c) */
#define UARTFR 0x18			/* PL011 flag register: TXFE | RXFE, idle */
#define UARTFR_IDLE 0x90

/* Room for more runs after the n there are. */
static int reserve(struct bt_runs *rs, size_t more)
{
	size_t cap = rs->cap ? rs->cap : 256;
	void *v;

	if (rs->n + more <= rs->cap)
		return 0;
	while (cap < rs->n + more)
		cap *= 2;
	if (!(v = realloc(rs->v, cap * sizeof(*rs->v))))
		return hs_fail("out of memory for the mappings");
	rs->v = v;
	rs->cap = cap;
	return 0;
}

static int add_run(struct bt_runs *rs, uint64_t va, uint64_t pa, uint64_t len, uint32_t prot)
{
	struct bt_run *last = rs->n ? &rs->v[rs->n - 1] : NULL;

	if (last && last->va + last->len == va && last->pa + last->len == pa && last->prot == prot) {
		last->len += len;
		return 0;
	}
	if (reserve(rs, 1))
		return -1;
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
void hs_bt_uart_idle(struct hs_booted *bt)
{
	if (!bt->uart)
		return;
	memset(bt->uart, 0, PAGE);
	bt->uart[UARTFR / 4] = UARTFR_IDLE;
}

static int map_uart(struct hs_runner *r)
{
	struct hs_booted *bt = bt_of(r);
	uc_err e;

	if (!bt->uart_va || bt->uart)
		return 0;
	if (posix_memalign((void **)&bt->uart, PAGE, PAGE))
		return hs_fail("out of memory for the console page");
	hs_bt_uart_idle(bt);
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
 * Switch the kernel half (cur) to next (taken over): only the runs that
 * differ are unmapped and mapped - every Unicorn map or unmap rebuilds its
 * whole memory map. (The user half is switched lazily: switch_user.)
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

/* Does next map all of run x the same way (a run of next holds it, at the
 * same offset into RAM, with the same permissions)? */
static int covered(const struct bt_runs *next, const struct bt_run *x)
{
	const struct bt_run *n = hs_bt_find_run(next, x->va);

	return n && x->va + x->len <= n->va + n->len && n->pa + (x->va - n->va) == x->pa &&
	       n->prot == x->prot;
}

/*
 * The user half for the table that maps next (walked, then freed): what
 * Unicorn has mapped that next maps the same way stays; the rest is
 * unmapped, and nothing is mapped here - each page of the new process is
 * mapped when it is first touched (user_miss, booted_mmu.c: the walk, the
 * access flag, the permissions, as the eager walk would have mapped it).
 * A switch then costs the pages the next process touches before the one
 * after (a few: its stack, its buffer), not its whole address space:
 * sched-pipe's 147 switches remapped ~40 runs each, and each map or unmap
 * rebuilds Unicorn's whole memory map.
 */
static void switch_user(struct hs_runner *r, struct bt_runs *next)
{
	struct bt_runs *cur = &bt_of(r)->user;
	size_t k = 0;

	for (size_t i = 0; i < cur->n; i++) {
		if (covered(next, &cur->v[i]))
			cur->v[k++] = cur->v[i];
		else
			uc_mem_unmap(r->uc, cur->v[i].va, cur->v[i].len);
	}
	cur->n = k;
	free(next->v);
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
	switch_user(r, &next);
	return 0;
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
	switch_user(r, &next);
	return 0;
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

const struct bt_run *hs_bt_find_run(const struct bt_runs *rs, uint64_t va)
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
			if (reserve(rs, 2))
				return -1;
			cut_run(r, rs, i, va, len);
			continue;	/* what stays of it is at i now, or past it */
		}
		i++;
	}
	if (reserve(rs, 1))
		return -1;
	while (at < rs->n && rs->v[at].va < va)
		at++;
	memmove(&rs->v[at + 1], &rs->v[at], (rs->n - at) * sizeof(*rs->v));
	rs->v[at] = (struct bt_run){ va, pa, len, prot };
	rs->n++;
	e = uc_mem_map_ptr(r->uc, va, len, prot, bt->ram + (pa - bt->ram_base));
	return e == UC_ERR_OK ? 0 : hs_fail("%s: cannot map 0x%llx: %s", bt->what,
					   (unsigned long long)va, uc_strerror(e));
}

/* The kernel half as the first point's TTBR1 maps it, and the console. */
int hs_bt_map_first(struct hs_runner *r, uint64_t ttbr1)
{
	struct hs_booted *bt = bt_of(r);

	bt->kernel_ttbr = ttbr1;
	return walk_table(bt, ttbr1, 1, &bt->kernel) || map_runs(r, &bt->kernel) || map_uart(r);
}
