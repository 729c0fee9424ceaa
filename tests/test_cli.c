/*
 * test_cli.c - the inspection commands end to end: image, paths, trace
 * (text and JSON), and their output bounds.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

#define MAX_OUT (8 << 20)

static int run(const char *args, char **out)
{
	char cmd[1024];
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	char *buf = malloc(MAX_OUT);
	size_t n = 0, r;
	FILE *p;
	int st;

	cr_assert(buf);
	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", bin, args);
	p = popen(cmd, "r");
	cr_assert(p);
	while ((r = fread(buf + n, 1, MAX_OUT - 1 - n, p)) > 0)
		n += r;
	buf[n] = 0;
	st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	cr_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static unsigned lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(cli, image_json)
{
	char *out;

	hs_kernel("7.2-base");

	cr_assert_eq(run("image " HS_KPATH("7.2-base") " --cpu a55 --json", &out), 0);
	cr_assert(strstr(out, "\"schema\": 1"));
	cr_assert(strstr(out, "\"kernel\": \"7.2."));
	cr_assert(strstr(out, "\"cpu\": \"a55\""));
	cr_assert(strstr(out, "\"HAS_LSE_ATOMICS\""), "A55's capabilities listed");
	cr_assert(strstr(out, "\"alternatives\": {"));
	cr_assert(strstr(out, "\"jump_labels\": {"));
	free(out);
}

Test(cli, image_list_is_bounded)
{
	char *out;

	hs_kernel("7.2-base");

	cr_assert_eq(run("image " HS_KPATH("7.2-base") " --cpu a55 --list --limit 25", &out), 0);
	cr_assert(strstr(out, "more sites (raise --limit)"), "the listing says it stopped");
	/* header + per-cpu summary + 25 site lines + the notice: well under 100 */
	cr_assert_lt(lines(out), 100);
	free(out);
}

Test(cli, paths_json_and_text)
{
	char *out;

	hs_kernel("7.2-base");
	hs_kernel("7.2-cswitch-inline");

	cr_assert_eq(run("paths " HS_KPATH("7.2-base") " --cpu a53 --path irq-el1 --json", &out), 0);
	cr_assert(strstr(out, "\"path\": \"irq-el1\""));
	cr_assert(strstr(out, "\"ok\": true"));
	cr_assert(strstr(out, "\"name\": \"gic_handle_irq\""));
	cr_assert(strstr(out, "\"name\": \"generic_handle_domain_irq\""), "the stub is reported");
	cr_assert(strstr(out, "\"reg\": \"icc_iar1_el1\""), "the emulated GIC read is recorded");
	free(out);
	cr_assert_eq(run("paths " HS_KPATH("7.2-cswitch-inline") " --cpu a53 --path cswitch", &out), 0);
	cr_assert(strstr(out, "finish_task_switch: not a function in this image"), "%s", out);
	free(out);
}

Test(cli, trace_is_capped)
{
	char *out;

	hs_kernel("7.2-base");

	cr_assert_eq(run("trace " HS_KPATH("7.2-base") " cswitch --cpu a55 --limit 30", &out), 0);
	/* a title line, 30 instructions, the notice */
	cr_assert_eq(lines(out), 32, "got %u lines", lines(out));
	cr_assert(strstr(out, "more instructions (raise --limit)"));
	cr_assert(strstr(out, "__schedule+0x0"), "the stream starts at __schedule");
	free(out);
}

/* run --explain explains one image (it once read a patched image that run
 * does not have, and crashed) */
Test(cli, run_explain_one_image)
{
	char *out;

	hs_kernel("7.2-base");
	cr_assert_eq(run("run " HS_KPATH("7.2-base") " --cpu a53 --path cswitch --explain cswitch", &out),
		     0);
	cr_assert(strstr(out, "explain cswitch on a53:"), "%s", out);
	cr_assert(strstr(out, "__schedule"), "%s", out);
	free(out);
}

/* An explain the patched image cannot produce: one error line, exit 2, and
 * (under the sanitizer build) no leak of the half-made detail. */
Test(cli, explain_failure_exits_2)
{
	hs_kernel("7.2-base");
	cr_assert_eq(run("compare " HS_KPATH("7.2-base") " " HS_FIXTURE("minikernel.elf")
			 " --cpu a53 --path cswitch --explain cswitch", NULL), 2);
}

/* An ordinary static executable, linked at 0x400000 (where hotsim's EL0
 * exit page used to sit): snippet loads it and times sum(). */
Test(cli, snippet_on_a_static_executable)
{
	char *out;

	cr_assert_eq(run("snippet " HS_FIXTURE("user_sum.elf") " --entry sum --cpu a53", &out), 0);
	cr_assert(strstr(out, "sum+0x"), "%s", out);
	free(out);
}
