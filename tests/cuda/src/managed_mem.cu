// managed_mem.cu -- cudaMallocManaged and __managed__ variables touched by host and kernel,
// with cudaMemPrefetchAsync, cudaMemAdvise and cudaStreamAttachMemAsync (hints on Loom).
#include "check.h"

__managed__ int hits;
__managed__ float weights[4] = {0.5f, 1.5f, 2.5f, 3.5f};

__global__ void apply(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = v[i] * weights[i % 4];
        atomicAdd(&hits, 1);
    }
}

int main()
{
    const int n = 5000;
    float *v;
    CK(cudaMallocManaged(&v, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        v[i] = (float)i;
    hits = 0;
    weights[3] = 4.0f;
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    CK(cudaMemAdvise(v, n * sizeof(float), cudaMemAdviseSetPreferredLocation, dev));
    CK(cudaMemPrefetchAsync(v, n * sizeof(float), dev, 0, 0));
    apply<<<(n + 127) / 128, 128>>>(v, n);
    CK(cudaMemPrefetchAsync(v, n * sizeof(float), host, 0, 0));
    CK(cudaDeviceSynchronize());
    static const float w[4] = {0.5f, 1.5f, 2.5f, 4.0f};
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += v[i] != (float)i * w[i % 4];
    printf("hits %d, mismatches %d\n", hits, bad);
    EXPECT(hits == n && bad == 0);

    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamAttachMemAsync(s, v, 0, cudaMemAttachSingle));
    apply<<<(n + 127) / 128, 128, 0, s>>>(v, n);
    CK(cudaStreamSynchronize(s));
    printf("hits after a second launch on a stream: %d\n", hits);
    EXPECT(hits == 2 * n);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(v));
    return finish();
}
