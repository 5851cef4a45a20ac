/* drv_more.c -- cuLaunchKernelEx (plain and cooperative), stream-ordered allocation, 2D copies
 * and sets, registered host memory, context limits and priorities, function names; each result
 * is checked here, so the program ends with PASS on any device. */
#include <string.h>

#include "drv_check.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_more KERNELS.ptx\n");
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
    const char *fname = NULL;
    CK(cuFuncGetName(&fname, scale));
    EXPECT(strcmp(fname, "scale") == 0);
    CK(cuFuncSetCacheConfig(scale, CU_FUNC_CACHE_PREFER_SHARED));

    /* stream-ordered allocation and cuLaunchKernelEx */
    enum { N = 512 };
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d;
    CK(cuMemAllocAsync(&d, N * sizeof(float), s));
    CK(cuMemsetD32Async(d, 0x3f800000, N, s));   /* 1.0f */
    float a = 4.0f;
    int n = N;
    void *params[] = { &d, &a, &n };
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CUlaunchConfig cfg = { .gridDimX = N / 128, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 128, .blockDimY = 1,
                           .blockDimZ = 1, .sharedMemBytes = 0, .hStream = s, .attrs = NULL, .numAttrs = 0 };
    CK(cuLaunchKernelEx(&cfg, scale, params, NULL));
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CK(cuLaunchKernelEx(&cfg, scale, params, NULL));
    float h[N];
    CK(cuMemcpyDtoHAsync(h, d, sizeof h, s));
    CK(cuMemFreeAsync(d, s));
    CK(cuStreamSynchronize(s));
    EXPECT(h[0] == 16.0f && h[N - 1] == 16.0f);

    /* 2D: a 4 x 3 window of a pitched allocation, set and copied both ways */
    CUdeviceptr p;
    size_t pitch;
    CK(cuMemAllocPitch(&p, &pitch, 64, 8, 4));
    CK(cuMemsetD2D8(p, pitch, 0, 64, 8));
    CK(cuMemsetD2D32(p + pitch, pitch, 7, 4, 3));   /* rows 1-3, columns 0-3 */
    unsigned rows[8][16];
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = p;
    c.srcPitch = pitch;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = rows;
    c.dstPitch = sizeof rows[0];
    c.WidthInBytes = sizeof rows[0];
    c.Height = 8;
    CK(cuMemcpy2D(&c));
    EXPECT(rows[0][0] == 0 && rows[1][0] == 7 && rows[3][3] == 7 && rows[3][4] == 0 && rows[4][0] == 0);
    rows[5][2] = 99;
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = rows;
    c.srcPitch = sizeof rows[0];
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = p;
    c.dstPitch = pitch;
    CK(cuMemcpy2DAsync(&c, s));
    CK(cuStreamSynchronize(s));
    unsigned v = 0;
    CK(cuMemcpyDtoH(&v, p + 5 * pitch + 8, sizeof v));
    EXPECT(v == 99);
    CK(cuMemsetD2D16Async(p, pitch, 0xbeef, 2, 2, s));
    unsigned short w[2];
    CK(cuStreamSynchronize(s));
    CK(cuMemcpyDtoH(w, p + pitch, sizeof w));
    EXPECT(w[0] == 0xbeef && w[1] == 0xbeef);

    /* registered host memory: its device pointer, and asynchronous copies from it */
    static float host[N] __attribute__((aligned(4096)));
    for (int i = 0; i < N; i++)
        host[i] = 3.0f;
    CK(cuMemHostRegister(host, sizeof host, CU_MEMHOSTREGISTER_PORTABLE));
    CUdeviceptr hd;
    CK(cuMemHostGetDevicePointer(&hd, host, 0));
    EXPECT(hd != 0);
    CUdeviceptr d2;
    CK(cuMemAlloc(&d2, sizeof host));
    CK(cuMemcpyHtoDAsync(d2, host, sizeof host, s));
    CK(cuStreamSynchronize(s));
    CK(cuMemHostUnregister(host));
    CK(cuMemcpyDtoH(h, d2, sizeof h));
    EXPECT(h[0] == 3.0f && h[N - 1] == 3.0f);
    CK(cuMemFree(d2));

    /* limits and priorities */
    size_t stack = 0;
    CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    CK(cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE));
    EXPECT(stack >= 4096);
    int least = 1, greatest = 1;
    CK(cuCtxGetStreamPriorityRange(&least, &greatest));
    EXPECT(least == 0 && greatest < 0);

    CK(cuMemFree(p));
    CK(cuStreamDestroy(s));
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    free(ptx);
    printf("PASS\n");
    return 0;
}
