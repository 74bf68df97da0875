// SPDX-License-Identifier: MIT
/*
 * dmafuzz's adapter for simpler's table of device operations (HostApiOps,
 * src/common/platform/include/common/host_api.h), header-only, C++17.
 * Include it AFTER your own common/host_api.h:
 *
 *     #include "common/host_api.h"
 *     #include <dmafuzz/host_api_ops.hpp>
 *     HostApi api(dfz::hostapi::runner(), 0, 0, &dfz::hostapi::ops());
 *
 * It fills a HostApiOps BY MEMBER NAME, against your copy of the header,
 * never with a layout of ours: each member it knows is detected (SFINAE)
 * and, when present, set to a function that forwards to dmafuzz's
 * host-API session (include/dmafuzz/hostapi.h: the device, its judge, the
 * line of each call). A member whose type is not the one it knows is a
 * compile error naming the member; a member it knows by name but does not
 * model gets a function that reports api.unsupported with that name, and
 * a table with a member it does not know is a compile error naming this
 * adapter (the count of known members present must be the table's size).
 * Defining DFZ_HOSTAPI_ANY_MEMBERS turns that error off: the unknown
 * members then hold a reporter naming their slot, never NULL.
 *
 * runner_ctx: the dfz_hapi session of the call (dfz::hostapi::runner()),
 * or NULL for the process's default session.
 */
#ifndef DMAFUZZ_HOST_API_OPS_HPP
#define DMAFUZZ_HOST_API_OPS_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "dmafuzz/hostapi.h"

namespace dfz {
namespace hostapi {

/* The session a runner_ctx names. */
inline dfz_hapi *session(void *runner_ctx)
{
	return runner_ctx ? static_cast<dfz_hapi *>(runner_ctx) :
			    dfz_hapi_default();
}

/* The default session, as a runner_ctx for HostApi's constructor. */
inline void *runner()
{
	return dfz_hapi_default();
}

/* The forwarders: simpler 6ebaf771's member types, exactly. */
namespace fwd {

inline void *device_malloc(void *c, size_t size)
{
	return dfz_hapi_device_malloc(session(c), size);
}
inline void device_free(void *c, void *dev)
{
	dfz_hapi_device_free(session(c), dev);
}
inline int copy_to_device(void *c, void *dev, const void *host, size_t size)
{
	return dfz_hapi_copy_to_device(session(c), dev, host, size);
}
inline int copy_from_device(void *c, void *host, const void *dev, size_t size)
{
	return dfz_hapi_copy_from_device(session(c), host, dev, size);
}
inline void *register_device_memory_to_host(void *c, void *dev, size_t bytes)
{
	return dfz_hapi_register_device_memory_to_host(session(c), dev, bytes);
}
inline void unregister_device_memory_from_host(void *c, void *dev)
{
	dfz_hapi_unregister_device_memory_from_host(session(c), dev);
}
inline int device_memset(void *c, void *dev, int value, size_t size)
{
	return dfz_hapi_device_memset(session(c), dev, value, size);
}
inline void get_retained_temp_buffer(void *c, uint32_t slot, void **addr,
				     size_t *size)
{
	dfz_hapi_get_retained_temp_buffer(session(c), slot, addr, size);
}
inline void set_retained_temp_buffer(void *c, uint32_t slot, void *addr,
				     size_t size)
{
	dfz_hapi_set_retained_temp_buffer(session(c), slot, addr, size);
}
inline void *acquire_graph_definition_buffer(void *c, uint32_t slot,
					     uint64_t key, size_t bytes,
					     size_t alignment)
{
	return dfz_hapi_acquire_graph_definition_buffer(session(c), slot, key,
							bytes, alignment);
}
inline int setup_static_arena(void *c, uint32_t bank, size_t heap, size_t sm,
			      size_t rt_arena)
{
	return dfz_hapi_setup_static_arena(session(c), bank, heap, sm,
					   rt_arena);
}
inline void *acquire_pooled_gm_heap(void *c, uint32_t bank)
{
	return dfz_hapi_acquire_pooled(session(c), bank, DFZ_HAPI_GM_HEAP);
}
inline void *acquire_pooled_gm_sm(void *c, uint32_t bank)
{
	return dfz_hapi_acquire_pooled(session(c), bank, DFZ_HAPI_GM_SM);
}
inline void *acquire_pooled_runtime_arena(void *c, uint32_t bank)
{
	return dfz_hapi_acquire_pooled(session(c), bank, DFZ_HAPI_RT_ARENA);
}
inline bool lookup_prebuilt_runtime_arena_cache(
	void *c, uint32_t bank, uint64_t hash, const void *key, size_t key_size,
	void **heap, void **sm, void **rt_arena, size_t *rt_off,
	const void **image, size_t *image_size)
{
	return dfz_hapi_lookup_cache(session(c), bank, hash, key, key_size,
				     heap, sm, rt_arena, rt_off, image,
				     image_size);
}
inline void mark_prebuilt_runtime_arena_cached(
	void *c, uint32_t bank, uint64_t hash, const void *key, size_t key_size,
	void *heap, void *sm, void *rt_arena, size_t rt_off, const void *image,
	size_t image_size)
{
	(void)image;
	(void)image_size;
	dfz_hapi_mark_cached(session(c), bank, hash, key, key_size, heap, sm,
			     rt_arena, rt_off);
}
/* Profiling off: level 0, no pool, nothing to finish. */
inline uint32_t get_chip_swimlane_level(void *c)
{
	(void)c;
	return 0;
}
inline void *host_phase_pool_arm(void *c, int producer_wants_records)
{
	(void)c;
	(void)producer_wants_records;
	return nullptr;
}
inline void host_phase_pool_finish(void *c, uint64_t tasks, uint64_t id)
{
	(void)c;
	(void)tasks;
	(void)id;
}

} // namespace fwd

/* A member known by name but not modelled: reports it, returns R{}. */
template <const char *Name, typename F> struct reporter;
template <const char *Name, typename R, typename... A>
struct reporter<Name, R (*)(void *, A...)> {
	static R call(void *c, A...)
	{
		dfz_hapi_unsupported(session(c), Name);
		if constexpr (!std::is_void<R>::value)
			return R{};
	}
};

/* A slot of a member the adapter does not know (DFZ_HOSTAPI_ANY_MEMBERS). */
template <std::size_t K> inline void slot_trap()
{
	static const char name[] = { 's', 'l', 'o', 't', ' ',
				     char('0' + K / 10 % 10),
				     char('0' + K % 10), 0 };
	dfz_hapi_unsupported(dfz_hapi_default(), name);
	dfz_hapi_report(dfz_hapi_default(), stderr);
	std::abort();           /* its return value would be garbage */
}

#define DFZ_HAPI_KNOWN(X)                                                    \
	X(device_malloc) X(device_free) X(copy_to_device) X(copy_from_device) \
	X(register_device_memory_to_host)                                    \
	X(unregister_device_memory_from_host) X(device_memset)               \
	X(get_retained_temp_buffer) X(set_retained_temp_buffer)              \
	X(acquire_graph_definition_buffer) X(setup_static_arena)             \
	X(acquire_pooled_gm_heap) X(acquire_pooled_gm_sm)                    \
	X(acquire_pooled_runtime_arena)                                      \
	X(lookup_prebuilt_runtime_arena_cache)                               \
	X(mark_prebuilt_runtime_arena_cached) X(get_chip_swimlane_level)     \
	X(host_phase_pool_arm) X(host_phase_pool_finish)
/* Known by name (earlier versions of the table, or not modelled). */
#define DFZ_HAPI_REPORTED(X)                                                 \
	X(upload_chip_callable_buffer) X(acquire_graph_execution_buffer)     \
	X(begin_host_orchestrator_capture) X(record_host_orchestrator_phase) \
	X(finish_host_orchestrator_capture)

namespace detail {
#define DFZ_HAPI_DETECT(m)                                                   \
	template <typename T, typename = void>                               \
	struct has_##m : std::false_type {};                                 \
	template <typename T>                                                \
	struct has_##m<T, std::void_t<decltype(std::declval<T &>().m)>>      \
		: std::true_type {};                                         \
	inline constexpr char name_##m[] = #m;
DFZ_HAPI_KNOWN(DFZ_HAPI_DETECT)
DFZ_HAPI_REPORTED(DFZ_HAPI_DETECT)
#undef DFZ_HAPI_DETECT

/* Known members present in T. */
template <typename T> constexpr std::size_t present()
{
	std::size_t n = 0;
#define DFZ_HAPI_COUNT(m) n += has_##m<T>::value;
	DFZ_HAPI_KNOWN(DFZ_HAPI_COUNT)
	DFZ_HAPI_REPORTED(DFZ_HAPI_COUNT)
#undef DFZ_HAPI_COUNT
	return n;
}

template <typename T, std::size_t... K>
void trap_slots(T &ops, std::index_sequence<K...>)
{
	void (*const trap[])() = { &slot_trap<K>... };

	std::memcpy(static_cast<void *>(&ops), trap, sizeof(ops));
}
} // namespace detail

/**
 * fill() - set every member of @ops that this adapter knows, by name.
 * T: the user's HostApiOps (any member order).
 */
template <typename T> void fill(T &ops)
{
	constexpr std::size_t slots = sizeof(T) / sizeof(void (*)());

	static_assert(sizeof(T) % sizeof(void (*)()) == 0,
		      "dmafuzz/host_api_ops.hpp: HostApiOps holds something "
		      "other than function pointers");
#ifndef DFZ_HOSTAPI_ANY_MEMBERS
	static_assert(detail::present<T>() == slots,
		      "dmafuzz/host_api_ops.hpp: this HostApiOps has a member "
		      "the dmafuzz adapter does not know (its member count is "
		      "not the count of members the adapter knows by name): "
		      "update the adapter, or define DFZ_HOSTAPI_ANY_MEMBERS");
#endif
	detail::trap_slots(ops, std::make_index_sequence<slots>{});
#define DFZ_HAPI_SET(m)                                                      \
	if constexpr (detail::has_##m<T>::value) {                           \
		static_assert(std::is_same<decltype(ops.m),                  \
					   decltype(&fwd::m)>::value,        \
			      "dmafuzz/host_api_ops.hpp: HostApiOps::" #m    \
			      " has a type the dmafuzz adapter does not "    \
			      "know: update the adapter");                   \
		ops.m = &fwd::m;                                             \
	}
	DFZ_HAPI_KNOWN(DFZ_HAPI_SET)
#undef DFZ_HAPI_SET
#define DFZ_HAPI_STUB(m)                                                     \
	if constexpr (detail::has_##m<T>::value)                             \
		ops.m = &reporter<detail::name_##m, decltype(ops.m)>::call;
	DFZ_HAPI_REPORTED(DFZ_HAPI_STUB)
#undef DFZ_HAPI_STUB
}

/* The table's type: simpler named it HostApi before 2026-08-05 (then
 * HostApiOps, and HostApi the per-run binding); define DFZ_HOSTAPI_TABLE
 * as HostApi for those versions. */
#ifndef DFZ_HOSTAPI_TABLE
#define DFZ_HOSTAPI_TABLE HostApiOps
#endif

/* The table for ::DFZ_HOSTAPI_TABLE, filled once. */
template <typename T = ::DFZ_HOSTAPI_TABLE> const T &ops()
{
	static const T table = [] {
		T t;
		fill(t);
		return t;
	}();
	return table;
}

} // namespace hostapi
} // namespace dfz

#endif /* DMAFUZZ_HOST_API_OPS_HPP */
