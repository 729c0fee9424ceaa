/*
 * parallel.c - measuring several (image, core) pairs at once, each in a
 * process of its own, or in several.
 *
 * A pair is independent of every other: its own patched image, session,
 * boot (a QEMU process and the snapshot it leaves in the cache), replay
 * and model. So each runs in a forked child, at most `jobs` at a time,
 * and sends its rows back through a temporary file; the parent puts them
 * in the order a serial run makes (image by image, core by core, path by
 * path), so the output does not depend on how many ran at once or which
 * finished first. The one dependency: an image measured at another's sites
 * (ms_options.pin_from: compare's patched image) needs that image's rows
 * of the same core, so its pair starts only when they are in.
 *
 * When there are fewer pairs to start than lanes (one core, or four lanes
 * for three cores), a pair's paths are split over several processes, each
 * a finer shard of the same units (split_shard): a path's rows do not
 * depend on which paths ran before it in its process, as `--shard` and
 * `hotsim merge` already rely on. Each process loads the image and the
 * snapshot again (a few hundred ms), so pairs enough for the lanes are
 * not split.
 *
 * Why processes, not threads: Unicorn and the boot's QEMU children are
 * per process anyway, and a child cannot corrupt the parent's rows; a
 * child that dies is one error naming the image and core.
 *
 * jobs: HOTSIM_JOBS if set (1: everything in this process, no fork), else
 * the CPUs online, at most one per GiB of available memory (a lane is one
 * core's measuring process - up to ~1 GB on a distro image, most of it
 * fork's trace - or a booting guest's 256 MB and its QEMU).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "measure_internal.h"

enum task_state { WAITING, RUNNING, DONE };

struct task {
	struct ms_image *img;
	const struct ms_options *o;
	int core;		/* index in o->cores */
	unsigned shard, nshards;	/* the share of the pair's units it measures */
	enum task_state state;
	pid_t pid;
	FILE *f;		/* the child's rows */
	/* rows in the parent, once done: a block of img->rows */
	int first, n;
};

/* How many at once: HOTSIM_JOBS, else the CPUs online, at most one per
 * GiB of available memory. */
static unsigned ms_jobs(void)
{
	const char *e = getenv("HOTSIM_JOBS");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long avail_kb = 0;
	char line[128];
	FILE *f;
	unsigned j;

	if (e && *e) {
		long v = strtol(e, NULL, 10);

		return v < 1 ? 1 : v > 64 ? 64 : (unsigned)v;
	}
	j = cpus < 1 ? 1 : cpus > 64 ? 64 : (unsigned)cpus;
	if ((f = fopen("/proc/meminfo", "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemAvailable: %llu kB", &avail_kb) == 1)
				break;
		fclose(f);
	}
	if (avail_kb && avail_kb / (1024 * 1024) < j)
		j = avail_kb < 1024 * 1024 ? 1 : (unsigned)(avail_kb / (1024 * 1024));
	return j;
}

/* --- rows through a file: the struct, then what its pointers own ------- */

static int put(FILE *f, const void *p, size_t n)
{
	return n == 0 || fwrite(p, n, 1, f) == 1 ? 0 : -1;
}

static int get(FILE *f, void *p, size_t n)
{
	return n == 0 || fread(p, n, 1, f) == 1 ? 0 : -1;
}

/* A row's pointers are the parent's too (path, def and cpu point at data
 * the parent had before the fork); what the child allocated - each
 * state's samples, the function profile - is written after it. */
static int put_rows(FILE *f, const struct ms_row *v, int n)
{
	if (put(f, &n, sizeof(n)))
		return -1;
	for (int i = 0; i < n; i++) {
		if (put(f, &v[i], sizeof(v[i])))
			return -1;
		for (int st = 0; st < MS_NSTATES; st++)
			if (v[i].s[st].v && put(f, v[i].s[st].v, v[i].s[st].d.n * sizeof(double)))
				return -1;
		if (v[i].fns && put(f, v[i].fns, (size_t)v[i].nfns * sizeof(*v[i].fns)))
			return -1;
	}
	return 0;
}

static int get_rows(FILE *f, struct ms_image *img)
{
	int n;

	if (get(f, &n, sizeof(n)) || n < 0 || n > MS_MAX_ROWS - img->nrows)
		return -1;
	for (int i = 0; i < n; i++) {
		struct ms_row r;
		int bad = 0;

		if (get(f, &r, sizeof(r)))
			return -1;
		/* the child's pointers say only whether an array follows */
		for (int st = 0; st < MS_NSTATES; st++) {
			size_t len = r.s[st].d.n * sizeof(double);

			if (!r.s[st].v)
				continue;
			r.s[st].v = bad ? NULL : malloc(len ? len : 1);
			bad = bad || !r.s[st].v || get(f, r.s[st].v, len);
		}
		if (r.fns) {
			size_t len = (size_t)(r.nfns > 0 ? r.nfns : 0) * sizeof(*r.fns);

			r.fns = bad ? NULL : malloc(len ? len : 1);
			bad = bad || !r.fns || get(f, r.fns, len);
		}
		/* in the image either way: ms_free frees what was allocated */
		img->rows[img->nrows++] = r;
		if (bad)
			return -1;
	}
	return 0;
}

static void free_rows(struct ms_image *img, int from)
{
	for (int i = from; i < img->nrows; i++) {
		free(img->rows[i].fns);
		for (int st = 0; st < MS_NSTATES; st++)
			free(img->rows[i].s[st].v);
	}
	img->nrows = from;
}

/* --- the child ---------------------------------------------------------- */

static void child(struct task *t, pid_t parent)
{
	int from = t->img->nrows, rc;

	/* a killed hotsim leaves no measuring process behind - nor, through
	 * the same signal in qemu.c, a QEMU of one */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(4);

	{
		struct ms_options o = *t->o;

		o.shard = t->shard;
		o.nshards = t->nshards;
		rc = ms_measure_core(&o, t->core, t->img);
	}
	if (!rc) {
		int ok = 0;

		rc = put(t->f, &ok, sizeof(ok)) || put_rows(t->f, t->img->rows + from, t->img->nrows - from);
	} else {
		int bad = 1;
		const char *msg = hs_errmsg();

		put(t->f, &bad, sizeof(bad));
		put(t->f, msg, strlen(msg) + 1);
		rc = 0;
	}
	if (fflush(t->f))
		rc = -1;
	free_rows(t->img, from);
	fclose(t->f);
	fflush(NULL);
	_exit(rc ? 3 : 0);
}

/* --- the parent --------------------------------------------------------- */

static const char *task_name(const struct task *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s on %s", t->img->img ? t->img->img->path : "the image",
		 t->o->cores[t->core]->name);
	return buf;
}

/* The child of t has ended with status ws: read its rows. */
static int collect(struct task *t, int ws)
{
	char who[600], msg[2048];
	int status = -1;

	t->state = DONE;
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		fclose(t->f);
		t->f = NULL;
		if (WIFSIGNALED(ws))
			return hs_fail("measuring %s: the measuring process died of signal %d",
				       task_name(t, who, sizeof(who)), WTERMSIG(ws));
		return hs_fail("measuring %s: the measuring process exited with status %d",
			       task_name(t, who, sizeof(who)), WEXITSTATUS(ws));
	}
	rewind(t->f);
	t->first = t->img->nrows;
	if (get(t->f, &status, sizeof(status)))
		status = -1;
	if (status == 1) {
		size_t n = fread(msg, 1, sizeof(msg) - 1, t->f);

		msg[n] = 0;
		fclose(t->f);
		t->f = NULL;
		return hs_fail("%s", msg);
	}
	if (status != 0 || get_rows(t->f, t->img)) {
		fclose(t->f);
		t->f = NULL;
		return hs_fail("measuring %s: the measuring process's rows are unreadable",
			       task_name(t, who, sizeof(who)));
	}
	t->n = t->img->nrows - t->first;
	fclose(t->f);
	t->f = NULL;
	return 0;
}

/* Waiting, and not pinned to an image whose rows of its core are not all in. */
static int ready(const struct task *v, int n, const struct task *t)
{
	if (t->state != WAITING)
		return 0;
	for (int i = 0; i < n && t->o->pin_from; i++)
		if (v[i].img == t->o->pin_from && v[i].o->cores[v[i].core] == t->o->cores[t->core] &&
		    v[i].state != DONE)
			return 0;
	return 1;
}

static int start(struct task *t)
{
	if (!(t->f = tmpfile()))
		return hs_fail("cannot create a temporary file for the measuring process: %s", strerror(errno));
	pid_t parent = getpid();

	fflush(NULL);
	t->pid = fork();
	if (t->pid < 0) {
		fclose(t->f);
		t->f = NULL;
		return hs_fail("cannot fork a measuring process: %s", strerror(errno));
	}
	if (t->pid == 0)
		child(t, parent);
	t->state = RUNNING;
	return 0;
}

/* Put an image's rows back in the serial order: core by core, path by
 * path, from whichever of its tasks measured the path (a task's rows are
 * in path order). The tasks' blocks lie in the order they finished, so
 * the rows are rebuilt from a copy. */
static int reorder(const struct task *v, int n, struct ms_image *img, const struct ms_options *o)
{
	struct ms_row *copy = malloc((size_t)(img->nrows ? img->nrows : 1) * sizeof(*copy));
	int *at = calloc((size_t)n, sizeof(*at)), k = 0;

	if (!copy || !at) {
		free(copy);
		free(at);
		return hs_fail("out of memory");
	}
	memcpy(copy, img->rows, (size_t)img->nrows * sizeof(*copy));
	for (int c = 0; c < o->ncores; c++)
		for (int p = 0; p < o->npaths; p++)
			for (int i = 0; i < n; i++)
				while (v[i].img == img && v[i].core == c && at[i] < v[i].n &&
				       !strcmp(copy[v[i].first + at[i]].path, o->paths[p]->name))
					img->rows[k++] = copy[v[i].first + at[i]++];
	free(copy);
	free(at);
	return k == img->nrows ? 0 : hs_fail("internal: %d rows of %d measured no path asked for", img->nrows - k,
					     img->nrows);
}

static void stop_all(struct task *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].state == RUNNING) {
			int ws;

			kill(v[i].pid, SIGTERM);
			waitpid(v[i].pid, &ws, 0);
			fclose(v[i].f);
			v[i].state = DONE;
		}
}

/* The share j of nsplit of o's shard (all of o's units when it has
 * none): the shard's units u with (u / N) mod nsplit = j, N its count of
 * shards - itself a shard, N x j + shard of N x nsplit. */
static void split_shard(const struct ms_options *o, unsigned j, unsigned nsplit, struct task *t)
{
	unsigned nsh = o->nshards ? o->nshards : 1, sh = o->nshards ? o->shard - 1 : 0;

	t->shard = nsplit > 1 ? sh + nsh * j + 1 : o->shard;
	t->nshards = nsplit > 1 ? nsh * nsplit : o->nshards;
}

/* Processes per (image, core) pair: one, unless fewer pairs than lanes
 * can start at once (those not waiting for another image's rows) - then
 * enough for the lanes, at most MAX_SPLIT. */
#define MAX_SPLIT 8
static unsigned pair_splits(const struct ms_options *const *opts, int nimg, unsigned jobs)
{
	unsigned pairs = 0, j;

	for (int i = 0; i < nimg; i++)
		for (int c = 0; c < opts[i]->ncores && !opts[i]->pin_from; c++)
			pairs += (unsigned)ms_core_in_share(opts[i], c, opts[i]->shard, opts[i]->nshards);
	if (!pairs || pairs >= jobs)
		return 1;
	j = (jobs + pairs - 1) / pairs;
	return j < MAX_SPLIT ? j : MAX_SPLIT;
}

int ms_measure_images(struct ms_image *const *imgs, const struct ms_options *const *opts, int nimg)
{
	unsigned jobs = ms_jobs(), nsplit;
	struct task *v;
	int n = 0, running = 0, left, rc = 0;

	for (int i = 0; i < nimg; i++)
		if (imgs[i]->nrows)
			return hs_fail("internal: an image measured twice");
	if (jobs <= 1) {
		for (int i = 0; i < nimg; i++)
			for (int c = 0; c < opts[i]->ncores; c++)
				if (ms_measure_core(opts[i], c, imgs[i]))
					return -1;
		return 0;
	}
	nsplit = pair_splits(opts, nimg, jobs);
	if (!(v = calloc((size_t)(nimg > 0 ? nimg : 1) * MS_MAX_CORES * nsplit, sizeof(*v))))
		return hs_fail("out of memory");
	for (int i = 0; i < nimg; i++)
		for (int c = 0; c < opts[i]->ncores; c++)
			for (unsigned j = 0; j < nsplit; j++) {
				struct task *t = &v[n];

				memset(t, 0, sizeof(*t));
				split_shard(opts[i], j, nsplit, t);
				/* no unit in its share: no process, no boot */
				if (!ms_core_in_share(opts[i], c, t->shard, t->nshards))
					continue;
				t->img = imgs[i];
				t->o = opts[i];
				t->core = c;
				n++;
			}
	for (left = n; left > 0 && !rc;) {
		int ws;
		pid_t pid;

		for (int i = 0; i < n && running < (int)jobs && !rc; i++)
			if (ready(v, n, &v[i])) {
				rc = start(&v[i]);
				running += !rc;
			}
		if (rc || !running)
			break;
		while ((pid = waitpid(-1, &ws, 0)) < 0 && errno == EINTR)
			;
		if (pid < 0) {
			rc = hs_fail("waiting for the measuring processes: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++)
			if (v[i].state == RUNNING && v[i].pid == pid) {
				running--;
				left--;
				rc = collect(&v[i], ws);
			}
	}
	if (rc)
		stop_all(v, n);
	else if (left)
		rc = hs_fail("internal: a measuring task never became ready");
	for (int i = 0; i < nimg && !rc; i++)
		rc = reorder(v, n, imgs[i], opts[i]);
	free(v);
	return rc ? -1 : 0;
}
