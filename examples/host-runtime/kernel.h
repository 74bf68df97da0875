// SPDX-License-Identifier: MIT
/*
 * The example's fake kernel and one run of a test in simpler's shape
 * (kernel.cpp): stage, run the kernel over the device arguments, validate
 * and copy back, through the table filled by dmafuzz's adapter.
 */
#pragma once

#include <cstdint>

#include "staging.h"

/* The kernel: IN read; OUT accumulated (read, += sum of IN, written);
 * INOUT incremented. Every access goes through the device. */
void fake_kernel(const Runtime &rt);

/* The example's tensors for one run: sizes from @sz (4 bytes, 0: the
 * default sizes), contents from @fill. */
struct Scenario {
    std::vector<uint8_t> in, out, inout;
    void *child;                  /* device memory of an earlier task */
    size_t child_bytes;
    uint8_t fill;
};

/* Make the scenario's child tensor (a device_malloc; an earlier task
 * writes it at the start of each run) and host tensors. Return: 0, or -1 (malloc failed). */
int scenario_begin(Scenario *sc, const HostApi *api, const uint8_t *sz, uint8_t fill);
void scenario_end(Scenario *sc, const HostApi *api);
/* One run: bind, kernel, validate (or release on a failed bind). */
int run_once(Scenario *sc, const HostApi *api);
