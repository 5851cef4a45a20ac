// error_illegal.cu -- a kernel storing through a wild pointer: cudaErrorIllegalAddress at the
// next synchronisation, returned by every later call until cudaDeviceReset; cudaGetLastError
// hands it out once. Whether the device takes new work after the reset depends on its compute
// mode, so that part is only "info:".
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
    printf("cudaGetLastError again: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaSuccess);
    int h[64];
    e = cudaMemcpy(h, good, sizeof h, cudaMemcpyDeviceToHost);
    printf("cudaMemcpy: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    poke<<<1, 64>>>(good, 8);
    e = cudaGetLastError();
    printf("launch: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorIllegalAddress);
    e = cudaGetLastError();
    printf("cudaGetLastError after the failed calls: %s\n", cudaGetErrorName(e));
    e = cudaDeviceReset();
    printf("cudaDeviceReset: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaSuccess);
    e = cudaMalloc(&good, 64 * sizeof(int));
    printf("info: cudaMalloc after the reset: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        poke<<<1, 64>>>(good, 9);
        CK(cudaMemcpy(h, good, sizeof h, cudaMemcpyDeviceToHost));
        printf("info: after reset: %d %d\n", h[0], h[63]);
        EXPECT(h[0] == 9 && h[63] == 9);
    }
    cudaGetLastError();
    return finish();
}
