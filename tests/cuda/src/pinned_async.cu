// pinned_async.cu -- pinned host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister) with
// cudaMemcpyAsync and cudaMemsetAsync in chunks over several streams.
#include "check.h"

__global__ void inc(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

int main()
{
    const int n = 1 << 18, chunks = 4, cn = n / chunks;
    int *h_in, *h_out, *d;
    CK(cudaMallocHost(&h_in, n * sizeof(int)));
    CK(cudaHostAlloc(&h_out, n * sizeof(int), cudaHostAllocDefault));
    CK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h_in[i] = i;
    cudaStream_t s[chunks];
    for (int c = 0; c < chunks; c++)
        CK(cudaStreamCreateWithFlags(&s[c], cudaStreamNonBlocking));
    for (int c = 0; c < chunks; c++) {
        int *dc = d + c * cn;
        CK(cudaMemcpyAsync(dc, h_in + c * cn, cn * sizeof(int), cudaMemcpyHostToDevice, s[c]));
        inc<<<cn / 256, 256, 0, s[c]>>>(dc, cn);
        if (c == 2)
            CK(cudaMemsetAsync(dc, 0, 16 * sizeof(int), s[c]));
        CK(cudaMemcpyAsync(h_out + c * cn, dc, cn * sizeof(int), cudaMemcpyDeviceToHost, s[c]));
    }
    CK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int expect = (i >= 2 * cn && i < 2 * cn + 16) ? 0 : i + 1;
        bad += h_out[i] != expect;
    }
    printf("chunks %d, mismatches %d\n", chunks, bad);
    EXPECT(bad == 0);

    int *plain = (int *)malloc(4096 * sizeof(int));
    CK(cudaHostRegister(plain, 4096 * sizeof(int), cudaHostRegisterDefault));
    CK(cudaMemcpyAsync(plain, d, 4096 * sizeof(int), cudaMemcpyDeviceToHost, s[0]));
    CK(cudaStreamSynchronize(s[0]));
    printf("registered memory copy: plain[10] = %d\n", plain[10]);
    EXPECT(plain[10] == 11);
    cudaError_t e = cudaHostRegister(plain, 4096 * sizeof(int), cudaHostRegisterDefault);
    printf("registering twice: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorHostMemoryAlreadyRegistered);
    cudaGetLastError();
    CK(cudaHostUnregister(plain));
    free(plain);
    for (int c = 0; c < chunks; c++)
        CK(cudaStreamDestroy(s[c]));
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    CK(cudaFree(d));
    return finish();
}
