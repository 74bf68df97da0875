// SPDX-License-Identifier: MIT
/*
 * Deeploy's memory helpers (TargetLibraries/GAP9 and PULPOpen dory_mem.h,
 * dory_mem.c) for programs that call them without their own definitions.
 * In libdmafuzz-sdk.a, which the drop-in's pkg-config Libs put after the
 * user's objects: a program that defines them (Deeploy's dory_mem.c)
 * keeps its own, as the archive member is never pulled in for them, and
 * every definition here is weak, so one pulled in for another name gives
 * way. The names are the user's, not the library's: libdmafuzz.a itself
 * exports only dfz_ names. A finding in one of them names the line that
 * called it (dfz_dropin_caller(), from the return address).
 */
#include "dmafuzz/dropin/bsp/ram.h"

#define DFZ__WEAK __attribute__((weak, noinline))
#define CALLER(name) dfz_dropin_caller(__builtin_return_address(0), name)

DFZ__WEAK struct pi_device *get_ram_ptr(void)
{
	return dfz_dropin_ram_device();
}

DFZ__WEAK void mem_init(void)
{
}

DFZ__WEAK void *ram_malloc(size_t size)
{
	return dfz_dropin_ram_malloc(CALLER("ram_malloc"), (uint32_t)size);
}

DFZ__WEAK void ram_free(void *ptr, size_t size)
{
	dfz_dropin_ram_free(CALLER("ram_free"), ptr, (uint32_t)size);
}

DFZ__WEAK void ram_read(void *dest, void *src, size_t size)
{
	dfz_dropin_ram_load(CALLER("ram_read"), dest, src, size, 0);
}

DFZ__WEAK void ram_write(void *dest, void *src, size_t size)
{
	dfz_dropin_ram_load(CALLER("ram_write"), dest, src, size, 1);
}

DFZ__WEAK void *cl_ram_malloc(size_t size)
{
	return dfz_dropin_ram_malloc(CALLER("cl_ram_malloc"), (uint32_t)size);
}

DFZ__WEAK void cl_ram_free(void *ptr, size_t size)
{
	dfz_dropin_ram_free(CALLER("cl_ram_free"), ptr, (uint32_t)size);
}

DFZ__WEAK void cl_ram_read(void *dest, void *src, size_t size)
{
	dfz_dropin_ram_load(CALLER("cl_ram_read"), dest, src, size, 0);
}

DFZ__WEAK void cl_ram_write(void *dest, void *src, size_t size)
{
	dfz_dropin_ram_load(CALLER("cl_ram_write"), dest, src, size, 1);
}
