// SPDX-License-Identifier: MIT
/*
 * The oracle set: creates the oracles of a mask once, resets them per run,
 * dispatches every runtime event to the oracles that want it (in enum
 * order), and keeps the first violation of the run as its finding. Also
 * the class names and the bounded pointer table the oracles share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

static const char *const class_names[DFZ_CLASS_COUNT] = {
	[DFZ_CLASS_NONE] = "none",
#define CLASS_NAME(id, name) [DFZ_CLASS_##id] = name,
	DFZ_CLASS_MAP(CLASS_NAME)
#undef CLASS_NAME
};

/* Each oracle's ops accessor; called once per oracle at creation. */
static const struct dfz_oracle_ops *
(*const oracle_ops[DFZ_ORACLE_COUNT])(void) = {
#define ORACLE_OPS(id, name) [DFZ_ORACLE_##id] = dfz__oracle_##name,
	DFZ__ORACLE_OPS(ORACLE_OPS)
#undef ORACLE_OPS
};

static const char *const oracle_names[DFZ_ORACLE_COUNT] = {
#define ORACLE_NAME(id, name) [DFZ_ORACLE_##id] = name,
	DFZ_ORACLE_MAP(ORACLE_NAME)
#undef ORACLE_NAME
};

const char *dfz_oracle_name(unsigned id)
{
	return id < DFZ_ORACLE_COUNT ? oracle_names[id] : NULL;
}

int dfz_oracles_parse(const char *list, uint32_t *mask)
{
	const char *s = list;
	uint32_t m = 0;

	if (!list || !strcmp(list, "all")) {
		*mask = DFZ_ORACLES_ALL;
		return 0;
	}
	if (!strcmp(list, "none")) {
		*mask = 0;
		return 0;
	}
	do {
		size_t n = strcspn(s, ",");
		unsigned k = 0;

		while (k < DFZ_ORACLE_COUNT &&
		       (strlen(oracle_names[k]) != n ||
			strncmp(oracle_names[k], s, n)))
			k++;
		if (k == DFZ_ORACLE_COUNT)
			return DFZ_EINVAL;
		m |= 1u << k;
		s += n;
	} while (*s++ == ',');
	*mask = m;
	return 0;
}

const char *dfz_class_name(unsigned cls)
{
	return cls < DFZ_CLASS_COUNT ? class_names[cls] : NULL;
}

unsigned dfz_class_parse(const char *name)
{
	unsigned i;

	if (!name)
		return DFZ_CLASS_NONE;
	for (i = 1; i < DFZ_CLASS_COUNT; i++)
		if (strcmp(name, class_names[i]) == 0)
			return i;
	return DFZ_CLASS_NONE;
}

struct dfz_evidence dfz_evidence_none(void)
{
	struct dfz_evidence ev = {
		.handle = NULL, .step = -1, .xfer = -1,
		.elem = -1, .level = -1, .off = -1, .other = -1,
		.block = -1,
	};

	return ev;
}

struct dfz_evidence dfz__evidence_of(const struct dfz_event *ev, int64_t xfer)
{
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.xfer = xfer;
	return x;
}

bool dfz_desc_writes(const struct dfz_desc *d, const struct dfz_span *s)
{
	return d && s && dfz__fp_contains(d, !d->ext2loc, s);
}

const char *dfz__level_name(unsigned level)
{
	return level < DFZ_NLEVELS ? dfz_level_name(level) : "L?";
}

void dfz_oracle_fail(struct dfz_oracles *set, const char *oracle,
		     enum dfz_class cls, const struct dfz_evidence *ev,
		     const char *fmt, ...)
{
	struct dfz_finding *f;
	va_list ap;

	if (!set || dfz__oracles_decided(set) || cls == DFZ_CLASS_NONE ||
	    (unsigned)cls >= DFZ_CLASS_COUNT)
		return;
	f = &set->finding;
	f->cls = (uint8_t)cls;
	set->listening = false;
	snprintf(f->oracle, sizeof(f->oracle), "%s", oracle ? oracle : "?");
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	f->ev = ev ? *ev : dfz_evidence_none();
}

/* ------------------------------------------------------------ the set */

static void build_dispatch(struct dfz_oracles *set)
{
	unsigned k, id;

	for (k = 0; k < DFZ_EV_COUNT; k++) {
		set->ndisp[k] = 0;
		for (id = 0; id < DFZ_ORACLE_COUNT; id++)
			if (set->ops[id] && set->ops[id]->event &&
			    (set->ops[id]->events & DFZ_EV_BIT(k)))
				set->disp[k][set->ndisp[k]++] =
					(struct dfz__hook){
						set->ops[id]->event,
						set->st[id] };
	}
}

int dfz_oracles_create(uint32_t mask, struct dfz_oracles **out)
{
	struct dfz_oracles *set = calloc(1, sizeof(*set));
	unsigned id;

	if (!set)
		return DFZ_ENOMEM;
	set->mask = mask & DFZ_ORACLES_ALL;
	for (id = 0; id < DFZ_ORACLE_COUNT; id++) {
		if (!(set->mask & (1u << id)))
			continue;
		set->ops[id] = oracle_ops[id]();
		set->st[id] = calloc(1, set->ops[id]->size);
		if (!set->st[id] || (set->ops[id]->init &&
		    set->ops[id]->init(set->st[id]) != 0))
			goto err_destroy;
	}
	build_dispatch(set);
	*out = set;
	return 0;

err_destroy:
	dfz_oracles_destroy(set);
	return DFZ_ENOMEM;
}

void dfz_oracles_destroy(struct dfz_oracles *set)
{
	unsigned id;

	if (!set)
		return;
	for (id = 0; id < DFZ_ORACLE_COUNT; id++) {
		if (set->st[id] && set->ops[id]->fini)
			set->ops[id]->fini(set->st[id]);
		free(set->st[id]);
	}
	free(set);
}

static void observe(void *ctx, const struct dfz_event *ev)
{
	struct dfz_oracles *set = ctx;
	unsigned i, k = ev->kind;

	if (!set->listening || k >= DFZ_EV_COUNT)
		return;
	if (k == DFZ_EV_ISSUE)
		set->xfer = set->nissue++;
	for (i = 0; i < set->ndisp[k] && set->listening; i++)
		set->disp[k][i].event(set->disp[k][i].st, ev);
}

struct dfz_observer dfz_oracles_observer(struct dfz_oracles *set)
{
	struct dfz_observer obs = { .fn = observe, .ctx = set };

	return obs;
}

void dfz_oracles_reset(struct dfz_oracles *set, struct dfz_rt *rt)
{
	unsigned id;

	memset(&set->finding, 0, sizeof(set->finding));
	set->finding.ev = dfz_evidence_none();
	set->rt = rt;
	set->nissue = 0;
	set->xfer = -1;
	set->nusers = 0;
	set->running = true;
	set->listening = true;
	for (id = 0; id < DFZ_ORACLE_COUNT; id++)
		if (set->st[id])
			set->ops[id]->reset(set->st[id], set, rt);
}

/*
 * The oracles @id of a running @set that have hook @op, in enum order,
 * while none has decided the run; the body calls the hook.
 */
#define FOR_EACH_HOOK(set, id, op)					\
	for ((id) = 0; (set)->running && (id) < DFZ_ORACLE_COUNT; (id)++) \
		if ((set)->st[id] && (set)->ops[id]->op &&		\
		    !dfz__oracles_decided(set))

void dfz_oracles_begin(struct dfz_oracles *set, const struct dfz_prog *spec)
{
	unsigned id;

	FOR_EACH_HOOK(set, id, begin)
		set->ops[id]->begin(set->st[id], spec);
}

void dfz_oracles_begin_host(struct dfz_oracles *set,
			    const struct dfz_host_prog *spec)
{
	unsigned id;

	FOR_EACH_HOOK(set, id, begin_host)
		set->ops[id]->begin_host(set->st[id], spec);
}

void dfz_oracles_returned(struct dfz_oracles *set, unsigned call,
			  unsigned rep, int rc)
{
	unsigned id;

	FOR_EACH_HOOK(set, id, returned)
		set->ops[id]->returned(set->st[id], call, rep, rc);
}

void dfz_oracles_end(struct dfz_oracles *set)
{
	unsigned id;

	if (!set->running)
		return;
	FOR_EACH_HOOK(set, id, end)
		set->ops[id]->end(set->st[id]);
	set->running = false;
	set->listening = false;
}

const struct dfz_finding *dfz_oracles_finding(const struct dfz_oracles *set)
{
	return dfz__oracles_decided(set) ? &set->finding : NULL;
}

void *dfz__oracles_state(struct dfz_oracles *set, enum dfz_oracle_id id)
{
	return (unsigned)id < DFZ_ORACLE_COUNT ? set->st[id] : NULL;
}

/* ------------------------------------------------------- pointer table */

int dfz__ptab_init(struct dfz__ptab *t, uint32_t max)
{
	uint32_t slots = 1;

	while (slots < 2 * max)
		slots <<= 1;
	t->key = calloc(slots, sizeof(*t->key));
	t->val = calloc(slots, sizeof(*t->val));
	t->used = calloc(max, sizeof(*t->used));
	t->n = 0;
	t->max = max;
	t->mask = slots - 1;
	return t->key && t->val && t->used ? 0 : DFZ_ENOMEM;
}

void dfz__ptab_fini(struct dfz__ptab *t)
{
	free(t->key);
	free(t->val);
	free(t->used);
	memset(t, 0, sizeof(*t));
}

void dfz__ptab_clear(struct dfz__ptab *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		t->key[t->used[i]] = NULL;
	t->n = 0;
}

static uint32_t ptab_hash(const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32);
}

int32_t dfz__ptab_find(const struct dfz__ptab *t, const void *key)
{
	uint32_t i = ptab_hash(key) & t->mask;

	if (!key)
		return -1;
	while (t->key[i]) {
		if (t->key[i] == key)
			return (int32_t)t->val[i];
		i = (i + 1) & t->mask;
	}
	return -1;
}

int32_t dfz__ptab_add(struct dfz__ptab *t, const void *key, bool *added)
{
	uint32_t i = ptab_hash(key) & t->mask;

	*added = false;
	if (!key)
		return -1;
	while (t->key[i]) {
		if (t->key[i] == key)
			return (int32_t)t->val[i];
		i = (i + 1) & t->mask;
	}
	if (t->n >= t->max)
		return -1;
	t->key[i] = key;
	t->val[i] = t->n;
	t->used[t->n] = i;
	*added = true;
	return (int32_t)t->n++;
}

bool dfz__place(const struct dfz_oracles *set, const void *p,
		unsigned *level, uint64_t *off)
{
	static const uint32_t cap[DFZ_NLEVELS] = {
		[DFZ_L2] = DFZ_CAP_L2, [DFZ_L1] = DFZ_CAP_L1,
	};
	uintptr_t a = (uintptr_t)p, base;
	struct dfz_span s;
	unsigned l;

	if (!set->rt || !p)
		return false;
	if (dfz_mem_locate(set->rt, p, 1, &s)) {
		*level = s.level;
		*off = s.off;
		return true;
	}
	for (l = DFZ_L2; l < DFZ_NLEVELS; l++) {
		base = (uintptr_t)dfz_mem_ptr(set->rt, (enum dfz_level)l, 0);
		if (base && a >= base && a - base < cap[l]) {
			*level = l;
			*off = a - base;
			return true;
		}
	}
	return false;
}

/* @p as messages name it, after @prefix, into the next rotating buffer. */
/*
 * A request outside the memory model (user code keeps requests on its
 * stack or heap) is named by the order in which messages first named it
 * this run ("user#0"), so that a message reads the same in every run
 * whatever the addresses. -1 once the table is full.
 */
static int user_ordinal(struct dfz_oracles *set, const void *p)
{
	for (unsigned i = 0; i < set->nusers; i++)
		if (set->users[i] == p)
			return (int)i;
	if (set->nusers == DFZ__USER_NAMES)
		return -1;
	set->users[set->nusers] = p;
	return (int)set->nusers++;
}

static const char *where_fmt(struct dfz_oracles *set, const char *prefix,
			     const void *p)
{
	char *buf = set->where[set->where_next++ % 4];
	unsigned level;
	uint64_t off;
	int k;

	if (dfz__place(set, p, &level, &off))
		snprintf(buf, sizeof(set->where[0]), "%s%s+0x%llx", prefix,
			 dfz__level_name(level), (unsigned long long)off);
	else if ((k = user_ordinal(set, p)) >= 0)
		snprintf(buf, sizeof(set->where[0]), "%suser#%d", prefix, k);
	else
		snprintf(buf, sizeof(set->where[0]), "%s%p", prefix, p);
	return buf;
}

const char *dfz__where(struct dfz_oracles *set, const void *p)
{
	return where_fmt(set, "", p);
}

const char *dfz__owner(struct dfz_oracles *set, unsigned engine,
		       const void *handle, int64_t id)
{
	char *buf;

	if (engine == DFZ_ENGINE_RAM)
		return where_fmt(set, "request ", handle);
	buf = set->where[set->where_next++ % 4];
	if (engine == DFZ_ENGINE_MCHAN)
		snprintf(buf, sizeof(set->where[0]), "TID %lld", (long long)id);
	else if (id < 0)
		snprintf(buf, sizeof(set->where[0]), "every txid (wait_all)");
	else
		snprintf(buf, sizeof(set->where[0]), "txid %lld",
			 (long long)id);
	return buf;
}
