/*
 * bench.c - `make bench`: how fast hotsim is, measured (a benchmark, never a
 * test). Prints, medians of several runs, with the machine named:
 *   - load + boot-time patching of one image;
 *   - per core and path: emulation with hotsim's hooks, the same run with
 *     Unicorn alone (no per-instruction hooks), the model alone, and the
 *     end-to-end simulated instructions per second (emulation + model);
 *   - the model's throughput on a long stream (all paths repeated);
 *   - wall time and peak RSS of `hotsim compare` on a real pair, and on a
 *     large image (the BTF+DWARF baseline, ~54 MB) compared with itself.
 * Usage: bench BASE.vmlinux PATCHED.vmlinux HOTSIM-BINARY [LARGE.vmlinux]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "hotsim/measure.h"
#include "hotsim/model.h"
#include "paths/path_internal.h"

#define REPS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, hs_errmsg());
	exit(2);
}

static void machine(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], model[160] = "unknown";

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			snprintf(model, sizeof(model), "%.150s", c ? c + 2 : line);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	if (f)
		fclose(f);
	printf("machine: %s, %ld cores online\n", model, sysconf(_SC_NPROCESSORS_ONLN));
}

/*
 * Emulation time of a path, median of REPS runs from the session's snapshot
 * after one untimed run (so code is translated, as it is for every path
 * after the first in a compare): hooked and traced as hotsim runs it, or
 * bare (Unicorn with no per-instruction hooks) on a second session.
 */
static double emulate(const struct hs_path_def *d, const struct hs_patched *pt, int bare, size_t *n)
{
	struct hs_session *ses = hs_session_new(pt, HS_SRC_AUTO, &hs_path_set_builtin);
	double t[REPS];

	if (!ses)
		die(d->name);
	for (int i = 0; i <= REPS; i++) {
		struct hs_path_run out;
		struct hs_runner *r;
		struct hs_run run;
		double t0;

		memset(&out, 0, sizeof(out));
		out.def = d;
		if (hs_session_prepare(ses, d, &out, &run, &r))
			die(d->name);
		if (bare && hs_rt_bare(r, 1))
			die(d->name);
		hs_trace_init(&out.tr, hs_rt_dcache(r), 1000000);
		run.trace = bare ? NULL : &out.tr;
		if (bare) {
			/* no code hook to answer stubs: make each stubbed function
			 * return 0 in place (benchmark only) so the run is the same */
			for (int k = 0; d->stubs && d->stubs[k]; k++) {
				const struct hs_sym *s = hs_sym_spec(pt->img, d->stubs[k], NULL);
				uint32_t ret0[2] = { 0xd2800000u, 0xd65f03c0u };
				void *at = s ? hs_rt_host(r, s->addr, 8) : NULL;

				if (at)
					memcpy(at, ret0, 8);
			}
		}
		t0 = now();
		if (bare ? hs_rt_run_bare(r, run.pc, run.stop) : hs_rt_run(r, &run))
			die(d->name);
		if (i)
			t[i - 1] = now() - t0;
		if (n && !bare)
			*n = out.tr.n;
		hs_trace_free(&out.tr);
	}
	hs_session_free(ses);
	return median(t, REPS);
}

/* Wall time (median of 3) and peak RSS of `hotsim compare A B`, everything selected. */
static void compare_cli(const char *hotsim, const char *a, const char *b)
{
	double tw[3];
	long rss = 0;
	struct stat st;

	for (int i = 0; i < 3; i++) {
		double t0;
		pid_t pid;

		fflush(stdout);		/* else the child's freopen writes our buffer again */
		t0 = now();
		pid = fork();
		struct rusage ru;
		int status;

		if (pid == 0) {
			if (!freopen("/dev/null", "w", stdout))
				_exit(127);
			execl(hotsim, hotsim, "compare", a, b, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) > 1) {
			fprintf(stderr, "bench: hotsim compare failed\n");
			exit(2);
		}
		tw[i] = now() - t0;
		if (ru.ru_maxrss > rss)
			rss = ru.ru_maxrss;
	}
	printf("\nhotsim compare %s %s\n  (%.0f MB ELF; all paths x all cores, sampled, the defaults): %.2f s, "
	       "peak RSS %.0f MB\n    RSS target <= 300 MB: %.2f of it, %s\n",
	       a, b, stat(a, &st) ? 0.0 : st.st_size / 1048576.0, median(tw, 3), rss / 1024.0,
	       rss / 1024.0 / 300, rss / 1024.0 <= 300 ? "met" : "NOT met");
}

/*
 * Booted paths (the default state): the replay of a path from the cached
 * snapshot, costed typical, as a compare does it per path and core (ms_detail:
 * boot state load, overlay, replay, model), and the model alone on the
 * stream. The snapshot is made first, untimed, if not cached.
 */
static void booted(const struct hs_image *img)
{
	static const char *const paths[] = { "irq-el1", "syscall.getpid", "sched-pipe" };
	const struct ms_options o = { .want[MS_TYPICAL] = 1, .src = HS_SRC_BOOTED };

	printf("\nbooted state (snapshot cached; every sampled operation and its warm-up):\n%-4s %-15s %7s %16s "
	       "%10s %10s\n", "cpu", "path", "insns", "replay+model ms", "model M/s", "of 50 M/s");
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_model *m;

		if (hs_cores[c]->opt_in)
			continue;	/* the default set, as docs/performance.md's table */
		if (!(m = hs_model_new(hs_cores[c])))
			die(hs_cores[c]->name);
		for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
			const struct hs_path_def *d = hs_path_find(paths[k]);
			double td[REPS], tm[REPS];
			struct ms_detail dt;
			struct hs_model_result res;

			if (ms_detail(img, &o, hs_cores[c], d, MS_TYPICAL, &dt) || !dt.run.ok)	/* boots if needed */
				die(d->name);
			ms_detail_free(&dt);
			for (int i = 0; i < REPS; i++) {
				double t0 = now();

				if (ms_detail(img, &o, hs_cores[c], d, MS_TYPICAL, &dt) || !dt.run.ok)
					die(d->name);
				td[i] = now() - t0;
				if (i < REPS - 1)
					ms_detail_free(&dt);
			}
			hs_model_reset(m);
			for (int i = 0; i < REPS; i++) {
				double t0 = now();

				for (int it = 0; it < 20; it++)
					hs_model_run(m, &dt.run.tr, &res, NULL);
				tm[i] = (now() - t0) / 20;
			}
			printf("%-4s %-15s %7zu %16.1f %10.1f %10.2f\n", hs_cores[c]->name, d->name, dt.run.tr.n,
			       1e3 * median(td, REPS), dt.run.tr.n / median(tm, REPS) / 1e6,
			       dt.run.tr.n / median(tm, REPS) / 1e6 / 50);
			ms_detail_free(&dt);
		}
		hs_model_free(m);
	}
}

int main(int argc, char **argv)
{
	static const char *const paths[] = { "irq-el1", "irq-el0", "cswitch" };
	double t[REPS];
	struct hs_image *img;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: bench BASE PATCHED HOTSIM [LARGE-IMAGE]\n");
		return 2;
	}
	machine();
	for (int i = 0; i < REPS; i++) {
		double t0 = now();
		struct hs_patched *p;

		img = hs_image_open(argv[1]);
		if (!img || !(p = hs_patch(img, hs_cores[1])))
			die(argv[1]);
		t[i] = now() - t0;
		hs_patched_free(p);
		hs_image_close(img);
	}
	printf("load + patch one image (%s, a55): %.1f ms\n\n", argv[1], 1e3 * median(t, REPS));

	img = hs_image_open(argv[1]);
	if (!img)
		die(argv[1]);
	printf("synthesized state (path runs from the session snapshot):\n%-4s %-8s %6s %12s %12s %8s %12s %14s\n", "cpu", "path", "insns", "hooked M/s",
	       "unicorn M/s", "ratio", "model M/s", "end-to-end M/s");
	for (int c = 0; hs_cores[c]; c++) {
		struct hs_patched *pt;
		struct hs_model *m;

		if (hs_cores[c]->opt_in)
			continue;	/* the default set, as docs/performance.md's table */
		pt = hs_patch(img, hs_cores[c]);
		m = hs_model_new(hs_cores[c]);
		if (!pt || !m)
			die(hs_cores[c]->name);
		for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
			const struct hs_path_def *d = hs_path_find(paths[k]);
			double th[REPS], tb[REPS], tm[REPS], hooked, bare, model;
			struct ms_detail dt;	/* the library's pipeline */
			struct hs_model_result res;
			size_t n = 0;

			th[0] = emulate(d, pt, 0, &n);
			tb[0] = emulate(d, pt, 1, NULL);
			/* the model on the same stream emulate() timed: synthesized */
			if (ms_detail(img, &(struct ms_options){ .want[MS_WARM] = 1, .src = HS_SRC_SYNTH }, hs_cores[c], d,
				      MS_WARM, &dt) || !dt.run.ok || dt.run.tr.n != n)
				die(d->name);
			hs_model_reset(m);
			for (int i = 0; i < REPS; i++) {
				double t0 = now();

				for (int it = 0; it < 200; it++)
					hs_model_run(m, &dt.run.tr, &res, NULL);
				tm[i] = (now() - t0) / 200;
			}
			hooked = th[0];
			bare = tb[0];
			model = median(tm, REPS);
			printf("%-4s %-8s %6zu %12.2f %12.2f %8.2f %12.1f %14.2f\n", hs_cores[c]->name, d->name, n,
			       n / hooked / 1e6, n / bare / 1e6, hooked / bare, n / model / 1e6,
			       n / (hooked + model) / 1e6);
			ms_detail_free(&dt);
		}
		hs_model_free(m);
		hs_patched_free(pt);
	}
	booted(img);
	hs_image_close(img);

	/* the CLI end to end, as users run it */
	compare_cli(argv[3], argv[1], argv[2]);
	if (argc > 4)
		compare_cli(argv[3], argv[4], argv[4]);
	return 0;
}
