/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz runtime, host side (DESIGN 3.8): a simulated accelerator device
 * with a memory budget (HBM) and its driver (malloc, free, copies, kernel
 * registration, launch), and the host runtime that stages tensors on it
 * (init, launch, validate, finalize), modelled on an Ascend-style sample
 * runtime. Included by runtime.h.
 *
 * Device memory is one more arena of the runtime, not a SoC level: it is
 * addressed by 64-bit device addresses (DFZ_DEV_BASE + arena offset), is
 * not CPU-addressable (host code goes through the copies), and its
 * allocations and frees are published as ALLOC / FREE events whose span
 * level is DFZ_DEV_LEVEL. Every driver call and every host-runtime call is
 * published as an API event (see enum dfz_api), so oracles can keep their
 * own ledger and their own reference state machine.
 */
#ifndef DMAFUZZ_RUNTIME_HOST_H
#define DMAFUZZ_RUNTIME_HOST_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- the device */

#define DFZ_DEV_LEVEL 3u              /* span.level of device memory */
#define DFZ_NOWHERE_LEVEL 0xffu       /* span.level of an address outside
				       * every memory (API events) */
#define DFZ_CAP_DEV (4u << 20)        /* device arena bytes */
#define DFZ_CAP_DEV_BUDGET (1u << 20) /* largest budget a run may set */
#define DFZ_DEV_BASE 0x100000000000ull /* device address of arena offset 0;
				       * 0 is never a device address */

struct dfz_dev;

/** dfz_dev_get() - the runtime's device (one per runtime). */
struct dfz_dev *dfz_dev_get(struct dfz_rt *rt);

/*
 * The driver. Its contract (the reference state machine of rt.errcode
 * predicts every code from it):
 * - Live bytes: the sum of the sizes of live allocations, user buffers and
 *   kernel images alike. An allocation that would take live bytes above
 *   the run's budget (dfz_rt_config.dev_budget) fails with DFZ_ENOMEM.
 * - A user allocation is freed by dfz_dev_free(); a kernel image is never
 *   freed (no unregister exists): it lives until the runtime is reset (the
 *   teardown of the device context).
 * - A copy's device range must lie inside one live user allocation
 *   (DFZ_EFAULT otherwise: a freed, never-allocated or image address, or a
 *   range running past the allocation's end). Host pointers are trusted.
 * - Argument checks come first, in parameter order: a NULL pointer
 *   argument or a zero size is DFZ_EINVAL.
 */

/**
 * dfz_dev_malloc() - allocate @size bytes of device memory.
 * @addr: out, the device address of the first byte.
 * Return: 0; DFZ_EINVAL (NULL @dev or @addr, @size 0); DFZ_ENOMEM (over
 * the budget, or no room in the arena).
 */
int dfz_dev_malloc(struct dfz_dev *dev, uint64_t size, uint64_t *addr);

/**
 * dfz_dev_free() - free the user allocation starting at @addr.
 * Return: 0; DFZ_EINVAL (NULL @dev, @addr 0); DFZ_ENOENT (@addr is not the
 * start of a live user allocation: never allocated, already freed, inside
 * a block, or a kernel image).
 */
int dfz_dev_free(struct dfz_dev *dev, uint64_t addr);

/** dfz_dev_copy_to() - host -> device. Return: 0, DFZ_EINVAL, DFZ_EFAULT. */
int dfz_dev_copy_to(struct dfz_dev *dev, uint64_t dst, const void *src,
		    uint64_t n);
/** dfz_dev_copy_from() - device -> host. Return: as dfz_dev_copy_to(). */
int dfz_dev_copy_from(struct dfz_dev *dev, void *dst, uint64_t src,
		      uint64_t n);
/** dfz_dev_copy_dev() - device -> device. Return: as dfz_dev_copy_to(). */
int dfz_dev_copy_dev(struct dfz_dev *dev, uint64_t dst, uint64_t src,
		     uint64_t n);

/**
 * dfz_dev_register() - device-allocate a copy of the kernel binary.
 * @handle: out, the device address of the image.
 * Return: 0; DFZ_EINVAL (NULL @dev, @bin or @handle, @size 0); DFZ_ENOMEM.
 */
int dfz_dev_register(struct dfz_dev *dev, const void *bin, uint32_t size,
		     uint64_t *handle);

/* The roles of a kernel argument: enumerator suffix, name. */
#define DFZ_ROLE_MAP(X) X(IN, "in") X(OUT, "out") X(INOUT, "inout")

enum dfz_role {
#define DFZ_ROLE_ENUM(id, name) DFZ_ROLE_##id,
	DFZ_ROLE_MAP(DFZ_ROLE_ENUM)
#undef DFZ_ROLE_ENUM
	DFZ_ROLE_COUNT
};

#define DFZ_HOST_MAX_ARGS 16

/* One kernel argument as the device sees it. */
struct dfz_karg {
	uint64_t dev;                 /* device address */
	uint32_t bytes;
	uint8_t role;                 /* enum dfz_role */
};

struct dfz_kargs {
	uint32_t nargs;               /* 1..DFZ_HOST_MAX_ARGS */
	struct dfz_karg arg[DFZ_HOST_MAX_ARGS];
	uint64_t graph;               /* packed graph output buffer, or 0 */
	uint32_t launch;              /* 1-based launch count of this init */
};

/*
 * The kernel every image runs (deterministic; rt.output computes it on its
 * own from this text). For each argument j with role OUT or INOUT and each
 * byte e in [0, bytes_j):
 *     s = sum over the IN arguments i of in_i[e mod bytes_i]      (mod 256)
 *     v = (s + 13 * launch + 7 * j + e)                           (mod 256)
 *     OUT: dst[e] = v;   INOUT: dst[e] = dst[e] + v               (mod 256)
 * where dst is argument j's buffer, except for the first OUT argument when
 * graph != 0: its result goes to the graph buffer instead (which holds
 * bytes_j bytes). IN arguments are never written.
 */

/**
 * dfz_dev_launch() - run the kernel of image @handle over @ka.
 * Return: 0; DFZ_EINVAL (NULL @dev or @ka, nargs 0 or above the cap, a
 * role out of range, a zero size); DFZ_ENOENT (@handle is not a live
 * image); DFZ_EFAULT (an argument or the graph buffer not inside one live
 * user allocation). Nothing is written on error.
 */
int dfz_dev_launch(struct dfz_dev *dev, uint64_t handle,
		   const struct dfz_kargs *ka);

/**
 * dfz_dev_peek() - the debugger's view of device memory, for oracles,
 * tests and the harness: no liveness check and no event.
 * Return: 0, or DFZ_EFAULT when [addr, addr+n) is outside the arena.
 */
int dfz_dev_peek(const struct dfz_dev *dev, uint64_t addr, void *dst,
		 uint64_t n);

/* ------------------------------------------------------- the host runtime */

/* The fixed 40-byte tensor-argument ABI. */
struct dfz_tensor_arg {
	uint64_t data;                /* host pointer; for a child tensor the
				       * device address of its buffer */
	uint32_t shapes[5];
	uint32_t ndims;
	uint8_t dtype;                /* enum dfz_dtype */
	uint8_t child_memory;         /* 1: already on the device */
	uint8_t pad[6];
};

_Static_assert(sizeof(struct dfz_tensor_arg) == 40, "tensor ABI size");
_Static_assert(offsetof(struct dfz_tensor_arg, data) == 0, "ABI: data");
_Static_assert(offsetof(struct dfz_tensor_arg, shapes) == 8, "ABI: shapes");
_Static_assert(offsetof(struct dfz_tensor_arg, ndims) == 28, "ABI: ndims");
_Static_assert(offsetof(struct dfz_tensor_arg, dtype) == 32, "ABI: dtype");
_Static_assert(offsetof(struct dfz_tensor_arg, child_memory) == 33,
	       "ABI: child_memory");

/* The element types: enumerator suffix, name, bytes per element. */
#define DFZ_DTYPE_MAP(X) \
	X(INT8, "int8", 1) X(FP16, "fp16", 2) X(FP32, "fp32", 4) \
	X(INT32, "int32", 4) X(FP64, "fp64", 8)

enum dfz_dtype {
#define DFZ_DTYPE_ENUM(id, name, size) DFZ_DT_##id,
	DFZ_DTYPE_MAP(DFZ_DTYPE_ENUM)
#undef DFZ_DTYPE_ENUM
	DFZ_DT_COUNT
};

/** dfz_dtype_size() - bytes of one element of @dt; 0 when out of range. */
unsigned dfz_dtype_size(unsigned dt);
const char *dfz_dtype_name(unsigned dt);
const char *dfz_role_name(unsigned role);

#define DFZ_HOST_MAX_PAIRS 8          /* the (host, device, size) table */
#define DFZ_HOST_MAX_TENSOR (1u << 16) /* bytes of one tensor */

/**
 * dfz_tensor_bytes() - bytes of @a: the product of its first ndims shapes
 * times its dtype size, computed without overflow; 0 when ndims is 0 or
 * above 5, a shape is 0, or the dtype is out of range; UINT64_MAX when the
 * product overflows 64 bits.
 */
uint64_t dfz_tensor_bytes(const struct dfz_tensor_arg *a);

struct dfz_host;

/** dfz_host_get() - the runtime's host context (one per runtime; idle
 * after every reset). */
struct dfz_host *dfz_host_get(struct dfz_rt *rt);

/*
 * The host runtime's contract. Checks come in this order, the first
 * failing one decides the code:
 *
 * dfz_host_init(h, args, roles, nargs, graph):
 *   1. h, args or roles NULL: DFZ_EINVAL.
 *   2. already initialised: DFZ_EBUSY.
 *   3. nargs 0 or above DFZ_HOST_MAX_ARGS: DFZ_EINVAL.
 *   4. per argument, in order: role out of range, dfz_tensor_bytes() 0,
 *      or data 0: DFZ_EINVAL; bytes above DFZ_HOST_MAX_TENSOR: DFZ_ERANGE.
 *   5. more non-child arguments than DFZ_HOST_MAX_PAIRS: DFZ_ERANGE.
 *   6. per non-child argument in order: dfz_dev_malloc(bytes), then for IN
 *      and INOUT dfz_dev_copy_to(); then, when @graph is nonzero and an OUT
 *      argument exists, dfz_dev_malloc() of the first OUT argument's bytes
 *      (the packed graph output). A failing driver call frees everything
 *      init allocated and returns the driver's code.
 *   Child arguments pass through untouched: no malloc, no copy, no pair;
 *   their data is a device address the caller owns.
 * dfz_host_launch(h, bin, size):
 *   1. h or bin NULL: DFZ_EINVAL.  2. not initialised: DFZ_ENOENT.
 *   3. size 0: DFZ_EINVAL.
 *   4. on the first launch since init, dfz_dev_register(bin, size) and
 *      cache the handle (its code returned on failure); then
 *      dfz_dev_launch() with launch = launches since init (its code).
 * dfz_host_validate(h):
 *   1. h NULL: DFZ_EINVAL.  2. not initialised, or no launch succeeded
 *   since init: DFZ_ENOENT.
 *   3. every non-child OUT/INOUT argument is copied back to its host
 *      tensor; then the graph output, when present, goes to the first OUT
 *      argument (its host tensor, or its device buffer for a child).
 *      The first failing copy's code is returned.
 * dfz_host_finalize(h):
 *   1. h NULL: DFZ_EINVAL.  2. not initialised: DFZ_ENOENT.
 *   3. frees what init allocated, forgets the cached kernel handle (the
 *      image stays: no unregister exists), back to idle. Returns 0.
 * With the switch null-arg the NULL checks of init and launch are gone.
 */
int dfz_host_init(struct dfz_host *h, const struct dfz_tensor_arg *args,
		  const uint8_t *roles, uint32_t nargs, int graph);
int dfz_host_launch(struct dfz_host *h, const void *bin, uint32_t size);
int dfz_host_validate(struct dfz_host *h);
int dfz_host_finalize(struct dfz_host *h);

/* ------------------------------------------------------------ API events */

/*
 * The calls published as DFZ_EV_API_ENTER (host-runtime calls only) and
 * DFZ_EV_API_RET (every call). A driver call made by the host runtime is
 * nested between the ENTER and RET of that host call.
 *   aux    enum dfz_api
 *   id     RET: the return code
 *   handle the host pointer argument (COPY_TO src, COPY_FROM dst,
 *          REGISTER bin), else NULL
 *   dst    device range written or named: MALLOC (RET, rc 0) the block;
 *          FREE the address (len 0); COPY_TO / COPY_DEV the destination;
 *          REGISTER (rc 0) the image; LAUNCH the image (len 0)
 *   src    COPY_FROM / COPY_DEV the device source range
 *   desc.size  the size argument (MALLOC, REGISTER, copies)
 * A device address outside the arena shows as level DFZ_NOWHERE_LEVEL.
 */
#define DFZ_API_MAP(X)                                               \
	X(MALLOC, "malloc", "malloc")                                \
	X(FREE, "free", "free")                                      \
	X(COPY_TO, "copy-to", "copy_to")                             \
	X(COPY_FROM, "copy-from", "copy_from")                       \
	X(COPY_DEV, "copy-dev", "copy_dev")                          \
	X(REGISTER, "register", "register")                          \
	X(LAUNCH, "launch", "launch")      /* the driver's launch */ \
	X(INIT, "init", "init")            /* host runtime from here */ \
	X(RUN, "run", "run")               /* dfz_host_launch */     \
	X(VALIDATE, "validate", "validate")                          \
	X(FINALIZE, "finalize", "finalize")

/* The calls: enumerator suffix, name in messages, name in plan text. */
enum dfz_api {
#define DFZ_API_ENUM(id, name, key) DFZ_API_##id,
	DFZ_API_MAP(DFZ_API_ENUM)
#undef DFZ_API_ENUM
	DFZ_API_COUNT
};

#define DFZ_API_IS_HOST(call) ((call) >= DFZ_API_INIT)

const char *dfz_api_name(unsigned call);

/* -------------------------------------------------- host programs (spec) */

/*
 * A host program: what a user of the host runtime does in one run, as
 * data. The harness builds it from a `host` or `api` plan and interprets
 * it; oracles read it as the specification of the run. Tensors have host
 * buffers (non-child) or device buffers staged by the harness before the
 * program starts (child).
 */
struct dfz_host_tensor {
	struct dfz_tensor_arg arg;    /* as init receives it */
	uint8_t role;                 /* enum dfz_role */
	uint32_t bytes;               /* dfz_tensor_bytes(&arg) */
};

/*
 * Ways an api call's arguments are made bad (the harness applies them):
 * enumerator suffix (DFZ_FAULT_*), name.
 *   NULL_CTX    host context passed as NULL
 *   NULL_PTR    init: args NULL; launch: bin NULL; copies: host pointer
 *               NULL; malloc: addr out-pointer NULL
 *   NULL_ROLES  init: roles NULL
 *   NARGS       init: nargs = 0 (or arg = 1: above the cap)
 *   NDIMS       init: args[arg].ndims = 0
 *   DTYPE       init: args[arg].dtype = DFZ_DT_COUNT
 *   SHAPE0      init: args[arg].shapes[0] = 0
 *   HUGE        init: args[arg].shapes[0] = 2^31; malloc/copies: 2^40
 *   DATA0       init: args[arg].data = 0
 *   ROLE        init: roles[arg] = DFZ_ROLE_COUNT
 *   ZERO        launch: size 0; malloc/copy: n 0
 */
#define DFZ_FAULT_MAP(X)                                              \
	X(NONE, "none") X(NULL_CTX, "null_ctx") X(NULL_PTR, "null_ptr") \
	X(NULL_ROLES, "null_roles") X(NARGS, "nargs") X(NDIMS, "ndims") \
	X(DTYPE, "dtype") X(SHAPE0, "shape0") X(HUGE, "huge")           \
	X(DATA0, "data0") X(ROLE, "role") X(ZERO, "zero")

enum dfz_host_fault {
#define DFZ_FAULT_ENUM(id, name) DFZ_FAULT_##id,
	DFZ_FAULT_MAP(DFZ_FAULT_ENUM)
#undef DFZ_FAULT_ENUM
	DFZ_FAULT_COUNT
};

/** dfz_fault_name() - the name of fault @f; NULL when out of range. */
const char *dfz_fault_name(unsigned f);

struct dfz_host_call {
	uint8_t op;                   /* enum dfz_api: MALLOC, FREE, COPY_TO,
				       * COPY_FROM, INIT, RUN, VALIDATE or
				       * FINALIZE */
	uint8_t fault;                /* enum dfz_host_fault */
	uint8_t arg;                  /* the argument a fault applies to */
	uint8_t slot;                 /* MALLOC/FREE/copies: user buffer slot */
	uint32_t repeat;              /* RUN: launches in a row (>= 1) */
	uint32_t size;                /* MALLOC bytes; copies: bytes */
	uint32_t offset;              /* copies: offset into the slot */
};

#define DFZ_HOST_SLOTS 8              /* user device buffers of an api plan */
#define DFZ_HOST_MAX_CALLS 64

struct dfz_host_prog {
	uint8_t ntensors;             /* 1..DFZ_HOST_MAX_ARGS */
	struct dfz_host_tensor t[DFZ_HOST_MAX_ARGS];
	uint8_t graph;                /* init's graph argument */
	uint32_t dev_budget;          /* the run's device budget */
	const uint8_t *bin;           /* kernel binary (borrowed) */
	uint32_t bin_size;
	uint8_t ncalls;               /* 0..DFZ_HOST_MAX_CALLS */
	struct dfz_host_call call[DFZ_HOST_MAX_CALLS];
};

/**
 * dfz_host_call_args() - the init arguments @c passes: @p's tensors with
 * @c's fault applied (DFZ_FAULT_NDIMS, _DTYPE, _SHAPE0, _HUGE, _DATA0 and
 * _ROLE change argument c->arg; the NULL and NARGS faults change what is
 * passed, not the table).
 * @args, @roles: out, DFZ_HOST_MAX_ARGS entries each.
 * Return: the nargs to pass.
 */
uint32_t dfz_host_call_args(const struct dfz_host_prog *p,
			    const struct dfz_host_call *c,
			    struct dfz_tensor_arg *args, uint8_t *roles);

/*
 * struct dfz_host_act - one call of a host program as it is made: the
 * call's fault applied to its concrete arguments, once, for every code
 * that makes it (the harness's executor, the reproducer emit-c prints,
 * the tests' interpreter).
 * @op: enum dfz_api.
 * @times: calls in a row: RUN's repeat (launches), 1, or 0 for an op a
 *	host program does not make (COPY_DEV, REGISTER, LAUNCH).
 * @null_ctx: the device or host context is passed as NULL.
 * @null_ptr: the pointer argument is NULL (malloc's out-pointer, a copy's
 *	host side, init's args, a launch's binary).
 * @null_roles: init's roles are NULL.
 * @size: MALLOC and copies: bytes (ZERO and HUGE applied); RUN: the
 *	binary's bytes passed.
 * @slot: MALLOC, FREE and copies: the user buffer slot.
 * @offset: copies: bytes past the slot's address.
 * @nargs, @args, @roles, @graph: INIT's arguments, the table's fault
 *	applied (dfz_host_call_args()); @args and @roles are set for INIT
 *	only.
 */
struct dfz_host_act {
	uint8_t op;
	uint32_t times;
	bool null_ctx;
	bool null_ptr;
	bool null_roles;
	uint64_t size;
	unsigned slot;
	uint32_t offset;
	uint32_t nargs;
	uint8_t graph;
	struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];
	uint8_t roles[DFZ_HOST_MAX_ARGS];
};

/* The bytes a HUGE fault asks a driver call for. */
#define DFZ_HOST_HUGE_SIZE (1ull << 40)

/**
 * dfz_host_act_of() - call @k of program @p as it is made. @p, @a: not
 * NULL; @k < p->ncalls.
 */
void dfz_host_act_of(const struct dfz_host_prog *p, unsigned k,
		     struct dfz_host_act *a);

/*
 * struct dfz_host_io - the user's side of a program's calls: the kernel
 * binary (RUN), a host buffer for the copies (DFZ_HOST_MAX_TENSOR bytes),
 * and the user buffer slots (DFZ_HOST_SLOTS addresses, MALLOC writes).
 */
struct dfz_host_io {
	const uint8_t *bin;
	uint8_t *scratch;
	uint64_t *slot;
};

/**
 * dfz_host_act_perform() - make call @a once on @rt's device and host
 * context with @io (a RUN act: one launch; the caller makes a->times).
 * Return: the call's return code; 0 for an act of 0 times.
 */
int dfz_host_act_perform(struct dfz_rt *rt, const struct dfz_host_act *a,
			 const struct dfz_host_io *io);

#endif /* DMAFUZZ_RUNTIME_HOST_H */
