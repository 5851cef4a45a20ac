/* drv_garbage.c -- handles that never were: small integers and pointers to ordinary memory
 * passed as contexts, modules, functions, streams, events and link states. Loom refuses each
 * with an error (NVIDIA's driver may crash on them: Loom only). */
#include <string.h>

#include "drv_check.h"

static int failures;

/* The call must fail, whatever the code. */
#define REFUSED(call) do { \
        CUresult r_ = (call); \
        if (r_ == CUDA_SUCCESS) { \
            printf("FAIL: %s succeeded\n", #call); \
            failures++; \
        } \
    } while (0)

int main(void)
{
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    static unsigned char junk[4096];
    memset(junk, 0x5a, sizeof junk);
    void *fakes[] = { (void *)(uintptr_t)0x10, (void *)(uintptr_t)0x1234, junk, junk + 64 };
    for (size_t i = 0; i < sizeof fakes / sizeof fakes[0]; i++) {
        void *p = fakes[i];
        CUfunction f;
        CUdeviceptr d;
        size_t n;
        int v;
        unsigned u;
        float ms;
        void *img;
        REFUSED(cuCtxSetCurrent((CUcontext)p));
        REFUSED(cuCtxPushCurrent((CUcontext)p));
        REFUSED(cuCtxDestroy((CUcontext)p));
        REFUSED(cuCtxGetApiVersion((CUcontext)p, &u));
        REFUSED(cuModuleGetFunction(&f, (CUmodule)p, "k"));
        REFUSED(cuModuleGetGlobal(&d, &n, (CUmodule)p, "g"));
        REFUSED(cuModuleUnload((CUmodule)p));
        REFUSED(cuModuleGetFunctionCount(&u, (CUmodule)p));
        REFUSED(cuLaunchKernel((CUfunction)p, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
        REFUSED(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)p));
        REFUSED(cuFuncSetAttribute((CUfunction)p, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0));
        REFUSED(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, (CUfunction)p, 32, 0));
        REFUSED(cuStreamSynchronize((CUstream)p));
        REFUSED(cuStreamQuery((CUstream)p));
        REFUSED(cuStreamDestroy((CUstream)p));
        REFUSED(cuEventRecord((CUevent)p, NULL));
        REFUSED(cuEventQuery((CUevent)p));
        REFUSED(cuEventElapsedTime(&ms, (CUevent)p, (CUevent)p));
        REFUSED(cuEventDestroy((CUevent)p));
        REFUSED(cuLinkAddData((CUlinkState)p, CU_JIT_INPUT_PTX, junk, 16, "x", 0, NULL, NULL));
        REFUSED(cuLinkComplete((CUlinkState)p, &img, &n));
        REFUSED(cuLinkDestroy((CUlinkState)p));
        REFUSED(cuMemFree((CUdeviceptr)(uintptr_t)p));
        REFUSED(cuMemcpyDtoH(junk, (CUdeviceptr)(uintptr_t)p, 16));
        REFUSED(cuMemsetD8((CUdeviceptr)(uintptr_t)p, 0, 16));
    }
    if (failures)
        return 1;
    printf("PASS\n");
    return 0;
}
