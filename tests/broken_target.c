// SPDX-License-Identifier: MIT
/*
 * A deliberately broken fuzz target, for the triage tests: an input that
 * starts with "W" writes through an invalid pointer, one that starts with
 * "R" reads through one, "A" aborts; anything else is clean. Built with
 * the replay driver and the crash reporter (build/tests/broken_target).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Opaque to the optimiser: the pointer is made at run time. */
static volatile uintptr_t bad_address = 0x10;

__attribute__((noinline)) static void store(const uint8_t *data, size_t size)
{
	volatile uint32_t *p = (volatile uint32_t *)bad_address;

	p[size % 4] = data[0];
}

__attribute__((noinline)) static uint32_t load(size_t size)
{
	volatile uint64_t *p = (volatile uint64_t *)(bad_address + 8);

	return (uint32_t)p[size % 2];
}

/* Where a read's value goes (kept: the read must happen). */
volatile uint32_t broken_target_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] == 'W')
		store(data, size);
	else if (data[0] == 'R')
		broken_target_sink = load(size);
	else if (data[0] == 'A')
		abort();
	return 0;
}
