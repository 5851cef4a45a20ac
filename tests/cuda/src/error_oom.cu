// error_oom.cu -- allocations larger than the device: cudaErrorMemoryAllocation, not sticky;
// cudaMemGetInfo and a normal allocation still work afterwards.
#include "check.h"

int main()
{
    size_t free_b = 0, total = 0;
    CK(cudaMemGetInfo(&free_b, &total));
    printf("info: free %zu of %zu bytes\n", free_b, total);
    EXPECT(free_b > 0 && free_b <= total);
    void *p = (void *)1;
    cudaError_t e = cudaMalloc(&p, (size_t)1 << 50);
    printf("cudaMalloc of 1 PiB: %s, pointer %s\n", cudaGetErrorName(e), p ? "set" : "NULL");
    EXPECT(e == cudaErrorMemoryAllocation && p == nullptr);
    e = cudaGetLastError();
    printf("cudaGetLastError: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorMemoryAllocation);
    EXPECT(cudaGetLastError() == cudaSuccess);
    e = cudaMallocManaged(&p, (size_t)1 << 50);
    printf("cudaMallocManaged of 1 PiB: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorMemoryAllocation);
    cudaGetLastError();
    CK(cudaMalloc(&p, 256 << 20));
    printf("256 MiB afterwards: ok\n");
    CK(cudaFree(p));
    e = cudaMalloc(&p, 0);
    printf("cudaMalloc of 0 bytes: %s\n", cudaGetErrorName(e));
    CK(cudaFree(nullptr));
    return finish();
}
