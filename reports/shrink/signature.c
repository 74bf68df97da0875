// SPDX-License-Identifier: MIT
/*
 * Signatures of findings: the bug class and site, from the fields of a
 * verdict that stay put while a reproducer shrinks (class, oracle, the
 * memory level of the evidence, the signal of a crash). The minimizer
 * keeps a candidate only when its signature is the input's; triage
 * buckets findings by it.
 */
#include <stdio.h>
#include <string.h>

#include "dmafuzz/shrink.h"

/*
 * The signal of a crash the harness caught: its message starts with the
 * signal name ("SIGSEGV at address 0x0 ..."). Anything else (an engine bus
 * fault reported by an oracle) has no signal.
 */
static void crash_detail(const struct dfz_finding *f,
			 char detail[DFZ_SIG_DETAIL])
{
	size_t k = strspn(f->msg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");

	detail[0] = 0;
	if (k > 3 && k < DFZ_SIG_DETAIL && !strncmp(f->msg, "SIG", 3)) {
		memcpy(detail, f->msg, k);
		detail[k] = 0;
	}
}

void dfz_signature_of(const struct dfz_verdict *v, struct dfz_signature *out)
{
	const struct dfz_finding *f = &v->finding;

	memset(out, 0, sizeof(*out));
	out->level = -1;
	if (v->kind != DFZ_VERDICT_BUG || f->cls == DFZ_CLASS_NONE)
		return;
	out->cls = f->cls;
	snprintf(out->oracle, sizeof(out->oracle), "%s", f->oracle);
	if (f->ev.level >= 0 && f->ev.level < DFZ_NLEVELS)
		out->level = (int8_t)f->ev.level;
	if (f->cls == DFZ_CLASS_CRASH)
		crash_detail(f, out->detail);
}

bool dfz_signature_equal(const struct dfz_signature *a,
			 const struct dfz_signature *b)
{
	return a->cls == b->cls && a->level == b->level &&
	       !strcmp(a->oracle, b->oracle) && !strcmp(a->detail, b->detail);
}

char *dfz_signature_format(const struct dfz_signature *s, char *buf,
			   size_t len)
{
	char at[8] = "";

	if (s->cls == DFZ_CLASS_NONE) {
		snprintf(buf, len, "none");
		return buf;
	}
	if (s->level >= 0 && s->level < DFZ_NLEVELS)
		snprintf(at, sizeof(at), "@%s", dfz_level_name((unsigned)s->level));
	snprintf(buf, len, "%s/%s%s%s%s", dfz_class_name(s->cls), s->oracle, at,
		 s->detail[0] ? ":" : "", s->detail);
	return buf;
}
