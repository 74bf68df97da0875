// SPDX-License-Identifier: MIT
/*
 * The example under a fuzzer: the input chooses the runs of one runner
 * (1 to 4), the tensor sizes and contents, the poison byte and, from its
 * 7th byte on, which device calls fail and how (dfz_hdev_schedule()).
 * A finding prints dmafuzz's report and aborts, so libFuzzer keeps the
 * input. DFZ_HOSTAPI_BUGS (comma-separated switch names) restores faulty
 * paths. Built with clang++ -fsanitize=fuzzer, or with -DDFZ_STANDALONE
 * as a plain program: fuzz_staging [N [SEED]] runs N pseudo-random inputs.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/host_api.h"
#include <dmafuzz/host_api_ops.hpp>

#include "kernel.h"

static unsigned bugs_from_env()
{
    const char *e = getenv("DFZ_HOSTAPI_BUGS");
    unsigned b = 0;

    if (e == nullptr)
        return 0;
    b |= strstr(e, "out-not-cleared") ? unsigned(BUG_OUT_NOT_CLEARED) : 0u;
    b |= strstr(e, "child-misalign") ? unsigned(BUG_CHILD_MISALIGN) : 0u;
    b |= strstr(e, "leak-per-run") ? unsigned(BUG_LEAK_PER_RUN) : 0u;
    b |= strstr(e, "untracked-free") ? unsigned(BUG_UNTRACKED_FREE) : 0u;
    return b;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static const unsigned bugs = bugs_from_env();
    uint8_t head[7] = {0};
    dfz_hapi *s = dfz_hapi_default();
    Scenario sc;

    memcpy(head, d, n < 7 ? n : 7);
    staging_bugs = bugs;
    dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, n > 7 ? d + 7 : nullptr, n > 7 ? n - 7 : 0, 0, head[6]);
    HostApi api(s, 0, 0, &dfz::hostapi::ops());
    if (scenario_begin(&sc, &api, head + 1, head[5]) == 0) {
        for (int run = 0; run <= head[0] % 4; run++) {
            run_once(&sc, &api);
            dfz_hapi_run_end(s);
        }
    }
    scenario_end(&sc, &api);
    dfz_hapi_finalize(s);
    if (dfz_hapi_report(s, stderr))
        abort();
    return 0;
}

#ifdef DFZ_STANDALONE
int main(int argc, char **argv)
{
    unsigned long long n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000;
    uint64_t x = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
    uint8_t buf[64];

    for (unsigned long long i = 0; i < n; i++) {
        size_t len = 7;
        for (size_t k = 0; k < sizeof(buf); k++) {
            x += 0x9e3779b97f4a7c15ull;  /* splitmix64 */
            uint64_t z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
            buf[k] = static_cast<uint8_t>((z ^ (z >> 27)) * 0x94d049bb133111ebull >> 56);
        }
        len += 3 * (buf[63] % 4);  /* 0 to 3 failures */
        for (size_t k = 7; k < len; k += 3)
            buf[k + 1] %= 8;       /* early ordinals: failures that happen */
        LLVMFuzzerTestOneInput(buf, len);
    }
    printf("clean: %llu executions\n", n);
    return 0;
}
#endif
