// printf_kernel.cu -- device printf: integer, float, string and character conversions,
// widths and precisions; lines are ordered with __syncthreads so the output is deterministic.
#include "check.h"

__global__ void talk(const char *label)
{
    for (int t = 0; t < 4; t++) {
        if (threadIdx.x == t)
            printf("thread %d of %d: %s x=%5.2f hex=%#x oct=%o char=%c big=%lld neg=%+d\n", t, blockDim.x, label,
                   t * 1.25, 255 + t, 8 + t, 'a' + t, 1LL << (40 + t), -t);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        printf("%e|%g|%G|%10.3f|%-6d|%06d|%u|%s\n", 12345.678, 0.0001, 1e20, -3.14159, 42, 42, 4000000000u,
               "done");
        printf("percent %% and unsigned long %lu\n", 18446744073709551615ul);
    }
}

int main()
{
    char *label;
    const char text[] = "hello from the device";
    CK(cudaMalloc(&label, sizeof text));
    CK(cudaMemcpy(label, text, sizeof text, cudaMemcpyHostToDevice));
    talk<<<1, 32>>>(label);
    CK(cudaDeviceSynchronize());
    printf("host after the kernel\n");
    return finish();
}
