/* loom.h -- Loom's public C API: run PTX kernels on the CPU.
 *
 * A program creates a device, loads PTX modules into it, allocates device
 * memory, launches kernels on streams and synchronises. Every call returns a
 * loom_status; after an error, loom_device_error() gives the full report
 * (for a kernel fault: kernel, PTX line, CUDA line, block, thread, address).
 * No call aborts the process. All functions are thread-safe unless noted.
 *
 *     struct loom_device *dev;
 *     loom_device_create(NULL, &dev);
 *     struct loom_module *mod;
 *     if (loom_module_load_file(dev, "saxpy.ptx", &mod) != LOOM_OK)
 *         fprintf(stderr, "%s\n", loom_device_error(dev));
 *     struct loom_kernel *k;
 *     loom_module_get_kernel(mod, "saxpy", &k);
 *     uint64_t x; loom_malloc(dev, n * 4, &x);
 *     ...
 *     void *args[] = { &a, &x, &y, &n };
 *     loom_launch(dev, k, &(struct loom_launch_config){ .grid = {n / 256, 1, 1},
 *                 .block = {256, 1, 1} }, args);
 *     loom_synchronize(dev);
 */
#ifndef LOOM_LOOM_H
#define LOOM_LOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOM_VERSION_MAJOR 0
#define LOOM_VERSION_MINOR 1
#define LOOM_VERSION_PATCH 0

/* Status codes. Messages come from one table: loom_status_string(). */
enum loom_status {
    LOOM_OK = 0,
    LOOM_ERR_INVALID_VALUE,      /* a bad argument to an API call */
    LOOM_ERR_OUT_OF_MEMORY,      /* device allocation failed */
    LOOM_ERR_PARSE,              /* the PTX text has errors (diagnostics in the report) */
    LOOM_ERR_UNSUPPORTED,        /* the PTX uses something Loom does not run (named in the report) */
    LOOM_ERR_NOT_FOUND,          /* no such kernel or symbol */
    LOOM_ERR_INVALID_CONFIG,     /* bad grid/block/shared-memory configuration */
    LOOM_ERR_INVALID_ARGS,       /* kernel arguments do not match the .param list */
    LOOM_ERR_INVALID_POINTER,    /* a pointer that is not a live device allocation */
    LOOM_ERR_ILLEGAL_ADDRESS,    /* kernel fault: out of bounds, freed, null, wrong space */
    LOOM_ERR_MISALIGNED,         /* kernel fault: misaligned access */
    LOOM_ERR_TRAP,               /* kernel executed trap */
    LOOM_ERR_ASSERT,             /* kernel assert() failed */
    LOOM_ERR_DEADLOCK,           /* barrier that can never complete */
    LOOM_ERR_TIMEOUT,            /* kernel ran past its time limit */
    LOOM_ERR_LAUNCH_FAILED,      /* other kernel failure */
    LOOM_ERR_NOT_READY,          /* asynchronous work still pending (query calls) */
    LOOM_ERR_IO,                 /* a file could not be read */
    LOOM_ERR_INTERNAL,
    LOOM_ERR_INTERRUPTED,        /* kernel stopped by loom_device_interrupt() (Ctrl-C) */
    LOOM_ERR_NOT_PERMITTED,      /* a call that may not be made here (a wait inside a host function) */
    LOOM_STATUS_COUNT_
};

const char *loom_status_string(enum loom_status s);
const char *loom_status_name(enum loom_status s);

/* Device configuration; zero-initialised fields mean "default". */
struct loom_device_config {
    unsigned workers;            /* CPU worker threads; 0 = one per core that the process may
                                  * run on (its CPU affinity mask), or LOOM_WORKERS */
    const char *preset;          /* emulated GPU preset name; NULL = "h100" */
    bool deterministic;          /* fixed schedule: identical results run after run */
    bool no_check;               /* disable memory checking (faster) */
    bool stats;                  /* collect per-kernel statistics */
    FILE *printf_out;            /* where kernel printf goes; NULL = stdout */
    double timeout_s;            /* stop kernels running longer; 0 = none */
    bool initcheck;              /* report reads of device memory never written (LOOM_INITCHECK) */
    bool racecheck;              /* report shared-memory races between threads of a CTA (LOOM_RACECHECK) */
    bool progress;               /* while a kernel has run for 2 s or more, keep one line on stderr
                                  * with its name, CTAs done and time (for a terminal) */
    double watchdog_s;           /* when no CTA has finished for this long, print once where the
                                  * warps are; the kernel keeps running. 0 = off (LOOM_WATCHDOG) */
    bool stats_launches;         /* with stats: keep a record per launch too (LOOM_STATS=launches) */
    const char *simt;            /* SIMT policy, NAME[:KEY=VALUE,...] (pdom, its, frontier, dwf, sbi,
                                  * swi, sbi+swi; docs/SIMT.md); NULL = LOOM_SIMT, else pdom */
    bool counters;               /* with stats: counters per PTX line and memory requests (bank
                                  * conflicts, sectors, local traffic); every instruction is then
                                  * observed, which is slower (docs/OBSERVE.md; LOOM_STATS=counters) */
    const char *trace_path;      /* write a Chrome trace (JSON; ui.perfetto.dev opens it) of host API
                                  * calls, streams, kernels and CTAs on workers to this file at
                                  * loom_device_destroy (or loom_device_trace_flush); NULL = none.
                                  * The file is created by loom_device_create, which fails with
                                  * LOOM_ERR_IO when it cannot be written */
    uint64_t trace_cap;          /* events the trace keeps at most; 0 = 1,000,000. Past it recording
                                  * stops and the trace says "trace capped at N events" */
    bool trace_warps;            /* per-warp slices and events in the trace (every instruction is then
                                  * observed, as with counters) */
    const char *sched;           /* the scheduling policy, NAME[:KEY=VALUE,...]: fifo (each stream in
                                  * order, CUDA's rules), serial (one operation at a time), acs[:window=N]
                                  * (out of order within a window of N, by data dependencies), dag
                                  * (GrCUDA's dependencies over all streams); docs/SCHEDULING.md.
                                  * NULL = LOOM_SCHED, else fifo */
    bool sched_summary;          /* at loom_device_destroy, one line on stderr: the policy, the
                                  * dependencies found, kernels that overlapped, the span of device
                                  * work (LOOM_SCHED_SUMMARY=1) */
    bool sched_check;            /* report, on stderr, kernels, copies and memsets in flight at once that
                                  * nothing orders (streams, events) and that touch the same memory, one
                                  * writing: a data race in the program (LOOM_SCHED_CHECK=1) */
    bool timing_model;           /* virtual time: record each kernel's per-CTA cost (issue slots, memory
                                  * bytes; counters on) and each operation's dependencies, so that
                                  * loom_sched_print_summary schedules them in virtual time on the
                                  * preset's SMs, the same on any machine (LOOM_TIMING=model;
                                  * docs/SCHEDULING.md) */
    struct loom_debug *debugger; /* debug this device's launches (loom/debug.h): one worker, the
                                  * deterministic schedule; the launches it attaches to run a
                                  * decode of their module without folding and fusion; NULL =
                                  * none. A debugger serves one device at a time */
};

/* Properties of the emulated GPU, as the CUDA runtime reports them. */
struct loom_device_props {
    char name[256];
    int cc_major, cc_minor;
    int multiprocessors;
    int warp_size;
    int max_threads_per_block;
    int max_block_dim[3];
    int max_grid_dim[3];
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_block, regs_per_sm;
    size_t shared_per_block;         /* default limit */
    size_t shared_per_block_optin;   /* opt-in maximum */
    size_t shared_per_sm;
    size_t total_global_mem;
    size_t total_const_mem;
    int clock_khz;
    int mem_clock_khz;
    int mem_bus_width;
    int l2_cache_size;
};

struct loom_device;
struct loom_debug;
struct loom_module;
struct loom_kernel;
struct loom_stream;
struct loom_event;

enum loom_status loom_device_create(const struct loom_device_config *cfg, struct loom_device **out_dev);
/* Whether spec names a SIMT policy and valid options for it (loom_device_config.simt):
 * LOOM_OK, else LOOM_ERR_INVALID_VALUE with a one-line message in msg. */
enum loom_status loom_simt_check(const char *spec, char *msg, size_t size);
/* The same for a scheduling policy (loom_device_config.sched). */
enum loom_status loom_sched_check(const char *spec, char *msg, size_t size);
/* Waits for the device's work, then prints the scheduling summary line to out: "loom:
 * schedule: " and key=value pairs (policy, timing, makespan_us, ops, kernels, overlapped,
 * deps, check_ns; under timing_model also critical_path_us and sm_util, and the times are
 * virtual; docs/SCHEDULING.md). loom_device_destroy prints it when sched_summary. */
void loom_sched_print_summary(struct loom_device *dev, FILE *out);
void loom_device_destroy(struct loom_device *dev);
/* Writes the trace recorded so far (trace_path) over the file, whole; loom_device_destroy
 * writes it again when more was recorded since. LOOM_OK also when there is no trace;
 * LOOM_ERR_IO when the file cannot be written (the message names it). */
enum loom_status loom_device_trace_flush(struct loom_device *dev);
/* The number of CPU worker threads the device runs kernels on. */
unsigned loom_device_workers(struct loom_device *dev);
/* Fills props with the emulated GPU's properties. */
void loom_device_props(const struct loom_device *dev, struct loom_device_props *out_props);
/* The full text of the last error on this device (thread-local per calling thread
 * for API errors; kernel faults are recorded on the device). Never NULL. */
const char *loom_device_error(struct loom_device *dev);
/* The sticky error left by a kernel fault (LOOM_OK when none); reset clears it. */
enum loom_status loom_device_sticky_error(struct loom_device *dev);
/* The report of the kernel fault that set the sticky error ("" when none). */
const char *loom_device_fault_report(struct loom_device *dev);
/* Waits for all work, frees every allocation and module, clears the sticky error. */
enum loom_status loom_device_reset(struct loom_device *dev);

/* Device limits, as cudaDeviceSetLimit names them. */
enum loom_limit {
    LOOM_LIMIT_STACK_SIZE,         /* bytes of call stack per thread */
    LOOM_LIMIT_PRINTF_FIFO_SIZE,   /* bytes of kernel printf output held between flushes */
    LOOM_LIMIT_MALLOC_HEAP_SIZE,   /* bytes of the in-kernel malloc heap */
};
enum loom_status loom_device_set_limit(struct loom_device *dev, enum loom_limit limit, size_t value);
enum loom_status loom_device_get_limit(struct loom_device *dev, enum loom_limit limit, size_t *out_value);
/* Stops every kernel running on dev now: each ends with LOOM_ERR_INTERRUPTED (sticky)
 * and a report of where its warps stand. Kernels launched later are not affected.
 * Async-signal-safe. Returns whether any kernel was running. */
bool loom_device_interrupt(struct loom_device *dev);
/* Installs a SIGINT handler for the process: the first Ctrl-C while kernels run on
 * dev interrupts them (loom_device_interrupt); a Ctrl-C when none runs, or a second
 * one, terminates the process as usual. One device per process holds it; destroying
 * the device releases it. */
enum loom_status loom_device_catch_sigint(struct loom_device *dev);

/* The largest PTX text Loom takes, from a file, a string or a fatbinary. */
#define LOOM_MAX_PTX_BYTES ((size_t)256 << 20)

/* Modules. `name` labels diagnostics (a file name). Diagnostics for a failed
 * load are in loom_device_error(). PTX text larger than LOOM_MAX_PTX_BYTES (256 MiB)
 * is refused with LOOM_ERR_INVALID_VALUE (a file is read only up to that much). */
enum loom_status loom_module_load_text(struct loom_device *dev, const char *text, size_t len,
                                       const char *name, struct loom_module **out_mod);
enum loom_status loom_module_load_file(struct loom_device *dev, const char *path,
                                       struct loom_module **out_mod);
void loom_module_unload(struct loom_module *mod);
/* Looks a kernel up by its mangled PTX name. */
enum loom_status loom_module_get_kernel(struct loom_module *mod, const char *name,
                                        struct loom_kernel **out_kernel);
unsigned loom_module_kernel_count(const struct loom_module *mod);
struct loom_kernel *loom_module_kernel(struct loom_module *mod, unsigned index);
/* The device address and size of a module-scope variable (.global/.const). */
enum loom_status loom_module_get_global(struct loom_module *mod, const char *name,
                                        uint64_t *out_addr, size_t *out_size);

/* Kernel parameters, as declared in the .param list. */
enum loom_param_kind { LOOM_PARAM_INT, LOOM_PARAM_FLOAT, LOOM_PARAM_BYTES };
struct loom_param_info {
    const char *name;
    enum loom_param_kind kind;
    unsigned size;      /* bytes */
    unsigned align;
    unsigned offset;    /* in the parameter buffer */
    bool is_signed;
    bool is_pointer;    /* .ptr, or a u64/b64 parameter */
};
const char *loom_kernel_name(const struct loom_kernel *k);
/* The display name of a kernel name, as c++filt and compute-sanitizer print it: a mangled
 * C++ name is demangled ("_Z6kernelPi" -> "kernel(int*)"); a name that is not mangled, or
 * that Loom's demangler does not understand, is copied as it is. Writes at most size bytes
 * to buf (truncating) and returns buf. */
const char *loom_demangle(const char *name, char *buf, size_t size);
/* A short display name for tables: the demangled name without its return type and
 * parameters, with template argument lists inside others shown as "<...>", and cut to
 * `width` characters with "..." when still longer ("cub::DeviceReduceKernel<...>").
 * Writes at most size bytes to buf and returns buf. */
const char *loom_short_name(const char *name, unsigned width, char *buf, size_t size);
/* The edit distance (Levenshtein) of two short names, for "did you mean" suggestions: 9 when
 * either is longer than 31 characters. */
unsigned loom_edit_distance(const char *a, const char *b);
unsigned loom_kernel_param_count(const struct loom_kernel *k);
void loom_kernel_param(const struct loom_kernel *k, unsigned index, struct loom_param_info *out_info);

struct loom_kernel_attrs {
    unsigned num_regs;          /* per thread, as ptxas would allocate them (an estimate) */
    size_t shared_bytes;        /* static */
    size_t local_bytes;         /* per thread */
    size_t const_bytes;
    size_t param_bytes;
    unsigned max_threads_per_block;  /* the device's, lowered to what num_regs leaves room
                                        for, and by .maxntid and .reqntid */
    unsigned ptx_version;       /* 10 * major + minor */
    unsigned sm;                /* .target */
    size_t max_dynamic_shared;  /* settable attribute */
    unsigned barriers;          /* named barriers the kernel uses (they bound occupancy) */
};
void loom_kernel_attrs(const struct loom_kernel *k, struct loom_kernel_attrs *out_attrs);
enum loom_status loom_kernel_set_max_dynamic_shared(struct loom_kernel *k, size_t bytes);
/* CTAs of k that fit on one SM of the emulated device with this block size and
 * dynamic shared memory (the CUDA occupancy calculator's rules, over num_regs, shared
 * memory and barriers; .maxntid is not consulted, as CUDA does not). */
enum loom_status loom_kernel_occupancy(struct loom_kernel *k, unsigned threads_per_block, size_t dyn_shared,
                                       unsigned *out_ctas_per_sm);

/* Device memory. Addresses are 64-bit device addresses; on Loom they are
 * also valid host addresses, which is how managed memory works. */
/* A live allocation of the host API (loom_malloc, loom_malloc_managed), for leak reports. */
struct loom_alloc_info {
    uint64_t addr;
    size_t size;
    unsigned id;                 /* allocation number, as reports give it (#id) */
    bool managed;                /* loom_malloc_managed */
};
/* Calls fn for each live allocation the host API made and did not free, in address order
 * (not module variables, the in-kernel heap or registered host memory). */
void loom_foreach_allocation(struct loom_device *dev, void (*fn)(const struct loom_alloc_info *a, void *ctx),
                             void *ctx);
enum loom_status loom_malloc(struct loom_device *dev, size_t size, uint64_t *out_addr);
enum loom_status loom_malloc_managed(struct loom_device *dev, size_t size, uint64_t *out_addr);
enum loom_status loom_free(struct loom_device *dev, uint64_t addr);
/* Finds the live allocation containing addr. */
enum loom_status loom_pointer_info(struct loom_device *dev, uint64_t addr, uint64_t *out_base,
                                   size_t *out_size, bool *out_managed);
void loom_mem_info(struct loom_device *dev, size_t *out_free, size_t *out_total);
/* Makes host memory the caller owns reachable from kernels (cudaHostRegister);
 * its device address is its host address. */
enum loom_status loom_host_register(struct loom_device *dev, void *p, size_t size);
enum loom_status loom_host_unregister(struct loom_device *dev, void *p);

/* Copies; `stream` NULL means the default stream. Synchronous variants wait
 * for the stream first. Direction is derived from the addresses. */
enum loom_status loom_memcpy(struct loom_device *dev, void *dst, const void *src, size_t n);
enum loom_status loom_memcpy_async(struct loom_device *dev, void *dst, const void *src, size_t n,
                                   struct loom_stream *stream);
enum loom_status loom_memset(struct loom_device *dev, uint64_t addr, int value, size_t n);
enum loom_status loom_memset_async(struct loom_device *dev, uint64_t addr, int value, size_t n,
                                   struct loom_stream *stream);

/* CUDA arrays and texture and surface objects. An array holds width x height x depth
 * texels of 1, 2 or 4 channels of 8, 16 or 32 bits (16 or 32 for floats): height 0 makes
 * it 1-D, depth 0 2-D; a layered array has depth layers of 1-D (height 0) or 2-D images.
 * Its texels lie in device memory (loom_array_info says where: row after row, slice after
 * slice), so copies to and from it are plain copies. Handles are 64-bit device values:
 * a kernel receives a texture or surface object as a .u64 parameter, as on the GPU. */
enum loom_channel_kind { LOOM_CHANNEL_UNSIGNED, LOOM_CHANNEL_SIGNED, LOOM_CHANNEL_FLOAT };
#define LOOM_ARRAY_LAYERED 1u   /* flag: depth counts layers */
#define LOOM_ARRAY_SURFACE 2u   /* flag: meant for surface objects (recorded, not required) */
struct loom_array_desc {
    unsigned channels, bits;
    enum loom_channel_kind kind;
    size_t width, height, depth;
    unsigned flags;             /* LOOM_ARRAY_* */
};
enum loom_status loom_array_create(struct loom_device *dev, const struct loom_array_desc *desc,
                                   uint64_t *out_array);
enum loom_status loom_array_destroy(struct loom_device *dev, uint64_t array);
/* The array's shape and where texel (x, y, z) lies: data + z * slice + y * pitch + x * size
 * of a texel. Any out pointer may be NULL. */
enum loom_status loom_array_info(struct loom_device *dev, uint64_t array, struct loom_array_desc *out_desc,
                                 uint64_t *out_data, size_t *out_pitch, size_t *out_slice);
/* A texture object reads an array, or device memory at addr: linear (pitch 0, fetched by
 * index, width texels) or pitched 2-D (width x height texels, rows pitch bytes apart) of
 * the format channels/bits/kind. Coordinates outside the texture follow the address mode
 * of their axis; linear filtering weighs texels as the GPU does (8-bit fractions). */
enum loom_address_mode { LOOM_ADDRESS_WRAP, LOOM_ADDRESS_CLAMP, LOOM_ADDRESS_MIRROR, LOOM_ADDRESS_BORDER };
struct loom_texture_desc {
    uint64_t array;             /* an array, or 0 for memory at addr */
    uint64_t addr;
    size_t width, height, pitch;
    unsigned channels, bits;
    enum loom_channel_kind kind;
    enum loom_address_mode address[3];
    bool linear_filter;         /* else point sampling */
    bool read_normalized;       /* 8/16-bit integers read as floats in [0,1] or [-1,1] */
    bool coords_normalized;     /* coordinates in [0,1) span each axis */
    bool srgb;                  /* 8-bit normalised reads convert sRGB to linear */
    float border[4];            /* what LOOM_ADDRESS_BORDER reads outside */
};
enum loom_status loom_texture_create(struct loom_device *dev, const struct loom_texture_desc *desc,
                                     uint64_t *out_tex);
/* A surface object over an array (CUDA asks for LOOM_ARRAY_SURFACE; an H100 does not). */
enum loom_status loom_surface_create(struct loom_device *dev, uint64_t array, uint64_t *out_surf);
/* Destroys a texture or surface object. */
enum loom_status loom_texture_destroy(struct loom_device *dev, uint64_t tex);
/* The description a texture or surface object was made from; *out_surface tells which. */
enum loom_status loom_texture_info(struct loom_device *dev, uint64_t tex, struct loom_texture_desc *out_desc,
                                   bool *out_surface);
/* Launches. args[i] points at the value of parameter i (the CUDA convention). A block
 * shape the device or the kernel does not allow (more threads than .maxntid, another
 * shape than .reqntid) is LOOM_ERR_INVALID_CONFIG. */
struct loom_launch_config {
    unsigned grid[3];
    unsigned block[3];
    size_t shared_bytes;        /* dynamic shared memory */
    struct loom_stream *stream; /* NULL = default stream */
    bool cooperative;           /* grid-wide sync allowed; grid must be co-resident */
    const struct loom_access_range *access;   /* what the kernel reads and writes, exactly, for the
                                               * policies that reorder (acs, dag); NULL: inferred
                                               * from its pointer arguments (docs/SCHEDULING.md) */
    unsigned naccess;
};
#define LOOM_ACCESS_READ 1u
#define LOOM_ACCESS_WRITE 2u
struct loom_access_range { uint64_t addr; uint64_t size; unsigned mode; /* LOOM_ACCESS_* */ };
enum loom_status loom_launch(struct loom_device *dev, struct loom_kernel *k,
                             const struct loom_launch_config *cfg, void **args);

/* Streams and events. Work on one stream runs in order; work on different
 * streams may run concurrently. The default stream (NULL) is the legacy one:
 * its work waits for earlier work on every blocking stream, and blocking
 * streams' work waits for earlier default-stream work. */
#define LOOM_STREAM_NON_BLOCKING 1u   /* flag: does not synchronise with the default stream */
enum loom_status loom_stream_create(struct loom_device *dev, unsigned flags, int priority,
                                    struct loom_stream **out_stream);
enum loom_status loom_stream_destroy(struct loom_stream *s);
enum loom_status loom_stream_synchronize(struct loom_stream *s);
/* LOOM_OK when all work is done, else LOOM_ERR_NOT_READY; NULL = the default stream of
 * the device last created (prefer loom_device_stream_query). */
enum loom_status loom_stream_query(struct loom_stream *s);
enum loom_status loom_device_stream_query(struct loom_device *dev, struct loom_stream *s);
enum loom_status loom_stream_wait_event(struct loom_stream *s, struct loom_event *e);
/* Runs fn(data) on a host thread once all earlier work of the stream is done. */
enum loom_status loom_stream_add_host_func(struct loom_stream *s, void (*fn)(void *data), void *data);
/* Runs fn(data) once all earlier work of the default stream is done. */
enum loom_status loom_device_add_host_func(struct loom_device *dev, void (*fn)(void *data), void *data);
/* True on a thread that is running a host function (stream callback) of any device. A
 * host function runs in its stream's place, so a call that waits for device work from
 * it could wait for itself: the waiting calls (synchronisation, blocking copies and
 * sets, reset) return LOOM_ERR_NOT_PERMITTED there. */
bool loom_in_host_func(void);
/* Waits for all work on every stream; returns the sticky error of a kernel fault. */
enum loom_status loom_synchronize(struct loom_device *dev);

enum loom_status loom_event_create(struct loom_device *dev, unsigned flags, struct loom_event **out_event);
enum loom_status loom_event_destroy(struct loom_event *e);
enum loom_status loom_event_record(struct loom_event *e, struct loom_stream *s);
enum loom_status loom_event_synchronize(struct loom_event *e);
enum loom_status loom_event_query(struct loom_event *e);
enum loom_status loom_event_elapsed_ms(struct loom_event *start, struct loom_event *end, float *out_ms);

/* Per-kernel statistics, when the device was created with stats = true. */
#define LOOM_TIMELINE_BINS 32
/* The timing-free SIMT issue model (docs/SIMT.md): the same fields under every policy.
 * A slot issues one instruction for a group of lanes; an SBI/SWI pair or a DWF dynamic
 * warp counts one slot. */
struct loom_simt_stats {
    uint64_t slots;                 /* issue slots */
    uint64_t lanes;                 /* active lanes summed over slots (lanes / 32 slots: SIMD efficiency) */
    uint64_t hist[33];              /* slots by active lanes: hist[k] slots had k lanes (W1..W32) */
    uint64_t divergent_branches;    /* branches whose lanes went different ways */
    uint64_t reconvergences;        /* groups that merged again (PDOM: stack pops) */
    uint64_t max_depth;             /* deepest PDOM stack / thread frontier / DWF pool of pcs */
    uint64_t warps_formed;          /* dwf: dynamic warps with threads of several warps */
    uint64_t warps_split;           /* dwf split=on: a warp's threads at one pc issued in several slots */
    uint64_t lane_conflicts;        /* dwf las=off: threads issued off their home lane */
    uint64_t coissued;              /* sbi/swi: slots that issued a second group */
};

/* Memory requests (counters on): a request is one warp instruction with at least one
 * lane accessing the space; shared memory takes wavefronts (passes through its 32 banks
 * of 4 bytes), of which the conflicts are those beyond the fewest possible; global memory
 * moves 32-byte sectors of 128-byte lines (docs/OBSERVE.md has the rules). */
struct loom_mem_stats {
    uint64_t shared_ld_requests, shared_ld_wavefronts, shared_ld_conflicts;
    uint64_t shared_st_requests, shared_st_wavefronts, shared_st_conflicts;
    uint64_t shared_atom_requests;
    uint64_t global_ld_requests, global_ld_sectors, global_ld_lines;
    uint64_t global_st_requests, global_st_sectors, global_st_lines;
    uint64_t global_atom_requests, global_atom_sectors;
    uint64_t local_ld_requests, local_ld_bytes, local_st_requests, local_st_bytes;
};
/* What a line's memory instruction is (loom_line_stats.mem). */
enum loom_line_mem {
    LOOM_MEM_NONE, LOOM_MEM_SHARED_LD, LOOM_MEM_SHARED_ST, LOOM_MEM_SHARED_ATOM,
    LOOM_MEM_GLOBAL_LD, LOOM_MEM_GLOBAL_ST, LOOM_MEM_GLOBAL_ATOM, LOOM_MEM_LOCAL_LD, LOOM_MEM_LOCAL_ST,
    LOOM_MEM_OTHER,              /* generic addresses in several spaces, parameters, constants */
};
/* One PTX line of a kernel (or of a function it calls), counters on. */
struct loom_line_stats {
    unsigned line;                  /* in the PTX text */
    unsigned cu_file, cu_line;      /* from .loc, 0 when none */
    const char *text;               /* the PTX line, trimmed */
    uint64_t exec;                  /* warp instructions issued */
    uint64_t threads;               /* active lanes summed (SIMD efficiency: threads / (32 exec)) */
    uint64_t predicated_off;        /* active lanes whose guard was false */
    uint64_t divergent;             /* issues of a branch here that split the warp */
    uint64_t barrier_waits;         /* warps that stopped at a barrier here */
    enum loom_line_mem mem;
    uint64_t requests, sectors, lines128, wavefronts, bank_conflicts, bytes;
};

struct loom_kernel_stats {
    const char *kernel;
    uint64_t launches;
    double seconds;
    uint64_t warp_instructions;
    uint64_t thread_instructions;   /* sum of active lanes over warp instructions */
    uint64_t divergent_branches;
    uint64_t barrier_waits;
    uint64_t ctas;                  /* CTAs run */
    uint64_t parks;                 /* times a CTA was set aside unfinished (polling, long work) */
    uint64_t max_resident;          /* most CTAs resident on the workers at once */
    unsigned occupancy_ctas_per_sm; /* by the preset's occupancy calculation */
    double occupancy;               /* active warps / maximum warps per SM */
    uint64_t wakeups;               /* times an idle worker woke up and took CTAs of this kernel */
    uint64_t chunks;                /* ranges of consecutive CTAs that workers claimed */
    uint64_t steals;                /* times an idle worker took over part of another's range */
    uint64_t admits_parked;         /* CTAs admitted because every CTA resident on a worker was parked */
    unsigned workers;               /* the device's worker threads */
    /* Residency over time, for the kernel's longest launch: timeline_bins intervals of
     * timeline_interval_s seconds each, with the average number of CTAs resident on the
     * workers and of workers running one (at most `workers`). */
    unsigned timeline_bins;
    double timeline_interval_s;
    float timeline_resident[LOOM_TIMELINE_BINS], timeline_running[LOOM_TIMELINE_BINS];
    const char *simt_policy;        /* the device's SIMT policy, spelled out with its options */
    struct loom_simt_stats simt;    /* over every launch (max_depth: the deepest) */
    /* Occupancy of the last launch: CTAs per SM that each resource allows, and which binds. */
    unsigned occupancy_by_threads, occupancy_by_registers, occupancy_by_shared, occupancy_by_ctas,
        occupancy_by_barriers;      /* UINT_MAX: no limit */
    const char *occupancy_limiter;  /* "threads", "registers", "shared", "cta_slots", "barriers" */
    unsigned block_threads, registers_per_thread;
    /* With counters (loom_device_config.counters): */
    bool counted;
    struct loom_mem_stats mem;
    unsigned nlines;
    const struct loom_line_stats *lines;    /* in line order */
};
/* One launch, with stats_launches (loom_device_config), in the order launches completed. */
struct loom_launch_stats {
    const char *kernel;             /* the PTX name */
    unsigned grid[3], block[3];
    size_t dynamic_shared;
    double seconds;
    uint64_t ctas, warp_instructions, thread_instructions;
    bool faulted;
    struct loom_simt_stats simt;
};
/* Calls fn once per launch recorded (in completion order). */
void loom_launches_foreach(struct loom_device *dev, void (*fn)(const struct loom_launch_stats *s, void *data),
                           void *data);
/* Calls fn once per kernel that ran. */
void loom_stats_foreach(struct loom_device *dev, void (*fn)(const struct loom_kernel_stats *s, void *data),
                        void *data);
/* Writes s's residency timeline as text, each line starting with prefix: a row of
 * resident CTAs and a row of running workers (at most 16 columns, intervals merged in
 * pairs to fit), then how busy the workers were. Nothing when the launch was too short
 * to sample. */
void loom_stats_print_timeline(FILE *out, const char *prefix, const struct loom_kernel_stats *s);
/* Writes every kernel's statistics as one JSON document (schema "loom-stats/1",
 * docs/OBSERVE.md): program names the program run. LOOM_ERR_IO when writing fails. */
enum loom_status loom_stats_write_json(struct loom_device *dev, FILE *out, const char *program);
/* The same document in parts, for several devices' runs in one (e.g. one per SIMT
 * policy): the opening, then each device's run object (comma-separated by the caller),
 * then "\n ]\n}\n". Without sources a run leaves out the PTX and CUDA text (readers take
 * it from another run of the same kernel: the report does). */
void loom_stats_json_begin(FILE *out, const char *program, const char *device, const char *simt);
enum loom_status loom_stats_write_json_run(struct loom_device *dev, FILE *out, bool sources);
/* Writes s's memory counters and its hottest lines as text (counters on), each line
 * starting with prefix; at most max_lines lines (0: none). */
void loom_stats_print_counters(FILE *out, const char *prefix, const struct loom_kernel_stats *s, unsigned max_lines);
/* The HTML lab report (docs/REPORT.md): writes one HTML page to out: the template of observe/report.html with the stats JSON
 * (stats_json, len bytes, UTF-8) embedded in it; the page's own script draws the views
 * (summary and occupancy, SIMT policies side by side, PTX and CUDA listings with heat
 * columns, the CFG, lane activity per warp). The page loads nothing from the network.
 * The JSON is checked for syntax first (any keys; the page shows those it knows).
 * Returns 0, or -1 with a one-line message in err (errlen bytes, always terminated when
 * errlen > 0): "LINE:COL: MESSAGE" for bad JSON, to which the caller prefixes its file
 * name, or "cannot write the report: REASON". */
int loom_report_html(FILE *out, const char *stats_json, size_t len, char *err, size_t errlen);


/* Writes s's SIMT issue statistics as text (docs/SIMT.md), each line starting with prefix. */
void loom_stats_print_simt(FILE *out, const char *prefix, const struct loom_kernel_stats *s);

const char *loom_version_string(void);

#ifdef __cplusplus
}
#endif
#endif
