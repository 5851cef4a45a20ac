// race.cu -- a data race between streams that --sched-check reports, and its fixed forms
// that it does not: a kernel on stream a fills a buffer that a copy on stream b reads.
//   race race      nothing orders them (reported)
//   race event     an event recorded after the kernel, waited for by stream b (clean)
//   race split     they use different halves of the buffer (clean)
#include <cstdio>
#include <cstring>

#define N (1 << 20)   /* (the kernel is still running when the copy is queued) */

__global__ void fill(int *p, int n, int v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v + i;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "race";
    int *d, *h;
    cudaMalloc(&d, N * sizeof(int));
    cudaMallocHost(&h, N * sizeof(int));
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    cudaEvent_t e;
    cudaEventCreate(&e);
    bool split = strcmp(mode, "split") == 0;
    fill<<<64, 256, 0, a>>>(d, split ? N / 2 : N, 7);
    if (strcmp(mode, "event") == 0) {
        cudaEventRecord(e, a);
        cudaStreamWaitEvent(b, e, 0);
    }
    if (split) cudaMemcpyAsync(h + N / 2, d + N / 2, N / 2 * sizeof(int), cudaMemcpyDeviceToHost, b);
    else cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, b);
    cudaError_t err = cudaDeviceSynchronize();
    printf("%s: %s\n", mode, cudaGetErrorString(err));
    return err != cudaSuccess;
}
