/*
 * test_paths.c - the hot paths on the real kernels: cswitch without a
 * finish_task_switch function (7.2, 6.12, 6.1); the handle_arch_irq load
 * present in the baseline and gone with a runtime constant (7.2, 6.12) or
 * irq-direct (6.1), whatever its variable is called; the percpu census under PREEMPT vs PREEMPT_NONE and by
 * result use; LSE vs LL/SC streams; identical streams for the null pairs; a
 * fault report for a broken state. (Every path on every core of every image:
 * test_compare.c, through `hotsim run`.)
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "paths/path_internal.h"
#include "testutil.h"

#define LIMIT 1000000

static struct hs_image *open_kernel(const char *path)
{
	struct hs_image *img = hs_image_open(path);

	cr_assert_not_null(img, "%s", hs_errmsg());
	return img;
}

static struct hs_patched *patch(const struct hs_image *img, const char *cpu)
{
	struct hs_patched *p = hs_patch(img, hs_core_find(cpu));

	cr_assert_not_null(p, "%s", hs_errmsg());
	return p;
}

static void run(const char *path, const struct hs_patched *p, struct hs_path_run *pr)
{
	cr_assert_eq(hs_path_run_alone(hs_path_find(path), p, HS_SRC_SYNTH, &(struct hs_run_opts){ .trace_limit = LIMIT, .set = &hs_path_set_builtin }, pr), 0, "%s", hs_errmsg());
	cr_assert(pr->ok, "%s on %s (%s): %s", path, p->core->name, p->img->path, pr->why);
}

static int visits(const struct hs_image *img, const struct hs_trace *t, const char *fn)
{
	const struct hs_sym *s = hs_sym_spec(img, fn, NULL);

	for (size_t i = 0; s && i < t->n; i++)
		if (hs_trace_pc(t, i) >= s->addr && hs_trace_pc(t, i) < s->addr + s->size)
			return 1;
	return 0;
}

static void cswitch_without_finish_task_switch(const char *base_name, const char *inl_name)
{
	struct hs_image *base = open_kernel(hs_kernel(base_name));
	struct hs_image *inl = open_kernel(hs_kernel(inl_name));
	struct hs_patched *pb = patch(base, "a53"), *pi = patch(inl, "a53");
	struct hs_path_run rb, ri;
	int noted = 0;

	cr_assert_not_null(hs_sym_lookup(base, "finish_task_switch", NULL));
	cr_assert_null(hs_sym_lookup(inl, "finish_task_switch", NULL),
		       "%s: the patch makes it __always_inline: no symbol left", inl_name);
	run("cswitch", pb, &rb);
	run("cswitch", pi, &ri);
	cr_assert(visits(base, &rb.tr, "finish_task_switch"));
	cr_assert(visits(inl, &ri.tr, "cpu_switch_to"));
	cr_assert(visits(inl, &ri.tr, "__switch_to"));
	for (unsigned i = 0; i < ri.nnotes; i++)
		noted |= strstr(ri.notes[i], "finish_task_switch: not a function") != NULL;
	cr_assert(noted, "the run says finish_task_switch is not in this image");
	/* both end back in schedule(): the last function is schedule */
	cr_assert_str_eq(hs_sym_at(inl, hs_trace_pc(&ri.tr, ri.tr.n - 1))->name, "schedule");
	hs_path_run_free(&rb);
	hs_path_run_free(&ri);
	hs_patched_free(pb);
	hs_patched_free(pi);
	hs_image_close(base);
	hs_image_close(inl);
}

Test(paths, cswitch_without_finish_task_switch_7_2)
{
	cswitch_without_finish_task_switch("7.2-base", "7.2-cswitch-inline");
}

Test(paths, cswitch_without_finish_task_switch_6_12)
{
	cswitch_without_finish_task_switch("6.12-base", "6.12-cswitch-inline");
}

Test(paths, cswitch_without_finish_task_switch_6_1)
{
	cswitch_without_finish_task_switch("6.1-base", "6.1-cswitch-inline");
}

/* Loads whose data address is handle_arch_irq itself. */
static unsigned handle_arch_irq_loads(const struct hs_image *img, const struct hs_trace *t)
{
	const struct hs_sym *h = hs_sym_exact(img, "handle_arch_irq");
	unsigned n = 0;

	cr_assert_not_null(h);
	for (size_t i = 0; i < t->n; i++)
		n += hs_trace_insn(t, i)->cls == A64_C_LOAD && t->v[i].addr == h->addr;
	return n;
}

/* The root handler's address, no longer loaded from handle_arch_irq on
 * either IRQ path, every core; the root handler still runs. */
static void drops_the_handle_arch_irq_load(const char *base_name, const char *patched_name)
{
	struct hs_image *base = open_kernel(hs_kernel(base_name));
	struct hs_image *dir = open_kernel(hs_kernel(patched_name));
	static const char *const irq_paths[] = { "irq-el1", "irq-el0" };

	for (int c = 0; hs_cores[c]; c++) {
		struct hs_patched *pb = patch(base, hs_cores[c]->name), *pd = patch(dir, hs_cores[c]->name);

		for (int k = 0; k < 2; k++) {
			struct hs_path_run rb, rd;

			run(irq_paths[k], pb, &rb);
			run(irq_paths[k], pd, &rd);
			cr_assert_eq(handle_arch_irq_loads(base, &rb.tr), 1, "%s %s %s", irq_paths[k],
				     hs_cores[c]->name, base_name);
			cr_assert_eq(handle_arch_irq_loads(dir, &rd.tr), 0, "%s %s %s", irq_paths[k],
				     hs_cores[c]->name, patched_name);
			cr_assert(visits(dir, &rd.tr, "gic_handle_irq@irq-gic-v3.c"));
			hs_path_run_free(&rb);
			hs_path_run_free(&rd);
		}
		hs_patched_free(pb);
		hs_patched_free(pd);
	}
	hs_image_close(base);
	hs_image_close(dir);
}

Test(paths, irq_runtime_const_drops_the_load_7_2)
{
	drops_the_handle_arch_irq_load("7.2-base", "7.2-irq-runtime-const");
}

Test(paths, irq_runtime_const_drops_the_load_6_12)
{
	drops_the_handle_arch_irq_load("6.12-base", "6.12-irq-runtime-const");
}

Test(paths, irq_direct_drops_the_load_6_1)
{
	drops_the_handle_arch_irq_load("6.1-base", "6.1-irq-direct");
}

/*
 * The same runtime constant whatever its variable is called: the IRQ
 * paths of the renamed image run the instructions of the image whose
 * variable keeps its name, through the GICv3 root handler. Its value is
 * what the GICv3 driver's init passes to set_handle_irq(), kept in every
 * variable set_handle_irq() stores it to (boot_values.c) - not the
 * variable's initial value, default_handle_irq, whose IRQ panics.
 */
static void irq_runtime_const_of_any_name(const char *named, const char *renamed, const char *var)
{
	struct hs_image *dir = open_kernel(hs_kernel(named));
	struct hs_image *ren = open_kernel(hs_kernel(renamed));
	static const char *const irq_paths[] = { "irq-el1", "irq-el0" };
	struct hs_patched *pd = patch(dir, "a53"), *pr = patch(ren, "a53");
	char sec[80];

	snprintf(sec, sizeof(sec), "runtime_ptr_%s", var);
	cr_assert_not_null(hs_sym_exact(ren, var));
	cr_assert_not_null(hs_section_find(ren, sec));
	cr_assert_eq(pr->rep.root_irq.handler, hs_sym_spec(ren, "gic_handle_irq@irq-gic-v3.c", NULL)->addr);
	for (int k = 0; k < 2; k++) {
		struct hs_path_run rd, rr;

		run(irq_paths[k], pd, &rd);
		run(irq_paths[k], pr, &rr);
		cr_assert_eq(rr.tr.n, rd.tr.n, "%s: %zu vs %zu instructions", irq_paths[k], rr.tr.n, rd.tr.n);
		cr_assert(visits(ren, &rr.tr, "gic_handle_irq@irq-gic-v3.c"), "%s", irq_paths[k]);
		hs_path_run_free(&rd);
		hs_path_run_free(&rr);
	}
	hs_patched_free(pd);
	hs_patched_free(pr);
	hs_image_close(dir);
	hs_image_close(ren);
}

/* a variable of its own beside handle_arch_irq (issue 19) */
Test(paths, irq_runtime_const_of_any_name_6_1)
{
	irq_runtime_const_of_any_name("6.1-irq-direct", "6.1-irq-direct-renamed", "arm64_root_irq");
}

/* handle_arch_irq itself renamed _handle_arch_irq (issue 37) */
Test(paths, irq_runtime_const_renamed_6_1)
{
	irq_runtime_const_of_any_name("6.1-irq-direct", "6.1-irq-renamed", "_handle_arch_irq");
}

Test(paths, irq_runtime_const_renamed_6_12)
{
	irq_runtime_const_of_any_name("6.12-irq-runtime-const", "6.12-irq-renamed", "_handle_arch_irq");
}

Test(paths, irq_runtime_const_renamed_7_2)
{
	irq_runtime_const_of_any_name("7.2-irq-runtime-const", "7.2-irq-renamed", "_handle_arch_irq");
}

/* 6.1-base is PREEMPT; Debian's 6.1 is PREEMPT_VOLUNTARY without
 * PREEMPT_COUNT (no DEBUG_ATOMIC_SLEEP), where preempt_disable() is only a
 * compiler barrier: the census must find the same ops with no wrapper. */
Test(paths, percpu_census_preempt_vs_voluntary)
{
	struct hs_image *pre = open_kernel(hs_kernel("6.1-base"));
	struct hs_image *none = open_kernel(hs_kernel("debian-6.1"));
	struct hs_patched *pp = patch(pre, "a55"), *pn = patch(none, "a55");
	struct hs_path_run rp, rn;
	unsigned wrapped_p = 0, wrapped_n = 0;

	run("percpu", pp, &rp);
	run("percpu", pn, &rn);
	for (int k = 0; k < HS_PCPU_NKINDS; k++) {
		wrapped_p += rp.census->count[k][1];
		wrapped_n += rn.census->count[k][1];
	}
	/* CONFIG_PREEMPT wraps this_cpu ops in preempt_disable/enable;
	 * without a preempt_count there is no wrapper at all */
	cr_assert_gt(wrapped_p, 50);
	cr_assert_eq(wrapped_n, 0);
	cr_assert_gt(rn.census->n, 100, "the ops are still there");
	for (unsigned i = 0; i < rn.nsegs; i++)
		cr_assert_eq(rn.segs[i].wrapped, 0);
	hs_path_run_free(&rp);
	hs_path_run_free(&rn);
	hs_patched_free(pp);
	hs_patched_free(pn);
	hs_image_close(pre);
	hs_image_close(none);
}

static void count_atomics(const struct hs_path_run *pr, const char *seg, unsigned *lse, unsigned *llsc)
{
	*lse = *llsc = 0;
	for (unsigned s = 0; s < pr->nsegs; s++) {
		if (strcmp(pr->segs[s].label, seg))
			continue;
		for (size_t i = pr->segs[s].begin; i < pr->segs[s].end; i++) {
			unsigned cls = hs_trace_insn(&pr->tr, i)->cls;

			*lse += cls == A64_C_ATOMIC;
			*llsc += cls == A64_C_LOAD_EX || cls == A64_C_STORE_EX;
		}
	}
}

Test(paths, percpu_lse_on_a55_llsc_on_a53)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p53 = patch(img, "a53"), *p55 = patch(img, "a55");
	struct hs_path_run r53, r55;
	unsigned lse, llsc;

	run("percpu", p53, &r53);
	run("percpu", p55, &r55);
	count_atomics(&r55, "add", &lse, &llsc);
	cr_assert_eq(lse, 1, "A55: one stadd");
	cr_assert_eq(llsc, 0);
	count_atomics(&r53, "add", &lse, &llsc);
	cr_assert_eq(lse, 0);
	cr_assert_eq(llsc, 2, "A53: ldxr + stxr");
	hs_path_run_free(&r53);
	hs_path_run_free(&r55);
	hs_patched_free(p53);
	hs_patched_free(p55);
	hs_image_close(img);
}

static void null_pair_identical_streams(const char *base_name, const char *null_name)
{
	struct hs_image *a = open_kernel(hs_kernel(base_name));
	struct hs_image *b = open_kernel(hs_kernel(null_name));

	for (int c = 0; hs_cores[c]; c++) {
		struct hs_patched *pa = patch(a, hs_cores[c]->name), *pb = patch(b, hs_cores[c]->name);

		for (int k = 0; hs_paths[k]; k++) {
			struct hs_path_run ra, rb;

			if (hs_paths[k]->kind == HS_PATH_BOOTED)
				continue;	/* test_booted.c */
			run(hs_paths[k]->name, pa, &ra);
			run(hs_paths[k]->name, pb, &rb);
			cr_assert_eq(ra.tr.n, rb.tr.n, "%s on %s", hs_paths[k]->name, hs_cores[c]->name);
			for (size_t i = 0; i < ra.tr.n; i++) {
				cr_assert_eq(hs_trace_pc(&ra.tr, i), hs_trace_pc(&rb.tr, i));
				cr_assert_eq(hs_trace_insn(&ra.tr, i)->word, hs_trace_insn(&rb.tr, i)->word);
				cr_assert_eq(ra.tr.v[i].addr, rb.tr.v[i].addr);
			}
			hs_path_run_free(&ra);
			hs_path_run_free(&rb);
		}
		hs_patched_free(pa);
		hs_patched_free(pb);
	}
	hs_image_close(a);
	hs_image_close(b);
}

Test(paths, null_pair_identical_streams_7_2)
{
	null_pair_identical_streams("7.2-base", "7.2-null");
}

Test(paths, null_pair_identical_streams_6_1)
{
	null_pair_identical_streams("6.1-base", "6.1-null");
}

/*
 * The census tells this_cpu_add() from this_cpu_add_return() by whether the
 * op's result is used, not by how it is encoded: 7.x uses ldadd with a
 * destination for both, and the A53 (LL/SC) and A55 (LSE) alternatives of
 * one site share their registers, so both cores must count the wrapped
 * sites alike - and the image has this_cpu_add() sites.
 */
Test(paths, census_classifies_by_result_use)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p53 = patch(img, "a53"), *p55 = patch(img, "a55");
	struct hs_path_run r53, r55;

	run("percpu", p53, &r53);
	run("percpu", p55, &r55);
	for (int k = HS_PCPU_ADD; k <= HS_PCPU_ADD_RETURN; k++)
		cr_assert_eq(r53.census->count[k][1], r55.census->count[k][1],
			     "wrapped %s: A53 %u, A55 %u", hs_pcpu_kind_names[k],
			     r53.census->count[k][1], r55.census->count[k][1]);
	cr_assert_gt(r55.census->count[HS_PCPU_ADD][1], r55.census->count[HS_PCPU_ADD_RETURN][1],
		     "this_cpu_add/inc outnumber this_cpu_add_return (%u vs %u)",
		     r55.census->count[HS_PCPU_ADD][1], r55.census->count[HS_PCPU_ADD_RETURN][1]);
	hs_path_run_free(&r53);
	hs_path_run_free(&r55);
	hs_patched_free(p53);
	hs_patched_free(p55);
	hs_image_close(img);
}

Test(paths, broken_state_gives_fault_report)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p = patch(img, "a55");
	struct hs_path_ctx c = { .img = img, .pt = p, .budget = 100000 };
	struct hs_path_run out;

	memset(&out, 0, sizeof(out));
	out.def = hs_path_find("irq-el1");
	c.r = hs_runner_new(img, p->mem, p->core);
	cr_assert_not_null(c.r);
	hs_trace_init(&out.tr, hs_rt_dcache(c.r), LIMIT);
	cr_assert_eq(hs_kstate_boot(c.r, &c.ks), 0, "%s", hs_errmsg());
	/* current (sp_el0) points at unmapped memory */
	hs_rt_set_reg(c.r, UC_ARM64_REG_SP_EL0, 0xffff0000dead0000ULL);
	cr_assert_neq(hs_path_exception(&c, out.def, &out), 0);
	cr_assert(strstr(hs_errmsg(), "irq-el1: fault:"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "0xffff0000dead"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), " at "), "%s", hs_errmsg());
	hs_trace_free(&out.tr);
	hs_runner_free(c.r);
	hs_patched_free(p);
	hs_image_close(img);
}

/* A session restores the complete state before every run: a path's stream
 * does not depend on which paths ran before it. */
Test(paths, session_runs_are_independent)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p = patch(img, "a55");
	struct hs_session *s = hs_session_new(p, HS_SRC_SYNTH, &hs_path_set_builtin);
	struct hs_path_run alone, after, tmp;

	cr_assert_not_null(s);
	run("cswitch", p, &alone);
	cr_assert_eq(hs_path_run(s, hs_path_find("irq-el1"), &(struct hs_run_opts){ .trace_limit = LIMIT }, &tmp), 0);
	cr_assert(tmp.ok, "%s", tmp.why);
	hs_path_run_free(&tmp);
	cr_assert_eq(hs_path_run(s, hs_path_find("cswitch"), &(struct hs_run_opts){ .trace_limit = LIMIT }, &after), 0);
	cr_assert(after.ok, "%s", after.why);
	cr_assert_eq(alone.tr.n, after.tr.n);
	for (size_t i = 0; i < alone.tr.n; i++) {
		cr_assert_eq(hs_trace_pc(&alone.tr, i), hs_trace_pc(&after.tr, i));
		cr_assert_eq(alone.tr.v[i].addr, after.tr.v[i].addr);
	}
	hs_path_run_free(&after);
	hs_path_run_free(&alone);
	hs_session_free(s);
	hs_patched_free(p);
	hs_image_close(img);
}

/* The booted state's undo log: a path's stream from the booted state does
 * not depend on which paths ran before it in the session either. */
Test(paths, booted_session_runs_are_independent, .timeout = 600)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p = patch(img, "a53");
	struct hs_session *first = hs_session_new(p, HS_SRC_BOOTED, &hs_path_set_builtin);
	struct hs_session *s = hs_session_new(p, HS_SRC_BOOTED, &hs_path_set_builtin);
	static const char *const others[] = { "irq-el1", "syscall.getpid", "irq-el0", "syscall.invalid" };
	struct hs_path_run alone, after, tmp;

	cr_assert(first && s);
	cr_assert_eq(hs_path_run(first, hs_path_find("sched-pipe"), &(struct hs_run_opts){ .trace_limit = LIMIT }, &alone), 0);
	cr_assert(alone.ok && alone.booted, "%s", alone.why);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(hs_path_run(s, hs_path_find(others[i]), &(struct hs_run_opts){ .trace_limit = LIMIT }, &tmp), 0);
		cr_assert(tmp.ok && tmp.booted, "%s: %s", others[i], tmp.why);
		hs_path_run_free(&tmp);
	}
	cr_assert_eq(hs_path_run(s, hs_path_find("sched-pipe"), &(struct hs_run_opts){ .trace_limit = LIMIT }, &after), 0);
	cr_assert(after.ok, "%s", after.why);
	cr_assert_eq(alone.tr.n, after.tr.n);
	for (size_t i = 0; i < alone.tr.n; i++) {
		cr_assert_eq(hs_trace_pc(&alone.tr, i), hs_trace_pc(&after.tr, i), "record %zu", i);
		cr_assert_eq(alone.tr.v[i].addr, after.tr.v[i].addr, "record %zu", i);
	}
	hs_path_run_free(&after);
	hs_path_run_free(&alone);
	hs_session_free(s);
	hs_session_free(first);
	hs_patched_free(p);
	hs_image_close(img);
}

/* A machine's replay from a point (every CPU) does not depend on the one
 * before it in the session either: each enter leaves the last machine,
 * whose runners' array was its caller's. */
Test(paths, machine_runs_are_independent, .timeout = 600)
{
	struct hs_image *img = open_kernel(hs_kernel("7.2-base"));
	struct hs_patched *p = patch(img, "a53");
	struct hs_path_set set = hs_path_set_builtin;
	struct hs_session *s;
	struct hs_machine_run *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct hs_machine_point mp;
	unsigned k;

	set.ncpus = 2;
	s = hs_session_new(p, HS_SRC_BOOTED, &set);
	cr_assert(s && a, "%s", hs_errmsg());
	for (k = 0; k < hs_session_npoints(s); k++)
		if (!hs_session_machine(s, k, &mp) && !strcmp(mp.name, "pipe"))
			break;
	cr_assert_lt(k, hs_session_npoints(s));
	cr_assert_eq(hs_session_machine_run(s, k, 6, a), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_session_machine_run(s, k, 6, b), 0, "%s", hs_errmsg());
	cr_assert(a->ncpus == 2 && a->nops == 6 && a->nwakes > 0);
	for (unsigned o = 0; o < 6; o++)
		for (unsigned i = 0; i < 2; i++)
			cr_assert_eq(a->op[o][i].insns, b->op[o][i].insns, "op %u cpu%u", o, i);
	free(a);
	hs_session_free(s);
	hs_patched_free(p);
	hs_image_close(img);
}
