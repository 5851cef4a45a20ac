// check.h -- helpers shared by Loom's CUDA test programs: each prints what it checked
// and ends with PASS or FAIL; lines starting "info:" vary by machine and are not compared.
#ifndef LOOM_TEST_CHECK_H
#define LOOM_TEST_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int g_failed = 0;

// A CUDA call that must succeed; a failure ends the test.
#define CK(call)                                                                                \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            printf("FAIL line %d: %s returned %s\n", __LINE__, #call, cudaGetErrorName(e_));    \
            printf("FAIL\n");                                                                   \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

// A condition that must hold; the test goes on and fails at the end.
#define EXPECT(cond)                                                                            \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                                      \
            g_failed = 1;                                                                       \
        }                                                                                       \
    } while (0)

static inline int finish(void)
{
    printf("%s\n", g_failed ? "FAIL" : "PASS");
    return g_failed;
}
#endif
