// SPDX-License-Identifier: MIT
/*
 * The example's test: three runs of the staging code (examples/host-
 * runtime/staging.cpp) on one runner, then the platform's finalize,
 * through a HostApiOps (our stand-in header, members in another order)
 * filled by dmafuzz's adapter. Usage: test_staging [BUG] [--accept]
 * where BUG is out-not-cleared, child-misalign, leak-per-run or
 * untracked-free (none: the fixed code). Prints dmafuzz's report and
 * "finding: CLASS SITE"; exit 0 clean, 1 a finding, 2 bad usage.
 */
#include <cstdio>
#include <cstring>

#include "common/host_api.h"
#include <dmafuzz/host_api_ops.hpp>

#include "kernel.h"

static int parse(int argc, char **argv, unsigned *bugs, unsigned *policy)
{
    static const struct { const char *name; unsigned bit; } sw[] = {
        {"out-not-cleared", BUG_OUT_NOT_CLEARED}, {"child-misalign", BUG_CHILD_MISALIGN},
        {"leak-per-run", BUG_LEAK_PER_RUN}, {"untracked-free", BUG_UNTRACKED_FREE},
    };
    for (int i = 1; i < argc; i++) {
        bool known = !strcmp(argv[i], "--accept");
        if (known)
            *policy = DFZ_HAPI_ACCEPT_UNWRITTEN;
        for (const auto &s : sw)
            if (!strcmp(argv[i], s.name)) {
                *bugs |= s.bit;
                known = true;
            }
        if (!known) {
            fprintf(stderr, "test_staging: unknown argument '%s'\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned policy = DFZ_HAPI_REPORT_UNWRITTEN;
    dfz_hapi *s = dfz_hapi_default();
    char site[256];
    Scenario sc;

    if (parse(argc, argv, &staging_bugs, &policy) < 0)
        return 2;
    if (s == nullptr)
        return 2;
    dfz_hapi_begin(s, policy, nullptr, 0, 0, 0xdf);
    HostApi api(s, 0, 0, &dfz::hostapi::ops());
    if (scenario_begin(&sc, &api, nullptr, 7) == 0) {
        for (int run = 0; run < 3; run++) {
            run_once(&sc, &api);
            dfz_hapi_run_end(s);
        }
        scenario_end(&sc, &api);
    }
    dfz_hapi_finalize(s);
    if (!dfz_hapi_report(s, stdout)) {
        printf("clean: 3 runs, no finding\n");
        return 0;
    }
    printf("finding: %s %s\n", dfz_hapi_finding(s)->cls, dfz_hapi_site(s, site, sizeof(site)));
    return 1;
}
