// device_malloc.cu -- malloc/free inside kernels after cudaDeviceSetLimit(cudaLimitMallocHeapSize);
// blocks keep per-thread buffers alive across a __syncthreads and check each other's data.
#include "check.h"

__global__ void scratch(int *ok_count, int per_thread)
{
    __shared__ int *ptrs[128];
    int *p = (int *)malloc(per_thread * sizeof(int));
    ptrs[threadIdx.x] = p;
    if (p)
        for (int i = 0; i < per_thread; i++)
            p[i] = threadIdx.x * 1000 + i;
    __syncthreads();
    int *q = ptrs[(threadIdx.x + 1) % blockDim.x];
    bool ok = p && q;
    if (ok)
        for (int i = 0; i < per_thread; i++)
            ok &= q[i] == (int)((threadIdx.x + 1) % blockDim.x) * 1000 + i;
    __syncthreads();
    free(p);
    if (ok)
        atomicAdd(ok_count, 1);
}

__global__ void too_big(unsigned long long *result)
{
    void *p = malloc((size_t)1 << 40);
    *result = p == nullptr ? 1 : 0;
    free(p);
}

int main()
{
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
    size_t heap = 0;
    CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    printf("heap limit %zu\n", heap);
    int *ok;
    CK(cudaMalloc(&ok, sizeof(int)));
    CK(cudaMemset(ok, 0, sizeof(int)));
    scratch<<<8, 128>>>(ok, 64);
    CK(cudaDeviceSynchronize());
    int h = 0;
    CK(cudaMemcpy(&h, ok, sizeof h, cudaMemcpyDeviceToHost));
    printf("threads whose neighbour's buffer checked out: %d of %d\n", h, 8 * 128);
    EXPECT(h == 8 * 128);
    unsigned long long *r, hr = 0;
    CK(cudaMalloc(&r, sizeof *r));
    too_big<<<1, 1>>>(r);
    CK(cudaMemcpy(&hr, r, sizeof hr, cudaMemcpyDeviceToHost));
    printf("malloc of 1 TiB in a kernel returns NULL: %s\n", hr ? "yes" : "no");
    EXPECT(hr == 1);
    return finish();
}
