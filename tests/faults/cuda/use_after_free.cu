// use_after_free.cu -- a kernel reads a buffer that cudaFree released before the launch.
// (A GPU may not notice: freed memory can stay mapped. Loom, like compute-sanitizer, does.)
#include "fault_check.h"

__global__ void read_freed(const int *in, int *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}

static void bad(int *buf)
{
    int *gone = nullptr;
    EXPECT_ERR(cudaMalloc(&gone, 4096), cudaSuccess);
    EXPECT_ERR(cudaFree(gone), cudaSuccess);
    read_freed<<<1, 32>>>(gone, buf);
}

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
