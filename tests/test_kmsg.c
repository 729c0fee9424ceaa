/*
 * test_kmsg.c - a run that dies in the kernel reports the kernel's own words
 * (kernels/fixtures/kmsg.S; every expected text is written there): panic()
 * formatted from its registers, WARN with __warn_printk()'s message and
 * __bug_table's file:line, BUG, the stack protector, and a pending runtime
 * constant that stops the run at its site.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hotsim/err.h"
#include "emu/kstate.h"
#include "hotsim/patch.h"
#include "emu/runner.h"
#include "testutil.h"

static struct hs_image *img;
static struct hs_runner *r;

static void setup(void)
{
	img = hs_image_open(HS_FIXTURE("kmsg.elf"));
	cr_assert_not_null(img, "%s", hs_errmsg());
	r = hs_runner_new(img, img->mem, NULL);
	cr_assert_not_null(r, "%s", hs_errmsg());
}

static void teardown(void)
{
	hs_runner_free(r);
	hs_image_close(img);
}

TestSuite(kmsg, .init = setup, .fini = teardown);

/* Call fn; it must fail, with want in the message. */
static void dies_with(const char *fn, const char *want)
{
	const struct hs_sym *s = hs_sym_exact(img, fn);

	cr_assert_not_null(s, "%s", fn);
	cr_assert_eq(hs_rt_call(r, fn, s->addr, NULL, 0, 0, 1000, NULL), -1, "%s returned", fn);
	cr_assert(strstr(hs_errmsg(), want), "%s: expected \"%s\" in: %s", fn, want, hs_errmsg());
}

Test(kmsg, panic_message_formatted_from_registers)
{
	dies_with("do_panic", "kernel panic: \"state fork broken: -3 of 7, at do_panic+0x0\"");
}

Test(kmsg, warn_names_file_line_and_message)
{
	dies_with("do_warn", "kernel WARNING at kernel/fake.c:77 (do_warn+0x10): \"bad value 0xabc\"");
}

Test(kmsg, bug_names_file_line)
{
	dies_with("do_bug", "kernel BUG at mm/fake.c:12 (do_bug+0x0)");
}

Test(kmsg, stack_protector)
{
	dies_with("do_chk", "stack protector: __stack_chk_fail, stack corrupted in do_chk+0x4");
}

Test(kmsg, pending_runtime_constant_stops_at_its_site)
{
	struct hs_patch_report rep = { 0 };
	uint8_t *mem = malloc(img->span);

	memcpy(mem, img->mem, img->span);
	cr_assert_eq(hs_apply_runtime_consts(img, mem, &rep), 0, "%s", hs_errmsg());
	/* no variable to read a value from: left as in the file, listed */
	cr_assert_eq(rep.rtconst_sections, 1);
	cr_assert_eq(rep.rtconst[0].source, HS_RTC_PENDING);
	cr_assert_eq(rep.npending, 1);
	cr_assert_eq(rep.pending[0].addr, hs_sym_exact(img, "uses_pending")->addr);
	cr_assert_eq(memcmp(mem, img->mem, img->span), 0, "pending sites are not touched");
	/* settled against a state without the variable: poisoned */
	cr_assert_eq(hs_rtconst_settle(r, &rep), 0, "%s", hs_errmsg());
	dies_with("uses_pending", "runtime constant runtime_ptr_unknown_var site at uses_pending+0x0: "
				  "hotsim does not know the value boot gives unknown_var");
	hs_patch_report_free(&rep);
	free(mem);
}
