/* SPDX-License-Identifier: MIT */
/*
 * The memory model described to valgrind memcheck, the second, independent
 * oracle (runtime/vg.c). Memcheck's view of the arenas:
 *
 *  - a live allocation's user bytes are addressable and defined, its
 *    redzones, free storage (released blocks included) and never-allocated
 *    bytes are not addressable;
 *  - the CPU-visible (L2/L1) destination of a transfer is not addressable
 *    from its ISSUE until the wait that covers it returns: a CPU read
 *    before that wait is an invalid read whatever the schedule. The
 *    engines' own copies (dfz__vg_move) are exempt;
 *  - each engine copy's footprint is checked at service time: bytes that
 *    leave the allocation the copy starts in must be addressable
 *    (VALGRIND_CHECK_MEM_IS_ADDRESSABLE), so a copy running into a redzone
 *    or free storage is reported even though the engine's copy itself is
 *    exempt;
 *  - device blocks are malloc-like blocks at their device addresses, so a
 *    block the host lost every handle of is "definitely lost" by the leak
 *    check that runs when the device context is torn down.
 *
 * Memcheck judges the system under test, not its observers: addressability
 * errors inside the arenas are reported only while runtime code runs (a
 * judged section: the tile executor, an engine step, a host runtime call)
 * and never while an observer callback runs, nor from the harness, the
 * oracles' post-checks or tests reading the arenas. Every byte of an arena
 * is defined (the arenas start from the fill template and every writer
 * copies defined bytes), so memcheck's definedness tracking is not used
 * there, unless cfg.sanitize is set (user code): then
 *
 *  - a fresh block's user bytes are undefined (never written), a freed
 *    block's are unaddressable while it waits in the quarantine and until
 *    an allocation covers its storage again;
 *  - definedness travels with the bytes: an engine's copy into an
 *    in-flight destination (unaddressable, so the copy carries nothing
 *    there) records the source's V bits, which the covering wait sets on
 *    the destination instead of making it all defined.
 *
 * DFZ_MEMCHECK_MODEL=off in the environment leaves the model out (plain
 * memcheck): for processes that run bug switches with our oracles on, on
 * purpose, such as the unit tests.
 *
 * Built with the client requests when <valgrind/memcheck.h> is there
 * (DFZ_VALGRIND=1 makes it required: the memcheck build). Outside valgrind
 * rt->vg is NULL and every hook is one test of it.
 */
#ifndef DMAFUZZ_VG_H
#define DMAFUZZ_VG_H

#include "runtime_int.h"

struct dfz__vg;

/** dfz__vg_create() - the memcheck state of @rt, or NULL when the process
 * does not run under valgrind (or has no client requests built in). */
struct dfz__vg *dfz__vg_create(struct dfz_rt *rt);
void dfz__vg_destroy(struct dfz_rt *rt);
/** dfz__vg_built() - true when this build has the client requests. */
bool dfz__vg_built(void);

/* Arena lifecycle (mem_arena.c). */
/** dfz__vg_fresh() - [@p, @p + @n) of an arena was just materialized (made
 * accessible, which memcheck takes as defined): free storage again. */
void dfz__vg_fresh(struct dfz_rt *rt, const void *p, size_t n);
/** dfz__vg_arena_reset() - @level holds no block any more: tear down its
 * device blocks (after the leak check) and make it unaddressable. */
void dfz__vg_arena_reset(struct dfz_rt *rt, unsigned level);
/** dfz__vg_block_open() - make block [@start, @start + @len) writable
 * before its canaries are written. */
void dfz__vg_block_open(struct dfz_rt *rt, unsigned level, uint32_t start,
			uint32_t len);
/** dfz__vg_alloc() - block @b of @level is live: user bytes addressable
 * (cfg.sanitize, a SoC level: and undefined), redzones not, described; a
 * device block becomes malloc-like. */
void dfz__vg_alloc(struct dfz_rt *rt, unsigned level, struct dfz_block *b);
/** dfz__vg_free() - block @b of @level is released: its marks dropped, its
 * bytes unaddressable. */
void dfz__vg_free(struct dfz_rt *rt, unsigned level, struct dfz_block *b);
/** dfz__vg_quarantine() - freed block @e of @level waits in the quarantine
 * (cfg.sanitize): described as such, for a read of it. */
void dfz__vg_quarantine(struct dfz_rt *rt, unsigned level,
			struct dfz__qblock *e);
/** dfz__vg_reclaim() - @e left the quarantine: its description goes. */
void dfz__vg_reclaim(struct dfz_rt *rt, struct dfz__qblock *e);
/** dfz__vg_dev_retire() - the host hands device block @addr back to the
 * device context (which frees it at teardown): not the host's to lose any
 * more. */
void dfz__vg_dev_retire(struct dfz_rt *rt, uint64_t addr);
/** dfz__vg_describe() - name the block holding @ptr (L2/L1) in memcheck's
 * messages, printf-style. */
void dfz__vg_describe(struct dfz_rt *rt, const void *ptr, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));
/** dfz__vg_label() - name the transfers issued from now on (the tile
 * executor: tensor and tile); NULL @fmt clears it. */
void dfz__vg_label(struct dfz_rt *rt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Judged sections: addressability errors in the arenas are reported only
 * inside one (they nest). */
void dfz__vg_enter(struct dfz_rt *rt);
void dfz__vg_leave(struct dfz_rt *rt);
/** dfz__vg_reset() - outside every judged section again (dfz_rt_reset():
 * a signal may have cut the last run short inside one). */
void dfz__vg_reset(struct dfz_rt *rt);

/** dfz__vg_event() - the runtime's own view of event @ev (rt.c, before the
 * observer): ISSUE marks a destination in flight; it is released once
 * both its COMPLETE (the bytes landed) and a WAITED that covers it came,
 * in either order, as poison.c releases ASan's marks; MOVE checks the
 * footprint. */
void dfz__vg_event(struct dfz_rt *rt, const struct dfz_event *ev);
/** dfz__vg_observe_begin() / _end() - around an observer callback: the
 * observer's reads are not judged. */
void dfz__vg_observe_begin(struct dfz_rt *rt);
void dfz__vg_observe_end(struct dfz_rt *rt);

/** dfz__vg_move() - an engine's copy of @n bytes, exempt from the in-flight
 * marks and redzones it may cross (its footprint is checked separately);
 * the arena pages it reads and writes are materialized first. With
 * cfg.sanitize the V bits it brings into an in-flight destination are
 * kept for the wait. */
void dfz__vg_move(struct dfz_rt *rt, void *dst, const void *src, size_t n);
/** dfz__vg_move_lines() - dfz__vg_move() of @lines lines of @len bytes,
 * one after another in order, each @dst_pitch and @src_pitch past the one
 * before (the lines of a 2-D transfer): the checks made once. */
void dfz__vg_move_lines(struct dfz_rt *rt, uint8_t *dst, size_t dst_pitch,
			const uint8_t *src, size_t src_pitch, size_t len,
			uint32_t lines);
/** dfz__vg_copy() - the same copy into pages known to be materialized (a
 * reset's refill). */
void dfz__vg_copy(struct dfz_rt *rt, void *dst, const void *src, size_t n);

#endif /* DMAFUZZ_VG_H */
