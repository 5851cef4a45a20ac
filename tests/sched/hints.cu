// hints.cu -- loom_launch_access (include/loom/hints.h): kernels that read through pointers
// they load count as reading all of memory, so under --sched dag each waits for the one
// before it; with the exact ranges named before each launch they run at once. The results
// are the same either way (and on a GPU, where the hints do nothing).
//   hints [nohints]
#include <cstdio>
#include <cstring>
#include <loom/hints.h>

#define N 4096
#define K 6

__global__ void gather(const int *const *tables, int which, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tables[which][i] * 3 + which;
}

int main(int argc, char **argv)
{
    bool hints = !(argc > 1 && strcmp(argv[1], "nohints") == 0);
    int *table[K], *out[K], **tables;
    cudaMalloc(&tables, K * sizeof *tables);
    static int host[N];
    for (int k = 0; k < K; k++) {
        cudaMalloc(&table[k], N * sizeof(int));
        cudaMalloc(&out[k], N * sizeof(int));
        for (int i = 0; i < N; i++) host[i] = i * (k + 1);
        cudaMemcpy(table[k], host, sizeof host, cudaMemcpyHostToDevice);
    }
    cudaMemcpy(tables, table, sizeof table, cudaMemcpyHostToDevice);
    for (int k = 0; k < K; k++) {
        if (hints) {
            loom_launch_access(tables, K * sizeof *tables, LOOM_HINT_READ);
            loom_launch_access(table[k], N * sizeof(int), LOOM_HINT_READ);
            loom_launch_access(out[k], N * sizeof(int), LOOM_HINT_WRITE);
        }
        gather<<<N / 256, 256>>>(tables, k, out[k]);
    }
    long long sum = 0;
    for (int k = 0; k < K; k++) {
        cudaMemcpy(host, out[k], sizeof host, cudaMemcpyDeviceToHost);
        for (int i = 0; i < N; i++) sum += host[i];
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("sum %lld (%s)\n", sum, cudaGetErrorString(e));
    return e != cudaSuccess;
}
