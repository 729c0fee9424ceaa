/*
 * model.c - the model registry, parameters, and the cold/warm drivers
 * (model.h). Cores are listed once, in models/registry.c; a parameter a
 * core does not set comes from defaults.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotsim/err.h"
#include "hotsim/core.h"
#include "frontend.h"
#include "model_internal.h"

const char *const hs_stall_names[HS_NSTALLS] = {
	"dep", "struct", "branch", "icache", "dcache", "tlb", "serial"
};


#define HS_PNAME(id, name, unit, clock) name,
const char *const hs_param_name[HS_NPARAMS] = { HS_PARAM_LIST(HS_PNAME) };
#undef HS_PNAME
#define HS_PUNIT(id, name, unit, clock) unit,
const char *const hs_param_unit[HS_NPARAMS] = { HS_PARAM_LIST(HS_PUNIT) };
#undef HS_PUNIT
#define HS_PTIMED(id, name, unit, clock) HS_TIMED_##clock,
#define HS_TIMED_CORE 0
#define HS_TIMED_TIME 1
const int hs_param_timed[HS_NPARAMS] = { HS_PARAM_LIST(HS_PTIMED) };
#undef HS_PTIMED

/* Limits the engines rely on (descriptor fields are 8/16 bits, rings fixed). */
static int check_limits(const struct hs_model *m)
{
	static const enum hs_pid pipes[] = {
		HS_P_ALU_PIPES, HS_P_LOAD_PIPES, HS_P_STORE_PIPES, HS_P_MEM_PIPES, HS_P_BRANCH_PIPES,
		HS_P_MUL_PIPES, HS_P_DIV_UNITS, HS_P_FP_PIPES,
	};
	int l3, shared;

	for (unsigned i = 0; i < HS_NPARAMS; i++) {
		double v = m->p[i].value;
		const char *n = hs_param_name[i];

		if (!isfinite(v) || v < 0 || v > 1e9)
			return hs_fail("%s.%s = %g is out of range", m->desc->name, n, v);
		if ((!strncmp(n, "lat_", 4) || !strncmp(n, "occ_", 4)) && v > 255)
			return hs_fail("%s.%s = %g: latencies are at most 255 cycles", m->desc->name, n, v);
		if (!strcmp(hs_param_unit[i], "cycles") && v > 65535)
			return hs_fail("%s.%s = %g: costs are at most 65535 cycles", m->desc->name, n, v);
	}
	if (m->v[HS_P_ISSUE_WIDTH] < 1 || m->v[HS_P_ISSUE_WIDTH] > 8 || m->v[HS_P_FETCH_WIDTH] < 1 ||
	    m->v[HS_P_FETCH_WIDTH] > 16 || m->v[HS_P_RETIRE_WIDTH] < 1 || m->v[HS_P_RETIRE_WIDTH] > 16)
		return hs_fail("%s: issue/fetch/retire widths must be 1..8/16/16", m->desc->name);
	if (m->v[HS_P_FETCH_QUEUE] > HS_FE_QMAX)
		return hs_fail("%s.fetch_queue must be at most %d", m->desc->name, HS_FE_QMAX);
	if (m->v[HS_P_NOP_TPUT] > 16)
		return hs_fail("%s.nop_per_cycle must be at most 16", m->desc->name);
	if (m->v[HS_P_SHARED_LEVEL] < 2 || m->v[HS_P_SHARED_LEVEL] > 3 ||
	    (m->v[HS_P_SHARED_LEVEL] == 3 && !m->v[HS_P_L3_SIZE]))
		return hs_fail("%s.shared_level must be 2 or 3 (3 only with an L3)", m->desc->name);
	/* the handover is the shared level's lookup and then the snoop */
	l3 = m->v[HS_P_SHARED_LEVEL] == 3;
	shared = m->v[HS_P_L2_LATENCY] + (l3 ? m->v[HS_P_L3_LATENCY] : 0);
	if (m->v[HS_P_PEER_LATENCY] < shared)
		return hs_fail("%s.peer_latency = %d: below the shared level's latency (l2_latency%s = %d)",
			       m->desc->name, m->v[HS_P_PEER_LATENCY], l3 ? " + l3_latency" : "", shared);
	if (m->v[HS_P_ROB_SIZE] > 512)
		return hs_fail("%s.rob_size must be at most 512", m->desc->name);
	for (size_t k = 0; k < HS_ARRAY_SIZE(pipes); k++)
		if (m->v[pipes[k]] < 1 || m->v[pipes[k]] > HS_MAX_PIPES)
			return hs_fail("%s: pipe counts must be 1..%d (%s = %d)", m->desc->name,
				       HS_MAX_PIPES, hs_param_name[pipes[k]], m->v[pipes[k]]);
	return 0;
}

/* Re-derive m->v, resize caches/predictors; -1 (hs_errmsg) if a geometry is
 * impossible (sizes not powers of two...). Flushes state. */
static int hs_model_configure(struct hs_model *m)
{
	struct hs_memcfg c;

	for (unsigned i = 0; i < HS_NPARAMS; i++)
		m->v[i] = (int)lround(m->p[i].value > 1e9 ? 1e9 : m->p[i].value);
	if (check_limits(m))
		return -1;
	memset(&c, 0, sizeof(c));
	c.line = (unsigned)m->v[HS_P_LINE_BYTES];
	c.page = (unsigned)m->v[HS_P_PAGE_BYTES];
	c.l1i_size = (uint64_t)m->v[HS_P_L1I_SIZE];
	c.l1d_size = (uint64_t)m->v[HS_P_L1D_SIZE];
	c.l2_size = (uint64_t)m->v[HS_P_L2_SIZE];
	c.l3_size = (uint64_t)m->v[HS_P_L3_SIZE];
	c.l1i_assoc = (unsigned)m->v[HS_P_L1I_ASSOC];
	c.l1d_assoc = (unsigned)m->v[HS_P_L1D_ASSOC];
	c.l2_assoc = (unsigned)m->v[HS_P_L2_ASSOC];
	c.l3_assoc = (unsigned)m->v[HS_P_L3_ASSOC];
	c.l2_lat = (unsigned)m->v[HS_P_L2_LATENCY];
	c.l3_lat = (unsigned)m->v[HS_P_L3_LATENCY];
	c.mem_lat = (unsigned)m->v[HS_P_MEM_LATENCY];
	c.itlb = (unsigned)m->v[HS_P_ITLB_ENTRIES];
	c.dtlb = (unsigned)m->v[HS_P_DTLB_ENTRIES];
	c.tlb = (unsigned)m->v[HS_P_TLB_ENTRIES];
	c.tlb_assoc = (unsigned)m->v[HS_P_TLB_ASSOC];
	c.tlb_lat = (unsigned)m->v[HS_P_TLB_LATENCY];
	c.walk_lat = (unsigned)m->v[HS_P_WALK_LATENCY];
	c.iprefetch = (unsigned)m->v[HS_P_IPREFETCH];
	c.shared_level = (unsigned)m->v[HS_P_SHARED_LEVEL];
	c.peer_lat = (unsigned)m->v[HS_P_PEER_LATENCY];
	if (hs_mem_init(&m->mem, &c))
		return -1;
	if (hs_bp_init(&m->bp, (unsigned)m->v[HS_P_BP_ENTRIES], (unsigned)m->v[HS_P_BP_HISTORY],
		       (unsigned)m->v[HS_P_BTAC_ENTRIES], (unsigned)m->v[HS_P_BTIC_ENTRIES],
		       (unsigned)m->v[HS_P_RAS_DEPTH]))
		return -1;
	for (int lv = 0; lv < HS_NLEVELS; lv++)
		for (int miss = 0; miss < 3; miss++)
			m->level_uncal[lv][miss] = (uint8_t)hs_level_uncal_of(m, (enum hs_level)lv, miss);
	m->ops_stale = 1;
	return 0;
}

/* A core's entry for parameter i: its own, else the one of the core it is
 * derived from (params_base, and so on), else the default. Every entry has
 * a source; a core leaves one out by giving none. */
static const struct hs_param *param_entry(const struct hs_core *d, unsigned i)
{
	for (const struct hs_core *c = d; c; c = c->params_base)
		if (c->params[i].source)
			return &c->params[i];
	return &hs_param_defaults[i];
}

struct hs_model *hs_model_new(const struct hs_core *d)
{
	struct hs_model *m;

	if (!d || !d->params || !d->engine) {
		hs_fail("no timing model for core %.32s", d ? d->name : "(none)");
		return NULL;
	}
	m = hs_calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->desc = d;
	for (unsigned i = 0; i < HS_NPARAMS; i++) {
		m->p[i] = *param_entry(d, i);
		if (!m->p[i].source) {
			hs_fail("parameter %s has no default in models/defaults.c", hs_param_name[i]);
			free(m);
			return NULL;
		}
		m->p[i].name = hs_param_name[i];
		m->p[i].unit = hs_param_unit[i];
		m->p[i].timed = hs_param_timed[i];
	}
	if (hs_model_configure(m)) {
		hs_model_free(m);
		return NULL;
	}
	return m;
}

void hs_model_free(struct hs_model *m)
{
	if (!m)
		return;
	hs_mem_free(&m->mem);
	hs_bp_free(&m->bp);
	free(m->ops);
	free(m->words);
	free(m->scratch);
	free(m->cont);
	free(m);
}

const char *hs_model_name(const struct hs_model *m)
{
	return m->desc->name;
}

const char *hs_model_description(const struct hs_model *m)
{
	return m->desc->description;
}

const char *hs_model_engine(const struct hs_model *m)
{
	return m->desc->engine->name;
}

size_t hs_model_nparams(const struct hs_model *m)
{
	(void)m;
	return HS_NPARAMS;
}

const struct hs_param *hs_model_param(const struct hs_model *m, size_t i)
{
	return i < HS_NPARAMS ? &m->p[i] : NULL;
}

int hs_model_set_param(struct hs_model *m, const char *name, double value)
{
	const char *dot = name ? strchr(name, '.') : NULL;
	const char *pname = name;
	double old;

	if (!name)
		return hs_fail("no parameter name");
	if (dot) {
		size_t n = (size_t)(dot - name);

		if (strlen(m->desc->name) != n || strncmp(name, m->desc->name, n))
			return hs_fail("parameter '%.40s' is not for core %s", name, m->desc->name);
		pname = dot + 1;
	}
	for (unsigned i = 0; i < HS_NPARAMS; i++) {
		if (strcmp(hs_param_name[i], pname))
			continue;
		old = m->p[i].value;
		m->p[i].value = value;
		if (hs_model_configure(m)) {
			char why[256];

			snprintf(why, sizeof(why), "%s", hs_errmsg());
			m->p[i].value = old;
			hs_model_configure(m);
			return hs_fail("%s", why);
		}
		return 0;
	}
	return hs_fail("unknown parameter '%.40s' for core %s (`hotsim models` lists them)", pname,
		       m->desc->name);
}

int hs_model_run_on(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		    struct hs_insn_cost *per)
{
	int rc;

	m->cont_on = 1;
	rc = hs_model_run(m, t, res, per);
	m->cont_on = 0;
	return rc;
}

void hs_model_reset(struct hs_model *m)
{
	m->cont_n = 0;
	hs_mem_flush(&m->mem);
	hs_bp_flush(&m->bp);
}

int hs_bad_record(const struct hs_trace *t, size_t i)
{
	return hs_fail("trace record %zu names decode entry %u of %zu", i, t->v[i].sidx, t->dc->n);
}

/* hs_model_run with the attribution in costs (NULL: none) */
static int hs_model_run_costs(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
			      struct hs_costs *costs)
{
	memset(res, 0, sizeof(*res));
	if (!t || !t->n)
		return 0;
	if (!t->dc)
		return hs_fail("trace has no decode cache");
	if (costs && (costs->mask & (costs->mask + 1) || !costs->mask ||
		      (costs->mask != SIZE_MAX && !costs->fold)))
		return hs_fail("attribution window: a ring of a power of two entries, with a fold");
	if (hs_ops_sync(m, t))
		return -1;
	if (costs) {
		costs->next = 0;
		costs->pin = SIZE_MAX;
		costs->has_aside = 0;
	}
	if (m->desc->engine->run(m, t, res, costs))
		return -1;
	hs_costs_finish(costs, t->n);
	return 0;
}

int hs_model_run(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		 struct hs_insn_cost *per)
{
	struct hs_costs whole = { .v = per, .mask = SIZE_MAX };

	return hs_model_run_costs(m, t, res, per ? &whole : NULL);
}

int hs_model_cold_costs(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
			struct hs_costs *costs)
{
	hs_model_reset(m);
	return hs_model_run_costs(m, t, res, costs);
}

int hs_model_cold(struct hs_model *m, const struct hs_trace *t, struct hs_model_result *res,
		  struct hs_insn_cost *per)
{
	hs_model_reset(m);
	return hs_model_run(m, t, res, per);
}

int hs_model_warm(struct hs_model *m, const struct hs_trace *t, unsigned max_iter,
		  struct hs_model_result *res, struct hs_insn_cost *per)
{
	uint64_t prev = 0;
	unsigned it;
	int converged = 0;

	if (max_iter < 1)
		max_iter = 1;
	hs_model_reset(m);
	for (it = 1; it <= max_iter; it++) {
		if (hs_model_run(m, t, res, per))
			return -1;
		if (it > 1 && res->cycles == prev) {
			converged = 1;
			break;
		}
		prev = res->cycles;
	}
	res->warm_iterations = it > max_iter ? max_iter : it;
	res->converged = converged;
	return 0;
}

void hs_model_set_layout_shift(struct hs_model *m, uint64_t code_split, uint64_t code_delta,
			       uint64_t data_split, uint64_t data_delta)
{
	m->code_split = code_split;
	m->code_delta = code_delta;
	m->data_split = data_split;
	m->data_delta = data_delta;
}
