/*
 * test_runner.c - the runner on real arm64 code (kernels/fixtures/runner.S):
 * results, exact instruction counts, stubs, budgets, faults with call
 * stacks, BUG traps, the emulated GICv3 CPU interface, firmware calls,
 * deterministic counters and LSE atomics on the MAX model.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "hotsim/err.h"
#include "emu/runner.h"
#include "testutil.h"

static struct hs_image *img;
static struct hs_runner *r;

static void setup(void)
{
	img = hs_image_open(HS_FIXTURE("runner.elf"));
	cr_assert_not_null(img, "%s", hs_errmsg());
	r = hs_runner_new(img, img->mem, NULL);
	cr_assert_not_null(r, "%s", hs_errmsg());
}

static void teardown(void)
{
	hs_runner_free(r);
	hs_image_close(img);
}

static uint64_t fn(const char *name)
{
	const struct hs_sym *s = hs_sym_exact(img, name);

	cr_assert_not_null(s, "%s", name);
	return s->addr;
}

TestSuite(runner, .init = setup, .fini = teardown);

Test(runner, call_returns_result_and_trace_is_exact)
{
	struct hs_trace tr;
	uint64_t ret = 0, arg = 41;

	hs_trace_init(&tr, hs_rt_dcache(r), 1000);
	cr_assert_eq(hs_rt_call(r, "t", fn("add_one"), &arg, 1, 0, 100, &ret), 0, "%s", hs_errmsg());
	cr_assert_eq(ret, 42);
	/* traced run: add, ret - exactly two records, in order */
	hs_rt_set_reg(r, UC_ARM64_REG_X0, 1);
	hs_rt_set_reg(r, UC_ARM64_REG_X30, HS_EXIT_VA);
	struct hs_run run = { .what = "t", .pc = fn("add_one"), .budget = 100, .trace = &tr };
	cr_assert_eq(hs_rt_run(r, &run), 0, "%s", hs_errmsg());
	cr_assert_eq(tr.n, 2);
	cr_assert_eq(hs_trace_pc(&tr, 0), fn("add_one"));
	cr_assert_eq(hs_trace_insn(&tr, 0)->cls, A64_C_ALU);
	cr_assert_eq(hs_trace_insn(&tr, 1)->cls, A64_C_RET);
	hs_trace_free(&tr);
}

Test(runner, stub_returns_at_once_and_is_reported)
{
	struct hs_trace tr;
	uint64_t ret = 0;

	hs_trace_init(&tr, hs_rt_dcache(r), 1000);
	cr_assert_eq(hs_rt_stub(r, "ext", 41), 0);
	hs_rt_set_reg(r, UC_ARM64_REG_X30, HS_EXIT_VA);
	hs_rt_set_reg(r, UC_ARM64_REG_SP, HS_HEAP_VA + 0x10000);
	struct hs_run run = { .what = "t", .pc = fn("calls_ext"), .budget = 100, .trace = &tr };
	cr_assert_eq(hs_rt_run(r, &run), 0, "%s", hs_errmsg());
	ret = hs_rt_reg(r, UC_ARM64_REG_X0);
	cr_assert_eq(ret, 42);
	/* stp, bl, (ext stubbed: not executed), add, ldp, ret */
	cr_assert_eq(tr.n, 5);
	cr_assert_eq(tr.nstubs, 1);
	cr_assert_str_eq(tr.stubs[0].name, "ext");
	cr_assert(tr.v[1].flags & HS_T_STUB);
	/* memory addresses of the stack accesses were recorded */
	cr_assert_eq(tr.v[0].addr, HS_HEAP_VA + 0x10000 - 16);
	hs_trace_free(&tr);
}

Test(runner, runaway_hits_budget)
{
	cr_assert_neq(hs_rt_call(r, "spin-test", fn("spin"), NULL, 0, 0, 5000, NULL), 0);
	cr_assert(strstr(hs_errmsg(), "spin-test"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "budget of 5000"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "spin+0x0"), "%s", hs_errmsg());
}

Test(runner, fault_names_access_pc_and_caller)
{
	uint64_t arg = 0x1234000;

	cr_assert_neq(hs_rt_call(r, "fault-test", fn("calls_load"), &arg, 1, 0, 100, NULL), 0);
	cr_assert(strstr(hs_errmsg(), "fault-test: fault: read of unmapped 0x1234000"), "%s",
		  hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "at load_from+0x0"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "called from calls_load+0x4"), "%s", hs_errmsg());
}

Test(runner, bug_trap)
{
	cr_assert_neq(hs_rt_call(r, "bug-test", fn("bug"), NULL, 0, 0, 100, NULL), 0);
	cr_assert(strstr(hs_errmsg(), "BUG()/WARN() (brk #0x800) at bug+0x0"), "%s", hs_errmsg());
}

Test(runner, gic_cpu_interface)
{
	uint64_t ret = 0;

	hs_rt_gic_raise(r, 27);	/* the virtual timer PPI */
	cr_assert_eq(hs_rt_call(r, "gic", fn("gic_ack"), NULL, 0, 0, 100, &ret), 0, "%s", hs_errmsg());
	cr_assert_eq(ret, 27);
	cr_assert_eq(hs_rt_reg(r, UC_ARM64_REG_X1), 0xf0);
	/* acknowledged: the next read is spurious */
	cr_assert_eq(hs_rt_call(r, "gic", fn("gic_ack"), NULL, 0, 0, 100, &ret), 0, "%s", hs_errmsg());
	cr_assert_eq(ret, 1023);
}

Test(runner, unknown_sysreg_is_named)
{
	cr_assert_neq(hs_rt_call(r, "sysreg", fn("unknown_sysreg"), NULL, 0, 0, 100, NULL), 0);
	cr_assert(strstr(hs_errmsg(), "S3_1_C15_C2_0"), "%s", hs_errmsg());
	cr_assert(strstr(hs_errmsg(), "unknown_sysreg+0x0"), "%s", hs_errmsg());
}

Test(runner, firmware_call)
{
	uint64_t ret = 0;

	cr_assert_eq(hs_rt_call(r, "smc", fn("fw_call"), NULL, 0, 0, 100, &ret), 0, "%s", hs_errmsg());
	cr_assert_eq(ret, 0x10001);	/* SMCCC 1.1 */
}

Test(runner, counters_are_deterministic)
{
	uint64_t a = 0, b = 0;

	cr_assert_eq(hs_rt_call(r, "cnt", fn("counter_delta"), NULL, 0, 0, 1000, &a), 0, "%s",
		     hs_errmsg());
	cr_assert_eq(hs_rt_call(r, "cnt", fn("counter_delta"), NULL, 0, 0, 1000, &b), 0, "%s",
		     hs_errmsg());
	/* 200 iterations x 2 instructions + 2 = 402 instructions between reads:
	 * 402 / 40 instructions per tick = 10 ticks (+1 depending on phase) */
	cr_assert(a >= 10 && a <= 11, "delta %llu", (unsigned long long)a);
	cr_assert(b >= 10 && b <= 11, "delta %llu", (unsigned long long)b);
}

Test(runner, lse_atomic_on_max_model)
{
	uint64_t args[2] = { fn("cell"), 5 }, v = 0;

	cr_assert_eq(hs_rt_call(r, "lse", fn("lse_add"), args, 2, 0, 100, NULL), 0, "%s", hs_errmsg());
	cr_assert_eq(hs_rt_read64(r, fn("cell"), &v), 0);
	cr_assert_eq(v, 105);	/* cell: .quad 100 */
}
