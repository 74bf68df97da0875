// SPDX-License-Identifier: MIT
/* Placeholder: the dev oracle of the host runtime (being written). */
#include "oracle_int.h"

static int nop_init(void *st) { (void)st; return 0; }
static void nop_fini(void *st) { (void)st; }
static void nop_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	(void)st; (void)set; (void)rt;
}
static void nop_event(void *st, const struct dfz_event *ev) { (void)st; (void)ev; }

const struct dfz_oracle_ops dfz__oracle_dev = {
	.name = "dev",
	.size = 1,
	.events = 0,
	.init = nop_init,
	.fini = nop_fini,
	.reset = nop_reset,
	.event = nop_event,
};
