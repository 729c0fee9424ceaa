/*
 * kshims.c - host answers for the kernel's allocators while hotsim runs the
 * kernel's own init code (sched_init, sched_fork, ...) to build boot-like
 * state. Objects come from the emulator heap, zeroed. Caches are tracked by
 * handle so kmem_cache_alloc() knows its object size; allocating from a cache
 * hotsim never saw created is an error, not a guess. These shims are setup
 * machinery: a measured path that reaches one reports it as a stub.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/kshims.h"
#include "elf/ksyms.h"

static uint64_t alloc(struct hs_runner *r, uint64_t size)
{
	if (size > (16ULL << 20))
		return hs_fail("kernel asked for %llu bytes during setup", (unsigned long long)size), 0;
	return hs_rt_alloc(r, size ? size : 8, size >= 4096 ? 4096 : 64);
}

static int set_ret(uint64_t x[8], uint64_t v)
{
	if (!v)
		return -1;
	x[0] = v;
	return 0;
}

/* __kmalloc(size, flags), __kmalloc_node(size, flags, node), kmalloc_large(size, ...) */
static int sh_size_arg0(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)ctx;
	return set_ret(x, alloc(r, x[0]));
}

/* __kmalloc_cache_noprof / kmalloc_trace(cache, flags, size) */
static int sh_size_arg2(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)ctx;
	return set_ret(x, alloc(r, x[2]));
}

/* __kmalloc_cache_node_noprof / kmalloc_node_trace(cache, flags, node, size) */
static int sh_size_arg3(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)ctx;
	return set_ret(x, alloc(r, x[3]));
}

/* memblock_alloc_try_nid(size, align, ...) */
static int sh_memblock(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)ctx;
	if (x[0] > (16ULL << 20))
		return hs_fail("memblock_alloc of %llu bytes during setup", (unsigned long long)x[0]);
	return set_ret(x, hs_rt_alloc(r, x[0], x[1] > 64 ? x[1] : 64));
}

/* kmem_cache_create(name, size, align, flags, ctor) and _usercopy */
static int sh_cache_create(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	struct hs_kshims *k = ctx;
	uint64_t h;

	if (k->ncaches == HS_MAX_CACHES)
		return hs_fail("too many kmem caches created during setup");
	h = hs_rt_alloc(r, 256, 64);	/* an opaque handle the kernel may keep */
	if (!h)
		return -1;
	k->caches[k->ncaches].handle = h;
	k->caches[k->ncaches].size = x[1];
	k->ncaches++;
	x[0] = h;
	return 0;
}

/* kmem_cache_alloc(cache, flags), _node(cache, flags, node), _lru(cache, lru, flags) */
static int sh_cache_alloc(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	struct hs_kshims *k = ctx;

	for (unsigned i = 0; i < k->ncaches; i++)
		if (k->caches[i].handle == x[0])
			return set_ret(x, alloc(r, k->caches[i].size));
	return hs_fail("kmem_cache_alloc from cache 0x%llx, which setup never created",
		       (unsigned long long)x[0]);
}

/* __alloc_percpu(size, align): a slice of every CPU's dynamic per-CPU area */
static int sh_percpu(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	struct hs_kshims *k = ctx;
	uint64_t align = x[1] ? x[1] : 8, at = (k->pcpu_dyn_used + align - 1) & ~(align - 1);

	(void)r;
	if (at + x[0] > k->pcpu_dyn_size)
		return hs_fail("per-CPU dynamic area exhausted (%llu bytes asked)",
			       (unsigned long long)x[0]);
	k->pcpu_dyn_used = at + x[0];
	x[0] = k->pcpu_dyn_base + at;
	return 0;
}

static int sh_nothing(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)r, (void)ctx, (void)x;
	return 0;
}

/*
 * Each group is one allocator entry point under the names it has had (newest
 * first); every name present is shimmed. A group with no name in the image is
 * an error - the kernel renamed it and init code would run the real, unset-up
 * allocator - unless the group says why a kernel may lack it.
 */
static const struct shim_group {
	const char *what;
	hs_shim_fn fn;
	const char *names[6];
	const char *absent_ok;		/* why some kernels have none of the names */
} groups[] = {
	{ "kmalloc(size, flags)", sh_size_arg0, { "__kmalloc_noprof", "__kmalloc" }, NULL },
	{ "kmalloc_node(size, flags, node)", sh_size_arg0,
	  { "__kmalloc_node_noprof", "__kmalloc_node" }, NULL },
	{ "kmalloc_large(size, flags[, node])", sh_size_arg0,
	  { "__kmalloc_large_noprof", "__kmalloc_large_node_noprof", "kmalloc_large",
	    "kmalloc_large_node" }, "inline in kernels before 6.1" },
	{ "kmalloc from a size cache (cache, flags, size)", sh_size_arg2,
	  { "__kmalloc_cache_noprof", "kmalloc_trace", "kmem_cache_alloc_trace" }, NULL },
	{ "kmalloc_node from a size cache (cache, flags, node, size)", sh_size_arg3,
	  { "__kmalloc_cache_node_noprof", "kmalloc_node_trace", "kmem_cache_alloc_node_trace" },
	  "only built with NUMA before 6.1" },
	{ "kmalloc with slab flags (size, ...)", sh_size_arg0, { "__kmalloc_flags_noprof" },
	  "7.x only" },
	{ "kvmalloc_node(size, ...)", sh_size_arg0,
	  { "__kvmalloc_node_noprof", "kvmalloc_node_noprof", "kvmalloc_node" }, NULL },
	{ "memblock_alloc(size, align, ...)", sh_memblock,
	  { "memblock_alloc_try_nid", "memblock_alloc_try_nid_raw" }, NULL },
	{ "kmem_cache_create(name, size, ...)", sh_cache_create,
	  { "__kmem_cache_create_args", "kmem_cache_create", "kmem_cache_create_usercopy" }, NULL },
	{ "kmem_cache_alloc(cache, ...)", sh_cache_alloc,
	  { "kmem_cache_alloc_noprof", "kmem_cache_alloc_node_noprof", "kmem_cache_alloc_lru_noprof",
	    "kmem_cache_alloc", "kmem_cache_alloc_node", "kmem_cache_alloc_lru" }, NULL },
	{ "alloc_percpu(size, align)", sh_percpu,
	  { "pcpu_alloc_noprof", "pcpu_alloc", "__alloc_percpu", "__alloc_percpu_gfp" }, NULL },
	{ "kfree", sh_nothing, { "kfree" }, NULL },
	{ "kvfree", sh_nothing, { "kvfree" }, NULL },
	{ "kmem_cache_free", sh_nothing, { "kmem_cache_free" }, NULL },
	{ "free_percpu", sh_nothing, { "free_percpu" }, NULL },
};

int hs_kshims_install(struct hs_runner *r, struct hs_kshims *k)
{
	const struct hs_image *img = hs_rt_image(r);

	for (size_t i = 0; i < HS_ARRAY_SIZE(groups); i++) {
		const struct shim_group *g = &groups[i];
		int found = 0;

		for (int n = 0; n < 6 && g->names[n]; n++) {
			if (!hs_sym_lookup(img, g->names[n], NULL))
				continue;
			if (hs_rt_shim(r, g->names[n], g->fn, k, 1))
				return -1;
			found = 1;
		}
		if (!found && !g->absent_ok) {
			char tried[256];

			return hs_fail("%s: no allocator entry point for %s (tried %s); a kernel "
				       "that renamed it needs the new name in sim/kshims.c", img->path,
				       g->what, hs_ksym_join(g->names, 6, tried, sizeof(tried)));
		}
	}
	return 0;
}
