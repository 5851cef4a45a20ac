// assert_lines.cu -- threads of eight blocks (3-D grid and blocks) fail one device assert:
// as on the GPU, each failing thread prints its own line, in the GPU's format, before the
// kernel stops; the H100's lines are in expected/assert_lines.h100.err.
// sorted-stderr
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check_all(const int *v, int n)
{
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int i = b * blockDim.x * blockDim.y * blockDim.z + t;
    if (i < n)
        assert(v[i] % 7 != 3);
}

int main()
{
    const int n = 2 * 2 * 2 * 4 * 4 * 2;
    int h[n], *d;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check_all<<<dim3(2, 2, 2), dim3(4, 4, 2)>>>(d, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    printf("%s\n", e == cudaErrorAssert ? "PASS" : "FAIL");
    return 0;
}
