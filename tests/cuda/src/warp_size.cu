// warp_size.cu -- CUDA's warpSize, which nvcc compiles to the PTX identifier WARP_SZ: a warp
// reduction and a lane/warp split written with it, and the value itself.
#include "check.h"

__global__ void warp_sums(const int *in, int *out, int *size)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int d = warpSize / 2; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0)
        out[blockIdx.x * (blockDim.x / warpSize) + warp] = v;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *size = warpSize;
}

int main()
{
    const int blocks = 3, threads = 128, n = blocks * threads, warps = n / 32;
    int h[n], sums[warps], size = 0;
    for (int i = 0; i < n; i++)
        h[i] = i * 7 % 101;
    int *d_in, *d_out, *d_size;
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof sums));
    CK(cudaMalloc(&d_size, sizeof size));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    warp_sums<<<blocks, threads>>>(d_in, d_out, d_size);
    CK(cudaGetLastError());
    CK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&size, d_size, sizeof size, cudaMemcpyDeviceToHost));
    printf("warpSize in a kernel: %d\n", size);
    for (int w = 0; w < warps; w++) {
        int want = 0;
        for (int i = 0; i < 32; i++)
            want += h[w * 32 + i];
        printf("warp %2d: %5d%s\n", w, sums[w], sums[w] == want ? "" : " WRONG");
        EXPECT(sums[w] == want);
    }
    EXPECT(size == 32);
    printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed;
}
