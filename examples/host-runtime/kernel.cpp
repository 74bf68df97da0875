// SPDX-License-Identifier: MIT
/*
 * The example's fake kernel and one run in simpler's shape: the kernel
 * reaches device memory only through dmafuzz's kernel calls, so its reads
 * are judged (an OUT accumulator never cleared) and its writes define
 * bytes; the run stages IN, OUT, INOUT and a child tensor, runs the
 * kernel, validates and copies back.
 */
#include "kernel.h"

#include <dmafuzz/hostapi.h>

#include <numeric>

namespace {

dfz_hapi *hs() { return dfz_hapi_default(); }

}  // namespace

void fake_kernel(const Runtime &rt)
{
    uint8_t sum = 0;
    std::vector<uint8_t> buf;

    for (const Tensor &t : rt.device_args) {
        if (t.dir != Dir::IN)
            continue;
        buf.resize(t.bytes);
        dfz_hapi_kernel_read(hs(), buf.data(), t.addr, t.bytes);
        sum = std::accumulate(buf.begin(), buf.end(), sum);
    }
    for (const Tensor &t : rt.device_args) {
        if (t.dir == Dir::IN)
            continue;
        buf.resize(t.bytes);
        dfz_hapi_kernel_read(hs(), buf.data(), t.addr, t.bytes);  // dfz-expect: mem.undefined
        for (uint8_t &b : buf)
            b = static_cast<uint8_t>(b + (t.dir == Dir::OUT ? sum : 1));
        dfz_hapi_kernel_write(hs(), t.addr, buf.data(), t.bytes);
    }
}

int scenario_begin(Scenario *sc, const HostApi *api, const uint8_t *sz, uint8_t fill)
{
    size_t n[4] = {64, 64, 128, 64};

    for (int i = 0; sz && i < 4; i++)
        if (sz[i])
            n[i] = sz[i] * 8u;
    sc->in.assign(n[0], fill);
    sc->out.assign(n[1], 0);
    sc->inout.assign(n[2], static_cast<uint8_t>(fill + 1));
    sc->child_bytes = n[3];
    sc->fill = fill;
    sc->child = api->device_malloc(n[3]);
    return sc->child != nullptr ? 0 : -1;
}

void scenario_end(Scenario *sc, const HostApi *api)
{
    if (sc->child != nullptr)
        api->device_free(sc->child);
    sc->child = nullptr;
}

int run_once(Scenario *sc, const HostApi *api)
{
    Tensor t[4] = {
        {sc->in.data(), sc->in.size(), Dir::IN, false},
        {sc->out.data(), sc->out.size(), Dir::OUT, false},
        {sc->child, sc->child_bytes, Dir::INOUT, true},
        {sc->inout.data(), sc->inout.size(), Dir::INOUT, false},
    };
    Runtime rt;
    std::vector<uint8_t> produced(sc->child_bytes, static_cast<uint8_t>(sc->fill ^ 0x5a));

    /* The earlier task of this run produces the child tensor. */
    dfz_hapi_kernel_write(hs(), sc->child, produced.data(), sc->child_bytes);
    if (bind_tensors(&rt, api, t, 4) != 0) {
        release_leases(&rt, api);
        return -1;
    }
    fake_kernel(rt);
    return validate_tensors(&rt, api, t, 4);
}
