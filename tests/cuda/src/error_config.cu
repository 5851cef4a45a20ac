// error_config.cu -- launch errors that are not sticky: too many threads per block, a zero
// grid, a block dimension too large; cudaGetLastError clears them, cudaPeekAtLastError does not.
#include "check.h"

__global__ void touch(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

int main()
{
    int *p;
    CK(cudaMalloc(&p, 4096 * sizeof(int)));
    touch<<<1, 2048>>>(p);
    cudaError_t e = cudaPeekAtLastError();
    printf("2048 threads per block, peek: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    e = cudaGetLastError();
    printf("get: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaGetLastError();
    printf("get again: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaSuccess);

    touch<<<0, 32>>>(p);
    e = cudaGetLastError();
    printf("empty grid: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    touch<<<dim3(1, 1, 1), dim3(1, 1, 128)>>>(p);
    e = cudaGetLastError();
    printf("block z of 128: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    touch<<<dim3(1, 65536, 1), 1>>>(p);
    e = cudaGetLastError();
    printf("grid y of 65536: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    touch<<<4, 1024>>>(p);
    e = cudaDeviceSynchronize();
    printf("a valid launch afterwards: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaSuccess);

    e = cudaMemcpy(p, p, 16, (cudaMemcpyKind)7);
    printf("bad copy direction: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidMemcpyDirection);
    printf("string of cudaErrorInvalidConfiguration: %s\n", cudaGetErrorString(cudaErrorInvalidConfiguration));
    printf("name of 12345: %s\n", cudaGetErrorName((cudaError_t)12345));
    cudaGetLastError();
    return finish();
}
