// SPDX-License-Identifier: MIT
/*
 * Staging code in the shape of simpler's runtime_maker.cpp (our own
 * writing): one retained temporary buffer per runner, grown when a run
 * needs more and bump-sliced at 1024-byte alignment for the non-child
 * tensors; IN and INOUT copied to the device, pure OUT cleared on the
 * device; child tensors passed through; validation copies OUT and INOUT
 * back from the lease of each. The lines a dmafuzz finding must name
 * carry a "dfz-expect: CLASS" comment (tools/hostapi-check.sh reads them).
 */
#include "staging.h"

#include <cstring>

unsigned staging_bugs;

namespace {

constexpr size_t kAlign = 1024;

size_t align_up(size_t v) { return (v + kAlign - 1) & ~(kAlign - 1); }

/* The retained buffer, grown to this run's need; NULL on failure. */
void *grow_retained(const HostApi *api, size_t required, size_t *cap)
{
    void *addr = nullptr;
    size_t size = 0;

    api->get_retained_temp_buffer(&addr, &size);
    if (required > size) {
        if (addr != nullptr)
            api->device_free(addr);
        addr = api->device_malloc(required);
        if (addr == nullptr) {
            api->set_retained_temp_buffer(nullptr, 0);
            return nullptr;
        }
        api->set_retained_temp_buffer(addr, required);
        size = required;
    }
    *cap = size;
    return addr;
}

/* Stage tensor @t at @dev. Return: 0 or the failing call's rc. */
int stage_one(const HostApi *api, const Tensor &t, void *dev)
{
    if (t.dir != Dir::OUT)
        return api->copy_to_device(dev, t.addr, t.bytes);
    if (staging_bugs & BUG_OUT_NOT_CLEARED)
        return 0;
    return api->device_memset(dev, 0, t.bytes);
}

}  // namespace

int bind_tensors(Runtime *rt, const HostApi *api, const Tensor *t, int n)
{
    size_t required = 0, cap = 0, off = 0;

    for (int i = 0; i < n; i++)
        if (!t[i].child)
            required += align_up(t[i].bytes);
    char *base = static_cast<char *>(required ? grow_retained(api, required, &cap) : nullptr);
    if (required && base == nullptr)
        return -1;
    if (staging_bugs & BUG_LEAK_PER_RUN) {
        void *scratch = api->device_malloc(256);  // dfz-expect: dev.leak
        if (scratch == nullptr)
            return -1;
    }
    for (int i = 0; i < n; i++) {
        if (t[i].child) {
            rt->device_args.push_back(t[i]);
            continue;
        }
        void *dev = base + off;
        off += align_up(t[i].bytes);
        if (stage_one(api, t[i], dev) != 0)
            return -1;
        rt->leases.push_back({t[i].addr, dev, t[i].bytes, t[i].dir != Dir::IN, Release::BufferNoop});
        rt->device_args.push_back({dev, t[i].bytes, t[i].dir, false});
    }
    return 0;
}

void release_leases(Runtime *rt, const HostApi *api)
{
    for (const Lease &l : rt->leases)
        if (l.release == Release::Free || (staging_bugs & BUG_UNTRACKED_FREE))
            api->device_free(l.dev);  // dfz-expect: dev.misuse
    rt->leases.clear();
}

int validate_tensors(Runtime *rt, const HostApi *api, const Tensor *t, int n)
{
    int rc = 0;

    for (size_t k = 0; k < rt->leases.size(); k++) {
        const Lease &l = rt->leases[k];
        if (!l.copy_back)
            continue;
        void *host = l.host;
        if ((staging_bugs & BUG_CHILD_MISALIGN) && static_cast<int>(k) < n)
            host = t[k].addr;  /* the k-th tensor, not the k-th lease */
        int c = api->copy_from_device(host, l.dev, l.size);  // dfz-expect: dev.child-memory
        if (c != 0)
            rc = c;
    }
    release_leases(rt, api);
    return rc;
}
