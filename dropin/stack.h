/* SPDX-License-Identifier: MIT */
/*
 * The call stacks of a finding (stack.c): the return addresses taken at
 * an SDK call while it is being served, and, when a verdict is printed,
 * the user's frames among them, symbolized from the binary's own debug
 * information. Capture happens in bare runs and replays only; a fuzz
 * execution takes none (its finding is printed from the same schedule's
 * replay).
 */
#ifndef DMAFUZZ_DROPIN_STACK_H
#define DMAFUZZ_DROPIN_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmafuzz/dropin.h"

#define DFZ__STACK_PCS 24   /* return addresses kept per call */
#define DFZ__STACK_USER 8   /* user frames shown per stack */
#define DFZ__FRAME_FILE 240
#define DFZ__FRAME_FUNC 80

/* The return addresses of one call, innermost first (n 0: none). */
struct dfz__stack {
	uint32_t n;
	void *pc[DFZ__STACK_PCS];
};

/* One frame of the user's code. */
struct dfz__frame {
	char file[DFZ__FRAME_FILE];   /* as the compiler named it, relative
				       * to the working directory when it
				       * lies inside */
	int line;
	char func[DFZ__FRAME_FUNC];
};

/* The user's frames of one stack, innermost (the SDK call) first. */
struct dfz__frames {
	uint32_t n;
	struct dfz__frame f[DFZ__STACK_USER];
};

/** dfz__stack_put() - @src into @dst (@cap bytes), cut to fit. */
void dfz__stack_put(char *dst, size_t cap, const char *src);

/** dfz__stack_capture() - the return addresses of the caller's stack into
 * @s (n 0 where the platform cannot unwind). */
void dfz__stack_capture(struct dfz__stack *s);

/** dfz__stack_keep() - capture the stack of issue @xfer (the call being
 * served issues it); issues past the site record's size are not kept. */
void dfz__stack_keep(int64_t xfer);

/** dfz__stack_of() - the stack kept for issue @xfer (n 0: none). */
void dfz__stack_of(int64_t xfer, struct dfz__stack *out);

/**
 * dfz__stack_user() - the user's frames of @s, the stack of the SDK call
 * at @at: from the first frame of the user's code (normally @at's line)
 * outwards, up to the next frame that is the drop-in's (its sources, the
 * SDK-named headers, a dfz_ name), libc's or has no line information.
 * Symbolized by addr2line over the running binary. Return: the frames'
 * count (0 when @s is empty, @at names no call, the binary has no line
 * information or no symbolizer runs).
 */
uint32_t dfz__stack_user(const struct dfz__stack *s, const struct dfz_site *at,
			 struct dfz__frames *out);

#endif /* DMAFUZZ_DROPIN_STACK_H */
