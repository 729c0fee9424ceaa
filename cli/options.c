/*
 * options.c - table-driven option parsing, help and usage errors (see
 * options.h). Options are long only: "--name value" or "--name=value".
 * Lists of cores and paths are read from their registries, so a new core
 * or path shows up in every command's options and help without an edit here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "options.h"

/* "cswitch, irq-el1, ..." */
static const char *path_names(void)
{
	static char buf[600];
	const struct hs_path_def *const *all = cli_paths();
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; all[i] && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? ", " : "", all[i]->name);
	return buf;
}

/* The paths a name is not among: these, and a program's, which come with
 * its boot (--workload perf). */
static const char *known_paths(void)
{
	static char buf[800];
	size_t used = (size_t)snprintf(buf, sizeof(buf), "known: %s", path_names());

	for (int i = 0; cli_paths() == hs_paths && hs_program_paths[i] && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "; with --workload %s: %s",
					 hs_path_program(hs_program_paths[i]), hs_program_paths[i]->name);
	return buf;
}

void opt_all_cpus(struct opt_cpus *c)
{
	c->n = 0;
	for (int i = 0; hs_cores[i] && c->n < (int)HS_ARRAY_SIZE(c->v); i++)
		c->v[c->n++] = hs_cores[i];
}

void opt_default_cpus(struct opt_cpus *c)
{
	c->n = 0;
	for (int i = 0; hs_cores[i] && c->n < (int)HS_ARRAY_SIZE(c->v); i++)
		if (!hs_cores[i]->opt_in)
			c->v[c->n++] = hs_cores[i];
}

void opt_all_paths(struct opt_paths *p)
{
	const struct hs_path_def *const *all = cli_paths();

	p->n = 0;
	for (int i = 0; all[i] && p->n < (int)HS_ARRAY_SIZE(p->v); i++)
		p->v[p->n++] = all[i];
}

static int bad(const struct cli_cmd *c, const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "hotsim %s: ", c->name);
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, " (hotsim %s --help)\n", c->name);
	return -1;
}

static int parse_cpus(const char *arg, struct opt_cpus *out)
{
	char buf[256];

	if (!strcmp(arg, "all")) {
		opt_all_cpus(out);
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		return hs_fail("--cpu list too long");
	strcpy(buf, arg);
	out->n = 0;
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
		const struct hs_core *core = hs_core_find(t);
		int dup = 0;

		if (!core)
			return hs_fail("unknown cpu '%.32s' (known: %s)", t, hs_core_names());
		for (int i = 0; i < out->n; i++)
			dup |= out->v[i] == core;
		if (!dup && out->n < (int)HS_ARRAY_SIZE(out->v))
			out->v[out->n++] = core;
	}
	return out->n ? 0 : hs_fail("empty --cpu list");
}

static int parse_paths(const char *arg, struct opt_paths *out)
{
	char buf[256];

	if (!strcmp(arg, "all")) {
		opt_all_paths(out);
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		return hs_fail("--path list too long");
	strcpy(buf, arg);
	out->n = 0;
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
		const struct hs_path_def *d = cli_path_find(t);
		int dup = 0;

		if (!d && cli_program_path(t, &d) < 0)
			return -1;
		if (!d)
			return hs_fail("unknown path '%.32s' (%s)", t, known_paths());
		for (int i = 0; i < out->n; i++)
			dup |= out->v[i] == d;
		if (!dup && out->n < (int)HS_ARRAY_SIZE(out->v))
			out->v[out->n++] = d;
	}
	return out->n ? 0 : hs_fail("empty --path list");
}

/* word is one of the space-separated words of list */
static int one_of(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p; p += strcspn(p, " "), p += *p == ' ')
		if (n && !strncmp(p, word, n) && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* "a, b or c" from "a b c" */
static const char *or_list(const char *list, char *buf, size_t len)
{
	size_t used = 0, words = 0, k = 0;
	const char *p;

	for (p = list; *p; p += strcspn(p, " "), p += *p == ' ')
		words++;
	buf[0] = 0;
	for (p = list; *p && used < len; p += strcspn(p, " "), p += *p == ' ', k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", !k ? "" : k + 1 == words ? " or " : ", ",
					 (int)strcspn(p, " "), p);
	return buf;
}

static const char *format_choices(const struct cli_opt *o)
{
	return o->choices ? o->choices : "text json";
}

static int parse_number(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/*
 * One option's value into the option struct: one function per option kind,
 * each 0 or -1 with the usage error printed. dst is where the value goes
 * (base + o->off).
 */
typedef int store_fn(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst);

static int store_flag(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	(void)c, (void)o, (void)val;
	*(int *)dst = 1;
	return 0;
}

static int store_string(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	if (o->choices && !one_of(o->choices, val)) {
		char list[128], msg[192];

		snprintf(msg, sizeof(msg), "%s, not '%.20s'", or_list(o->choices, list, sizeof(list)), val);
		return bad(c, "--%s is %s", o->name, msg);
	}
	*(const char **)dst = val;
	return 0;
}

static int store_path(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	const struct hs_path_def *d = cli_path_find(val);

	(void)o;
	if (!d && cli_program_path(val, &d) < 0)
		return bad(c, "%s%s", hs_errmsg(), "");
	if (!d)
		return bad(c, "unknown path '%.32s' (%s)", val, known_paths());
	*(const struct hs_path_def **)dst = d;
	return 0;
}

static int store_count(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	long n;

	if (parse_number(val, &n) || n < o->min || n > o->max) {
		char range[64];

		snprintf(range, sizeof(range), "%ld..%ld", o->min, o->max);
		return bad(c, "--%s needs a whole number in %s", o->name, range);
	}
	*(long *)dst = n;
	return 0;
}

static int store_percent(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_pct *p = dst;
	char *end;

	p->v = strtod(val, &end);
	if (end == val || *end || p->v < 0)
		return bad(c, "--%s needs a non-negative number, got '%.40s'", o->name, val);
	p->set = 1;
	return 0;
}

static int store_cpus(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	(void)o;
	return parse_cpus(val, dst) ? bad(c, "%s%s", hs_errmsg(), "") : 0;
}

static int store_paths(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	(void)o;
	((struct opt_paths *)dst)->given = 1;
	return parse_paths(val, dst) ? bad(c, "%s%s", hs_errmsg(), "") : 0;
}

static int parse_states(const struct cli_cmd *c, const struct cli_opt *o, const char *val,
			struct opt_state *st);

static int store_state(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	return parse_states(c, o, val, dst);
}

static int store_param(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_params *p = dst;

	if (p->n >= MS_MAX_PARAMS)
		return bad(c, "at most %s --%s options", "32", o->name);
	if (ms_parse_param(val, &p->v[p->n]))
		return bad(c, "%s%s", hs_errmsg(), "");
	p->n++;
	return 0;
}

static int store_u64(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_u64s *u = dst;
	char *end;

	if (u->n >= (int)HS_ARRAY_SIZE(u->v))
		return bad(c, "at most 8 --%s options%s", o->name, "");
	u->v[u->n] = strtoull(val, &end, 0);
	if (end == val || *end)
		return bad(c, "--%s '%.40s' is not a number", o->name, val);
	u->n++;
	return 0;
}

static int store_window(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_window *w = dst;
	char *end;
	long a = strtol(val, &end, 10), b;

	if (end == val || *end != ':' || a < 0)
		return bad(c, "--%s is A:B (records), not '%.30s'", o->name, val);
	b = strtol(end + 1, &end, 10);
	if (*end || b <= a || b - a > 2000)
		return bad(c, "--%s A:B needs A < B and at most 2000 records, got '%.30s'", o->name, val);
	w->from = (size_t)a;
	w->to = (size_t)b;
	return 0;
}

static int store_format(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	char list[64], msg[128];

	if (!one_of(format_choices(o), val)) {
		snprintf(msg, sizeof(msg), "%s, not '%.20s'", or_list(format_choices(o), list, sizeof(list)),
			 val);
		return bad(c, "--%s is %s", o->name, msg);
	}
	*(enum opt_format *)dst = !strcmp(val, "json") ? FORMAT_JSON :
				  !strcmp(val, "markdown") ? FORMAT_MARKDOWN : FORMAT_TEXT;
	return 0;
}

static int store_source(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	static const struct {
		const char *name;
		enum hs_state_source src;
	} sources[] = {
		{ "auto", HS_SRC_AUTO }, { "booted", HS_SRC_BOOTED }, { "synthesized", HS_SRC_SYNTH },
	};

	for (size_t i = 0; i < HS_ARRAY_SIZE(sources); i++)
		if (!strcmp(val, sources[i].name)) {
			*(enum hs_state_source *)dst = sources[i].src;
			return 0;
		}
	return bad(c, "--%s is auto, booted or synthesized, not '%.20s'", o->name, val);
}

static int store_clock(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_clocks *k = dst;

	if (k->n >= (int)HS_ARRAY_SIZE(k->v))
		return bad(c, "at most 8 --%s options%s", o->name, "");
	if (ms_parse_clock(val, &k->v[k->n]))
		return bad(c, "%s%s", hs_errmsg(), "");
	k->n++;
	return 0;
}

static int store_hz(const struct cli_cmd *c, const struct cli_opt *o, const char *val, void *dst)
{
	struct opt_hz *h = dst;
	const char *p = val;
	char *end;

	h->n = 0;
	while (*p) {
		long v = strtol(p, &end, 10);

		if (end == p || v < 10 || v > 10000 || h->n == (int)HS_ARRAY_SIZE(h->v))
			return bad(c, "--%s is a list of up to 4 tick rates (100,250), not '%.30s'", o->name, val);
		h->v[h->n++] = (unsigned)v;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return bad(c, "--%s is a list of tick rates (100,250), not '%.30s'", o->name, val);
	}
	return h->n ? 0 : bad(c, "--%s needs a tick rate%s", o->name, "");
}

/* The kinds of options.h, each with its parser; OPT_END has none. */
static store_fn *const storers[] = {
	[OPT_FLAG] = store_flag,	[OPT_STRING] = store_string,
	[OPT_COUNT] = store_count,	[OPT_PERCENT] = store_percent,
	[OPT_CPUS] = store_cpus,	[OPT_PATHS] = store_paths,
	[OPT_STATE] = store_state,	[OPT_PARAM] = store_param,
	[OPT_U64] = store_u64,		[OPT_WINDOW] = store_window,
	[OPT_FORMAT] = store_format,	[OPT_PATH] = store_path,
	[OPT_SOURCE] = store_source,	[OPT_CLOCK] = store_clock,
	[OPT_HZ] = store_hz,
};

/* One option's value into the option struct; 0 or -1 (usage error printed). */
/* --state: a list of typical, warm, cold; "both" is warm,cold, "all" the three. */
static int parse_states(const struct cli_cmd *c, const struct cli_opt *o, const char *val,
			struct opt_state *st)
{
	char buf[64], *save = NULL;

	memset(st, 0, sizeof(*st));
	snprintf(buf, sizeof(buf), "%s", val);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < MS_NSTATES && strcmp(w, ms_state_names[k]); k++)
			;
		if (k < MS_NSTATES)
			st->want[k] = 1;
		else if (!strcmp(w, "both"))
			st->want[MS_WARM] = st->want[MS_COLD] = 1;
		else if (!strcmp(w, "all"))
			st->want[MS_TYPICAL] = st->want[MS_WARM] = st->want[MS_COLD] = 1;
		else
			return bad(c, "--%s is a list of typical, warm, cold (or both, all), not '%.20s'", o->name, w);
	}
	return 0;
}

static int store(const struct cli_cmd *c, const struct cli_opt *o, const char *val, char *base)
{
	if ((size_t)o->kind < HS_ARRAY_SIZE(storers) && storers[o->kind])
		return storers[o->kind](c, o, val, base + o->off);
	return bad(c, "internal: option --%s%s", o->name, "");
}

static const struct cli_opt *find(const struct cli_cmd *c, const char *name, size_t len)
{
	for (const struct cli_opt *o = c->opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

int cli_parse(const struct cli_cmd *c, int argc, char **argv, void *opts, char **args)
{
	int nargs = 0;

	memset(opts, 0, c->size);
	if (c->defaults)
		c->defaults(opts);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		const struct cli_opt *o;
		size_t len;

		if (strncmp(a, "--", 2) || !a[2]) {
			if (nargs >= (c->more ? CLI_MAX_ARGS : c->nargs))
				return bad(c, "unexpected argument '%.60s' (expects %s)", a,
					   c->nargs ? c->args : "none");
			args[nargs++] = argv[i];
			args[nargs] = NULL;
			continue;
		}
		a += 2;
		if (!strcmp(a, "help")) {
			cli_help(stdout, c);
			return 1;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		/* --json: the same as --format json, kept for scripts */
		if (len == 4 && !strncmp(a, "json", 4) && !eq && (o = find(c, "format", 6))) {
			*(enum opt_format *)((char *)opts + o->off) = FORMAT_JSON;
			continue;
		}
		if (!(o = find(c, a, len))) {
			char name[64];

			snprintf(name, sizeof(name), "%.*s", (int)(len < 60 ? len : 60), a);
			return bad(c, "unknown option --%s%s", name, "");
		}
		if (!o->arg) {
			if (eq)
				return bad(c, "--%s takes no value%s", o->name, "");
			store(c, o, NULL, opts);
			continue;
		}
		if (!eq && i + 1 >= argc)
			return bad(c, "--%s needs a value (%s)", o->name, o->arg);
		if (store(c, o, eq ? eq + 1 : argv[++i], opts))
			return -1;
	}
	if (c->more ? nargs < c->nargs : nargs != c->nargs)
		return bad(c, "expects %s", c->nargs ? c->args : "no arguments", "");
	return 0;
}

const char *opt_words(const struct cli_opt *o, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	switch (o->kind) {
	case OPT_CPUS:
		for (int i = 0; hs_cores[i] && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s ", hs_cores[i]->name);
		snprintf(buf + (used < len ? used : len - 1), len - (used < len ? used : len - 1), "all");
		break;
	case OPT_PATHS:
	case OPT_PATH:
		for (int i = 0; hs_paths[i] && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", hs_paths[i]->name);
		if (o->kind == OPT_PATHS && used < len)
			snprintf(buf + used, len - used, " all");
		break;
	case OPT_STATE:
		snprintf(buf, len, "typical warm cold both all");
		break;
	case OPT_FORMAT:
		snprintf(buf, len, "%s", format_choices(o));
		break;
	case OPT_STRING:
		snprintf(buf, len, "%s", o->choices ? o->choices : "");
		break;
	default:
		break;
	}
	return buf;
}

/* A list after an option's help, wrapped at 100 columns under the help
 * (29 columns in), col: where the help ended. */
static void help_list(FILE *f, const char *list, int col)
{
	while (*list) {
		size_t w = strcspn(list, " ");

		if (col + 1 + (int)w > 100) {
			fprintf(f, "\n%29s", "");
			col = 29;
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, list);
		col += (int)w;
		list += w;
		while (*list == ' ')
			list++;
	}
}

void cli_help(FILE *f, const struct cli_cmd *c)
{
	fprintf(f, "hotsim %s%s%s [options]\n", c->name, c->nargs ? " " : "", c->nargs ? c->args : "");
	fprintf(f, "    %s\n", c->summary);
	for (const struct cli_opt *o = c->opts; o->name; o++) {
		char left[64], extra[700] = "";

		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		/* the default set; the opt-in cores are named by `hotsim
		 * models` and accepted here */
		if (o->kind == OPT_CPUS)
			snprintf(extra, sizeof(extra), "(%s, or all)", hs_core_default_names());
		else if (o->kind == OPT_PATHS)
			snprintf(extra, sizeof(extra), "(%s, or all)", path_names());
		fprintf(f, "    %-24s %s", left, o->help);
		help_list(f, extra, 29 + (int)strlen(o->help));
		fprintf(f, "\n");
	}
	for (int i = 0; c->notes && c->notes[i]; i++)
		fprintf(f, "    %s\n", c->notes[i]);
}

enum hs_state_source opt_default_source(void)
{
	const char *e = getenv("HOTSIM_STATE_SOURCE");

	if (e && !strcmp(e, "booted"))
		return HS_SRC_BOOTED;
	if (e && !strcmp(e, "synthesized"))
		return HS_SRC_SYNTH;
	return HS_SRC_AUTO;
}

void opt_paths_for_source(struct opt_paths *p, enum hs_state_source src)
{
	int k = 0;

	if (p->given || src != HS_SRC_SYNTH)
		return;
	for (int i = 0; i < p->n; i++)
		if (p->v[i]->kind != HS_PATH_BOOTED)
			p->v[k++] = p->v[i];
	p->n = k;
}
