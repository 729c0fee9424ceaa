/*
 * offsets.c - kernel layout facts from the image itself (see offsets.h).
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf/btf.h"
#include "hotsim/a64.h"
#include "hotsim/err.h"
#include "elf/ksyms.h"
#include "emu/offsets.h"

static const struct hs_sym *need(const struct hs_image *img, const char *name)
{
	const struct hs_sym *s = hs_sym_lookup(img, name, NULL);

	if (!s)
		hs_fail("%s: no symbol %s, needed to lay out kernel state", img->path, name);
	return s;
}

static uint32_t word_at(const struct hs_image *img, const uint8_t *mem, uint64_t va)
{
	uint32_t w = 0;

	hs_read32(img, mem, va, &w);
	return w;
}

/* movz xd, #imm{, lsl #16*hw}: 1 and the value */
static int movz64(uint32_t w, unsigned *rd, uint64_t *v)
{
	if (!a64_is_movz_x(w))
		return 0;
	*rd = a64_rt(w);
	*v = (uint64_t)a64_imm16(w) << a64_movw_shift(w);
	return 1;
}

/* sub sp, sp, #imm{, lsl #12} */
static int sub_sp_imm(uint32_t w, uint64_t *v)
{
	if (!a64_is_sub_sp_sp_imm(w))
		return 0;
	*v = a64_add_imm(w);
	return 1;
}

static int thread_size(const struct hs_image *img, struct hs_offsets *o)
{
	const struct hs_sym *a = hs_ksym(img, "init stack start"), *b;

	if (!a || !(b = hs_ksym(img, "init stack end")))
		return -1;
	if (b->addr <= a->addr || (b->addr - a->addr) & (b->addr - a->addr - 1))
		return hs_fail("%s: cannot size init_task's stack (%s..%s is not a power of two)",
			       img->path, a->name, b->name);
	o->thread_size = b->addr - a->addr;
	snprintf(o->how[0], sizeof(o->how[0]), "%s - %s", b->name, a->name);
	return 0;
}

/* kernel_ventry: the EL1h IRQ entry at vectors + 0x280 (A64_VEC_CUR_SPX + A64_VEC_IRQ) */
static int pt_regs_size(const struct hs_image *img, const uint8_t *mem, struct hs_offsets *o)
{
	const struct hs_sym *v = need(img, "vectors");

	if (!v)
		return -1;
	for (unsigned i = 0; i < 8; i++) {
		uint64_t n;

		if (sub_sp_imm(word_at(img, mem, v->addr + a64_vector_offset(1, A64_VEC_IRQ) + 4 * i), &n) && n && n % 16 == 0) {
			o->pt_regs_size = n;
			snprintf(o->how[1], sizeof(o->how[1]), "sub sp, sp, #%llu at vectors+0x%x",
				 (unsigned long long)n, 0x280 + 4 * i);
			return 0;
		}
	}
	return hs_fail("%s: no 'sub sp, sp, #PT_REGS_SIZE' in the vector entry at vectors+0x280",
		       img->path);
}

/*
 * struct cpu_context is x19..x28, fp, sp, pc (arch/arm64 processor.h); state
 * synthesis writes sp at 88 and pc at 96. Confirm from cpu_switch_to's own
 * stores: six "stp xA, xB, [x8], #16" from x19 up, then "str x30, [x8]".
 */
static int cpu_context_layout(const struct hs_image *img, const uint8_t *mem, const struct hs_sym *f,
			      unsigned from)
{
	unsigned pairs = 0;

	for (unsigned i = from; i < from + 12 && pairs < 6; i++) {
		uint32_t w = word_at(img, mem, f->addr + 4 * i);

		/* stp xT1, xT2, [xN], #16 (64-bit, post-index) */
		if (a64_is_stp_x_post(w) && a64_imm7(w) == 2) {
			unsigned t1 = a64_rt(w);

			if (t1 != (pairs < 5 ? 19 + 2 * pairs : 29))
				break;
			pairs++;
			if (pairs == 6) {
				uint32_t n = word_at(img, mem, f->addr + 4 * (i + 1));

				if (a64_is_str_x30_uimm(n) && a64_uimm12(n) == 0)
					return 0;	/* str x30, [x8]: pc at 96 */
			}
		}
	}
	return hs_fail("%s: cpu_switch_to does not save x19..x28, fp, sp, lr in the known cpu_context order",
		       img->path);
}

static int cpu_context(const struct hs_image *img, const uint8_t *mem, struct hs_offsets *o)
{
	const struct hs_sym *f = need(img, "cpu_switch_to");

	if (!f)
		return -1;
	for (unsigned i = 0; i < 8; i++) {
		unsigned rd;
		uint64_t v;

		if (movz64(word_at(img, mem, f->addr + 4 * i), &rd, &v) && v) {
			o->task_cpu_context = v;
			snprintf(o->how[2], sizeof(o->how[2]), "mov x%u, #0x%llx at cpu_switch_to+0x%x", rd,
				 (unsigned long long)v, 4 * i);
			return cpu_context_layout(img, mem, f, i + 1);
		}
	}
	return hs_fail("%s: cpu_switch_to does not start with 'mov xN, #THREAD_CPU_CONTEXT'",
		       img->path);
}

/* The unique 8-byte slot of init_task holding value v. */
static int slot_holding(const struct hs_image *img, const uint8_t *mem, const struct hs_sym *t,
			uint64_t v, uint64_t *off, const char *what)
{
	int found = 0;

	for (uint64_t o = 0; o + 8 <= t->size; o += 8) {
		uint64_t x;

		hs_read64(img, mem, t->addr + o, &x);
		if (x == v) {
			if (found)
				return hs_fail("%s: init_task holds %s twice (0x%llx and 0x%llx)",
					       img->path, what, (unsigned long long)*off,
					       (unsigned long long)o);
			*off = o;
			found = 1;
		}
	}
	if (!found)
		return hs_fail("%s: init_task does not hold %s (not relocated?)", img->path, what);
	return 0;
}

static int btf_check(const struct hs_image *img, const char *s, const char *m, uint64_t want)
{
	uint64_t off, size;

	if (hs_btf_member(img->btf, s, m, &off, &size))
		return hs_fail("%s: BTF has no %s.%s", img->path, s, m);
	if (off != want)
		return hs_fail("%s: %s.%s is at %llu by BTF but %llu by the code", img->path, s, m,
			       (unsigned long long)off, (unsigned long long)want);
	return 0;
}

int hs_offsets_find(const struct hs_image *img, const uint8_t *mem, struct hs_offsets *o)
{
	const struct hs_sym *t, *st, *mm;

	memset(o, 0, sizeof(*o));
	if (thread_size(img, o) || pt_regs_size(img, mem, o) || cpu_context(img, mem, o))
		return -1;
	if (!(t = need(img, "init_task")) || !(st = hs_ksym(img, "init stack")) ||
	    !(mm = need(img, "init_mm")))
		return -1;
	if (!t->size)
		return hs_fail("%s: init_task has no size", img->path);
	o->task_size = t->size;
	snprintf(o->how[3], sizeof(o->how[3]), "size of init_task");
	if (slot_holding(img, mem, t, st->addr, &o->task_stack, "&init_stack") ||
	    slot_holding(img, mem, t, mm->addr, &o->task_active_mm, "&init_mm"))
		return -1;
	snprintf(o->how[4], sizeof(o->how[4]), "init_task slot holding &init_stack");
	snprintf(o->how[5], sizeof(o->how[5]), "init_task slot holding &init_mm");
	if (img->btf) {
		uint64_t size;

		if (btf_check(img, "task_struct", "stack", o->task_stack) ||
		    btf_check(img, "task_struct", "active_mm", o->task_active_mm) ||
		    btf_check(img, "task_struct", "thread.cpu_context", o->task_cpu_context))
			return -1;
		if (hs_btf_struct_size(img->btf, "task_struct", &size) || size != o->task_size)
			return hs_fail("%s: sizeof(task_struct) is %llu by BTF, init_task is %llu bytes",
				       img->path, (unsigned long long)size,
				       (unsigned long long)o->task_size);
		if (hs_btf_struct_size(img->btf, "pt_regs", &size) || size != o->pt_regs_size)
			return hs_fail("%s: sizeof(pt_regs) is %llu by BTF, the vector entry uses %llu",
				       img->path, (unsigned long long)size,
				       (unsigned long long)o->pt_regs_size);
		o->btf_checked = 1;
	}
	return 0;
}
