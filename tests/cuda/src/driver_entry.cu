// driver_entry.cu -- driver functions found through the runtime (cudaGetDriverEntryPoint and
// ...ByVersion) and called: how PyTorch and CUTLASS reach the driver without linking it.
#include <cuda.h>
#include "check.h"

typedef CUresult (*count_fn)(int *);
typedef CUresult (*version_fn)(int *);

int main()
{
    setvbuf(stdout, nullptr, _IONBF, 0);
    CK(cudaFree(0));
    void *fp = nullptr;
    cudaDriverEntryPointQueryResult st;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuDeviceGetCount", &fp, 12000, cudaEnableDefault, &st);
    printf("cuDeviceGetCount by version 12000: %s, status %d, found %d\n", cudaGetErrorName(e), (int)st, fp != nullptr);
    int n = -1;
    if (fp) {
        int r = (int)((count_fn)fp)(&n);
        printf("  called: %d, count %d\n", r, n);
    }
    fp = nullptr;
    e = cudaGetDriverEntryPointByVersion("cuDriverGetVersion", &fp, 13000, cudaEnableDefault, &st);
    printf("cuDriverGetVersion by version 13000: %s, status %d, found %d\n", cudaGetErrorName(e), (int)st, fp != nullptr);
    int v = 0;
    if (fp) {
        int r = (int)((version_fn)fp)(&v);
        printf("  called: %d, version at least 13000: %d\n", r, v >= 13000);
    }
    fp = (void *)1;
    e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fp, 13000, cudaEnableDefault, &st);
    printf("cuNoSuchFunction: %s, status %d, pointer null %d\n", cudaGetErrorName(e), (int)st, fp == nullptr);
    cudaGetLastError();
    fp = (void *)1;
    e = cudaGetDriverEntryPointByVersion("cuMemAllocAsync", &fp, 11000, cudaEnableDefault, &st);
    printf("cuMemAllocAsync by version 11000: %s, status %d, pointer null %d\n", cudaGetErrorName(e), (int)st, fp == nullptr);
    cudaGetLastError();
    printf("PASS\n");
    return 0;
}
