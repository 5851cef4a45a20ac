// leaks.cu -- device memory a program never frees, of each kind, for loom exec --leak-check full
// (tests/cli/sanitizer.sh; expected/leaks.h100.out is compute-sanitizer's report on an H100).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    int *a, *b, *m, *h, *freed, *as;
    cudaMalloc(&a, 1024);                 // leaked
    cudaMalloc(&b, 300);                  // leaked
    cudaMallocManaged(&m, 4096);          // leaked
    cudaMallocHost(&h, 2048);             // leaked (pinned host)
    cudaMalloc(&freed, 512);
    cudaFree(freed);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMallocAsync(&as, 768, s);         // leaked (stream-ordered)
    touch<<<1, 32>>>(a);
    cudaDeviceSynchronize();
    printf("done: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
