// warplock: a spin lock taken by the lanes of one warp. Each thread takes the lock, adds itself
// to two counters with plain (non-atomic) loads and stores, and releases it, so the counters
// come out right only if the lock works: out[0] = number of threads, out[1] = sum of tid + 1,
// got[tid] = 1 for every thread that went through.
//
// warplock_naive is the classic form: spin until the CAS succeeds, then the critical section
// after the loop. A GPU that runs a warp's diverged paths with a reconvergence stack (PDOM,
// before sm_70) keeps running the lanes still spinning and never lets the winner, waiting at
// the loop's exit, release the lock: a livelock. sm_70+ GPUs schedule threads independently
// and complete it. warplock_safe puts the critical section inside the loop, so the winner
// releases before the warp's paths meet again: it completes under both.

__device__ void critical(volatile unsigned *count, volatile unsigned *sum, unsigned *got, int tid)
{
    *count = *count + 1u;
    *sum = *sum + (unsigned)tid + 1u;
    got[tid] = 1u;
}

extern "C" __global__ void warplock_naive(unsigned *lock, unsigned *out, unsigned *got)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    while (atomicCAS(lock, 0u, 1u) != 0u)
        ;                                        // spin: the winner leaves, the others loop
    __threadfence();
    critical(&out[0], &out[1], got, tid);
    __threadfence();
    atomicExch(lock, 0u);
}

extern "C" __global__ void warplock_safe(unsigned *lock, unsigned *out, unsigned *got)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0u, 1u) == 0u) {     // the winner works and releases in the loop
            __threadfence();
            critical(&out[0], &out[1], got, tid);
            __threadfence();
            atomicExch(lock, 0u);
            done = true;
        }
    }
}
