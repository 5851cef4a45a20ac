// fault_check.h -- the common part of the kernel-fault programs: a good kernel runs, the
// faulting kernel's error comes back from cudaDeviceSynchronize, stays (sticky) for every
// later call until cudaDeviceReset (cudaGetLastError hands it out once), and after the
// reset new allocations and kernels work again. Each program prints what it checked and
// ends with PASS or FAIL.
#ifndef LOOM_FAULT_CHECK_H
#define LOOM_FAULT_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int g_failed = 0;

#define EXPECT_ERR(call, want)                                                                  \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        printf("%s: %s\n", #call, cudaGetErrorName(e_));                                        \
        if (e_ != (want)) {                                                                     \
            printf("FAIL line %d: want %s\n", __LINE__, cudaGetErrorName(want));                \
            g_failed = 1;                                                                       \
        }                                                                                       \
    } while (0)

#define FAULT_N 128

__global__ void fault_fill(int *p, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < FAULT_N)
        p[i] = v + i;
}

// Fills a fresh buffer with a good kernel and checks it; returns the buffer.
static int *good_run(int v)
{
    int *d = nullptr;
    int h[FAULT_N];
    EXPECT_ERR(cudaMalloc(&d, FAULT_N * sizeof(int)), cudaSuccess);
    fault_fill<<<2, 64>>>(d, v);
    EXPECT_ERR(cudaGetLastError(), cudaSuccess);
    EXPECT_ERR(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    bool ok = true;
    for (int i = 0; i < FAULT_N; i++)
        ok = ok && h[i] == v + i;
    printf("good kernel results: %s\n", ok ? "correct" : "WRONG");
    if (!ok)
        g_failed = 1;
    return d;
}

// Runs launch_bad (which launches the faulting kernel with a good buffer at hand) and
// checks that `want` is reported, is sticky, and that a device reset clears it.
static int run_fault_test(cudaError_t want, void (*launch_bad)(int *buf))
{
    int *buf = good_run(1);
    launch_bad(buf);
    EXPECT_ERR(cudaDeviceSynchronize(), want);
    EXPECT_ERR(cudaGetLastError(), want);
    EXPECT_ERR(cudaGetLastError(), cudaSuccess);
    int h[FAULT_N];
    EXPECT_ERR(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost), want);
    int *more = nullptr;
    EXPECT_ERR(cudaMalloc(&more, 64), want);
    fault_fill<<<2, 64>>>(buf, 5);
    EXPECT_ERR(cudaGetLastError(), want);
    EXPECT_ERR(cudaDeviceSynchronize(), want);
    EXPECT_ERR(cudaDeviceReset(), cudaSuccess);
    EXPECT_ERR(cudaGetLastError(), cudaSuccess);
    int *again = good_run(100);
    EXPECT_ERR(cudaFree(again), cudaSuccess);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaSuccess);
    printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed;
}
#endif
