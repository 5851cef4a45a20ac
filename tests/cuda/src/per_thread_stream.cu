// per_thread_stream.cu -- built with --default-stream per-thread: every host thread gets its
// own default stream (the _ptsz/_ptds entry points); four threads work independently.
// nvcc-flags: --default-stream per-thread
#include <thread>
#include <vector>
#include "check.h"

__global__ void fill(int *p, int n, int v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = v + i;
}

static int worker(int id)
{
    const int n = 10000;
    int *d, *h = (int *)malloc(n * sizeof(int));
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
        return 1;
    fill<<<8, 128>>>(d, n, id * 100000);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != id * 100000 + i;
    cudaStreamSynchronize(0);
    cudaFree(d);
    free(h);
    return bad;
}

int main()
{
    std::vector<std::thread> threads;
    int bad[4] = {0, 0, 0, 0};
    for (int t = 0; t < 4; t++)
        threads.emplace_back([t, &bad] { bad[t] = worker(t + 1); });
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < 4; t++)
        printf("thread %d: mismatches %d\n", t + 1, bad[t]);
    EXPECT(bad[0] == 0 && bad[1] == 0 && bad[2] == 0 && bad[3] == 0);
    unsigned long long id0 = 0;
    CK(cudaStreamGetId(cudaStreamPerThread, &id0));
    int prio = 5;
    CK(cudaStreamGetPriority(0, &prio));
    printf("per-thread stream priority %d\n", prio);
    CK(cudaDeviceSynchronize());
    return finish();
}
