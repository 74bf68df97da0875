// SPDX-License-Identifier: MIT
/*
 * The adapter's fill by name, against tables of our own writing (no
 * simpler header), one per TABLE (tools/hostapi-check.sh builds each):
 *  0  the stand-in (examples/host-runtime/common/host_api.h, members in
 *     another order than simpler's): every member is dmafuzz's forwarder
 *     for its name; the unmodelled upload_chip_callable_buffer reports
 *     api.unsupported by name. Exit 0 when all hold.
 *  1  a table with a member the adapter does not know: must not compile
 *     (the message names the adapter).
 *  2  the same with DFZ_HOSTAPI_ANY_MEMBERS: compiles; calling the
 *     unknown member reports api.unsupported naming its slot, then aborts.
 *  3  a known member with another type: must not compile (names it).
 *  4  an older table (fewer members, acquire_graph_execution_buffer):
 *     compiles; the old member reports api.unsupported by name.
 */
#include <cstdio>
#include <cstring>

#ifndef TABLE
#define TABLE 0
#endif

#if TABLE == 0
#include "common/host_api.h"
#else
#include <cstddef>
#include <cstdint>
struct HostApiOps {
    void (*device_free)(void *runner_ctx, void *dev_ptr);
#if TABLE == 3
    void *(*device_malloc)(void *runner_ctx, size_t size, int flags);
#else
    void *(*device_malloc)(void *runner_ctx, size_t size);
#endif
    int (*copy_from_device)(void *runner_ctx, void *host_ptr, const void *dev_ptr, size_t size);
    int (*copy_to_device)(void *runner_ctx, void *dev_ptr, const void *host_ptr, size_t size);
#if TABLE == 1 || TABLE == 2
    int (*device_prefetch)(void *runner_ctx, void *dev_ptr, size_t size);
#endif
#if TABLE == 4
    void *(*acquire_graph_execution_buffer)(void *runner_ctx, uint32_t slot, size_t bytes);
#endif
};
#endif

#include <dmafuzz/host_api_ops.hpp>

namespace fwd = dfz::hostapi::fwd;

static int fail(const char *what)
{
    printf("tables: %s\n", what);
    return 1;
}

int main()
{
    const HostApiOps &o = dfz::hostapi::ops();
    dfz_hapi *s = dfz_hapi_default();

    if (s == nullptr)
        return fail("no session");
    dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, nullptr, 0, 0, 0xdf);
    if (o.device_free != &fwd::device_free ||
        o.copy_to_device != &fwd::copy_to_device || o.copy_from_device != &fwd::copy_from_device)
        return fail("a member is not its forwarder");
#if TABLE == 0
    if (o.device_memset != &fwd::device_memset || o.setup_static_arena != &fwd::setup_static_arena ||
        o.acquire_pooled_gm_sm != &fwd::acquire_pooled_gm_sm ||
        o.lookup_prebuilt_runtime_arena_cache != &fwd::lookup_prebuilt_runtime_arena_cache ||
        o.host_phase_pool_finish != &fwd::host_phase_pool_finish)
        return fail("a member is not its forwarder");
    if (o.upload_chip_callable_buffer(s, nullptr) != 0)
        return fail("upload_chip_callable_buffer returned nonzero");
    const char *want = "upload_chip_callable_buffer";
#elif TABLE == 2
    o.device_prefetch(s, nullptr, 0);
    return fail("the unknown member returned");
#elif TABLE == 4
    if (o.acquire_graph_execution_buffer(s, 0, 64) != nullptr)
        return fail("acquire_graph_execution_buffer returned a buffer");
    const char *want = "acquire_graph_execution_buffer";
#endif
#if TABLE == 0 || TABLE == 4
    const struct dfz_hapi_finding *f = dfz_hapi_finding(s);
    if (f == nullptr || strcmp(f->cls, "api.unsupported") || !strstr(f->msg, want))
        return fail("no api.unsupported naming the member");
    dfz_hapi_report(s, stdout);
    printf("tables: TABLE %d filled by name\n", TABLE);
    return 0;
#endif
}
