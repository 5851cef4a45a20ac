/* drv_ptds.c -- a program compiled for the per-thread default stream links cuda.h's _ptds and
 * _ptsz entry points: copies, sets, a launch and a host function on the NULL stream. */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM
#include "drv_check.h"

static int calls;

static void CUDA_CB count(void *data)
{
    calls += *(int *)data;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_ptds KERNELS.ptx\n");
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    CUfunction scale;
    CK(cuModuleGetFunction(&scale, mod, "scale"));
    enum { N = 256 };
    float h[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    CUdeviceptr d;
    CK(cuMemAlloc(&d, sizeof h));
    CK(cuMemcpyHtoDAsync(d, h, sizeof h, NULL));
    float a = 2.0f;
    int n = N;
    void *params[] = { &d, &a, &n };
    CK(cuLaunchKernel(scale, 2, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    int three = 3;
    CK(cuLaunchHostFunc(NULL, count, &three));
    CK(cuMemsetD32Async(d + 4 * (N - 1), 0x42280000, 1, NULL));   /* 42.0f */
    CK(cuStreamSynchronize(NULL));
    CK(cuMemcpyDtoH(h, d, sizeof h));
    EXPECT(h[1] == 2.0f && h[100] == 200.0f && h[N - 1] == 42.0f && calls == 3);
    CK(cuMemsetD8(d, 0, sizeof h));
    CK(cuMemcpyDtoH(h, d, sizeof h));
    EXPECT(h[7] == 0.0f);
    CK(cuMemFree(d));
    CK(cuModuleUnload(mod));
    free(ptx);
    printf("PASS\n");
    return 0;
}
