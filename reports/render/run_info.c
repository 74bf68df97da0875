// SPDX-License-Identifier: MIT
/*
 * What a campaign script's record (campaign.txt) says of its run, read
 * once for every format of the report: summary.md's "Run" section, the
 * HTML report's, and the SARIF log's run properties.
 */
#include <string.h>

#include "render_int.h"

static const char *rec(const struct dfz__campaign *c, const char *key,
		       const char *dflt)
{
	const char *v = dfz__run_get(&c->run, key);

	return v && *v ? v : dflt;
}

/* The afl-fuzz version of the first instance that says it. */
static const char *afl_version(const struct dfz__campaign *c)
{
	for (size_t i = 0; i < c->ninst; i++)
		if (c->inst[i].afl_version[0])
			return c->inst[i].afl_version;
	return "?";
}

void dfz__run_info_of(const struct dfz__campaign *c, struct dfz__run_info *ri)
{
	double run = dfz__run_num(&c->run, "run");

	memset(ri, 0, sizeof(*ri));
	ri->nightly = !strcmp(rec(c, "kind", "fuzz"), "nightly");
	ri->campaign = !strcmp(rec(c, "kind", "fuzz"), "campaign");
	ri->script = ri->nightly ? "nightly (tools/nightly.sh)" :
		     ri->campaign ? "campaign (dmafuzz campaign)" :
		     "fuzz (tools/fuzz.sh)";
	ri->share = rec(c, "share", "?");
	ri->night = rec(c, "night", NULL);
	ri->run = run > 0 ? run : 1;
	ri->started = rec(c, "started", "?");
	ri->seconds = rec(c, "seconds", "?");
	ri->jobs = rec(c, "jobs", "?");
	ri->afl_version = afl_version(c);
	ri->seed = rec(c, "seed", "?");
	ri->bugs = rec(c, "bugs", NULL);
	ri->interrupted = !strcmp(rec(c, "interrupted", "no"), "yes");
	ri->found = c->run.found;
	ri->failed = dfz__run_num(&c->run, "failed");
	ri->work = rec(c, "work", ".");
}
