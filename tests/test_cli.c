/*
 * test_cli.c - the inspection commands end to end: image, paths, trace
 * (text and JSON), and their output bounds.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hotsim/paths.h"
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
	snprintf(cmd, sizeof(cmd), "HOTSIM_STATE_SOURCE=${HOTSIM_STATE_SOURCE:-synthesized} %s %s 2>/dev/null", bin, args);
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
	cr_assert(strstr(out, "\"schema\": \"hotsim-image/1\""), "%.4000s", out);
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

/* The command's exit status and its first line on stderr (no image is
 * opened by what is refused here, so none is needed) */
static int refused(const char *args, char *line, size_t len)
{
	char cmd[512];
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null", bin, args);
	p = popen(cmd, "r");
	cr_assert(p);
	line[0] = 0;
	cr_assert(fgets(line, (int)len, p), "%s: nothing on stderr", args);
	st = pclose(p);
	cr_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* A clock for a core hotsim does not know is refused, naming the known
 * ones, not ignored (exit 2, before any image is read). */
Test(cli, freq_of_an_unknown_core_refused)
{
	char line[400];

	cr_assert_eq(refused("run nothing.elf --freq a99=1.8GHz", line, sizeof(line)), 2);
	cr_assert(strstr(line, "--freq a99=1.8GHz: unknown cpu 'a99' (known: a53, a55, a73"), "%s", line);
}

/* A board hotsim has no cells of, or none named where one is needed: one
 * line listing the boards there are, exit 2, before any image is read. */
Test(cli, unknown_board_refused_naming_the_boards)
{
	static const char *const args[] = { "fit nothing.elf --board nosuch", "fidelity nothing.elf --board nosuch",
					    "fit nothing.elf" };
	char line[400];

	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		cr_assert_eq(refused(args[i], line, sizeof(line)), 2, "%s", args[i]);
		cr_assert(strstr(line, "(known: am62x, j721e)") && strstr(line, "hotsim: ") == line, "%s: %s",
			  args[i], line);
	}
}

/* A CPU list taskset would not take or the machine lacks, and perf's path
 * where one boot's path is taken: each one line naming what to write
 * instead, exit 2, before any image is read. */
Test(cli, taskset_and_program_paths_refused_with_the_fix)
{
	static const struct { const char *args, *says; } c[] = {
		{ "run nothing.elf --taskset 0-x", "not a CPU list" },
		{ "run nothing.elf --smp 2 --taskset 1-2", "--taskset 1-2: the machine has CPUs 0-1 (--smp 2)" },
		{ "run nothing.elf --taskset 1", "--taskset 1: the machine has CPU 0 (one CPU)" },
		{ "trace nothing.elf perf.sched-pipe", "add --workload perf" },
		{ "trace nothing.elf no-such-path", "unknown path 'no-such-path'" },
		{ "trace nothing.elf syscall.getpid --smp 2", "syscall.getpid runs one CPU" },
		{ "trace nothing.elf sched-pipe --smp 2 --state-source synthesized", "synthesized state runs one CPU" },
		{ "trace nothing.elf sched-pipe --smp 2 --taskset 2", "--taskset 2: the machine has CPUs 0-1" },
	};
	char line[400];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cr_assert_eq(refused(c[i].args, line, sizeof(line)), 2, "%s", c[i].args);
		cr_assert(strstr(line, c[i].says), "%s: %s", c[i].args, line);
		cr_assert(strstr(line, "hotsim: ") == line, "%s: %s", c[i].args, line);
	}
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
	cr_assert(strstr(out, "finish_task_switch: not a function in this image"), "%.4000s", out);
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
	cr_assert(strstr(out, "explain cswitch on a53 (typical, one op): "), "%.4000s", out);
	cr_assert(strstr(out, "__schedule"), "%.4000s", out);
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
	cr_assert(strstr(out, "sum+0x"), "%.4000s", out);
	free(out);
}

/* merge reads files from elsewhere (CI artifacts): whatever is in them -
 * nothing, broken JSON, JSON of another kind, nesting without end - is
 * one line on stderr naming the file, exit 2; never a crash. */
Test(cli, merge_refuses_what_is_not_a_shard)
{
	static const char *const bad[] = {
		"", "{", "[1, 2", "{\"a\": }", "\"open", "{\"a\": \"\\q\"}", "nul", "{} {}", "[]",
		"{\"schema\": \"hotsim-compare/2\"}", "{\"schema\": \"hotsim-shard/1\", \"hotsim\": 7}",
		"{\"a\": 1e999999999999999999999999999999999999999999}",
	};
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	char cmd[512], *out;
	FILE *f;

	for (size_t i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert((f = fopen("/tmp/hotsim-notashard.json", "w")));
		if (i < sizeof(bad) / sizeof(bad[0]))
			fputs(bad[i], f);
		else
			for (int k = 0; k < 100000; k++)
				fputc('[', f);	/* nested beyond any shard */
		fclose(f);
		snprintf(cmd, sizeof(cmd), "%s merge /tmp/hotsim-notashard.json 2>&1 >/dev/null", bin);
		cr_assert_eq(hs_sh(cmd, &out, 4096), 2, "case %zu", i);
		cr_assert(!strncmp(out, "hotsim: /tmp/hotsim-notashard.json: ", 36) && lines(out) == 1,
			  "case %zu: '%s'", i, out);
		free(out);
	}
	unlink("/tmp/hotsim-notashard.json");
	cr_assert_eq(run("merge", NULL), 2, "no shard at all");
}

/*
 * The CLI sweep: every option of every command, as `hotsim help` documents
 * it, run once on a real image (a fixture for snippet), and every command
 * bare on a fixture that is not a kernel. No run may end by a signal or
 * print a sanitizer report (make check runs this under ASan+UBSan too), and
 * every exit status is 0, 1 or 2.
 */
static const char *value_for(const char *opt, const char *meta)
{
	if (!strcmp(opt, "--cpu"))
		return "a55";
	if (!strcmp(opt, "--path"))
		return "irq-el1";
	if (!strcmp(meta, "N"))
		return "5";
	if (!strcmp(meta, "FMT"))
		return "json";
	if (!strcmp(meta, "S"))
		return "warm";
	if (!strcmp(meta, "PATH"))
		return "irq-el1";
	if (!strcmp(meta, "FILE"))
		return "/tmp/hotsim-sweep.svg";
	if (!strcmp(meta, "A:B"))
		return "0:10";
	if (!strcmp(meta, "PCT"))
		return "1";
	if (!strcmp(meta, "[CORE.]NAME=V"))
		return "a55.isb=20";
	if (!strcmp(meta, "SYMBOL"))
		return "sum";
	if (!strcmp(meta, "V"))
		return "3";
	if (!strcmp(meta, "CPUS"))
		return "0";
	return "";
}

static void sweep_one(const char *cmdline)
{
	char cmd[1400];
	FILE *p;
	char line[512];
	int st, sanitizer = 0;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null",
		 getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim", cmdline);
	p = popen(cmd, "r");
	cr_assert(p);
	while (fgets(line, sizeof(line), p))
		sanitizer |= strstr(line, "Sanitizer") != NULL || strstr(line, "runtime error") != NULL;
	st = pclose(p);
	cr_assert(WIFEXITED(st), "hotsim %s: ended by a signal", cmdline);
	cr_assert_leq(WEXITSTATUS(st), 2, "hotsim %s: exit %d", cmdline, WEXITSTATUS(st));
	cr_assert(!sanitizer, "hotsim %s: sanitizer report", cmdline);
}

Test(cli, sweep_every_documented_option, .timeout = 900)
{
	char *help, *save = NULL, cmd[64] = "", args[512] = "";

	hs_kernel("7.2-base");
	cr_assert_eq(run("help", &help), 0);
	for (char *l = strtok_r(help, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char opt[64], meta[64] = "", line[1024], fixture[512];
		const char *pos;

		if (!strncmp(l, "hotsim ", 7)) {
			/* "hotsim compare BASE PATCHED [options]": the command and its positionals */
			sscanf(l + 7, "%63s", cmd);
			/* pair, series: a tree that is not there, so they stop before building */
			pos = !strcmp(cmd, "compare") ? HS_KPATH("7.2-base") " " HS_KPATH("7.2-null") :
			      !strcmp(cmd, "trace") ? HS_KPATH("7.2-base") " cswitch" :
			      !strcmp(cmd, "snippet") ? HS_FIXTURE("user_sum.elf") " --entry sum" :
			      !strcmp(cmd, "pair") ? "/nonexistent/tree --patch /nonexistent.diff" :
			      !strcmp(cmd, "series") ? "/nonexistent/tree --patches /nonexistent.diff" :
			      !strcmp(cmd, "models") ? "" : HS_KPATH("7.2-base");
			/* the commands that replay: one core and one path, not every path
			 * per option (validate boots QEMU again for each) */
			snprintf(args, sizeof(args), "%s%s", pos,
				 !strcmp(cmd, "run") || !strcmp(cmd, "compare") || !strcmp(cmd, "validate") ?
				 " --cpu a53 --path irq-el1" : "");
			/* bare, on a fixture that is not a kernel: a clean error */
			snprintf(fixture, sizeof(fixture), "%s %s", cmd,
				 !strcmp(cmd, "compare") ? HS_FIXTURE("minikernel.elf") " " HS_FIXTURE("tiny.elf") :
				 !strcmp(cmd, "trace") ? HS_FIXTURE("minikernel.elf") " cswitch" :
				 !strcmp(cmd, "snippet") ? HS_FIXTURE("tiny.elf") " --entry nosuch" :
				 !strcmp(cmd, "pair") ? HS_FIXTURE("minikernel.elf") " --patch /dev/null" :
				 !strcmp(cmd, "series") ? HS_FIXTURE("minikernel.elf") " --patches /dev/null" :
				 !strcmp(cmd, "models") ? "" : HS_FIXTURE("minikernel.elf"));
			sweep_one(fixture);
			continue;
		}
		if (sscanf(l, " %63s %63s", opt, meta) < 1 || strncmp(opt, "--", 2) || !cmd[0])
			continue;
		if (meta[0] != '[' && (meta[0] < 'A' || meta[0] > 'Z'))
			meta[0] = 0;	/* a flag: the next word is its help */
		snprintf(line, sizeof(line), "%s %s %s %s", cmd, args, opt, meta[0] ? value_for(opt, meta) : "");
		sweep_one(line);
		snprintf(line, sizeof(line), "%s --help", cmd);
		sweep_one(line);
	}
	unlink("/tmp/hotsim-sweep.svg");
	unlink("/tmp/hotsim-sweep-timeline.svg");
	free(help);
}

/*
 * A new core is a data file plus one registry line, a new path a file plus
 * one line: build/hotsim-extra links a throwaway of each
 * (tests/extra_registry.c), and both appear wherever hotsim lists or
 * accepts cores and paths - help, errors, models, image, paths, run.
 */
static int run_extra(const char *args, char **out)
{
	char cmd[1024];
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	char dir[512];
	size_t n = 0, r;
	char *buf = malloc(MAX_OUT);
	FILE *p;
	int st;

	/* hotsim-extra sits beside the hotsim the tests run */
	snprintf(dir, sizeof(dir), "%s", bin);
	*strrchr(dir, '/') = 0;
	snprintf(cmd, sizeof(cmd), "HOTSIM_STATE_SOURCE=synthesized %s/hotsim-extra %s 2>&1", dir, args);
	p = popen(cmd, "r");
	cr_assert(p && buf);
	while ((r = fread(buf + n, 1, MAX_OUT - 1 - n, p)) > 0)
		n += r;
	buf[n] = 0;
	st = pclose(p);
	*out = buf;
	cr_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* Whether the file holds the bytes of s (its symbol names, say). */
static int holds(const char *file, const char *s)
{
	size_t n;
	uint8_t *b = hs_test_slurp(file, &n);
	int found = b && memmem(b, n, s, strlen(s)) != NULL;

	cr_assert_not_null(b, "%s", file);
	free(b);
	return found;
}

/* A booted path's user-side operation is in its own file too: the
 * throwaway's getuid() site is in the workload hotsim-extra embeds (its
 * symbol table names the site's function, hs_at_extra_fn, which no host
 * code does), and in no other. */
Test(cli, registries_a_new_path_brings_its_user_side)
{
	const char *bin = getenv("HOTSIM_BIN") ? getenv("HOTSIM_BIN") : "build/hotsim";
	char extra[512];

	snprintf(extra, sizeof(extra), "%s", bin);
	snprintf(strrchr(extra, '/') + 1, sizeof(extra) - (size_t)(strrchr(extra, '/') + 1 - extra), "hotsim-extra");
	cr_assert(holds(extra, "hs_at_extra_fn"), "hotsim-extra's workload has the extra path's site");
	cr_assert(holds(extra, "hs_at_getppid_fn"), "... and every other path's");
	cr_assert(!holds(bin, "hs_at_extra_fn"), "hotsim's workload has no extra site");
	cr_assert(holds(bin, "hs_at_getppid_fn"));
}

/* The registry's last path before the throwaway one, which follows it. */
static const char *last_path(void)
{
	const char *last = "";

	for (int i = 0; hs_paths[i]; i++)
		if (strcmp(hs_paths[i]->name, "extra.probe"))
			last = hs_paths[i]->name;
	return last;
}

/* The machine paths' list a refusal names: whole names, or "..." where the
 * buffer ends, never a name cut short. */
Test(cli, machine_path_names_end_in_an_ellipsis_not_half_a_name)
{
	char full[200], part[16];

	hs_path_machine_names(full, sizeof(full));
	cr_assert(strstr(full, "sched-pipe") && strstr(full, "unix.stream") && !strstr(full, "..."), "%s", full);
	hs_path_machine_names(part, sizeof(part));
	cr_assert(strlen(part) < sizeof(part) && strstr(part, "...") == part + strlen(part) - 3, "%s", part);
	cr_assert(!strncmp(full, part, strlen(part) - 3), "'%s' is not a prefix of '%s'", part, full);
}

Test(cli, registries_a_new_core_and_path_appear_everywhere)
{
	char *out, want[300];
	unsigned nparams;

	/* the registry's default set (this binary's: hotsim's own), then t99 */
	cr_assert_eq(run_extra("help", &out), 0);
	snprintf(want, sizeof(want), "%s, t99, or all", hs_core_default_names());
	cr_assert(strstr(out, want), "cores in help, want '%s': %s", want, out);
	/* the lists wrap at any word: read them as one line */
	for (char *c = out, *d = out;; c++) {
		if (*c == '\n' || (*c == ' ' && d > out && d[-1] == ' '))
			continue;
		if (!(*d++ = *c))
			break;
	}
	snprintf(want, sizeof(want), "%s, extra.probe, or all", last_path());
	cr_assert(strstr(out, want), "paths in help, want '%s': %s", want, out);
	free(out);
	cr_assert_eq(run_extra("models --cpu nosuch", &out), 2);
	snprintf(want, sizeof(want), "known: %s, t99", hs_core_names());
	cr_assert(strstr(out, want), "want '%s': %s", want, out);
	free(out);
	cr_assert_eq(run_extra("models --cpu t99", &out), 0);
	cr_assert(strstr(out, "Throwaway T99"), "%.4000s", out);
	free(out);
	/* every parameter listed for t99 as for a53, the ones its file does
	 * not set with the engines' default, uncalibrated */
	cr_assert_eq(run_extra("models --cpu a53 --json", &out), 0);
	nparams = hs_count(out, "\"calibrated\": ");
	free(out);
	cr_assert_eq(run_extra("models --cpu t99 --json", &out), 0);
	cr_assert_gt(nparams, 0);
	cr_assert_eq(hs_count(out, "\"calibrated\": "), nparams, "%.4000s", out);
	cr_assert_eq(hs_count(out, "\"calibrated\": false"), nparams);
	cr_assert_gt(hs_count(out, "\"source\": \"A: default: "), 0);
	free(out);
	/* and the plain hotsim has neither */
	cr_assert_eq(run("help", &out), 0);
	cr_assert_null(strstr(out, "t99"));
	cr_assert_null(strstr(out, "extra.probe"));
	free(out);
}

Test(cli, registries_a_new_core_and_path_run)
{
	char *out;

	hs_kernel("7.2-base");
	cr_assert_eq(run_extra("image " HS_KPATH("7.2-base") " --cpu t99", &out), 0);
	cr_assert(strstr(out, "cpu t99"), "%.4000s", out);
	free(out);
	cr_assert_eq(run_extra("paths " HS_KPATH("7.2-base") " --cpu t99 --path extra.probe", &out), 0);
	cr_assert(strstr(out, "extra.probe on t99:"), "%.4000s", out);
	free(out);
	cr_assert_eq(run_extra("run " HS_KPATH("7.2-base") " --cpu a53,t99 --state warm", &out), 0);
	cr_assert_gt(hs_row_value(out, "extra.probe", "t99", "warm"), 0, "%.4000s", out);
	cr_assert_gt(hs_row_value(out, "cswitch", "t99", "warm"), 0, "%.4000s", out);
	free(out);
}

/*
 * t99's pipes, through `hotsim snippet` on bench_multput
 * (kernels/fixtures/bench_alu.S): groups of four independent muls, 8 in
 * _a and 24 in _b. t99 dispatches two per cycle to two pipelined multiply
 * pipes, 2 cycles a group; with --param t99.mul_pipes=1, 4 cycles a
 * group: _b - _a is 16 x 2 = 32 and 16 x 4 = 64 warm cycles.
 */
static long snippet_warm(const char *entry, const char *extra)
{
	char args[512], *out, *p;
	long v = -1;

	snprintf(args, sizeof(args), "snippet %s --entry %s --cpu t99 --json %s",
		 HS_FIXTURE("bench_alu.elf"), entry, extra);
	cr_assert_eq(run_extra(args, &out), 0, "%.4000s", out);
	p = strstr(out, "\"warm\": {");
	p = p ? strstr(p, "\"cycles\": ") : NULL;
	cr_assert_not_null(p, "%.4000s", out);
	sscanf(p + strlen("\"cycles\": "), "%ld", &v);
	free(out);
	return v;
}

Test(cli, extra_core_pipes_change_a_snippet)
{
	long two = snippet_warm("bench_multput_b", "") - snippet_warm("bench_multput_a", "");
	long one = snippet_warm("bench_multput_b", "--param t99.mul_pipes=1") -
		   snippet_warm("bench_multput_a", "--param t99.mul_pipes=1");

	cr_expect_eq(two, 16 * 2, "two multiply pipes: %ld cycles for 16 groups", two);
	cr_expect_eq(one, 16 * 4, "one multiply pipe: %ld cycles for 16 groups", one);
}

/*
 * t99's MIDR is a Cortex-A75's, which Linux's kpti_safe_list
 * (cpufeature.c unmap_kernel_at_el0()) leaves out, and its ID_AA64PFR0_EL1
 * has no CSV3: the patcher detects KPTI on the real image, and the Spectre
 * states follow from proton-pack.c's lists (no v2 or BHB safe list, no
 * CSV2, on no BHB loop list: both affected, firmware-mitigated; no SSBS
 * but WA2 "not required": no SPECTRE_V4). The cores on kpti_safe_list get
 * no KPTI. No QEMU CPU is Meltdown-affected, so t99 gets no booted state:
 * refused with the reason, synthesized state instead.
 */
Test(cli, extra_core_meltdown_kpti_and_no_booted_state)
{
	char *out, *t;

	hs_kernel("7.2-base");
	cr_assert_eq(run_extra("image " HS_KPATH("7.2-base") " --cpu t99 --json", &out), 0);
	t = strstr(out, "\"cpucaps\": [");
	cr_assert_not_null(t, "%.4000s", out);
	*strchr(t, ']') = 0;
	cr_assert(strstr(t, "\"UNMAP_KERNEL_AT_EL0\""), "t99 caps: %s", t);
	cr_assert(strstr(t, "\"SPECTRE_V2\"") && strstr(t, "\"SPECTRE_BHB\""), "t99 caps: %s", t);
	cr_assert_null(strstr(t, "\"SPECTRE_V4\""), "t99 caps: %s", t);
	free(out);
	cr_assert_eq(run("image " HS_KPATH("7.2-base") " --json", &out), 0);
	cr_assert_null(strstr(out, "\"UNMAP_KERNEL_AT_EL0\""), "a modelled core got KPTI");
	free(out);
	cr_assert_eq(run_extra("run " HS_KPATH("7.2-base") " --cpu t99 --path syscall.getpid "
			       "--state-source booted --json", &out), 0);
	cr_assert(strstr(out, "needs KPTI") && strstr(out, "not booted"), "%.4000s", out);
	free(out);
	/* where the state comes from (auto): synthesized, saying why */
	cr_assert_eq(run_extra("paths " HS_KPATH("7.2-base") " --cpu t99 --path cswitch "
			       "--state-source auto --json", &out), 0);
	t = strstr(out, "\"state_source\": ");
	cr_assert(t && !strncmp(t, "\"state_source\": \"synthesized\"", 29), "%.4000s", out);
	cr_assert(strstr(t, "needs KPTI") && strstr(t, "not booted"), "%.4000s", out);
	free(out);
}

/*
 * The opt-in cores (issue 21): every command's default --cpu is the design
 * card's three, and the help lists those;
 * --cpu all and the names select the others, `hotsim models` lists all six,
 * the completion and the manual page name them. A fixture, no kernel.
 */
Test(cli, opt_in_cores_only_by_name_or_all)
{
	static const char *const opt_in[] = { "a72", "a76", "n1" };
	char *out, want[64];

	cr_assert_eq(run("image " HS_FIXTURE("minikernel.elf"), &out), 0, "%.4000s", out);
	cr_assert(strstr(out, "\ncpu a53 ") && strstr(out, "\ncpu a55 ") && strstr(out, "\ncpu a73 "), "%.4000s", out);
	for (size_t i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "\ncpu %s ", opt_in[i]);
		cr_assert_null(strstr(out, want), "%s in a run without --cpu", opt_in[i]);
	}
	free(out);
	cr_assert_eq(run("image " HS_FIXTURE("minikernel.elf") " --cpu all", &out), 0, "%.4000s", out);
	cr_assert_eq(hs_count(out, "\ncpu "), hs_ncores(), "%.4000s", out);
	free(out);
	cr_assert_eq(run("image " HS_FIXTURE("minikernel.elf") " --cpu neoverse-n1,a76", &out), 0, "%.4000s", out);
	cr_assert(strstr(out, "\ncpu n1 ") && strstr(out, "\ncpu a76 ") && !strstr(out, "\ncpu a53 "), "%.4000s", out);
	free(out);
	cr_assert_eq(run("models", &out), 0);
	cr_assert(strstr(out, "a72  Cortex-A72 r0p3") && strstr(out, "a76  Cortex-A76 r4p1") &&
		  strstr(out, "n1  Neoverse N1 r3p1") && strstr(out, "a53  Cortex-A53"), "%.2000s", out);
	free(out);
	cr_assert_eq(run("help", &out), 0);
	cr_assert(strstr(out, "cores (a53, a55, a73, or all)"), "%.2000s", out);
	free(out);
	cr_assert_eq(run("help --bash-completion", &out), 0);
	cr_assert(strstr(out, "a72") && strstr(out, "a76") && strstr(out, "n1"), "%.2000s", out);
	free(out);
	cr_assert_eq(run("help --man", &out), 0);
	cr_assert(strstr(out, "Neoverse N1"), "%.2000s", out);
	free(out);
}

/*
 * `hotsim models` marks the parameters that are a time outside the core's
 * clock - the DRAM's latency and an IPI's delivery - which a board at
 * another clock counts in its own cycles (docs/models.md), in the text's
 * unit column and as JSON's "time"; the rest (an L2 hit, a handover inside
 * the cluster) are the core's own cycles.
 */
Test(cli, models_mark_the_times)
{
	char *out;

	cr_assert_eq(run("models --cpu a53", &out), 0, "%.2000s", out);
	cr_assert_eq(hs_count(out, "(time)"), 2, "%.6000s", out);
	cr_assert(strstr(out, "mem_latency                   180 cycles (time)"), "%.6000s", out);
	cr_assert(strstr(out, "ipi_latency                   300 cycles (time)"), "%.6000s", out);
	cr_assert(strstr(out, "l2_latency                     13 cycles  "), "%.6000s", out);
	free(out);
	cr_assert_eq(run("models --cpu a53 --json", &out), 0, "%.2000s", out);
	cr_assert_eq(hs_count(out, "\"time\": true"), 2, "%.6000s", out);
	free(out);
}
