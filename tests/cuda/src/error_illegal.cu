// error_illegal.cu -- a kernel storing through a wild pointer: cudaErrorIllegalAddress at the
// next synchronisation, sticky for every later call until cudaDeviceReset.
#include "check.h"

__global__ void poke(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    int *good;
    CK(cudaMalloc(&good, 64 * sizeof(int)));
    poke<<<1, 64>>>(good, 7);
    CK(cudaDeviceSynchronize());
    poke<<<1, 32>>>((int *)0x10, 1);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    e = cudaGetLastError();
    printf("cudaGetLastError again (sticky): %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    int h[64];
    e = cudaMemcpy(h, good, sizeof h, cudaMemcpyDeviceToHost);
    printf("cudaMemcpy: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    poke<<<1, 64>>>(good, 8);
    e = cudaGetLastError();
    printf("launch: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    CK(cudaDeviceReset());
    CK(cudaMalloc(&good, 64 * sizeof(int)));
    poke<<<1, 64>>>(good, 9);
    CK(cudaMemcpy(h, good, sizeof h, cudaMemcpyDeviceToHost));
    printf("after reset: %d %d\n", h[0], h[63]);
    EXPECT(h[0] == 9 && h[63] == 9);
    return finish();
}
