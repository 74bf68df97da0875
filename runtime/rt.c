// SPDX-License-Identifier: MIT
/*
 * The runtime context: error messages and bug-switch names, creation and
 * per-run reset of the model, virtual time (the engine step loop, yield
 * points, bounded waits) and the one observer interface. Memory lives in
 * mem.c and mem_arena.c, the ram engine in ram.c, the device in dev.c and
 * the host runtime in host.c; this file ties them together.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

#define DEFAULT_BANDWIDTH 64u
#define DEFAULT_WAIT_BOUND 100000u
#define ALL_BUGS (DFZ_BUG_COUNT >= 32 ? ~0u : (1u << (DFZ_BUG_COUNT & 31)) - 1u)

/* ------------------------------------------------------------------ errors */

const char *dfz_strerror(int err)
{
	switch (err) {
	case 0:
		return "ok";
#define DFZ_ERRNO_MSG(name, val, msg) \
	case DFZ_##name:              \
		return msg;
		DFZ_ERRNO_MAP(DFZ_ERRNO_MSG)
#undef DFZ_ERRNO_MSG
	default:
		return "unknown error";
	}
}

int dfz_err_from_errno(int e)
{
	switch (e) {
	case ENOMEM:
		return DFZ_ENOMEM;
	case ENOENT:
		return DFZ_ENOENT;
	case ENOTDIR:
	case EEXIST:
		return DFZ_ENOTDIR;
	case EACCES:
	case EPERM:
	case EROFS:
		return DFZ_EACCES;
	case ENAMETOOLONG:
	case ELOOP:
	case EISDIR:
	case EINVAL:
		return DFZ_EINVAL;
	default:
		return DFZ_EIO;
	}
}

/* ------------------------------------------------------------ bug switches */

static const char *const bug_names[DFZ_BUG_COUNT] = {
#define DFZ_BUG_STR(id, name) [DFZ_BUG_##id] = name,
	DFZ_BUG_MAP(DFZ_BUG_STR)
#undef DFZ_BUG_STR
};

const char *dfz_bug_name(unsigned bug)
{
	return bug < DFZ_BUG_COUNT ? bug_names[bug] : NULL;
}

/* The bug whose name is exactly s[0..n), or -1. */
static int find_bug(const char *s, size_t n)
{
	for (unsigned i = 0; i < DFZ_BUG_COUNT; i++)
		if (strlen(bug_names[i]) == n && memcmp(bug_names[i], s, n) == 0)
			return (int)i;
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Names are separated by commas; blanks around a name and empty names (a
 * trailing comma) are ignored. */
int dfz_bugs_parse(const char *list, uint32_t *mask)
{
	uint32_t m = 0;
	const char *s = list ? list : "";

	if (!mask)
		return DFZ_EINVAL;
	while (*s) {
		const char *end = s + strcspn(s, ",");
		const char *e = end;
		int bug;

		while (s < e && is_blank(*s))
			s++;
		while (e > s && is_blank(e[-1]))
			e--;
		if (e > s) {
			bug = find_bug(s, (size_t)(e - s));
			if (bug < 0)
				return DFZ_EINVAL;
			m |= 1u << bug;
		}
		s = *end ? end + 1 : end;
	}
	*mask = m;
	return 0;
}

char *dfz_bugs_format(uint32_t mask, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (unsigned i = 0; i < DFZ_BUG_COUNT && at < len; i++)
		if (mask & (1u << i))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "," : "", bug_names[i]);
	return buf;
}

/* ---------------------------------------------------------- create, reset */

/* Copy @cfg into @rt with zero fields replaced by their defaults. */
static void apply_config(struct dfz_rt *rt, const struct dfz_rt_config *cfg)
{
	rt->cfg = *cfg;
	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		uint32_t cap = rt->arena[l].cap;

		if (rt->cfg.mem_size[l] == 0 || rt->cfg.mem_size[l] > cap)
			rt->cfg.mem_size[l] = cap;
	}
	if (rt->cfg.bandwidth == 0)
		rt->cfg.bandwidth = DEFAULT_BANDWIDTH;
	if (rt->cfg.wait_bound == 0)
		rt->cfg.wait_bound = DEFAULT_WAIT_BOUND;
	if (rt->cfg.dev_budget > DFZ_CAP_DEV_BUDGET)
		rt->cfg.dev_budget = DFZ_CAP_DEV_BUDGET;
}

int dfz_rt_create(struct dfz_rt **out)
{
	return dfz_rt_create_at(NULL, out);
}

int dfz_rt_create_at(const struct dfz_rt_layout *lay, struct dfz_rt **out)
{
	static const struct dfz_rt_config defaults;
	struct dfz_rt *rt;
	int rc;

	if (!out)
		return DFZ_EINVAL;
	rt = calloc(1, sizeof(*rt));
	if (!rt)
		return DFZ_ENOMEM;
	rc = dfz__mem_init(rt, lay);
	if (rc < 0) {
		int err = errno;

		free(rt);
		errno = err;
		return rc;
	}
	rt->vg = dfz__vg_create(rt);
	if (dfz__ram_init(&rt->ram, rt) < 0)
		goto err_fini_mem;
	if (dfz__mchan_create(rt, &rt->mchan) < 0)
		goto err_fini_ram;
	if (dfz__idma_create(rt, &rt->idma) < 0)
		goto err_destroy_mchan;
	if (dfz__dev_init(&rt->dev, rt) < 0)
		goto err_destroy_idma;
	dfz_rt_reset(rt, &defaults);
	*out = rt;
	return 0;

err_destroy_idma:
	dfz__idma_destroy(rt->idma);
err_destroy_mchan:
	dfz__mchan_destroy(rt->mchan);
err_fini_ram:
	dfz__ram_fini(&rt->ram);
err_fini_mem:
	dfz__vg_destroy(rt);
	dfz__mem_fini(rt);
	free(rt);
	return DFZ_ENOMEM;
}

void dfz_rt_destroy(struct dfz_rt *rt)
{
	if (!rt)
		return;
	dfz__vg_destroy(rt);
	dfz__poison_destroy(rt);
	dfz__dev_fini(&rt->dev);
	dfz__idma_destroy(rt->idma);
	dfz__mchan_destroy(rt->mchan);
	dfz__ram_fini(&rt->ram);
	dfz__mem_fini(rt);
	free(rt);
}

int dfz_rt_reset(struct dfz_rt *rt, const struct dfz_rt_config *cfg)
{
	if (!rt || !cfg)
		return DFZ_EINVAL;
	if (cfg->bugs & ~ALL_BUGS)
		return DFZ_EINVAL;
	apply_config(rt, cfg);
	dfz__vg_reset(rt);
	dfz__poison_reset(rt);
	dfz__mem_reset(rt);
	dfz__ram_reset(&rt->ram);
	dfz__mchan_reset(rt->mchan);
	dfz__idma_reset(rt->idma);
	dfz__dev_reset(&rt->dev);
	dfz__host_reset(&rt->host, rt);
	rt->now = 0;
	rt->refusal[0] = 0;
	rt->issued = 0;
	return 0;
}

uint32_t dfz_rt_bugs(const struct dfz_rt *rt)
{
	return rt->cfg.bugs;
}

uint64_t dfz_rt_now(const struct dfz_rt *rt)
{
	return rt->now;
}

/* ------------------------------------------------------------------- time */

/* Engine @e had an ISSUE this run: nothing else gives one work. */
static bool issued(const struct dfz_rt *rt, unsigned e)
{
	return rt->issued & (1u << e);
}

/* The engines' driver code is judged by memcheck (vg.h). */
void dfz__rt_step(struct dfz_rt *rt)
{
	rt->now++;
	dfz__vg_enter(rt);
	if (issued(rt, DFZ_ENGINE_RAM))
		dfz__ram_step(&rt->ram);
	if (issued(rt, DFZ_ENGINE_MCHAN))
		dfz__mchan_step(rt->mchan);
	if (issued(rt, DFZ_ENGINE_IDMA))
		dfz__idma_step(rt->idma);
	dfz__vg_leave(rt);
}

static bool ram_idle(const struct dfz_rt *rt)
{
	return !issued(rt, DFZ_ENGINE_RAM) || dfz__ram_is_idle(&rt->ram);
}

static bool mchan_idle(const struct dfz_rt *rt)
{
	return !issued(rt, DFZ_ENGINE_MCHAN) || dfz__mchan_is_idle(rt->mchan);
}

static bool idma_idle(const struct dfz_rt *rt)
{
	return !issued(rt, DFZ_ENGINE_IDMA) || dfz__idma_is_idle(rt->idma);
}

bool dfz__rt_is_idle(const struct dfz_rt *rt)
{
	return ram_idle(rt) && mchan_idle(rt) && idma_idle(rt);
}

uint64_t dfz__rt_latency(struct dfz_rt *rt, uint32_t *latency, uint64_t max)
{
	uint64_t k = *latency < max ? *latency : max;

	*latency -= (uint32_t)k;
	rt->now += k;
	return k;
}

/*
 * A stretch of steps at once, when one L2<->L1 channel is the only engine
 * busy: no core runs inside a yield's or a wait's steps, so nothing but
 * that channel can act until the step in which its current line (idma,
 * where a queued request can pop; else its transfer) or transfer (mchan)
 * ends, where a queue can pop and a wait's condition can change. The channel moves the bytes of those steps a line at a
 * time instead of a bandwidth at a time, each move stamped with the step
 * its last byte lands in (idma.c, mchan.c). Return the steps taken, 0
 * when the caller must take a single step.
 */
static uint64_t burst(struct dfz_rt *rt, uint64_t max)
{
	if (!ram_idle(rt))
		return 0;
	if (mchan_idle(rt))
		return dfz__idma_burst(rt->idma, max);
	if (idma_idle(rt))
		return dfz__mchan_burst(rt->mchan, max);
	return 0;
}

/*
 * Stepping idle engines only advances time, so once every engine is idle
 * the remaining steps are added at once: same result, no spinning.
 */
static void run_steps(struct dfz_rt *rt, uint64_t n)
{
	while (n > 0) {
		uint64_t k;

		if (dfz__rt_is_idle(rt)) {
			rt->now += n;
			return;
		}
		k = burst(rt, n);
		if (k == 0) {
			dfz__rt_step(rt);
			k = 1;
		}
		n -= k;
	}
}

/* A yield runs at most wait_bound steps: a scheduler drawing a huge count
 * while an engine never goes idle (a self-linked queue) must not spin. */
void dfz_rt_yield(struct dfz_rt *rt, enum dfz_yield where)
{
	unsigned n = rt->cfg.sched ? rt->cfg.sched(rt->cfg.sched_ctx, where) : 0;

	run_steps(rt, n < rt->cfg.wait_bound ? n : rt->cfg.wait_bound);
}

int dfz__rt_wait(struct dfz_rt *rt, bool (*done)(const void *arg),
		 const void *arg)
{
	uint32_t bound = rt->cfg.wait_bound;

	for (uint32_t n = 0; !done(arg);) {
		uint64_t k;

		if (n >= bound)
			return DFZ_EHANG;
		if (dfz__rt_is_idle(rt)) {
			/* Nothing can set the condition any more. */
			rt->now += bound - n;
			return DFZ_EHANG;
		}
		k = burst(rt, bound - n);
		if (k == 0) {
			dfz__rt_step(rt);
			k = 1;
		}
		n += (uint32_t)k;
	}
	return 0;
}

void dfz_rt_poison_stop(struct dfz_rt *rt)
{
	rt->cfg.poison_inflight = false;
	dfz__poison_reset(rt);
}

#define CUT_WAIT_BOUND 64

void dfz_rt_cut(struct dfz_rt *rt)
{
	if (rt->cfg.wait_bound > CUT_WAIT_BOUND)
		rt->cfg.wait_bound = CUT_WAIT_BOUND;
}

int dfz__rt_refuse(struct dfz_rt *rt, int rc, const char *call,
		   const char *fmt, ...)
{
	char where[120];
	va_list ap;

	if (rc >= 0 || rc == DFZ_EHANG || rt->refusal[0])
		return rc;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	snprintf(rt->refusal, sizeof(rt->refusal), "%s returned %s (%s)", call,
		 dfz_strerror(rc), where);
	return rc;
}

const char *dfz_rt_refusal(const struct dfz_rt *rt)
{
	return rt && rt->refusal[0] ? rt->refusal : NULL;
}

void dfz_rt_set_quirks(struct dfz_rt *rt, uint32_t quirks)
{
	rt->cfg.quirks = quirks;
}

uint32_t dfz_rt_quirks(const struct dfz_rt *rt)
{
	return rt ? rt->cfg.quirks : 0;
}

void dfz_rt_judge(struct dfz_rt *rt, bool on)
{
	if (on)
		dfz__vg_enter(rt);
	else
		dfz__vg_leave(rt);
}

/* ---------------------------------------------------------------- events */

/*
 * The hot path. Every write the model publishes also raises the arena's
 * high-water mark here, so the next reset refills exactly what may differ
 * from the fill pattern, whichever engine or executor wrote it; the
 * footprint of an issued transfer or a compute read is materialized
 * before anyone looks at it (mem_arena.c); memcheck's view follows the
 * same events (vg.h), and observers are not judged.
 */
void dfz_rt_emit(struct dfz_rt *rt, const struct dfz_event *ev)
{
	if (ev->kind == DFZ_EV_MOVE) {
		struct dfz_span last, src;

		/* pitches are never negative: the last line ends last */
		dfz_move_line(ev, dfz_move_lines(ev) - 1, &last, &src);
		dfz__mem_touch(rt, last.level, last.off, last.len);
	} else if (ev->kind == DFZ_EV_COMPUTE_WRITE) {
		dfz__mem_touch(rt, ev->dst.level, ev->dst.off, ev->dst.len);
	} else if (ev->kind == DFZ_EV_ISSUE) {
		if (ev->engine < DFZ_ENGINE_COUNT)
			rt->issued |= (uint8_t)(1u << ev->engine);
		dfz__mem_ready_event(rt, ev);
	} else if (ev->kind == DFZ_EV_COMPUTE_READ) {
		dfz__mem_ready_event(rt, ev);
	}
	if (rt->cfg.poison_inflight)
		dfz__poison_event(rt, ev);
	if (rt->vg)
		dfz__vg_event(rt, ev);
	if (!rt->cfg.obs.fn)
		return;
	if (rt->vg)
		dfz__vg_observe_begin(rt);
	rt->cfg.obs.fn(rt->cfg.obs.ctx, ev);
	if (rt->vg)
		dfz__vg_observe_end(rt);
}

/* ---------------------------------------------------------------- engines */

const struct dfz_engine_ops *dfz__engine_ops(unsigned id)
{
	switch (id) {
	case DFZ_ENGINE_RAM:
		return dfz__ram_ops();
	case DFZ_ENGINE_MCHAN:
		return dfz__mchan_ops();
	case DFZ_ENGINE_IDMA:
		return dfz__idma_ops();
	default:
		return NULL;
	}
}
