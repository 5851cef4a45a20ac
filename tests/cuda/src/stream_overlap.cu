// stream_overlap.cu -- two kernels in two non-blocking streams really run at the same time:
// the first waits (bounded) for a flag that only the second sets. Serialised streams fail.
// Both kernels run once before, so that CUDA's lazy loading cannot serialise the pair.
#include "check.h"

__global__ void waiter(volatile int *flag, int *seen)
{
    long long spins = 0;
    while (*flag == 0 && spins < 5000000)
        spins++;
    *seen = *flag;
}

__global__ void setter(volatile int *flag) { *flag = 42; }

int main()
{
    int *flag, *seen, h = 0;
    CK(cudaMalloc(&flag, sizeof(int)));
    CK(cudaMalloc(&seen, sizeof(int)));
    CK(cudaMemset(flag, 0, sizeof(int)));
    CK(cudaMemset(seen, 0, sizeof(int)));
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    setter<<<1, 1, 0, a>>>(flag);
    waiter<<<1, 1, 0, a>>>(flag, seen);
    CK(cudaStreamSynchronize(a));
    CK(cudaMemset(flag, 0, sizeof(int)));
    CK(cudaMemset(seen, 0, sizeof(int)));
    waiter<<<1, 1, 0, a>>>(flag, seen);
    setter<<<1, 1, 0, b>>>(flag);
    CK(cudaStreamSynchronize(a));
    CK(cudaStreamSynchronize(b));
    CK(cudaMemcpy(&h, seen, sizeof h, cudaMemcpyDeviceToHost));
    printf("the waiting kernel saw %d\n", h);
    EXPECT(h == 42);
    CK(cudaStreamDestroy(a));
    CK(cudaStreamDestroy(b));
    return finish();
}
