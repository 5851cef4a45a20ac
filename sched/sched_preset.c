/* sched_preset.c -- presets of the emulated GPUs with their published figures, and the
 * occupancy calculation (resident CTAs per SM and what limits them). */
#include "config.h"

#include "sched/sched_preset.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Sources of the figures: the CUDA C++ Programming Guide, table "Technical Specifications
 * per Compute Capability"; the GPU data of the CUDA Occupancy Calculator (allocation units
 * and granularities; for 3.0 and later the same numbers as cuda_occupancy.h); NVIDIA's
 * whitepapers and datasheets for SM counts, clocks, memory and L2 sizes. Clock rates are
 * the maximum (boost) SM clock the runtime reports as clockRate, in kHz; memory clocks are
 * what deviceQuery prints as "Memory Clock rate". The H100 row was read with
 * cudaGetDeviceProperties on an H100 80GB HBM3 (driver 580); older boards give their
 * nominal memory size, as the runtime's figure depends on the driver and ECC. The H100's
 * 64 named barriers per SM were measured (tests/occupancy/h100.txt: kernels using 3 get 21
 * CTAs per SM); the other presets leave barriers unlimited. */

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)
#define GIB (1024 * MIB)

/* Grid and block dimension limits by compute-capability generation. */
#define GRID_1X {65535, 65535, 1}
#define GRID_2X {65535, 65535, 65535}
#define GRID_3X {2147483647, 65535, 65535}
#define BLOCK_1X {512, 512, 64}
#define BLOCK_2X {1024, 1024, 64}

static const struct sched_preset presets[] = {
    {
        .name = "h100", .alias = "hopper", .architecture = "Hopper",
        .model = "NVIDIA H100 SXM5 80GB (GH100)",
        .props = {
            .name = "NVIDIA H100 80GB HBM3", .cc_major = 9, .cc_minor = 0,
            .multiprocessors = 132, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_3X,
            .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
            .regs_per_block = 65536, .regs_per_sm = 65536,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 227 * KIB,
            .shared_per_sm = 228 * KIB,
            .total_global_mem = 85017493504u, .total_const_mem = 64 * KIB,
            .clock_khz = 1980000, .mem_clock_khz = 2619000, .mem_bus_width = 5120,
            .l2_cache_size = 50 * 1024 * 1024,
        },
        .sm = {
            .max_threads = 2048, .max_ctas = 32, .max_warps = 64,
            .regs = 65536, .max_regs_per_cta = 65536, .max_regs_per_thread = 255,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_unit = 4,
            .shared = 228 * KIB, .shared_per_cta_max = 227 * KIB, .shared_alloc_unit = 128,
            .shared_reserved_per_cta = 1 * KIB, .barriers = 64,
        },
    },
    {
        .name = "ampere", .alias = "a100", .architecture = "Ampere",
        .model = "NVIDIA A100 SXM4 40GB (GA100)",
        .props = {
            .name = "NVIDIA A100-SXM4-40GB", .cc_major = 8, .cc_minor = 0,
            .multiprocessors = 108, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_3X,
            .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
            .regs_per_block = 65536, .regs_per_sm = 65536,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 163 * KIB,
            .shared_per_sm = 164 * KIB,
            .total_global_mem = 40 * GIB, .total_const_mem = 64 * KIB,
            .clock_khz = 1410000, .mem_clock_khz = 1215000, .mem_bus_width = 5120,
            .l2_cache_size = 40 * 1024 * 1024,
        },
        .sm = {
            .max_threads = 2048, .max_ctas = 32, .max_warps = 64,
            .regs = 65536, .max_regs_per_cta = 65536, .max_regs_per_thread = 255,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_unit = 4,
            .shared = 164 * KIB, .shared_per_cta_max = 163 * KIB, .shared_alloc_unit = 128,
            .shared_reserved_per_cta = 1 * KIB,
        },
    },
    {
        .name = "turing", .alias = "t4", .architecture = "Turing",
        .model = "NVIDIA Tesla T4 (TU104)",
        .props = {
            .name = "Tesla T4", .cc_major = 7, .cc_minor = 5,
            .multiprocessors = 40, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_3X,
            .max_threads_per_sm = 1024, .max_blocks_per_sm = 16,
            .regs_per_block = 65536, .regs_per_sm = 65536,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 64 * KIB,
            .shared_per_sm = 64 * KIB,
            .total_global_mem = 16 * GIB, .total_const_mem = 64 * KIB,
            .clock_khz = 1590000, .mem_clock_khz = 5001000, .mem_bus_width = 256,
            .l2_cache_size = 4 * 1024 * 1024,
        },
        .sm = {
            .max_threads = 1024, .max_ctas = 16, .max_warps = 32,
            .regs = 65536, .max_regs_per_cta = 65536, .max_regs_per_thread = 255,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_unit = 4,
            .shared = 64 * KIB, .shared_per_cta_max = 64 * KIB, .shared_alloc_unit = 256,
            .shared_reserved_per_cta = 0,
        },
    },
    {
        .name = "volta", .alias = "v100", .architecture = "Volta",
        .model = "NVIDIA Tesla V100 SXM2 16GB (GV100)",
        .props = {
            .name = "Tesla V100-SXM2-16GB", .cc_major = 7, .cc_minor = 0,
            .multiprocessors = 80, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_3X,
            .max_threads_per_sm = 2048, .max_blocks_per_sm = 32,
            .regs_per_block = 65536, .regs_per_sm = 65536,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 96 * KIB,
            .shared_per_sm = 96 * KIB,
            .total_global_mem = 16 * GIB, .total_const_mem = 64 * KIB,
            .clock_khz = 1530000, .mem_clock_khz = 877000, .mem_bus_width = 4096,
            .l2_cache_size = 6 * 1024 * 1024,
        },
        .sm = {
            .max_threads = 2048, .max_ctas = 32, .max_warps = 64,
            .regs = 65536, .max_regs_per_cta = 65536, .max_regs_per_thread = 255,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_unit = 4,
            .shared = 96 * KIB, .shared_per_cta_max = 96 * KIB, .shared_alloc_unit = 256,
            .shared_reserved_per_cta = 0,
        },
    },
    {
        .name = "kepler", .alias = "k40", .architecture = "Kepler",
        .model = "NVIDIA Tesla K40 (GK110B)",
        .props = {
            .name = "Tesla K40m", .cc_major = 3, .cc_minor = 5,
            .multiprocessors = 15, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_3X,
            .max_threads_per_sm = 2048, .max_blocks_per_sm = 16,
            .regs_per_block = 65536, .regs_per_sm = 65536,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 48 * KIB,
            .shared_per_sm = 48 * KIB,
            .total_global_mem = 12 * GIB, .total_const_mem = 64 * KIB,
            .clock_khz = 745000, .mem_clock_khz = 3004000, .mem_bus_width = 384,
            .l2_cache_size = 1536 * 1024,
        },
        .sm = {
            .max_threads = 2048, .max_ctas = 16, .max_warps = 64,
            .regs = 65536, .max_regs_per_cta = 65536, .max_regs_per_thread = 255,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_unit = 4,
            .shared = 48 * KIB, .shared_per_cta_max = 48 * KIB, .shared_alloc_unit = 256,
            .shared_reserved_per_cta = 0,
        },
    },
    {
        .name = "fermi", .alias = "m2090", .architecture = "Fermi",
        .model = "NVIDIA Tesla M2090 (GF110, the GF100 SM)",
        .props = {
            .name = "Tesla M2090", .cc_major = 2, .cc_minor = 0,
            .multiprocessors = 16, .warp_size = 32, .max_threads_per_block = 1024,
            .max_block_dim = BLOCK_2X, .max_grid_dim = GRID_2X,
            .max_threads_per_sm = 1536, .max_blocks_per_sm = 8,
            .regs_per_block = 32768, .regs_per_sm = 32768,
            .shared_per_block = 48 * KIB, .shared_per_block_optin = 48 * KIB,
            .shared_per_sm = 48 * KIB,
            .total_global_mem = 6 * GIB, .total_const_mem = 64 * KIB,
            .clock_khz = 1301000, .mem_clock_khz = 1848000, .mem_bus_width = 384,
            .l2_cache_size = 768 * 1024,
        },
        .sm = {
            .max_threads = 1536, .max_ctas = 8, .max_warps = 48,
            .regs = 32768, .max_regs_per_cta = 32768, .max_regs_per_thread = 63,
            .reg_alloc = SCHED_REG_ALLOC_WARP, .reg_alloc_unit = 64, .warp_alloc_unit = 2,
            .shared = 48 * KIB, .shared_per_cta_max = 48 * KIB, .shared_alloc_unit = 128,
            .shared_reserved_per_cta = 0,
        },
    },
    {
        .name = "tesla", .alias = "g80", .architecture = "Tesla",
        .model = "NVIDIA GeForce 8800 GTX (G80)",
        .props = {
            .name = "GeForce 8800 GTX", .cc_major = 1, .cc_minor = 0,
            .multiprocessors = 16, .warp_size = 32, .max_threads_per_block = 512,
            .max_block_dim = BLOCK_1X, .max_grid_dim = GRID_1X,
            .max_threads_per_sm = 768, .max_blocks_per_sm = 8,
            .regs_per_block = 8192, .regs_per_sm = 8192,
            .shared_per_block = 16 * KIB, .shared_per_block_optin = 16 * KIB,
            .shared_per_sm = 16 * KIB,
            .total_global_mem = 768 * MIB, .total_const_mem = 64 * KIB,
            .clock_khz = 1350000, .mem_clock_khz = 900000, .mem_bus_width = 384,
            .l2_cache_size = 0,
        },
        .sm = {
            .max_threads = 768, .max_ctas = 8, .max_warps = 24,
            .regs = 8192, .max_regs_per_cta = 8192, .max_regs_per_thread = 124,
            .reg_alloc = SCHED_REG_ALLOC_BLOCK, .reg_alloc_unit = 256, .warp_alloc_unit = 2,
            .shared = 16 * KIB, .shared_per_cta_max = 16 * KIB, .shared_alloc_unit = 512,
            .shared_reserved_per_cta = 0,
        },
    },
};

#define PRESET_COUNT (sizeof presets / sizeof presets[0])

const struct sched_preset *sched_preset_default(void)
{
    return &presets[0];
}

const struct sched_preset *sched_preset_list(size_t *out_count)
{
    *out_count = PRESET_COUNT;
    return presets;
}

const struct sched_preset *sched_preset_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < PRESET_COUNT; i++) {
        if (strcasecmp(name, presets[i].name) == 0
            || (presets[i].alias != NULL && strcasecmp(name, presets[i].alias) == 0))
            return &presets[i];
    }
    return NULL;
}

int sched_preset_names(char *buf, size_t size)
{
    int total = 0;
    for (size_t i = 0; i < PRESET_COUNT; i++) {
        const struct sched_preset *p = &presets[i];
        size_t used = (size_t)total < size ? (size_t)total : size;
        int n = snprintf(buf ? buf + used : NULL, size - used, "%s%s (%s)", i ? ", " : "",
                         p->name, p->alias);
        if (n < 0)
            return n;
        total += n;
    }
    return total;
}

const char *sched_limit_name(enum sched_limit limit)
{
    static const char *const names[SCHED_LIMIT_COUNT_] = {
        [SCHED_LIMIT_WARPS] = "warps",
        [SCHED_LIMIT_REGISTERS] = "registers",
        [SCHED_LIMIT_SHARED] = "shared memory",
        [SCHED_LIMIT_CTAS] = "CTAs per SM",
        [SCHED_LIMIT_BARRIERS] = "named barriers",
        [SCHED_LIMIT_BLOCK_SIZE] = "block size",
    };
    return (unsigned)limit < SCHED_LIMIT_COUNT_ ? names[limit] : "?";
}

static size_t round_up(size_t x, size_t unit)
{
    return unit ? (x + unit - 1) / unit * unit : x;
}

/* Registers: with per-warp allocation (2.x and later) each warp gets
 * regs_per_thread * 32 rounded up to the allocation unit; the register file is split into
 * warp_alloc_unit sub-partitions and a warp's registers live in one of them, so the SM holds
 * warp_alloc_unit * floor(regs / warp_alloc_unit / regs_per_warp) warps. The hardware also
 * checks the CTA against the per-block limit as if its warps were rounded up to a multiple
 * of the sub-partitions. With per-CTA allocation (1.x) the CTA's warps are rounded up to
 * warp_alloc_unit and the product with the registers of a warp up to reg_alloc_unit. */
static unsigned ctas_by_registers(const struct sched_sm_limits *sm, unsigned warps,
                                  unsigned regs_per_thread, unsigned *out_regs_per_cta)
{
    if (regs_per_thread > sm->max_regs_per_thread) {
        *out_regs_per_cta = 0;
        return 0;
    }
    if (sm->reg_alloc == SCHED_REG_ALLOC_BLOCK) {
        size_t per_cta = round_up(round_up(warps, sm->warp_alloc_unit) * 32u * regs_per_thread,
                                  sm->reg_alloc_unit);
        *out_regs_per_cta = (unsigned)per_cta;
        if (per_cta > sm->max_regs_per_cta)
            return 0;
        return per_cta ? (unsigned)(sm->regs / per_cta) : UINT_MAX;
    }
    /* A thread gets at least 16 registers (an H100 launches a kernel that ptxas gives 8 with
     * 16: Nsight Compute's launch__registers_per_thread); with 64 warps an SM at most, this
     * changes the register limit, never the CTAs per SM. */
    if (regs_per_thread && regs_per_thread < 16) regs_per_thread = 16;
    size_t per_warp = round_up((size_t)regs_per_thread * 32u, sm->reg_alloc_unit);
    *out_regs_per_cta = (unsigned)(per_warp * warps);
    if (per_warp * warps > sm->max_regs_per_cta
        || per_warp * round_up(warps, sm->warp_alloc_unit) > sm->max_regs_per_cta)
        return 0;
    if (per_warp == 0)
        return UINT_MAX;
    size_t warps_per_partition = sm->regs / sm->warp_alloc_unit / per_warp;
    return (unsigned)(warps_per_partition * sm->warp_alloc_unit / warps);
}

/* Shared memory: the CTA's bytes plus the driver's reservation, rounded up to the
 * allocation unit; the default carve-out gives the SM its largest shared-memory size. */
static unsigned ctas_by_shared(const struct sched_sm_limits *sm, size_t shared_per_block,
                               size_t *out_shared_per_cta)
{
    size_t per_cta = round_up(shared_per_block + sm->shared_reserved_per_cta,
                              sm->shared_alloc_unit);
    *out_shared_per_cta = per_cta;
    if (per_cta > sm->shared_per_cta_max + sm->shared_reserved_per_cta)
        return 0;
    return per_cta ? (unsigned)(sm->shared / per_cta) : UINT_MAX;
}

enum loom_status sched_occupancy(const struct sched_preset *preset, unsigned threads_per_block,
                                 unsigned regs_per_thread, size_t shared_per_block,
                                 unsigned barriers_per_cta, struct sched_occupancy *out)
{
    if (preset == NULL || out == NULL || threads_per_block == 0)
        return LOOM_ERR_INVALID_VALUE;
    const struct sched_sm_limits *sm = &preset->sm;
    unsigned warp = (unsigned)preset->props.warp_size;
    memset(out, 0, sizeof *out);
    out->warps_per_cta = (threads_per_block + warp - 1) / warp;

    out->by_warps = sm->max_warps / out->warps_per_cta;
    out->by_registers = ctas_by_registers(sm, out->warps_per_cta, regs_per_thread,
                                          &out->regs_per_cta);
    out->by_shared = ctas_by_shared(sm, shared_per_block, &out->shared_per_cta);
    out->by_ctas = sm->max_ctas;
    out->by_barriers = sm->barriers && barriers_per_cta ? sm->barriers / barriers_per_cta : UINT_MAX;

    if (threads_per_block > (unsigned)preset->props.max_threads_per_block) {
        out->limit = SCHED_LIMIT_BLOCK_SIZE;
        return LOOM_OK;
    }
    const unsigned by[] = {
        [SCHED_LIMIT_WARPS] = out->by_warps,
        [SCHED_LIMIT_REGISTERS] = out->by_registers,
        [SCHED_LIMIT_SHARED] = out->by_shared,
        [SCHED_LIMIT_CTAS] = out->by_ctas,
        [SCHED_LIMIT_BARRIERS] = out->by_barriers,
    };
    out->limit = SCHED_LIMIT_WARPS;
    for (unsigned i = 1; i < sizeof by / sizeof by[0]; i++)
        if (by[i] < by[out->limit])
            out->limit = (enum sched_limit)i;
    out->ctas_per_sm = by[out->limit];
    out->active_warps = out->ctas_per_sm * out->warps_per_cta;
    out->active_threads = out->ctas_per_sm * threads_per_block;
    out->occupancy = (double)out->active_warps / sm->max_warps;
    return LOOM_OK;
}

unsigned sched_max_threads(const struct sched_preset *preset, unsigned regs_per_thread)
{
    const struct sched_sm_limits *sm = &preset->sm;
    unsigned warp = (unsigned)preset->props.warp_size;
    unsigned warps = (unsigned)preset->props.max_threads_per_block / warp;
    unsigned regs_per_cta;
    while (warps > 0 && ctas_by_registers(sm, warps, regs_per_thread, &regs_per_cta) == 0)
        warps--;
    return warps * warp;
}
