// stale_error.cu -- earlier failed calls (a too-large cudaMalloc, cudaFree of an interior
// pointer, a copy past the end of an allocation) leave their messages behind; a kernel
// fault after them must still be reported with its own report, not with the last of those
// messages (the error code was always right; the printed text was not).
#include "fault_check.h"

__global__ void read_past(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i + n];
    if (v < 0) out[i] = v;
}

static void bad(int *buf)
{
    void *huge = nullptr;
    EXPECT_ERR(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaFree(buf + 1), cudaErrorInvalidValue);
    int h[FAULT_N + 1];
    EXPECT_ERR(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    read_past<<<2, 64>>>(buf, buf, 1);   // only the last thread reads past the end
}

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
