// SPDX-License-Identifier: MIT
/*
 * The minimizer: a structure-aware shrinker on the choice stream, as
 * Hypothesis shrinks. The decoder records where each draw took its bytes
 * (dfz_plan_spans()), so every pass acts on whole choices: re-encode the
 * plan (its canonical stream), drop a part of the plan (shrink_plan.c),
 * delete spans of choices, zero them, lower one choice by binary search,
 * lower two together, swap neighbours into order. A candidate replaces the best stream only when it is
 * shortlex-smaller (shorter, or as long and bytewise smaller) and its run
 * keeps the input's signature (class and site, see signature.c). Rounds
 * repeat until none of them finds a smaller stream. Every decision depends
 * only on the bytes and the verdicts, so the result is deterministic; a
 * time budget is the one exception, and is reported when it cut the work.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shrink_int.h"

#define MAX_SPANS 4096u               /* draws of one plan, with room */
#define SEEN_SLOTS 16384u             /* candidates remembered (a power of 2) */
#define PAIR_WINDOW 8u                /* choices apart a pair may be */
#define NARROW_TRIES 64u              /* second bytes pass_narrow tries */

struct shrinker {
	struct dfz_exec *ex;
	const struct dfz_min_config *cfg;
	struct dfz_signature sig;         /* what every candidate must keep */
	uint8_t *best;                    /* the smallest stream so far */
	size_t nbest;
	uint8_t *cand;                    /* scratch of the passes */
	struct dfz_choice_span span[MAX_SPANS]; /* of @best */
	unsigned nspans;
	struct dfz_verdict verdict;       /* of @best */
	uint64_t runs, max_runs, accepted;
	struct timespec t0;
	uint32_t bw_floor;                /* phase 1: the least engine
					   * bandwidth a candidate may have */
	uint8_t stop;                     /* enum dfz_min_stop */
	bool stopped;
	int err;                          /* DFZ_ENOMEM: a candidate could
					   * not be encoded, the passes stop */
	uint64_t seen[SEEN_SLOTS];        /* hashes of runs done (0: empty) */
	unsigned nseen;
};

/* ------------------------------------------------------------ bookkeeping */

static bool shortlex_less(const uint8_t *a, size_t na, const uint8_t *b,
			  size_t nb)
{
	if (na != nb)
		return na < nb;
	return na && memcmp(a, b, na) < 0;
}

/* FNV-1a of the stream, never 0 (0 marks an empty slot). */
static uint64_t hash_of(const uint8_t *buf, size_t n)
{
	uint64_t h = dfz__fnv1a(buf, n) ^ n;

	return h ? h : 1;
}

/* True when @buf was run before; else remember it (while there is room). */
static bool seen_before(struct shrinker *s, const uint8_t *buf, size_t n)
{
	uint64_t h = hash_of(buf, n);
	unsigned i = (unsigned)h & (SEEN_SLOTS - 1);

	while (s->seen[i]) {
		if (s->seen[i] == h)
			return true;
		i = (i + 1) & (SEEN_SLOTS - 1);
	}
	if (s->nseen < SEEN_SLOTS / 2) {
		s->seen[i] = h;
		s->nseen++;
	}
	return false;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* True when the budget is spent (and records why). */
static bool out_of_budget(struct shrinker *s)
{
	if (s->stopped)
		return true;
	if (s->runs >= s->max_runs) {
		s->stop = DFZ_MIN_RUNS_OUT;
		s->stopped = true;
	} else if (s->cfg->max_seconds > 0 &&
		   seconds_since(&s->t0) >= s->cfg->max_seconds) {
		s->stop = DFZ_MIN_TIME_OUT;
		s->stopped = true;
	}
	return s->stopped;
}

static int run_stream(struct shrinker *s, const uint8_t *buf, size_t n,
		      struct dfz_verdict *v)
{
	struct dfz_plan p;

	dfz_plan_decode_as(s->cfg->family, buf, n, &p);
	s->runs++;
	return dfz_exec_run(s->ex, &p, s->cfg->bugs, v);
}

/* Phase 1 leaves the engine bandwidth alone: a run costs about its bytes
 * over the bandwidth in steps, and its simplest value (1 byte a step)
 * would make every later run of a large transfer slow. */
static bool too_slow(const struct shrinker *s, const uint8_t *buf, size_t n)
{
	struct dfz_plan p;

	if (!s->bw_floor)
		return false;
	dfz_plan_decode_as(s->cfg->family, buf, n, &p);
	return p.xfer.bandwidth < s->bw_floor;
}

static void record_spans(struct shrinker *s)
{
	unsigned n = dfz_plan_spans(s->cfg->family, s->best, s->nbest,
				     s->span, MAX_SPANS);

	s->nspans = n < MAX_SPANS ? n : MAX_SPANS;
}

/*
 * Try @buf (@n bytes) as the new best: it must be shortlex-smaller than
 * the best, not run before, and its run must keep the signature.
 * Return: true when it became the best.
 */
static bool try_stream(struct shrinker *s, const uint8_t *buf, size_t n)
{
	struct dfz_signature sig;
	struct dfz_verdict v;

	if (!shortlex_less(buf, n, s->best, s->nbest) || out_of_budget(s) ||
	    too_slow(s, buf, n) || seen_before(s, buf, n))
		return false;
	run_stream(s, buf, n, &v);
	dfz_signature_of(&v, &sig);
	if (!dfz_signature_equal(&sig, &s->sig))
		return false;
	memmove(s->best, buf, n);
	s->nbest = n;
	s->verdict = v;
	s->accepted++;
	record_spans(s);
	return true;
}

/* The end of the bytes choices [i, i + k) took. */
static size_t span_end(const struct shrinker *s, unsigned i, unsigned k)
{
	const struct dfz_choice_span *last = &s->span[i + k - 1];

	return last->off + last->len;
}

/* ------------------------------------------------------------ the passes */

/* The stream of @p into @enc (caller frees): false, and the passes stop,
 * when it runs out of memory. */
static bool encode(struct shrinker *s, const struct dfz_plan *p,
		   uint8_t **enc, size_t *n)
{
	int rc = dfz_plan_encode_as(p, enc, n);

	if (rc < 0) {
		s->err = rc;
		s->stopped = true;
	}
	return rc == 0;
}

/* The canonical stream of the best's plan (decode, then encode). */
static bool pass_canonical(struct shrinker *s)
{
	struct dfz_plan p;
	uint8_t *enc;
	size_t n;
	bool better;

	dfz_plan_decode_as(s->cfg->family, s->best, s->nbest, &p);
	if (!encode(s, &p, &enc, &n))
		return false;
	better = try_stream(s, enc, n);
	free(enc);
	return better;
}

/* Drop one part of the plan (a node, a hop, a dim, a tensor, a call). */
static bool pass_edits(struct shrinker *s)
{
	bool changed = false;

	for (unsigned k = 0; k < DFZ__MIN_EDITS && !s->stopped;) {
		struct dfz_plan p, q;
		uint8_t *enc;
		size_t n;
		bool kept = false;

		dfz_plan_decode_as(s->cfg->family, s->best, s->nbest, &p);
		if (dfz__min_plan_edit(&p, k, &q) && encode(s, &q, &enc, &n)) {
			kept = try_stream(s, enc, n);
			free(enc);
		}
		changed |= kept;
		if (!kept)        /* kept: the same edit again (the next part) */
			k++;
	}
	return changed;
}

/* Delete @k consecutive choices, at every position. */
static bool pass_delete(struct shrinker *s, unsigned k)
{
	bool changed = false;

	for (unsigned i = 0; i + k <= s->nspans && !s->stopped;) {
		size_t a = s->span[i].off, b = span_end(s, i, k);

		memcpy(s->cand, s->best, a);
		memcpy(s->cand + a, s->best + b, s->nbest - b);
		if (try_stream(s, s->cand, s->nbest - (b - a)))
			changed = true;  /* the next choices slid into place */
		else
			i++;
	}
	return changed;
}

/* Zero @k consecutive choices, at every position. */
static bool pass_zero(struct shrinker *s, unsigned k)
{
	bool changed = false;

	for (unsigned i = 0; i + k <= s->nspans && !s->stopped; i++) {
		size_t a = s->span[i].off, b = span_end(s, i, k);

		memcpy(s->cand, s->best, s->nbest);
		memset(s->cand + a, 0, b - a);
		changed |= try_stream(s, s->cand, s->nbest);
	}
	return changed;
}

/* Try byte @at of the best at @v (the rest unchanged). */
static bool try_byte(struct shrinker *s, size_t at, unsigned v)
{
	memcpy(s->cand, s->best, s->nbest);
	s->cand[at] = (uint8_t)v;
	return try_stream(s, s->cand, s->nbest);
}

/*
 * Lower byte @at as far as it keeps the bug: 0 first, then a binary
 * search between a value known to lose it and one known to keep it.
 */
static void lower_byte(struct shrinker *s, size_t at)
{
	unsigned lo = 0, hi = s->best[at];

	if (hi == 0 || try_byte(s, at, 0))
		return;
	while (lo + 1 < hi && !s->stopped) {
		unsigned mid = lo + (hi - lo) / 2;

		if (try_byte(s, at, mid))
			hi = mid;
		else
			lo = mid;
	}
}

/* Lower every choice, byte by byte in stream order (the shortlex order). */
static bool pass_lower(struct shrinker *s)
{
	uint64_t before = s->accepted;

	for (unsigned i = 0; i < s->nspans && !s->stopped; i++)
		for (uint32_t j = 0; j < s->span[i].len && !s->stopped; j++)
			if (s->span[i].off + j < s->nbest)
				lower_byte(s, s->span[i].off + j);
	return s->accepted != before;
}

/* Try the first bytes of choices @i and @j lowered by @d together. */
static bool try_pair(struct shrinker *s, size_t a, size_t b, unsigned d)
{
	memcpy(s->cand, s->best, s->nbest);
	s->cand[a] = (uint8_t)(s->cand[a] - d);
	s->cand[b] = (uint8_t)(s->cand[b] - d);
	return try_stream(s, s->cand, s->nbest);
}

/*
 * Lower two choices together (a shape dim and its tile dim, a count and
 * what it counts): by the most both allow, else by one.
 */
static bool lower_pair(struct shrinker *s, unsigned i, unsigned j)
{
	size_t a = s->span[i].off, b = s->span[j].off;
	unsigned m = s->best[a] < s->best[b] ? s->best[a] : s->best[b];

	return m > 0 && (try_pair(s, a, b, m) || (m > 1 && try_pair(s, a, b, 1)));
}

static bool pass_pairs(struct shrinker *s)
{
	bool changed = false;

	for (unsigned i = 0; i < s->nspans && !s->stopped; i++)
		for (unsigned j = i + 1; j < s->nspans && j <= i + PAIR_WINDOW &&
		     !s->stopped; j++)
			if (lower_pair(s, i, j))
				changed = true;
	return changed;
}

/*
 * Rewrite a wide choice (two bytes or more) and the choice before it as
 * two one-byte choices, 0 and the least j < NARROW_TRIES that keeps the
 * bug. This is how a size drawn uniformly (a mode byte >= 0x80, then the
 * value) becomes a boundary size (mode 0, then an index into the boundary
 * values): 6288 costs four bytes, 8192 two. No edit of single bytes gets
 * there, since each half alone changes what the bytes after it mean.
 */
static bool pass_narrow(struct shrinker *s)
{
	bool changed = false;

	for (unsigned i = 1; i < s->nspans && !s->stopped; i++) {
		size_t a = s->span[i - 1].off, b = span_end(s, i, 1);

		if (s->span[i].len < 2)
			continue;
		for (unsigned j = 0; j < NARROW_TRIES && !s->stopped; j++) {
			memcpy(s->cand, s->best, a);
			s->cand[a] = 0;
			s->cand[a + 1] = (uint8_t)j;
			memmove(s->cand + a + 2, s->best + b, s->nbest - b);
			if (try_stream(s, s->cand, s->nbest - (b - a) + 2)) {
				changed = true;
				break;
			}
		}
	}
	return changed;
}

/* Swap neighbouring choices of one size when that sorts them. */
static bool pass_sort(struct shrinker *s)
{
	bool changed = false;

	for (unsigned i = 0; i + 1 < s->nspans && !s->stopped; i++) {
		const struct dfz_choice_span *x = &s->span[i], *y = &s->span[i + 1];

		if (x->len != y->len ||
		    memcmp(s->best + x->off, s->best + y->off, x->len) <= 0)
			continue;
		memcpy(s->cand, s->best, s->nbest);
		memcpy(s->cand + x->off, s->best + y->off, y->len);
		memcpy(s->cand + y->off, s->best + x->off, x->len);
		changed |= try_stream(s, s->cand, s->nbest);
	}
	return changed;
}

/* One round of every pass. Return: true when any found a smaller stream. */
static bool round_of_passes(struct shrinker *s)
{
	static const unsigned sizes[] = { 8, 4, 2, 1 };
	bool changed = pass_canonical(s);

	changed |= pass_edits(s);
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		changed |= pass_delete(s, sizes[k]);
	changed |= pass_canonical(s);
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		changed |= pass_zero(s, sizes[k]);
	changed |= pass_lower(s);
	changed |= pass_canonical(s);
	changed |= pass_pairs(s);
	changed |= pass_narrow(s);
	changed |= pass_sort(s);
	return changed;
}

/*
 * Phase 2: the bandwidth, lowered last by binary search (1 first) over
 * the plan's value, then the canonical stream once more. Every candidate
 * before it was judged at the input's bandwidth or above.
 */
static void lower_bandwidth(struct shrinker *s)
{
	struct dfz_plan p;
	uint32_t lo = 0, hi;

	dfz_plan_decode_as(s->cfg->family, s->best, s->nbest, &p);
	hi = p.xfer.bandwidth;
	s->bw_floor = 0;
	while (lo + 1 < hi && !s->stopped) {
		uint32_t mid = lo == 0 ? 1 : lo + (hi - lo) / 2;
		uint8_t *enc;
		size_t n;
		bool kept = false;

		p.xfer.bandwidth = mid;
		if (encode(s, &p, &enc, &n)) {
			kept = try_stream(s, enc, n);
			free(enc);
		}
		if (kept)
			hi = mid;
		else
			lo = mid;
	}
}

/* ------------------------------------------------------------ the entry */

/* The input, cut after its last draw (the rest is never read), as the
 * first best. */
static int start(struct shrinker *s, const uint8_t *buf, size_t n)
{
	unsigned k = dfz_plan_spans(s->cfg->family, buf, n, s->span, MAX_SPANS);
	size_t end = k && k <= MAX_SPANS ? span_end(s, 0, k) : k ? n : 0;

	s->best = malloc(end ? end : 1);
	s->cand = malloc(end ? end : 1);
	if (!s->best || !s->cand)
		return DFZ_ENOMEM;
	memcpy(s->best, buf, end);
	s->nbest = end;
	record_spans(s);
	return 0;
}

static int finish(struct shrinker *s, size_t n_in, struct dfz_min_result *out)
{
	out->buf = malloc(s->nbest ? s->nbest : 1);
	if (!out->buf)
		return DFZ_ENOMEM;
	memcpy(out->buf, s->best, s->nbest);
	out->n = s->nbest;
	out->n_in = n_in;
	out->sig = s->sig;
	out->verdict = s->verdict;
	out->runs = s->runs;
	out->accepted = s->accepted;
	out->stop = s->stop;
	return 0;
}

int dfz_minimize(struct dfz_exec *ex, const struct dfz_min_config *cfg,
		 const uint8_t *buf, size_t n, struct dfz_min_result *out)
{
	struct shrinker *s = calloc(1, sizeof(*s));
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s)
		return DFZ_ENOMEM;
	s->ex = ex;
	s->cfg = cfg;
	s->max_runs = cfg->max_runs ? cfg->max_runs : DFZ_MIN_RUNS;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	run_stream(s, buf, n, &s->verdict);
	dfz_signature_of(&s->verdict, &s->sig);
	if (s->sig.cls == DFZ_CLASS_NONE) {
		out->verdict = s->verdict;
		out->n_in = n;
		out->runs = s->runs;
		free(s);
		return DFZ_ENOENT;
	}
	rc = start(s, buf, n);
	if (rc == 0 && cfg->family == DFZ_FAMILY_XFER) {
		struct dfz_plan p;

		dfz_plan_decode_as(cfg->family, s->best, s->nbest, &p);
		s->bw_floor = p.xfer.bandwidth;
	}
	for (bool more = rc == 0; more; out->rounds++)
		more = round_of_passes(s) && !s->stopped;
	if (rc == 0) {
		lower_bandwidth(s);
		rc = s->err ? s->err : finish(s, n, out);
	}
	free(s->best);
	free(s->cand);
	free(s);
	return rc;
}

void dfz_min_result_fini(struct dfz_min_result *r)
{
	if (!r)
		return;
	free(r->buf);
	r->buf = NULL;
}
