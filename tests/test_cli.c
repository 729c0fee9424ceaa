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
	*out = buf;
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

	cr_assert_eq(run("image " HS_KERNEL("base") " --cpu a55 --json", &out), 0);
	cr_assert(strstr(out, "\"schema\": 1"));
	cr_assert(strstr(out, "\"kernel\": \"6.1."));
	cr_assert(strstr(out, "\"cpu\": \"a55\""));
	cr_assert(strstr(out, "\"HAS_LSE_ATOMICS\""), "A55's capabilities listed");
	cr_assert(strstr(out, "\"alternatives\": {"));
	cr_assert(strstr(out, "\"jump_labels\": {"));
	free(out);
}

Test(cli, image_list_is_bounded)
{
	char *out;

	cr_assert_eq(run("image " HS_KERNEL("base") " --cpu a55 --list --limit 25", &out), 0);
	cr_assert(strstr(out, "more sites (raise --limit)"), "the listing says it stopped");
	/* header + per-cpu summary + 25 site lines + the notice: well under 100 */
	cr_assert_lt(lines(out), 100);
	free(out);
}

Test(cli, paths_json_and_text)
{
	char *out;

	cr_assert_eq(run("paths " HS_KERNEL("base") " --cpu a53 --path irq-el1 --json", &out), 0);
	cr_assert(strstr(out, "\"path\": \"irq-el1\""));
	cr_assert(strstr(out, "\"ok\": true"));
	cr_assert(strstr(out, "\"name\": \"gic_handle_irq\""));
	cr_assert(strstr(out, "\"name\": \"generic_handle_domain_irq\""), "the stub is reported");
	cr_assert(strstr(out, "\"reg\": \"icc_iar1_el1\""), "the emulated GIC read is recorded");
	free(out);
	cr_assert_eq(run("paths " HS_KERNEL("cswitch-inline") " --cpu a53 --path cswitch", &out), 0);
	cr_assert(strstr(out, "finish_task_switch: not a function in this image"), "%s", out);
	free(out);
}

Test(cli, trace_is_capped)
{
	char *out;

	cr_assert_eq(run("trace " HS_KERNEL("base") " cswitch --cpu a55 --limit 30", &out), 0);
	/* a title line, 30 instructions, the notice */
	cr_assert_eq(lines(out), 32, "got %u lines", lines(out));
	cr_assert(strstr(out, "more instructions (raise --limit)"));
	cr_assert(strstr(out, "__schedule+0x0"), "the stream starts at __schedule");
	free(out);
}
