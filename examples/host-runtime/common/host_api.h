// SPDX-License-Identifier: MIT
/*
 * A stand-in of our own writing for simpler's common/host_api.h (the
 * project cannot include simpler's header): a struct HostApiOps with the
 * member names and types of simpler 6ebaf771, declared in ANOTHER order
 * (reversed, then shuffled), so that a table filled by the dmafuzz
 * adapter proves it fills by name, not by position; and a HostApi that
 * binds the table to a runner and a run's slot and bank, with the same
 * calls as simpler's, so that staging code of simpler's shape compiles
 * against it unchanged.
 */
#pragma once

#include <cstddef>
#include <cstdint>

struct HostApiOps {
    void (*host_phase_pool_finish)(void *runner_ctx, uint64_t submitted_tasks, uint64_t invocation_id);
    int (*copy_from_device)(void *runner_ctx, void *host_ptr, const void *dev_ptr, size_t size);
    void *(*host_phase_pool_arm)(void *runner_ctx, int producer_wants_records);
    uint32_t (*get_chip_swimlane_level)(void *runner_ctx);
    uint64_t (*upload_chip_callable_buffer)(void *runner_ctx, const void *callable);
    void (*mark_prebuilt_runtime_arena_cached)(void *runner_ctx, uint32_t arena_bank, uint64_t hash,
                                               const void *key_data, size_t key_size, void *gm_heap_base,
                                               void *sm_base, void *runtime_arena_base, size_t runtime_off,
                                               const void *image_data, size_t image_size);
    bool (*lookup_prebuilt_runtime_arena_cache)(void *runner_ctx, uint32_t arena_bank, uint64_t hash,
                                                const void *key_data, size_t key_size, void **gm_heap_base,
                                                void **sm_base, void **runtime_arena_base, size_t *runtime_off,
                                                const void **image_data, size_t *image_size);
    void *(*acquire_pooled_runtime_arena)(void *runner_ctx, uint32_t arena_bank);
    void *(*acquire_pooled_gm_sm)(void *runner_ctx, uint32_t arena_bank);
    void (*device_free)(void *runner_ctx, void *dev_ptr);
    void *(*acquire_pooled_gm_heap)(void *runner_ctx, uint32_t arena_bank);
    int (*setup_static_arena)(void *runner_ctx, uint32_t arena_bank, size_t gm_heap_size, size_t gm_sm_size,
                              size_t runtime_arena_size);
    void *(*acquire_graph_definition_buffer)(void *runner_ctx, uint32_t pipeline_slot, uint64_t key, size_t bytes,
                                             size_t alignment);
    void (*set_retained_temp_buffer)(void *runner_ctx, uint32_t pipeline_slot, void *addr, size_t size);
    void (*get_retained_temp_buffer)(void *runner_ctx, uint32_t pipeline_slot, void **addr, size_t *size);
    int (*device_memset)(void *runner_ctx, void *dev_ptr, int value, size_t size);
    void (*unregister_device_memory_from_host)(void *runner_ctx, void *dev_ptr);
    void *(*register_device_memory_to_host)(void *runner_ctx, void *dev_ptr, size_t bytes);
    int (*copy_to_device)(void *runner_ctx, void *dev_ptr, const void *host_ptr, size_t size);
    void *(*device_malloc)(void *runner_ctx, size_t size);
};

/* One run's view of the table: the runner, its pipeline slot and arena bank. */
class HostApi {
public:
    HostApi(void *runner, uint32_t slot, uint32_t bank, const HostApiOps *table) noexcept
        : runner_(runner), slot_(slot), bank_(bank), t_(table) {}

    void *device_malloc(size_t size) const { return t_->device_malloc(runner_, size); }
    void device_free(void *dev_ptr) const { t_->device_free(runner_, dev_ptr); }
    int copy_to_device(void *dev_ptr, const void *host_ptr, size_t size) const
    {
        return t_->copy_to_device(runner_, dev_ptr, host_ptr, size);
    }
    int copy_from_device(void *host_ptr, const void *dev_ptr, size_t size) const
    {
        return t_->copy_from_device(runner_, host_ptr, dev_ptr, size);
    }
    int device_memset(void *dev_ptr, int value, size_t size) const
    {
        return t_->device_memset(runner_, dev_ptr, value, size);
    }
    void get_retained_temp_buffer(void **addr, size_t *size) const
    {
        t_->get_retained_temp_buffer(runner_, slot_, addr, size);
    }
    void set_retained_temp_buffer(void *addr, size_t size) const
    {
        t_->set_retained_temp_buffer(runner_, slot_, addr, size);
    }
    int setup_static_arena(size_t heap, size_t sm, size_t arena) const
    {
        return t_->setup_static_arena(runner_, bank_, heap, sm, arena);
    }
    void *acquire_pooled_gm_sm() const { return t_->acquire_pooled_gm_sm(runner_, bank_); }
    uint64_t upload_chip_callable_buffer(const void *callable) const
    {
        return t_->upload_chip_callable_buffer(runner_, callable);
    }

private:
    void *runner_;
    uint32_t slot_;
    uint32_t bank_;
    const HostApiOps *t_;
};
