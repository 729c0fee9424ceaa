/*
 * cmd_state.c - `hotsim state VMLINUX`: the machine the image booted into,
 * at every point its paths start from: each CPU - the one that reached the
 * point's site, the others running or halted in wfi - with its exception
 * level, pc (symbol+offset) and its GIC's SGI/PPI state. --smp N boots a
 * machine of N CPUs (the workload's processes unpinned, as perf bench and
 * lmbench run them); --ops K replays K operations from the point on every
 * CPU and prints what each ran and sent, and what it costs on the core:
 * each operation's latency through every CPU, each CPU's busy and idle
 * cycles (ms_machine_cost).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hotsim/err.h"
#include "hotsim/machine_cost.h"
#include "hotsim/measure.h"
#include "hotsim/paths.h"
#include "json.h"

struct state_opts {
	struct opt_cpus cpus;
	struct opt_params params;
	long smp, ops;
	const char *point, *turns;
	struct cli_boot_opts boot_opts;
	enum opt_format format;
};

static void defaults(void *p)
{
	struct state_opts *o = p;

	opt_default_cpus(&o->cpus);
	o->smp = 1;
}

struct printing {
	const struct state_opts *o;
	const struct ms_options *m;
	const struct hs_image *img;
	struct json *j;
	int ncores;
};

static const char *what(const struct hs_machine_cpu *c)
{
	return c->stopped ? "at the site" : c->halted ? "halted (wfi)" : "running";
}

/* Where a CPU is: the kernel's symbol+offset, or the site's label */
static const char *at(const struct printing *p, const struct hs_machine_point *m,
		      const struct hs_machine_cpu *c, char *buf, size_t len)
{
	if (c->stopped && c->el == 0 && m->site)
		snprintf(buf, len, "%s", m->site);
	else
		hs_addr_fmt(p->img, c->pc, buf, len);
	return buf;
}

static void text_point(const struct printing *p, const struct hs_machine_point *m)
{
	char where[128];

	printf("point %s\n", m->name);
	for (unsigned i = 0; i < m->ncpus; i++) {
		const struct hs_machine_cpu *c = &m->cpu[i];

		printf("  cpu%u  %-13s EL%u  %-*s", c->index, what(c), c->el, c->has_gic ? 24 : 0,
		       at(p, m, c, where, sizeof(where)));
		if (c->has_gic)
			printf("  SGI/PPI enabled %08x pending %08x active %08x%s", c->enabled, c->pending,
			       c->active, c->waker & 2 ? " asleep" : "");
		printf("\n");
	}
}

/* The point's object, left open for the replay's operations. */
static void json_point(struct json *j, const struct printing *p, const struct hs_machine_point *m)
{
	char where[128];

	json_begin_obj(j, NULL);
	json_str(j, "point", m->name);
	json_begin_arr(j, "cpus");
	for (unsigned i = 0; i < m->ncpus; i++) {
		const struct hs_machine_cpu *c = &m->cpu[i];

		json_begin_obj(j, NULL);
		json_uint(j, "cpu", c->index);
		json_str(j, "state", c->stopped ? "site" : c->halted ? "halted" : "running");
		json_uint(j, "el", c->el);
		json_hex(j, "pc", c->pc);
		json_str(j, "at", at(p, m, c, where, sizeof(where)));
		if (c->has_gic) {
			json_hex(j, "gicr_enabled", c->enabled);
			json_hex(j, "gicr_pending", c->pending);
			json_hex(j, "gicr_active", c->active);
			json_hex(j, "gicr_waker", c->waker);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* The first operation past the warm-up (all of them when that is all) */
static unsigned steady_from(const struct hs_machine_run *mr)
{
	return mr->nops > MS_MACHINE_WARM_OPS ? MS_MACHINE_WARM_OPS : 0;
}

/* The machine replayed from the point: per operation, each CPU, then
 * what it costs. */
static void text_ops(const struct ms_machine_cost *mc, const char *core)
{
	const struct hs_machine_run *mr = &mc->run;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0, part[5] = { 0 };
	unsigned from = steady_from(mr), n = 0;
	char params[200];
	char waits[800];

	printf("  replayed, every CPU%s (instructions, SGIs sent, IRQs taken, wfi halts); op 0 takes the "
	       "point's tick, op 1 warms the models' caches\n", mr->turns == HS_TURNS_WAKEE ?
	       ", the woken CPU first (a turn ends at each SGI sent)" : mr->turns == HS_TURNS_MODEL ?
	       ", taking turns by modelled time (the CPU whose clock is the earliest runs next)" : "");
	for (unsigned o = 0; o < mr->nops; o++) {
		printf("  op %-3u", o);
		for (unsigned i = 0; i < mr->ncpus; i++) {
			const struct hs_machine_cpu_op *c = &mr->op[o][i];

			printf("  cpu%u %6llu %u %u %u", i, (unsigned long long)c->insns, c->sgis, c->irqs, c->halts);
		}
		printf("\n");
	}
	ms_machine_params_said(mc, params, sizeof(params));
	printf("  on %s, each CPU its own model, a line another CPU wrote handed over from its cache; %s\n", core,
	       params);
	printf("  (cycles: the operation's latency at cpu%u, each CPU busy / idle, and its accesses to lines "
	       "another CPU wrote)\n", mr->site_cpu);
	for (unsigned o = 0; o < mr->nops; o++) {
		const struct ms_machine_op *op = &mc->op[o];

		printf("  cy %-3u %7llu", o, (unsigned long long)op->latency);
		for (unsigned i = 0; i < mr->ncpus; i++)
			printf("  cpu%u %6llu / %6llu %4u", i, (unsigned long long)op->busy[i],
			       (unsigned long long)op->idle[i], op->remote[i]);
		printf("\n");
		if (o >= from) {
			sum += op->latency;
			lo = op->latency < lo ? op->latency : lo;
			hi = op->latency > hi ? op->latency : hi;
			part[0] += op->path_site;
			part[1] += op->path_other;
			part[2] += op->path_ipi;
			part[3] += op->path_exit;
			part[4] += op->path_irq;
			n++;
		}
	}
	if (!n)
		return;
	ms_machine_waits_said(mc, "\n  ", waits, sizeof(waits));
	printf("  latency, ops %u-%u: mean %.0f cycles (%llu to %llu); %u wakes by an SGI, %u by a timer%s\n",
	       from, mr->nops - 1, (double)sum / n, (unsigned long long)lo, (unsigned long long)hi, mc->sgi_wakes,
	       mc->timer_wakes, waits);
	printf("  its critical path, mean cycles: cpu%u's work %.0f, the other CPUs' work %.0f, IPI delivery %.0f, "
	       "exit from wfi %.0f, IRQs taken (vector to eret) %.0f\n", mr->site_cpu, (double)part[0] / n,
	       (double)part[1] / n, (double)part[2] / n, (double)part[3] / n, (double)part[4] / n);
}

static void json_ops(struct json *j, const struct ms_machine_cost *mc)
{
	const struct hs_machine_run *mr = &mc->run;

	json_num(j, "ipi_latency", mc->ipi_latency, 0);
	json_num(j, "wfi_exit", mc->wfi_exit, 0);
	json_num(j, "peer_latency", mc->peer_latency, 0);
	json_str(j, "turns", hs_turns_name(mc->run.turns));
	json_uint(j, "read_waits", mc->read_waits);
	json_uint(j, "spin_waits", mc->spin_waits);
	json_uint(j, "order_flips", mc->order_flips);
	json_uint(j, "spin_insns", mc->spin_insns);
	json_begin_arr(j, "ops");
	for (unsigned o = 0; o < mr->nops; o++) {
		json_begin_obj(j, NULL);
		json_uint(j, "latency_cycles", mc->op[o].latency);
		json_begin_obj(j, "critical_path");
		json_uint(j, "site_cycles", mc->op[o].path_site);
		json_uint(j, "other_cycles", mc->op[o].path_other);
		json_uint(j, "ipi_cycles", mc->op[o].path_ipi);
		json_uint(j, "wfi_exit_cycles", mc->op[o].path_exit);
		json_uint(j, "irq_cycles", mc->op[o].path_irq);
		json_end_obj(j);
		json_begin_arr(j, "cpus");
		for (unsigned i = 0; i < mr->ncpus; i++) {
			const struct hs_machine_cpu_op *c = &mr->op[o][i];

			json_begin_obj(j, NULL);
			json_uint(j, "insns", c->insns);
			json_uint(j, "sgis", c->sgis);
			json_uint(j, "irqs", c->irqs);
			json_uint(j, "irq_insns", mc->op[o].irq_insns[i]);
			json_uint(j, "halts", c->halts);
			json_uint(j, "busy_cycles", mc->op[o].busy[i]);
			json_uint(j, "idle_cycles", mc->op[o].idle[i]);
			json_uint(j, "remote_lines", mc->op[o].remote[i]);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* --ops: the machine replayed from point k, in cycles on the core */
static int replay(const struct printing *p, const struct hs_core *core, struct hs_session *s, unsigned k)
{
	struct ms_machine_cost *mc = malloc(sizeof(*mc));

	if (!mc)
		return hs_fail("out of memory");
	if (ms_machine_cost(p->m, core, s, k, (unsigned)p->o->ops, mc)) {
		free(mc);
		return -1;
	}
	if (p->j)
		json_ops(p->j, mc);
	else
		text_ops(mc, core->name);
	free(mc);
	return 0;
}

static int has_point(const struct hs_session *s, const char *name)
{
	struct hs_machine_point m;

	for (unsigned k = 0; k < hs_session_npoints(s); k++)
		if (!hs_session_machine(s, k, &m) && !strcmp(m.name, name))
			return 1;
	return 0;
}

static int state_stage(void *ctx, const struct hs_patched *pt, struct hs_session *s)
{
	struct printing *p = ctx;
	unsigned n = hs_session_npoints(s);
	int booted;
	const char *desc = hs_session_state(s, &booted);
	char snap[HS_SNAPSHOT_NAME];

	hs_session_snapshot(s, snap);
	if (!booted)
		return hs_fail("%s on %s: no booted state: %s", p->img->path, pt->core->name, desc);
	if (p->o->point && !has_point(s, p->o->point))
		return hs_fail("no point named '%.40s' in the booted state (hotsim state %s lists them)",
			       p->o->point, p->img->path);
	if (p->j) {
		json_begin_obj(p->j, NULL);
		json_str(p->j, "cpu", pt->core->name);
		json_str(p->j, "state", desc);
		if (p->o->smp > 1)
			json_str(p->j, "snapshot", snap);
		json_begin_arr(p->j, "points");
	} else if (p->o->smp > 1) {
		printf("%s# %s on %s (%s), %ld CPUs (snapshot %s): %s\n", p->ncores ? "\n" : "", p->img->path,
		       pt->core->name, pt->core->full, p->o->smp, snap, desc);
	} else {
		printf("%s# %s on %s (%s), 1 CPU: %s\n", p->ncores ? "\n" : "", p->img->path, pt->core->name,
		       pt->core->full, desc);
	}
	p->ncores++;
	for (unsigned k = 0; k < n; k++) {
		struct hs_machine_point m;

		if (hs_session_machine(s, k, &m))
			return -1;
		if (p->o->point && strcmp(p->o->point, m.name))
			continue;
		if (p->j)
			json_point(p->j, p, &m);
		else
			text_point(p, &m);
		if (p->o->ops && replay(p, pt->core, s, k))
			return -1;
		if (p->j)
			json_end_obj(p->j);
	}
	if (p->j) {
		json_end_arr(p->j);
		json_end_obj(p->j);
	}
	return 0;
}

static int run(void *p, char **args)
{
	const struct state_opts *o = p;
	struct hs_path_set set = *cli_path_set();
	struct hs_image *img;
	struct ms_options m;
	struct json j;
	struct printing pr = { .o = o, .j = o->format == FORMAT_JSON ? &j : NULL };
	int rc = HS_EXIT_OK;

	/* an operation is a run from the site back to it: a point's own */
	if (o->ops && !o->point)
		return hs_fail("--ops replays one point: name it with --point (hotsim state %s lists them)",
			       args[0]), cli_error();
	if (cli_check_params(&o->params, &o->cpus) || cli_turns(o->turns, o->smp, &set) ||
	    !(img = hs_image_open(args[0])))
		return cli_error();
	pr.img = img;
	cli_walk_options(&m, &o->cpus, NULL, HS_SRC_BOOTED);
	memcpy(m.params, o->params.v, sizeof(o->params.v));
	m.nparams = o->params.n;
	set.ncpus = (unsigned)o->smp;
	m.set = &set;
	pr.m = &m;
	if (pr.j) {
		json_init(&j, stdout);
		json_begin_obj(&j, NULL);
		json_str(&j, "schema", "hotsim-state/1");
		json_str(&j, "image", img->path);
		json_uint(&j, "smp", (unsigned long long)o->smp);
		json_begin_arr(&j, "cores");
	}
	if (ms_walk(img, &m, &(struct ms_stages){ .ctx = &pr, .state = state_stage }))
		rc = cli_error();
	if (pr.j && rc == HS_EXIT_OK) {
		json_end_arr(&j);
		json_end_obj(&j);
		json_finish(&j);
	}
	hs_image_close(img);
	return rc;
}

static const struct cli_opt opts[] = {
	OPT("cpu", "LIST", OPT_CPUS, struct state_opts, cpus, "cores (the QEMU CPU each boots on)"),
	OPT_N("smp", "N", struct state_opts, smp, 1, 8, "CPUs of the booted machine (default 1)"),
	CLI_TURNS_OPT(struct state_opts),
	OPT("point", "NAME", OPT_STRING, struct state_opts, point, "only this point"),
	OPT_N("ops", "N", struct state_opts, ops, 0, HS_MACHINE_MAX_OPS,
	      "replay N operations from each point shown, every CPU: what each ran and sent"),
	OPT("param", "[CORE.]NAME=V", OPT_PARAM, struct state_opts, params,
	    "override a model parameter for --ops (ipi_latency, wfi_exit, ...)"),
	CLI_BOOT_OPTS(struct state_opts),
	OPT("format", "FMT", OPT_FORMAT, struct state_opts, format, "text or json (--json)"),
	OPT_TABLE_END
};

const struct cli_cmd cmd_state = {
	.name = "state", .args = "VMLINUX", .nargs = 1,
	.summary = "the booted machine at every point: each CPU, where it is, its GIC",
	.opts = opts, .size = sizeof(struct state_opts), .defaults = defaults, .run = run,
};
