/*
 * klog.c - the kernel's own log, read from a stopped guest's memory: what
 * a kernel without a console (minimal board configs have none) said before
 * it gave up, and what one with a console said that the console had not
 * yet printed.
 *
 * The log is the lockless printk ring (kernel/printk/printk_ringbuffer.h,
 * 5.10 on): a descriptor ring (state_var, the text block's begin and next
 * logical positions), a parallel array of printk_info (seq, ts_nsec, then
 * text_len at offset 16) and a text data ring of blocks that start with
 * their descriptor id. `prb` points at the ring in use: printk.c's static
 * one, or the one setup_log_buf() allocated. The layout is read from the
 * image rather than assumed per version: the static ring's own initialiser
 * points at _printk_rb_static_descs, _printk_rb_static_infos and
 * __log_buf, which gives the offsets of descs, infos and data (6.9 added
 * last_finalized_seq and moved the text ring's fields), and those arrays'
 * sizes over the descriptor count give each element's size (a printk_info
 * with CONFIG_PRINTK_EXECUTION_CTX is longer).
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define MAX_RECORDS 64
#define LINE 200
#define ID_MASK (~(3ULL << 62))		/* DESC_ID_MASK: the state is in the top two bits */
#define RING_MAX 256			/* bytes of a struct printk_ringbuffer read */

struct ring {
	uint64_t descs, infos, data;	/* where the arrays are in the guest */
	unsigned count_bits, size_bits;
	uint64_t head, tail;		/* descriptor ids */
	uint64_t dsz, isz;		/* element sizes */
};

static const struct hs_sym *printk_sym(const struct hs_image *img, const char *name)
{
	const struct hs_sym *s = hs_sym_in_file(img, name, "printk.c");

	return s ? s : hs_sym_exact(img, name);
}

/* The offset in the ring struct b of an 8-byte field holding v; -1: none. */
static int field_of(const uint8_t *b, size_t n, uint64_t v)
{
	for (size_t o = 8; o + 8 <= n; o += 8) {
		uint64_t x;

		memcpy(&x, b + o, 8);
		if (x == v)
			return (int)o;
	}
	return -1;
}

static uint64_t u64_at(const uint8_t *b, int o)
{
	uint64_t x;

	memcpy(&x, b + o, 8);
	return x;
}

static int find_ring(struct hs_qemu *q, const struct hs_image *img, struct ring *r)
{
	const struct hs_sym *st = printk_sym(img, "printk_rb_static"), *p = printk_sym(img, "prb");
	const struct hs_sym *d = printk_sym(img, "_printk_rb_static_descs");
	const struct hs_sym *in = printk_sym(img, "_printk_rb_static_infos");
	const struct hs_sym *lb = printk_sym(img, "__log_buf");
	uint8_t b[RING_MAX];
	uint64_t at, n;
	int od, oi, ot;

	if (!st || !p || !d || !in || !lb)
		return hs_fail("the image has no printk ring buffer (CONFIG_PRINTK is not set)");
	if (st->size < 64 || st->size > RING_MAX || hs_rsp_read(q, st->addr, b, st->size))
		return hs_fail("the printk ring at %s cannot be read", st->name);
	od = field_of(b, st->size, d->addr), oi = field_of(b, st->size, in->addr);
	ot = field_of(b, st->size, lb->addr);
	if (od < 0 || oi != od + 8 || ot < 8 || (unsigned)ot + 24 > st->size)
		return hs_fail("printk_rb_static does not have the layout of a printk ring");
	memcpy(&r->count_bits, b + od - 8, 4);
	n = r->count_bits < 32 ? 1ULL << r->count_bits : 0;
	if (!n || (r->dsz = d->size / n) < 24 || (r->isz = in->size / n) < 18)
		return hs_fail("printk ring: %u descriptor bits do not fit its arrays", r->count_bits);
	/* the ring in use: the static one, or the one boot allocated */
	if (hs_rsp_read(q, p->addr, &at, 8) || (at != st->addr && hs_rsp_read(q, at, b, st->size)))
		return hs_fail("the printk ring prb points to cannot be read");
	memcpy(&r->count_bits, b + od - 8, 4);
	memcpy(&r->size_bits, b + ot - 8, 4);
	r->descs = u64_at(b, od), r->infos = u64_at(b, oi), r->data = u64_at(b, ot);
	r->head = u64_at(b, oi + 8), r->tail = u64_at(b, oi + 16);
	if (r->count_bits >= 32 || r->size_bits >= 40)
		return hs_fail("printk ring: %u descriptor bits, %u text bits", r->count_bits, r->size_bits);
	return 0;
}

/* Record id's text into out: 1, or 0 when it has none (being written,
 * reused, an empty line), -1 when the guest cannot be read. */
static int record(struct hs_qemu *q, const struct ring *r, uint64_t id, char *out, size_t len)
{
	uint64_t idx = id & ((1ULL << r->count_bits) - 1), d[3], size = 1ULL << r->size_bits, off, n;
	uint16_t text_len;
	unsigned state;

	if (hs_rsp_read(q, r->descs + idx * r->dsz, d, sizeof(d)))
		return -1;
	state = (unsigned)(d[0] >> 62);
	/* committed (1) or finalized (2), and still this record */
	if ((d[0] & ID_MASK) != id || (state != 1 && state != 2) || (d[1] & 1) || d[2] <= d[1])
		return 0;
	/* a block whose text would run past the end starts at 0 (get_data()) */
	if (d[1] >> r->size_bits == (d[2] - 1) >> r->size_bits)
		off = d[1] & (size - 1), n = d[2] - d[1];
	else
		off = 0, n = d[2] & (size - 1);
	if (n <= 8 || hs_rsp_read(q, r->infos + idx * r->isz + 16, &text_len, 2))
		return n <= 8 ? 0 : -1;
	n -= 8;			/* the block's id */
	if (text_len < n)
		n = text_len;
	if (n >= len)
		n = len - 1;
	if (hs_rsp_read(q, r->data + off + 8, out, n))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 32 || (unsigned char)out[i] > 126)
			out[i] = ' ';
	out[n] = 0;
	/* a stack dump's frames are indented */
	off = strspn(out, " ");
	memmove(out, out + off, n - off + 1);
	return n > off;
}

const char *hs_vm_klog(struct hs_qemu *q, const struct hs_image *img, char *buf, size_t len)
{
	char lines[MAX_RECORDS][LINE];
	struct hs_vm_tail t = { 0 };
	struct ring r = { 0 };
	unsigned n = 0;
	uint64_t id, k = 0;

	buf[0] = 0;
	if (find_ring(q, img, &r))
		return NULL;
	/* newest first, back to the tail, MAX_RECORDS lines or once round */
	for (id = r.head; n < MAX_RECORDS && k++ < 1ULL << r.count_bits; id = (id - 1) & ID_MASK) {
		int got = record(q, &r, id, lines[n], LINE);

		if (got < 0)
			return NULL;
		n += (unsigned)got;
		if (id == r.tail)
			break;
	}
	while (n)
		hs_vm_tail_add(&t, lines[--n]);
	return hs_vm_tail_str(&t, buf, len);
}
