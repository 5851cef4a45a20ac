// stream_priority.cu -- streams created with priorities (clamped to the device's range),
// cudaStreamGetPriority/GetFlags/GetDevice, cudaStreamIsCapturing, work on each stream.
#include "check.h"

__global__ void tag(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    int least, greatest;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    int asked[4] = {least, greatest, least + 10, greatest - 10};
    cudaStream_t s[4];
    int *d, h[4 * 32];
    CK(cudaMalloc(&d, sizeof h));
    for (int i = 0; i < 4; i++) {
        CK(cudaStreamCreateWithPriority(&s[i], cudaStreamNonBlocking, asked[i]));
        int got = 99;
        CK(cudaStreamGetPriority(s[i], &got));
        printf("asked %s, got %s\n",
               asked[i] == least ? "least" : asked[i] == greatest ? "greatest" : asked[i] > least ? "below least" : "above greatest",
               got == least ? "least" : got == greatest ? "greatest" : "other");
        EXPECT(got == (i % 2 == 0 ? least : greatest));
        int dev = -1;
        CK(cudaStreamGetDevice(s[i], &dev));
        EXPECT(dev == 0);
        cudaStreamCaptureStatus cs;
        CK(cudaStreamIsCapturing(s[i], &cs));
        EXPECT(cs == cudaStreamCaptureStatusNone);
        tag<<<1, 32, 0, s[i]>>>(d + 32 * i, i + 1);
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 4 * 32; i++)
        bad += h[i] != i / 32 + 1;
    printf("mismatches %d\n", bad);
    EXPECT(bad == 0);
    for (int i = 0; i < 4; i++)
        CK(cudaStreamDestroy(s[i]));
    return finish();
}
