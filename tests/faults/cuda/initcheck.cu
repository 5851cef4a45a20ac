// initcheck.cu -- with LOOM_INITCHECK=1, a kernel reading cudaMalloc'd memory that neither
// the host nor a kernel wrote stops with a report: cudaErrorLaunchFailure, sticky.
// loom-only env: LOOM_INITCHECK=1
#include "fault_check.h"

__global__ void copy(const int *in, int *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}

static void bad(int *buf)
{
    int *fresh = nullptr;
    EXPECT_ERR(cudaMalloc(&fresh, 64 * sizeof(int)), cudaSuccess);
    EXPECT_ERR(cudaMemset(fresh, 0, 32 * sizeof(int)), cudaSuccess);   // the first half only
    copy<<<1, 64>>>(fresh, buf);
}

int main() { return run_fault_test(cudaErrorLaunchFailure, bad); }
