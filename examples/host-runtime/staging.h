// SPDX-License-Identifier: MIT
/*
 * A host runtime's staging code in simpler's shape, of our own writing
 * (examples/host-runtime/staging.cpp): tensors IN, OUT, INOUT and child
 * memory (already on the device) are staged through the table of device
 * operations, a kernel runs, validation copies OUT and INOUT back and
 * releases the leases. Bug switches restore four faulty code paths.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/host_api.h"

enum class Dir : uint8_t { IN, OUT, INOUT };

/* A tensor argument: host memory, or (child) a device address. */
struct Tensor {
    void *addr;
    size_t bytes;
    Dir dir;
    bool child;
};

enum class Release : uint8_t { Free, BufferNoop };

struct Lease {
    void *host;
    void *dev;
    size_t size;
    bool copy_back;
    Release release;
};

struct Runtime {
    std::vector<Lease> leases;
    std::vector<Tensor> device_args;  /* what the kernel receives */
};

/* The bug switches (staging_bugs). */
enum : unsigned {
    BUG_OUT_NOT_CLEARED = 1u << 0,  /* pure OUT left as the allocator gave it */
    BUG_CHILD_MISALIGN = 1u << 1,   /* copy-back indexed by tensor, not lease */
    BUG_LEAK_PER_RUN = 1u << 2,     /* a per-run scratch never freed */
    BUG_UNTRACKED_FREE = 1u << 3,   /* retained slices freed as if owned */
};

extern unsigned staging_bugs;

/* bind: stage @n tensors for one run. Return: 0 or -1. */
int bind_tensors(Runtime *rt, const HostApi *api, const Tensor *t, int n);
/* validate: copy OUT/INOUT back, release the leases. Return: 0 or an rc. */
int validate_tensors(Runtime *rt, const HostApi *api, const Tensor *t, int n);
/* release the leases of a failed bind. */
void release_leases(Runtime *rt, const HostApi *api);
