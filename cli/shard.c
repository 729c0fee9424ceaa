/* shard.c - the shard document, written and read back (see shard.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/core.h"
#include "hotsim/err.h"
#include "hotsim/image.h"
#include "json.h"
#include "shard.h"

int shard_parse_spec(const char *spec, unsigned *k, unsigned *n)
{
	char *end;
	unsigned long a, b;

	a = strtoul(spec, &end, 10);
	if (end == spec || *end != '/')
		return hs_fail("--shard expects K/N (the K-th of N shares, 1 <= K <= N), got '%.40s'", spec);
	b = strtoul(end + 1, &end, 10);
	if (*end || !a || !b || a > b || b > 1024)
		return hs_fail("--shard expects K/N with 1 <= K <= N <= 1024, got '%.40s'", spec);
	*k = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

void shard_image_id(const struct hs_image *img, char *buf, size_t len)
{
	snprintf(buf, len, "%s %zu bytes, %s", img->build_id[0] ? img->build_id : "no build id", img->file_size,
		 img->version[0] ? img->version : "no version");
}

/* --- writing ----------------------------------------------------------- */

static void write_result(struct json *j, const struct ms_result *s)
{
	static const char *const ev[] = { "mispredicts", "icache_misses", "dcache_misses", "l2_misses",
					  "tlb_misses", "unknown_insns", "warm_iterations" };
	const unsigned evv[] = { s->r.mispredicts, s->r.icache_misses, s->r.dcache_misses, s->r.l2_misses,
				 s->r.tlb_misses, s->r.unknown_insns, s->r.warm_iterations };

	json_begin_obj(j, NULL);
	json_begin_obj(j, "r");
	json_uint(j, "cycles", s->r.cycles);
	json_uint(j, "insns", s->r.insns);
	json_uint(j, "uncalibrated_cycles", s->r.uncalibrated_cycles);
	json_begin_arr(j, "stall");
	for (int k = 0; k < HS_NSTALLS; k++)
		json_uint(j, NULL, s->r.stall[k]);
	json_end_arr(j);
	for (size_t k = 0; k < HS_ARRAY_SIZE(ev); k++)
		json_uint(j, ev[k], evv[k]);
	json_int(j, "converged", s->r.converged);
	json_end_obj(j);
	json_begin_obj(j, "d");
	json_uint(j, "n", s->d.n);
	json_double(j, "mean", s->d.mean);
	json_double(j, "sd", s->d.sd);
	json_double(j, "ci95", s->d.ci95);
	json_uint(j, "min", s->d.min);
	json_uint(j, "median", s->d.median);
	json_uint(j, "max", s->d.max);
	json_end_obj(j);
	json_double(j, "insns", s->insns);
	json_double(j, "noise_lo", s->noise_lo);
	json_double(j, "noise_hi", s->noise_hi);
	if (s->v) {
		json_begin_arr(j, "v");
		for (unsigned k = 0; k < s->d.n; k++)
			json_double(j, NULL, s->v[k]);
		json_end_arr(j);
	}
	json_end_obj(j);
}

static void write_row(struct json *j, const struct ms_row *r)
{
	json_begin_obj(j, NULL);
	json_str(j, "name", r->name);
	json_str(j, "path", r->path);
	json_str(j, "cpu", r->core->name);
	json_int(j, "ok", r->ok);
	json_str(j, "why", r->why);
	json_uint(j, "insns", r->insns);
	json_uint(j, "code_bytes", r->code_bytes);
	json_uint(j, "sites", r->sites);
	json_str(j, "site_fn", r->site_fn);
	json_int(j, "booted", r->booted);
	json_str(j, "state", r->state);
	json_int(j, "noise_n", r->noise_n);
	json_int(j, "part", r->part);
	json_uint(j, "nsamples", r->nsamples);
	json_uint(j, "order_flips", r->order_flips);
	json_begin_arr(j, "idle");
	for (unsigned i = 0; i < r->ncpus; i++)
		json_double(j, NULL, r->idle[i]);
	json_end_arr(j);
	json_begin_arr(j, "states");
	for (int st = 0; st < MS_NSTATES; st++)
		write_result(j, &r->s[st]);
	json_end_arr(j);
	json_begin_arr(j, "fns");
	for (int k = 0; k < r->nfns; k++) {
		json_begin_arr(j, NULL);
		json_uint(j, NULL, r->fns[k].addr);
		json_uint(j, NULL, r->fns[k].size);
		json_uint(j, NULL, r->fns[k].insns);
		json_double(j, NULL, r->fns[k].ss);
		json_end_arr(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

/* An image's rows, grouped by the unit (core, path) that made them. */
static void write_units(struct json *j, const struct ms_image *img)
{
	json_begin_arr(j, "units");
	for (int i = 0; i < img->nrows;) {
		int e = i;

		while (e < img->nrows && img->rows[e].core == img->rows[i].core &&
		       !strcmp(img->rows[e].path, img->rows[i].path))
			e++;
		json_begin_obj(j, NULL);
		json_str(j, "cpu", img->rows[i].core->name);
		json_str(j, "path", img->rows[i].path);
		json_begin_arr(j, "rows");
		for (; i < e; i++)
			write_row(j, &img->rows[i]);
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

int shard_write(FILE *f, int argc, char *const *argv, const struct ms_options *m,
		struct ms_image *const *imgs, int nimg)
{
	struct json j;
	char id[200];

	json_init(&j, f);
	json_begin_obj(&j, NULL);
	json_str(&j, "schema", SHARD_SCHEMA);
	json_str(&j, "hotsim", cli_version());
	json_uint(&j, "shard", m->shard);
	json_uint(&j, "shards", m->nshards);
	json_begin_arr(&j, "argv");
	for (int i = 0; i < argc; i++)
		json_str(&j, NULL, argv[i]);
	json_end_arr(&j);
	json_begin_arr(&j, "images");
	for (int i = 0; i < nimg; i++) {
		json_begin_obj(&j, NULL);
		json_str(&j, "path", imgs[i]->img->path);
		shard_image_id(imgs[i]->img, id, sizeof(id));
		json_str(&j, "id", id);
		write_units(&j, imgs[i]);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_end_obj(&j);
	json_finish(&j);
	return ferror(f) ? hs_fail("cannot write the shard") : 0;
}

/* --- reading ----------------------------------------------------------- */

static char *slurp(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f) {
		hs_fail("%s: %s", file, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (*len == cap) {
			char *nb = cap >= (256u << 20) ? NULL : realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				hs_fail("%s: too large for a shard", file);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		hs_fail("%s: %s", file, strerror(errno));
		return NULL;
	}
	fclose(f);
	return buf;
}

static int header(struct shard *s)
{
	const struct jr *av = jr_get(s->doc, "argv");
	const char *schema = jr_str(jr_get(s->doc, "schema")), *ver = jr_str(jr_get(s->doc, "hotsim"));
	long long k, n;

	if (!schema || strcmp(schema, SHARD_SCHEMA))
		return hs_fail("%s: not a shard (schema %s expected)", s->file, SHARD_SCHEMA);
	if (!ver || strcmp(ver, cli_version()))
		return hs_fail("%s: made by hotsim %s, this is %s: a shard is merged by the hotsim that made it",
			       s->file, ver ? ver : "(unknown)", cli_version());
	if (jr_int(jr_get(s->doc, "shard"), 1, 1024, &k) || jr_int(jr_get(s->doc, "shards"), k, 1024, &n))
		return hs_fail("%s: no shard K/N in it", s->file);
	s->k = (unsigned)k;
	s->n = (unsigned)n;
	if (!av || av->t != JR_ARR || !av->n || av->n > HS_ARRAY_SIZE(s->argv))
		return hs_fail("%s: no command line in it", s->file);
	for (size_t i = 0; i < av->n; i++)
		if (!(s->argv[i] = jr_str(&av->kids[i])))
			return hs_fail("%s: argv[%zu] is not a string", s->file, i);
	s->argc = (int)av->n;
	s->command = s->argv[0];
	s->images = jr_get(s->doc, "images");
	if (!s->images || s->images->t != JR_ARR || !s->images->n || s->images->n > 2)
		return hs_fail("%s: no images in it", s->file);
	return 0;
}

int shard_read(const char *file, struct shard *s)
{
	size_t len;
	char *text;

	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file);
	if (!(text = slurp(file, &len)))
		return -1;
	s->doc = jr_parse(text, len);
	free(text);
	if (!s->doc)
		return hs_fail("%s: %s", file, hs_errmsg());
	return header(s);
}

void shard_free(struct shard *s)
{
	jr_free(s->doc);
	memset(s, 0, sizeof(*s));
}

/* A named field of object v into out; -1 naming it. */
#define U64(v, key, out) (jr_u64(jr_get(v, key), &u) ? field(key) : ((out) = u, 0))
#define DBL(v, key, out) (jr_double(jr_get(v, key), &(out)) ? field(key) : 0)

static const char *bad_field;

static int field(const char *key)
{
	bad_field = key;
	return -1;
}

static int str_into(const struct jr *v, const char *key, char *out, size_t len)
{
	const char *s = jr_str(jr_get(v, key));

	if (!s || strlen(s) >= len)
		return field(key);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int read_counts(const struct jr *r, struct hs_model_result *o)
{
	const struct jr *st = jr_get(r, "stall");
	long long conv;
	uint64_t u;

	if (U64(r, "cycles", o->cycles) || U64(r, "insns", o->insns) ||
	    U64(r, "uncalibrated_cycles", o->uncalibrated_cycles) || U64(r, "mispredicts", o->mispredicts) ||
	    U64(r, "icache_misses", o->icache_misses) || U64(r, "dcache_misses", o->dcache_misses) ||
	    U64(r, "l2_misses", o->l2_misses) || U64(r, "tlb_misses", o->tlb_misses) ||
	    U64(r, "unknown_insns", o->unknown_insns) || U64(r, "warm_iterations", o->warm_iterations))
		return -1;
	if (jr_int(jr_get(r, "converged"), 0, 1, &conv))
		return field("converged");
	o->converged = (int)conv;
	if (!st || st->t != JR_ARR || st->n != HS_NSTALLS)
		return field("stall");
	for (int k = 0; k < HS_NSTALLS; k++)
		if (jr_u64(&st->kids[k], &o->stall[k]))
			return field("stall");
	return 0;
}

static int read_result(const struct jr *v, struct ms_result *s)
{
	const struct jr *d = jr_get(v, "d"), *sv = jr_get(v, "v");
	uint64_t u;

	if (read_counts(jr_get(v, "r"), &s->r) || U64(d, "n", s->d.n) || DBL(d, "mean", s->d.mean) ||
	    DBL(d, "sd", s->d.sd) || DBL(d, "ci95", s->d.ci95) || U64(d, "min", s->d.min) ||
	    U64(d, "median", s->d.median) || U64(d, "max", s->d.max) || DBL(v, "insns", s->insns) ||
	    DBL(v, "noise_lo", s->noise_lo) || DBL(v, "noise_hi", s->noise_hi))
		return -1;
	if (!sv)
		return 0;
	if (sv->t != JR_ARR || sv->n != s->d.n || !(s->v = malloc((sv->n ? sv->n : 1) * sizeof(double))))
		return field("v");
	for (size_t k = 0; k < sv->n; k++)
		if (jr_double(&sv->kids[k], &s->v[k]))
			return field("v");
	return 0;
}

/* A machine's whole row's idle CPUs (none for any other row) */
static int read_idle(const struct jr *f, struct ms_row *r)
{
	if (!f || f->t != JR_ARR || f->n > HS_MACHINE_MAX_CPUS)
		return field("idle");
	r->ncpus = (unsigned)f->n;
	for (size_t k = 0; k < f->n; k++)
		if (jr_double(&f->kids[k], &r->idle[k]))
			return field("idle");
	return 0;
}

static int read_fns(const struct jr *f, struct ms_row *r)
{
	if (!f || f->t != JR_ARR || f->n > 100000)
		return field("fns");
	r->nfns = (int)f->n;
	if (!f->n)
		return 0;
	if (!(r->fns = calloc(f->n, sizeof(*r->fns))))
		return hs_fail("out of memory");
	for (size_t k = 0; k < f->n; k++) {
		const struct jr *e = &f->kids[k];

		if (e->t != JR_ARR || e->n != 4 || jr_u64(&e->kids[0], &r->fns[k].addr) ||
		    jr_u64(&e->kids[1], &r->fns[k].size) || jr_u64(&e->kids[2], &r->fns[k].insns) ||
		    jr_double(&e->kids[3], &r->fns[k].ss))
			return field("fns");
	}
	return 0;
}

/* One row; its path and core are the ones this hotsim knows by name. */
static int read_row(const struct jr *v, struct ms_row *r)
{
	const struct jr *st = jr_get(v, "states");
	const struct hs_core *core;
	char path[64], cpu[16];
	long long ok, booted, part, noise;
	uint64_t u;

	memset(r, 0, sizeof(*r));
	if (str_into(v, "name", r->name, sizeof(r->name)) || str_into(v, "path", path, sizeof(path)) ||
	    str_into(v, "cpu", cpu, sizeof(cpu)) || str_into(v, "why", r->why, sizeof(r->why)) ||
	    str_into(v, "site_fn", r->site_fn, sizeof(r->site_fn)) ||
	    str_into(v, "state", r->state, sizeof(r->state)) || U64(v, "insns", r->insns) ||
	    U64(v, "code_bytes", r->code_bytes) || U64(v, "sites", r->sites) ||
	    U64(v, "nsamples", r->nsamples) || U64(v, "order_flips", r->order_flips))
		return -1;
	if (jr_int(jr_get(v, "ok"), 0, 1, &ok) || jr_int(jr_get(v, "booted"), 0, 1, &booted) ||
	    jr_int(jr_get(v, "part"), 0, 1, &part) || jr_int(jr_get(v, "noise_n"), 0, 1024, &noise))
		return field("ok, booted, part or noise_n");
	r->ok = (int)ok;
	r->booted = (int)booted;
	r->part = (int)part;
	r->noise_n = (int)noise;
	/* a program's path beside hotsim's own (--path sched-pipe,perf.sched-pipe) */
	if (!(r->def = cli_path_find(path)) && cli_program_path(path, &r->def) < 0)
		return -1;
	if (!r->def || !(core = hs_core_find(cpu)))
		return field("path or cpu");
	r->path = r->def->name;
	r->core = core;
	if (!st || st->t != JR_ARR || st->n != MS_NSTATES)
		return field("states");
	for (int k = 0; k < MS_NSTATES; k++)
		if (read_result(&st->kids[k], &r->s[k]))
			return -1;
	return read_idle(jr_get(v, "idle"), r) || read_fns(jr_get(v, "fns"), r) ? -1 : 0;
}

int shard_rows(const struct shard *s, int i, const struct ms_options *m, int c, int k, struct ms_image *out)
{
	const struct jr *units = jr_get(&s->images->kids[i], "units");
	const char *cpu = m->cores[c]->name, *path = m->paths[k]->name;

	for (size_t u = 0; units && units->t == JR_ARR && u < units->n; u++) {
		const struct jr *un = &units->kids[u], *rows = jr_get(un, "rows");
		const char *uc = jr_str(jr_get(un, "cpu")), *up = jr_str(jr_get(un, "path"));

		if (!uc || !up || strcmp(uc, cpu) || strcmp(up, path))
			continue;
		if (!rows || rows->t != JR_ARR || rows->n > (size_t)(MS_MAX_ROWS - out->nrows))
			return hs_fail("%s: %s on %s: no rows, or too many", s->file, path, cpu);
		for (size_t r = 0; r < rows->n; r++) {
			struct ms_row *row = &out->rows[out->nrows++];

			if (read_row(&rows->kids[r], row))
				return hs_fail("%s: %s on %s, row %zu: bad %s", s->file, path, cpu, r + 1,
					       bad_field ? bad_field : "field");
		}
		return 0;
	}
	return hs_fail("%s: shard %u/%u has no rows of %s on %s, which are its to measure", s->file, s->k,
		       s->n, path, cpu);
}
