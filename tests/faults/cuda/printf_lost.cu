// printf_lost.cu -- a kernel prints more than the printf FIFO holds. The GPU drops what does
// not fit without a word; Loom drops it too (the FIFO's size follows cudaDeviceSetLimit, here
// raised to its 512 KiB minimum) and says on stderr how many calls were lost. Every line is
// 128 bytes, so how many fit, and so the report, is the same run after run.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void chatter(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        printf("line %6d: %-113s|\n", i, "padding");
}

int main()
{
    cudaError_t e1 = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096);
    chatter<<<40, 128>>>(5000);
    cudaError_t e2 = cudaDeviceSynchronize();
    printf("set limit: %s, kernel: %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
    printf("%s\n", e1 == cudaSuccess && e2 == cudaSuccess ? "PASS" : "FAIL");
    return 0;
}
