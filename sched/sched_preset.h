/* sched_preset.h -- the GPUs Loom can present (H100 by default, back to the G80), their
 * per-SM resource limits, and the occupancy calculation that decides how many CTAs share an SM. */
#ifndef LOOM_SCHED_PRESET_H
#define LOOM_SCHED_PRESET_H

#include <stdbool.h>
#include <stddef.h>

#include "loom/loom.h"

/* How registers are handed out: compute capability 1.x rounds the registers of a whole
 * CTA, 2.x and later round the registers of each warp. */
enum sched_reg_alloc {
    SCHED_REG_ALLOC_BLOCK,
    SCHED_REG_ALLOC_WARP,
};

/* Per-SM limits that decide occupancy, with the allocation granularities of the CUDA
 * occupancy calculator. Where a figure also appears in loom_device_props it is the same
 * number (a unit test checks this). */
struct sched_sm_limits {
    unsigned max_threads;           /* resident threads per SM */
    unsigned max_ctas;              /* resident CTAs per SM */
    unsigned max_warps;             /* resident warps per SM (max_threads / 32) */
    unsigned regs;                  /* 32-bit registers per SM */
    unsigned max_regs_per_cta;      /* registers one CTA may hold */
    unsigned max_regs_per_thread;
    enum sched_reg_alloc reg_alloc; /* per CTA (1.x) or per warp (2.x and later) */
    unsigned reg_alloc_unit;        /* registers are allocated in multiples of this */
    unsigned warp_alloc_unit;       /* warp allocation granularity: the register file is split
                                       into this many sub-partitions (per-warp allocation), or
                                       a CTA's warps are rounded up to it (per-CTA allocation) */
    size_t shared;                  /* shared memory per SM with the largest carve-out */
    size_t shared_per_cta_max;      /* the most one CTA may use (opt-in limit), excl. reserved */
    size_t shared_alloc_unit;       /* shared memory is allocated in multiples of this */
    size_t shared_reserved_per_cta; /* set aside by the driver for each CTA (1 KiB on 8.0+) */
    unsigned barriers;              /* named barriers per SM, shared by its CTAs (0: not a limit) */
};

/* An emulated GPU: what the CUDA runtime reports for it, and its per-SM limits. */
struct sched_preset {
    const char *name;         /* the --device name, lower case */
    const char *alias;        /* another accepted name, or NULL */
    const char *architecture; /* "Hopper", "Ampere", ... */
    const char *model;        /* the board whose figures these are */
    struct loom_device_props props;
    struct sched_sm_limits sm;
};

/* The preset named `name` (case-insensitive, aliases included); NULL when unknown. */
const struct sched_preset *sched_preset_find(const char *name);
/* The default preset: the H100 (SXM5, compute capability 9.0). */
const struct sched_preset *sched_preset_default(void);
/* All presets, newest architecture first; *out_count gets their number. */
const struct sched_preset *sched_preset_list(size_t *out_count);
/* Writes the preset names, comma-separated ("h100 (hopper), ampere, ..."), for help texts;
 * returns the length it needed, like snprintf. */
int sched_preset_names(char *buf, size_t size);

/* What limits the number of resident CTAs. */
enum sched_limit {
    SCHED_LIMIT_WARPS,      /* resident warps (threads) per SM */
    SCHED_LIMIT_REGISTERS,  /* register file */
    SCHED_LIMIT_SHARED,     /* shared memory */
    SCHED_LIMIT_CTAS,       /* resident CTAs per SM */
    SCHED_LIMIT_BARRIERS,   /* named barriers per SM */
    SCHED_LIMIT_BLOCK_SIZE, /* the CTA has more threads than a block may have: none fit */
    SCHED_LIMIT_COUNT_
};

const char *sched_limit_name(enum sched_limit limit);

/* The result of sched_occupancy. */
struct sched_occupancy {
    unsigned ctas_per_sm;     /* active CTAs per SM (0 when the CTA cannot run at all) */
    unsigned warps_per_cta;
    unsigned active_warps;    /* ctas_per_sm * warps_per_cta */
    unsigned active_threads;  /* ctas_per_sm * threads_per_block */
    double occupancy;         /* active_warps / max_warps, in [0, 1] */
    unsigned by_warps;        /* CTAs per SM allowed by each resource alone; UINT_MAX
                                 where the CTA uses none of it */
    unsigned by_registers;
    unsigned by_shared;
    unsigned by_ctas;
    unsigned by_barriers;
    unsigned regs_per_cta;    /* registers allocated to one CTA */
    size_t shared_per_cta;    /* shared memory allocated to one CTA, reserved part included */
    enum sched_limit limit;   /* the first resource (in enum order) that sets ctas_per_sm */
};

/* Computes how many CTAs of a kernel can be resident on one SM of `preset`, the way the
 * CUDA occupancy calculator does (cudaOccupancyMaxActiveBlocksPerMultiprocessor with the
 * default shared-memory carve-out). shared_per_block is static plus dynamic shared memory
 * per CTA; the per-CTA limit applied is the opt-in maximum; barriers_per_cta is the named
 * barriers the kernel uses (ptx_barriers_used). Returns LOOM_ERR_INVALID_VALUE
 * when threads_per_block is 0; LOOM_OK otherwise, with ctas_per_sm = 0 when a CTA exceeds a
 * per-CTA limit (its `limit` says which). */
enum loom_status sched_occupancy(const struct sched_preset *preset, unsigned threads_per_block,
                                 unsigned regs_per_thread, size_t shared_per_block,
                                 unsigned barriers_per_cta, struct sched_occupancy *out);

/* The most threads a CTA of a kernel with regs_per_thread registers may have on `preset`:
 * the block limit, lowered to whole warps whose registers fit the register file (what
 * cudaFuncGetAttributes reports as maxThreadsPerBlock before __launch_bounds__). */
unsigned sched_max_threads(const struct sched_preset *preset, unsigned regs_per_thread);

#endif
