// streams.cu -- debugger fixture for loom exec --debug: a CUDA program with two kernels, three
// launches on two streams; it prints a[5] and b[5] and exits 0 when they are 30 and 25.
#include <cstdio>

__global__ void fill(int *a, int v)
{
    int t = threadIdx.x;
    a[t] = v + t;
}

__global__ void twice(int *a)
{
    int t = threadIdx.x;
    a[t] *= 2;
}

int main()
{
    int *a, *b;
    cudaMalloc(&a, 64 * sizeof(int));
    cudaMalloc(&b, 64 * sizeof(int));
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    fill<<<1, 64, 0, s1>>>(a, 10);
    fill<<<1, 64, 0, s2>>>(b, 20);
    twice<<<1, 64, 0, s1>>>(a);
    int ha[64] = { 0 }, hb[64] = { 0 };     /* (a killed kernel leaves them as they are) */
    cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
    printf("a[5] = %d, b[5] = %d\n", ha[5], hb[5]);
    return ha[5] == 30 && hb[5] == 25 ? 0 : 1;
}
