/* sched_vtime.h -- a deterministic schedule simulator: replays recorded operations (kernels as
 * CTAs, copies, host work) and their dependencies in virtual time on an emulated device. */
#ifndef LOOM_SCHED_VTIME_H
#define LOOM_SCHED_VTIME_H

#include <stddef.h>
#include <stdint.h>

#include "loom/loom.h"

/* The model (docs/SCHEDULING.md, "Virtual time"). A pure function of its input: no threads,
 * no globals, no clock; the same input gives the same output bytes.
 *
 * Issue.  Operation i is admitted when fewer than cfg.window operations with a smaller index
 *   are unfinished (window 0: all are admitted at time 0; window 1: serial). It is ready when
 *   it is admitted, all its predecessors have ended, and ready_at has passed; ready_s is that
 *   time.
 * Kernels.  A ready kernel waits cfg.launch_s, then its CTAs may be placed. A CTA of kernel k
 *   takes 1/ctas_per_sm(k) of an SM; an SM accepts a CTA while the sum of its CTAs' fractions
 *   stays <= 1, counted exactly in integer units (the SM holds L units, L the least common
 *   multiple of every kernel's ctas_per_sm; a CTA takes L / ctas_per_sm). A CTA runs for its
 *   cta_s whoever its neighbours are (a throughput model: the caller gives the time under a
 *   full complement). A kernel starts with its first CTA and ends when its last CTA ends.
 * Block scheduler.  Whenever capacity frees up, the oldest (smallest index) placeable kernel
 *   whose CTA fits somewhere places its CTAs in index order, each on the SM with the most free
 *   capacity (ties: the lowest-numbered), until it has none left or none fits; then the next
 *   oldest. A younger kernel with smaller CTAs may so fill space an older one cannot use
 *   (the hardware's greedy behaviour too). Spreading breadth-first like the hardware does
 *   means a half-device kernel leaves half of every SM, not a free half of the SMs.
 * Copies.  A copy runs on engine (engine % cfg.copy_engines) for duration_s; each engine runs
 *   one copy at a time, in the order the copies became ready (ties: smaller index first).
 *   cfg.copy_engines 0: no engine limit, a copy starts when ready. The engine numbers are the
 *   caller's: Loom uses 0 for host to device and 1 for device to host; device-to-device copies
 *   and memsets run on the SMs of a GPU and are best recorded as kernels.
 * Host work.  A host op takes duration_s from when it is ready and uses no SM and no engine;
 *   host operations that exclude each other say so through their predecessors.
 * Events at the same time are all applied before any CTA or copy is placed, so placement
 * depends only on the state at that time, never on the order of simultaneous events. */

enum sched_vt_kind {
    SCHED_VT_KERNEL,
    SCHED_VT_COPY,
    SCHED_VT_HOST,
};

/* One recorded operation. Times are in seconds. */
struct sched_vt_op {
    enum sched_vt_kind kind;
    const char *name;          /* for messages and traces; may be NULL */
    unsigned npred;
    const unsigned *pred;      /* indices, each smaller than this op's, of the ops that must end
                                  before it starts: data dependencies, stream order, host
                                  synchronisation */
    double ready_at;           /* earliest time it may be ready (host-side time); usually 0 */
    /* SCHED_VT_KERNEL */
    uint64_t nctas;            /* >= 1 */
    const double *cta_s;       /* nctas durations of its CTAs under a full complement on an SM;
                                  NULL: each is cta_s_uniform */
    double cta_s_uniform;
    unsigned ctas_per_sm;      /* its residency limit on one SM (occupancy), >= 1 */
    /* SCHED_VT_COPY, SCHED_VT_HOST */
    double duration_s;         /* copy: bytes / copy bandwidth, computed by the caller */
    unsigned engine;           /* SCHED_VT_COPY: its copy engine (0 H2D, 1 D2H by Loom's use) */
};

/* Called for each CTA placement, in placement order (for drawing the schedule). */
typedef void sched_vt_cta_fn(void *ctx, size_t op, uint64_t cta, unsigned sm, double t0, double t1);

struct sched_vt_config {
    unsigned sms;              /* SMs of the emulated device, >= 1 */
    unsigned window;           /* in-order issue window; 0 unbounded, 1 serial */
    unsigned copy_engines;     /* copies that may run at once; 0 unbounded */
    double launch_s;           /* from a kernel being ready to its CTAs being placeable (the
                                  launch latency: 2-4 us on an H100) */
    sched_vt_cta_fn *cta_fn;   /* NULL: none */
    void *cta_ctx;
};

struct sched_vt_result {
    double makespan_s;         /* from 0 to the end of the last op */
    double *ready_s;           /* per op (nops each, malloc'd; NULL when nops is 0) */
    double *start_s;           /* kernel: its first CTA; copy: on its engine; host: = ready_s */
    double *end_s;
    double sm_util;            /* integral of SM occupancy (fraction of each SM's capacity in
                                  use) / (sms * makespan_s); 0 when makespan_s is 0 */
    double critical_path_s;    /* a lower bound of makespan_s: the larger of the longest path
                                  through the dependencies, starting each op no earlier than
                                  ready_at, with a kernel's length launch_s + max(its longest
                                  CTA, its CTA time / (sms * ctas_per_sm)) and a copy's or host
                                  op's its duration_s, and all kernel work / (sms) */
    unsigned kernels;          /* kernel ops */
    unsigned overlapped;       /* kernels whose [start_s, end_s) overlaps another kernel's */
    uint64_t ctas;             /* CTAs placed */
};

/* Simulates the ops on the device of cfg and fills *out (sched_vt_result_free releases it).
 * LOOM_OK; LOOM_ERR_INVALID_VALUE for a bad input (a predecessor that is not an earlier op,
 * nctas or ctas_per_sm 0, sms 0, a negative or non-finite time, an unknown kind),
 * LOOM_ERR_UNSUPPORTED beyond the simulator's limits (more than 2^31 ops or 2^20 SMs,
 * ctas_per_sm values whose least common multiple exceeds 2^62), LOOM_ERR_OUT_OF_MEMORY; on
 * an error *out holds nothing to free and err a one-line message (errlen bytes, terminated). */
enum loom_status sched_vt_simulate(const struct sched_vt_op *ops, size_t nops,
                                   const struct sched_vt_config *cfg, struct sched_vt_result *out,
                                   char *err, size_t errlen);

void sched_vt_result_free(struct sched_vt_result *r);

#endif
