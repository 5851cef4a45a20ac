/* drv_streams.c -- driver API streams, events, stream callbacks and host functions, explicit
 * contexts (create, push, pop, destroy) and a cooperative launch. */
#include <string.h>

#include "drv_check.h"

static int callback_calls, host_calls;

static void CUDA_CB on_stream(CUstream s, CUresult status, void *data)
{
    (void)s;
    callback_calls += *(int *)data;
    printf("callback: status %s, data %d\n", drv_name(status), *(int *)data);
}

static void CUDA_CB on_host(void *data)
{
    host_calls += *(int *)data;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_streams KERNELS.ptx\n");
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CUctxCreateParams cparams;
    memset(&cparams, 0, sizeof cparams);
    CK(cuCtxCreate(&ctx, &cparams, 0, dev));
    CUcontext cur = NULL;
    CK(cuCtxGetCurrent(&cur));
    printf("created context is current: %s\n", cur == ctx ? "yes" : "no");
    unsigned api = 0;
    CK(cuCtxGetApiVersion(ctx, &api));
    printf("context api version >= 3020: %s\n", api >= 3020 ? "yes" : "no");

    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CUjit_option opts[] = { CU_JIT_MAX_REGISTERS };
    void *optvals[] = { (void *)(uintptr_t)64 };
    CK(cuModuleLoadDataEx(&mod, ptx, 1, opts, optvals));
    CUfunction scale, big;
    CK(cuModuleGetFunction(&scale, mod, "scale"));
    CK(cuModuleGetFunction(&big, mod, "big_shared"));

    enum { N = 4096 };
    static float h[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    unsigned sflags = 0;
    CK(cuStreamGetFlags(s, &sflags));
    printf("stream flags: %u\n", sflags);
    CUevent start, stop;
    CK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CUdeviceptr d;
    CK(cuMemAlloc(&d, sizeof h));
    float *pinned;
    CK(cuMemAllocHost((void **)&pinned, sizeof h));
    memcpy(pinned, h, sizeof h);
    CK(cuEventRecord(start, s));
    CK(cuMemcpyHtoDAsync(d, pinned, sizeof h, s));
    float a = 3.0f;
    int n = N;
    void *params[] = { &d, &a, &n };
    CK(cuLaunchKernel(scale, N / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
    CK(cuMemcpyDtoHAsync(pinned, d, sizeof h, s));
    int one = 1, ten = 10;
    CK(cuStreamAddCallback(s, on_stream, &one, 0));
    CK(cuLaunchHostFunc(s, on_host, &ten));
    CK(cuEventRecord(stop, s));
    CK(cuEventSynchronize(stop));
    CK(cuStreamSynchronize(s));
    CK(cuStreamQuery(s));
    CK(cuEventQuery(stop));
    float ms = -1;
    CK(cuEventElapsedTime(&ms, start, stop));
    printf("elapsed >= 0: %s\n", ms >= 0 ? "yes" : "no");
    printf("scaled: %g %g, callbacks %d, host functions %d\n", pinned[7], pinned[N - 1], callback_calls,
           host_calls);

    /* a second stream waits on an event of the first */
    CUstream s2;
    CK(cuStreamCreate(&s2, CU_STREAM_DEFAULT));
    CUevent mid;
    CK(cuEventCreate(&mid, CU_EVENT_DISABLE_TIMING));
    CK(cuMemsetD32Async(d, 0x40000000, N, s));   /* 2.0f */
    CK(cuEventRecord(mid, s));
    CK(cuStreamWaitEvent(s2, mid, 0));
    CK(cuLaunchKernel(scale, N / 256, 1, 1, 256, 1, 1, 0, s2, params, NULL));
    CK(cuMemsetD8Async(d, 0, 4, s2));
    CK(cuMemcpyDtoHAsync(pinned, d, sizeof h, s2));
    CK(cuStreamSynchronize(s2));
    printf("after wait: %g %g\n", pinned[0], pinned[1]);
    CUresult r = cuEventElapsedTime(&ms, start, mid);
    printf("elapsed with a timing-disabled event: %s\n", drv_name(r));

    /* dynamic shared memory and a cooperative launch */
    CUdeviceptr out;
    CK(cuMemAlloc(&out, 256 * sizeof(int)));
    void *bparams[] = { &out };
    CK(cuLaunchCooperativeKernel(big, 1, 1, 1, 256, 1, 1, 256 * sizeof(int), s, bparams));
    int hout[256];
    CK(cuStreamSynchronize(s));
    CK(cuMemcpyDtoH(hout, out, sizeof hout));
    printf("reversed: %d %d\n", hout[0], hout[255]);

    /* push and pop a second context; allocations are visible from both */
    CUcontext ctx2, popped = NULL;
    CK(cuCtxCreate(&ctx2, NULL, 0, dev));
    CK(cuCtxGetCurrent(&cur));
    printf("second context current: %s\n", cur == ctx2 ? "yes" : "no");
    CK(cuCtxPopCurrent(&popped));
    printf("popped the second: %s\n", popped == ctx2 ? "yes" : "no");
    CK(cuCtxGetCurrent(&cur));
    printf("first context current again: %s\n", cur == ctx ? "yes" : "no");
    CK(cuCtxPushCurrent(ctx2));
    CK(cuCtxSynchronize());
    CK(cuCtxPopCurrent(NULL));
    CK(cuCtxDestroy(ctx2));

    CK(cuEventDestroy(start));
    CK(cuEventDestroy(stop));
    CK(cuEventDestroy(mid));
    CK(cuStreamDestroy(s));
    CK(cuStreamDestroy(s2));
    CK(cuMemFree(d));
    CK(cuMemFree(out));
    CK(cuMemFreeHost(pinned));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy(ctx));
    free(ptx);
    printf("PASS\n");
    return 0;
}
