/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the C reproducer emitter (emit_c*.c): the common
 * frame of an emitted program (emit_c.c) calls one family part, which
 * writes the program's globals and its `replay()` function.
 */
#ifndef DMAFUZZ_EMIT_C_INT_H
#define DMAFUZZ_EMIT_C_INT_H

#include <stdarg.h>

#include "dmafuzz/emit.h"

/*
 * The part of an emitted program a family writes. It may use what the
 * frame defines before it: the globals `rt`, `set` (the oracle set) and
 * `rc` (the program's first error), the macro TRY(call) (performs @call
 * only while rc is 0, keeping its code in rc), observe() (the observer
 * that counts ISSUE events in `issues` and forwards to the oracles) and
 * rejected(v, fmt, ...). It must define
 *     static void replay(uint32_t bugs, struct dfz_verdict *v);
 * which runs the plan once with the switches @bugs and fills @v as the
 * harness would.
 */

/** dfz__emit_xfer() - the part of an xfer plan @x (normalised). */
void dfz__emit_xfer(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs);

/**
 * dfz__emit_host() - the part of a host or api plan @p (normalised).
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__emit_host(FILE *f, const struct dfz_plan *p);

/**
 * dfz__emit_tiles() - the function @fn of an xfer part: the tiled program
 * of @x written out call by call, with the executor's switches of @bugs
 * (emit_c_tile.c). Its globals (prog, ad, the buffers inH/auxH/outH and
 * handles hH/hH_it of each hop H) and helpers (off_of, scope_init,
 * scope_fini, buf_free, compute) come from the xfer part.
 */
void dfz__emit_tiles(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs,
		     const char *fn);

/** dfz__emit_has_tiles() - whether the program of @x runs any tile (a
 * valid program over a shape without an empty dim). */
bool dfz__emit_has_tiles(const struct dfz_plan_xfer *x);

/**
 * dfz__emit_dropin() - xfer plan @x (normalised) as a drop-in program:
 * SDK calls (PMSIS cluster RAM, MCHAN, Snitch) as generated code makes
 * them, with the generated-code switches of @bugs printed as the faulty
 * code, a body that fills, runs and checks, and DFZ_DROPIN_MAIN
 * (emit_dropin.c).
 * Return: 0, DFZ_EINVAL when dfz__emit_dropin_check() refuses @x,
 * DFZ_ENOMEM, DFZ_EIO.
 */
int dfz__emit_dropin(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs);

/**
 * dfz__emit_dropin_check() - whether the drop-in printer writes @x with
 * the switches @bugs: every hop on an engine whose SDK names it has (RAM
 * L3<->L2, mchan and idma L2<->L1), and every call of the program one
 * those names can make.
 * Return: 0; DFZ_EINVAL when not, with the reason in @why (@n bytes, may
 * be NULL); DFZ_ENOMEM.
 */
int dfz__emit_dropin_check(const struct dfz_plan_xfer *x, uint32_t bugs,
			   char *why, size_t n);

/* Enumerator names for the emitted code. */
const char *dfz__emit_level(unsigned level);
const char *dfz__emit_engine(unsigned engine);
const char *dfz__emit_kernel(unsigned kernel);


/* Shared printing helpers. */

/** dfz__emit_note_text() - the comment both printers write at walk note
 * @what when it says only which note it is, or NULL. */
const char *dfz__emit_note_text(enum dfz_walk_note what);

/** dfz__emit_tabs() - @n tabs. */
void dfz__emit_tabs(FILE *f, unsigned n);

/** dfz__emit_u32s() - "{ a, b, c }" of the first @n of @v. */
void dfz__emit_u32s(FILE *f, const uint32_t *v, unsigned n);

/** dfz__emit_line() - @ind tabs, the formatted text, a newline; nothing
 * when @f is NULL (a printer's dry run). */
void dfz__emit_line(FILE *f, unsigned ind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* DMAFUZZ_EMIT_C_INT_H */
