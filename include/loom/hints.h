/* loom/hints.h -- what a CUDA program can tell Loom's scheduler, and nothing on a real GPU.
 *
 * Under `loom exec --sched acs` or `--sched dag`, kernels of one stream run out of order
 * when what they read and write does not conflict. Loom infers that from each kernel's PTX
 * and the allocations its pointer arguments fall in; a kernel that reaches memory through
 * pointers it loads (a linked structure, an array of pointers) counts as touching all of
 * memory. A program can name the exact ranges instead, before each launch:
 *
 *     #include <loom/hints.h>
 *     loom_launch_access(x, n * sizeof *x, LOOM_HINT_READ);
 *     loom_launch_access(y, n * sizeof *y, LOOM_HINT_READ | LOOM_HINT_WRITE);
 *     saxpy<<<blocks, threads>>>(n, a, x, y);
 *
 * The ranges apply to the calling thread's next launch only, replacing what would be
 * inferred (so they must cover everything the kernel touches: a range left out is a race
 * the scheduler will not see). Up to 64 per launch; more, and the launch falls back to the
 * inferred ranges. The program needs no Loom to build or run: the call resolves to Loom's
 * runtime (libcudart.so.13 under loom exec) through a weak symbol, and does nothing where
 * that runtime is absent. docs/SCHEDULING.md. */
#ifndef LOOM_HINTS_H
#define LOOM_HINTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOM_HINT_READ 1
#define LOOM_HINT_WRITE 2

/* Loom's runtime: 0 (cudaSuccess), or cudaErrorInvalidValue for a bad mode or a 65th range. */
int loomLaunchAccess(const void *ptr, size_t bytes, int mode) __attribute__((weak));

static inline int loom_launch_access(const void *ptr, size_t bytes, int mode)
{
    return loomLaunchAccess ? loomLaunchAccess(ptr, bytes, mode) : 0;
}

#ifdef __cplusplus
}
#endif

#endif
