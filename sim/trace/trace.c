/* trace.c - trace records and the static decode cache (see trace.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hotsim/err.h"
#include "hotsim/trace.h"

void hs_trace_init(struct hs_trace *t, const struct hs_dcache *dc, size_t limit)
{
	memset(t, 0, sizeof(*t));
	t->dc = dc;
	t->limit = limit;
}

/*
 * A long run's records live in memory of their own (mmap), grown by
 * mremap: its stream (fork's on a distro kernel: 5.8 million records,
 * 90 MB) grows without a copy - realloc copied it at every doubling once
 * glibc's mmap threshold had risen past it - and its pages go back to the
 * system when it is freed. Transparent huge pages where the system allows
 * them on request: far fewer page faults for a stream that is written
 * once and read per layout.
 */
static size_t bytes_for(size_t n)
{
	size_t b = (n ? n : 1) * sizeof(struct hs_tinsn);

	return (b + 4095) & ~(size_t)4095;
}

/* Up to this many bytes a stream is on the heap: a short run's (most
 * synthesized paths: a few hundred records) mapping and unmapping memory
 * of its own cost more than the run. */
#define SMALL (1u << 20)

static struct hs_tinsn *records_grow(struct hs_tinsn *v, size_t old_n, size_t new_n)
{
	size_t ob = v ? bytes_for(old_n) : 0, nb = bytes_for(new_n);
	void *p;

	if (nb <= SMALL) {
		if (!(p = realloc(v, nb)))
			hs_fail("out of memory for a trace of %zu records", new_n);
		return p;
	}
	if (ob > SMALL)
		p = mremap(v, ob, nb, MREMAP_MAYMOVE);
	else
		p = mmap(NULL, nb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		hs_fail("out of memory for a trace of %zu records", new_n);
		return NULL;
	}
	if (v && ob <= SMALL) {
		/* leaving the heap */
		memcpy(p, v, old_n * sizeof(*v));
		free(v);
	}
	if (nb >= (2u << 20))
		madvise(p, nb, MADV_HUGEPAGE);
	return p;
}

void hs_trace_free(struct hs_trace *t)
{
	if (t->v && bytes_for(t->cap) > SMALL)
		munmap(t->v, bytes_for(t->cap));
	else
		free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

int hs_trace_copy(struct hs_trace *dst, const struct hs_trace *src)
{
	*dst = *src;
	dst->v = NULL;
	dst->cap = 0;
	if (!(dst->v = records_grow(NULL, 0, src->n)))
		return -1;
	dst->cap = src->n ? src->n : 1;
	memcpy(dst->v, src->v, src->n * sizeof(*src->v));
	return 0;
}

int hs_trace_grow(struct hs_trace *t)
{
	size_t nc = t->cap ? 2 * t->cap : 4096;
	struct hs_tinsn *nv;

	if (t->limit && nc > t->limit)
		nc = t->limit;
	if (t->n >= nc)
		return hs_fail("trace exceeds %zu instructions", t->limit);
	if (!(nv = records_grow(t->v, t->cap, nc)))
		return -1;
	t->v = nv;
	t->cap = nc;
	return 0;
}

int hs_trace_bad_push(const struct hs_trace *t, uint64_t pc, uint32_t sidx)
{
	(void)t;
	return hs_fail("trace record at 0x%llx: decode entry %u is not that address's", (unsigned long long)pc,
		       sidx);
}

void hs_trace_note_stub(struct hs_trace *t, const char *name, uint64_t addr)
{
	for (unsigned i = 0; i < t->nstubs; i++)
		if (t->stubs[i].addr == addr) {
			t->stubs[i].count++;
			return;
		}
	if (t->nstubs < sizeof(t->stubs) / sizeof(t->stubs[0])) {
		t->stubs[t->nstubs].name = name;
		t->stubs[t->nstubs].addr = addr;
		t->stubs[t->nstubs].count = 1;
		t->nstubs++;
	}
}

void hs_trace_note_sysreg(struct hs_trace *t, uint16_t enc, int write)
{
	for (unsigned i = 0; i < t->nsysregs; i++)
		if (t->sysregs[i].enc == enc && t->sysregs[i].write == !!write) {
			t->sysregs[i].count++;
			return;
		}
	if (t->nsysregs < sizeof(t->sysregs) / sizeof(t->sysregs[0])) {
		t->sysregs[t->nsysregs].enc = enc;
		t->sysregs[t->nsysregs].write = (uint8_t)!!write;
		t->sysregs[t->nsysregs].count = 1;
		t->nsysregs++;
	}
}

void hs_dcache_init(struct hs_dcache *dc)
{
	memset(dc, 0, sizeof(*dc));
}

void hs_dcache_free(struct hs_dcache *dc)
{
	free(dc->v);
	free(dc->slots);
	memset(dc, 0, sizeof(*dc));
}

static size_t slot_of(uint64_t pc, size_t nslots)
{
	/* instructions are 4-byte aligned; mix the rest */
	uint64_t h = (pc >> 2) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 20) & (nslots - 1);
}

static int rehash(struct hs_dcache *dc, size_t nslots)
{
	uint32_t *s = hs_calloc(nslots, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < dc->n; i++) {
		size_t k = slot_of(dc->v[i].pc, nslots);

		while (s[k])
			k = (k + 1) & (nslots - 1);
		s[k] = (uint32_t)(i + 1);
	}
	free(dc->slots);
	dc->slots = s;
	dc->nslots = nslots;
	return 0;
}

long hs_dcache_find(const struct hs_dcache *dc, uint64_t pc)
{
	if (!dc->nslots)
		return -1;
	for (size_t k = slot_of(pc, dc->nslots); dc->slots[k]; k = (k + 1) & (dc->nslots - 1))
		if (dc->v[dc->slots[k] - 1].pc == pc)
			return (long)dc->slots[k] - 1;
	return -1;
}

long hs_dcache_get(struct hs_dcache *dc, uint64_t pc, uint32_t word)
{
	size_t k;

	if (!dc->nslots && rehash(dc, 1024))
		return -1;
	for (k = slot_of(pc, dc->nslots); dc->slots[k]; k = (k + 1) & (dc->nslots - 1))
		if (dc->v[dc->slots[k] - 1].pc == pc)
			return (long)dc->slots[k] - 1;
	if (dc->n == dc->cap) {
		size_t nc = dc->cap ? 2 * dc->cap : 512;
		struct hs_static *nv = hs_realloc(dc->v, nc * sizeof(*nv));

		if (!nv)
			return -1;
		dc->v = nv;
		dc->cap = nc;
	}
	dc->v[dc->n].pc = pc;
	a64_decode(word, pc, &dc->v[dc->n].in);
	dc->n++;
	if (2 * dc->n > dc->nslots)
		return rehash(dc, 2 * dc->nslots) ? -1 : (long)dc->n - 1;
	dc->slots[k] = (uint32_t)dc->n;
	return (long)dc->n - 1;
}
