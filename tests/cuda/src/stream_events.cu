// stream_events.cu -- ordering across streams with events (cudaStreamWaitEvent), event
// query/synchronize/elapsed time, cudaStreamQuery, stream flags and the default streams.
#include "check.h"

__global__ void produce(int *buf, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = base + i;
}

__global__ void consume(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2;
}

int main()
{
    const int n = 1 << 16;
    int *a, *b, *h;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s1, s2;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    unsigned flags = 99;
    CK(cudaStreamGetFlags(s2, &flags));
    printf("flags of the non-blocking stream: %u\n", flags);
    EXPECT(flags == cudaStreamNonBlocking);
    cudaEvent_t start, produced, stop, untimed;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&produced));
    CK(cudaEventCreate(&stop));
    CK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));

    CK(cudaEventRecord(start, s1));
    produce<<<n / 256, 256, 0, s1>>>(a, n, 1000);
    CK(cudaEventRecord(produced, s1));
    CK(cudaStreamWaitEvent(s2, produced, 0));
    consume<<<n / 256, 256, 0, s2>>>(a, b, n);
    CK(cudaEventRecord(stop, s2));
    CK(cudaEventRecord(untimed, s2));
    CK(cudaMemcpyAsync(h, b, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CK(cudaStreamSynchronize(s2));
    CK(cudaEventSynchronize(stop));
    printf("event query after synchronize: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    printf("stream query after synchronize: %s\n", cudaGetErrorName(cudaStreamQuery(s2)));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != (1000 + i) * 2;
    printf("mismatches %d\n", bad);
    EXPECT(bad == 0);
    float ms = -1.0f;
    CK(cudaEventElapsedTime(&ms, start, stop));
    printf("info: elapsed %.3f ms\n", ms);
    EXPECT(ms >= 0.0f);
    cudaError_t e = cudaEventElapsedTime(&ms, start, untimed);
    printf("elapsed time with a timing-disabled event: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidResourceHandle);
    cudaEvent_t never;
    CK(cudaEventCreate(&never));
    e = cudaEventElapsedTime(&ms, start, never);
    printf("elapsed time to an event never recorded: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidResourceHandle);
    cudaGetLastError();

    // the legacy default stream orders blocking streams
    produce<<<n / 256, 256, 0, s1>>>(a, n, 7);
    consume<<<n / 256, 256>>>(a, b, n);
    CK(cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != (7 + i) * 2;
    printf("mismatches through the legacy default stream %d\n", bad);
    EXPECT(bad == 0);
    CK(cudaStreamSynchronize(cudaStreamPerThread));
    CK(cudaStreamSynchronize(cudaStreamLegacy));
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(produced));
    CK(cudaEventDestroy(stop));
    CK(cudaEventDestroy(untimed));
    CK(cudaEventDestroy(never));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFreeHost(h));
    return finish();
}
