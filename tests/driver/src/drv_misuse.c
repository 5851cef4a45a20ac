/* drv_misuse.c -- driver API calls with bad input: each case runs in a child process of its
 * own (so that the driver starts fresh and a crash is reported, not fatal) and prints the
 * CUresult name of every call it makes. The error-name and cuGetProcAddress cases are in
 * drv_errors.c. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drv_check.h"

static const char *ptx_path;

/* Prints one call's result; returns it. */
#define R(call) show(#call, (call))

static CUresult show(const char *what, CUresult r)
{
    printf("  %s = %s\n", what, drv_name(r));
    return r;
}

static CUcontext ctx;
static CUmodule mod;

/* cuInit and a current primary context; every later case starts with it. */
static void setup(void)
{
    CUdevice dev;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
}

static void setup_module(void)
{
    setup();
    char *ptx = drv_read_file(ptx_path);
    CK(cuModuleLoadData(&mod, ptx));
    free(ptx);
}

static void no_init(void)
{
    int n = -1, v = -1;
    CUdevice d;
    CUdeviceptr p;
    CUcontext c;
    R(cuDriverGetVersion(&v));
    R(cuDeviceGetCount(&n));
    R(cuDeviceGet(&d, 0));
    R(cuCtxGetCurrent(&c));
    R(cuMemAlloc(&p, 16));
    R(cuCtxSynchronize());
}

static void bad_init(void)
{
    int n = -1;
    R(cuInit(1));
    R(cuDeviceGetCount(&n));
    R(cuInit(0));
    R(cuInit(0));
    R(cuDriverGetVersion(NULL));
}

static void bad_device(void)
{
    CUdevice d;
    int v;
    char name[64];
    size_t bytes;
    R(cuInit(0));
    R(cuDeviceGet(&d, 1));
    R(cuDeviceGet(&d, -1));
    R(cuDeviceGet(NULL, 0));
    R(cuDeviceGetCount(NULL));
    R(cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, 0));
    R(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3));
    R(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    R(cuDeviceGetName(NULL, 64, 0));
    R(cuDeviceGetName(name, 64, 2));
    R(cuDeviceTotalMem(&bytes, 5));
    R(cuDeviceTotalMem(NULL, 0));
}

static void no_context(void)
{
    CUdevice d;
    CUdeviceptr p;
    CUcontext c = (CUcontext)1;
    CUmodule m;
    CUstream s;
    CUevent e;
    size_t f, t;
    R(cuInit(0));
    R(cuCtxGetCurrent(&c));
    printf("  current is NULL: %s\n", c == NULL ? "yes" : "no");
    R(cuCtxGetDevice(&d));
    R(cuCtxSynchronize());
    R(cuCtxPopCurrent(&c));
    R(cuMemAlloc(&p, 16));
    R(cuMemGetInfo(&f, &t));
    R(cuModuleLoadData(&m, "garbage"));
    R(cuStreamCreate(&s, 0));
    R(cuEventCreate(&e, 0));
    R(cuCtxSetCurrent(NULL));
}

static void bad_memory(void)
{
    CUdeviceptr p = 0, q = 0;
    int h[4] = { 0 };
    setup();
    R(cuMemAlloc(&p, 0));
    R(cuMemAlloc(NULL, 16));
    R(cuMemAlloc(&p, (size_t)1 << 50));
    R(cuMemAlloc(&p, 64));
    R(cuMemcpyHtoD(p, NULL, 16));
    R(cuMemcpyHtoD(p, h, 0));
    R(cuMemcpyDtoH(h, 0, 16));
    R(cuMemcpyDtoH(h, (CUdeviceptr)0x1234, 16));
    R(cuMemsetD32(p + 1, 0, 4));
    R(cuMemsetD16(p + 1, 0, 4));
    R(cuMemFree(0));
    R(cuMemFree((CUdeviceptr)0x1234));
    R(cuMemFree(p + 8));
    R(cuMemFree(p));
    R(cuMemFree(p));
    R(cuMemFreeHost(NULL));
    R(cuMemFreeHost(h));
    R(cuMemAllocPitch(&q, NULL, 100, 10, 4));
    size_t pitch;
    R(cuMemAllocPitch(&q, &pitch, 100, 10, 3));
    R(cuMemGetInfo(NULL, NULL));
}

static void bad_module(void)
{
    CUmodule m = NULL;
    CUfunction f;
    CUdeviceptr g;
    size_t size;
    setup_module();
    R(cuModuleLoadData(&m, "garbage"));
    R(cuModuleLoadData(&m, ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k( {\n"));
    R(cuModuleLoadData(&m, NULL));
    R(cuModuleLoadData(NULL, "garbage"));
    R(cuModuleLoad(&m, "/nonexistent/file.ptx"));
    R(cuModuleGetFunction(&f, mod, "nope"));
    R(cuModuleGetFunction(&f, mod, NULL));
    R(cuModuleGetFunction(NULL, mod, "add"));
    R(cuModuleGetFunction(&f, NULL, "add"));
    R(cuModuleGetGlobal(&g, &size, mod, "nope"));
    R(cuModuleGetGlobal(&g, &size, mod, "add"));
    R(cuModuleGetGlobal(NULL, NULL, mod, "counter"));
    R(cuModuleGetGlobal(&g, &size, NULL, "counter"));
    R(cuModuleUnload(NULL));
}

static void bad_launch(void)
{
    CUfunction f;
    CUdeviceptr p;
    setup_module();
    CK(cuModuleGetFunction(&f, mod, "scale"));
    CK(cuMemAlloc(&p, 1024));
    float a = 2;
    int n = 16;
    void *params[] = { &p, &a, &n };
    R(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL));
    R(cuLaunchKernel(f, 1, 1, 1, 32, 32, 2, 0, NULL, params, NULL));
    R(cuLaunchKernel(f, 1, 1, 1, 1, 1, 128, 0, NULL, params, NULL));
    R(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    R(cuLaunchKernel(f, 1, 70000, 1, 32, 1, 1, 0, NULL, params, NULL));
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 300000, NULL, params, NULL));
    R(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    void *both[] = { CU_LAUNCH_PARAM_END };
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, both));
    size_t small = 4;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, params, CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
                      CU_LAUNCH_PARAM_END };
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    R(cuCtxSynchronize());
    R(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    int v;
    R(cuFuncGetAttribute(&v, (CUfunction_attribute)999, f));
    R(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL));
    R(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300000));
    R(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 100000, NULL, params, NULL));
    R(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, f, 0, 0));
    R(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, f, 2048, 0));
    R(cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 32, 0));
    R(cuModuleUnload(mod));
    R(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    R(cuCtxSynchronize());
}

static void bad_stream_event(void)
{
    CUstream s;
    CUevent e, e2;
    float ms;
    setup();
    R(cuStreamCreate(NULL, 0));
    R(cuStreamCreate(&s, 0x80));
    R(cuEventCreate(NULL, 0));
    R(cuEventCreate(&e, 0x80));
    CK(cuEventCreate(&e, 0));
    CK(cuEventCreate(&e2, 0));
    R(cuEventQuery(e));
    R(cuEventSynchronize(e));
    R(cuEventElapsedTime(&ms, e, e2));
    R(cuEventRecord(e, NULL));
    R(cuEventElapsedTime(&ms, e, e2));
    R(cuEventElapsedTime(NULL, e, e));
    R(cuEventRecord(NULL, NULL));
    R(cuEventQuery(NULL));
    R(cuEventSynchronize(NULL));
    R(cuEventDestroy(NULL));
    R(cuStreamQuery(NULL));
    R(cuStreamSynchronize(NULL));
    R(cuStreamDestroy(NULL));
    R(cuStreamWaitEvent(NULL, NULL, 0));
    R(cuStreamAddCallback(NULL, NULL, NULL, 0));
    R(cuLaunchHostFunc(NULL, NULL, NULL));
    CK(cuStreamCreate(&s, 0));
    R(cuStreamAddCallback(s, NULL, NULL, 1));
    R(cuStreamWaitEvent(s, e, 7));
    unsigned fl;
    R(cuStreamGetFlags(NULL, &fl));
    R(cuStreamGetFlags(s, NULL));
    R(cuStreamDestroy(s));
    R(cuEventDestroy(e2));
}

static void bad_context(void)
{
    CUcontext c, c2, cur;
    CUdevice dev;
    unsigned flags;
    int active;
    R(cuInit(0));
    R(cuDeviceGet(&dev, 0));
    R(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("  flags %u active %d\n", flags, active);
    R(cuDevicePrimaryCtxGetState(4, &flags, &active));
    R(cuDevicePrimaryCtxGetState(dev, NULL, &active));
    R(cuDevicePrimaryCtxRetain(NULL, dev));
    R(cuDevicePrimaryCtxRetain(&c, 3));
    R(cuDevicePrimaryCtxRelease(dev));
    R(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC));
    R(cuDevicePrimaryCtxSetFlags(dev, 0xffff));
    R(cuDevicePrimaryCtxRetain(&c, dev));
    R(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("  flags %u active %d\n", flags, active);
    R(cuCtxCreate(NULL, NULL, 0, dev));
    R(cuCtxCreate(&c2, NULL, 0, 9));
    R(cuCtxCreate(&c2, NULL, 0, dev));
    R(cuCtxGetCurrent(&cur));
    printf("  current is the new context: %s\n", cur == c2 ? "yes" : "no");
    R(cuCtxDestroy(NULL));
    R(cuCtxPushCurrent(NULL));
    R(cuCtxPopCurrent(&cur));
    R(cuCtxPopCurrent(&cur));
    R(cuCtxPopCurrent(&cur));
    R(cuCtxSetCurrent(c2));
    R(cuCtxDestroy(c2));
    R(cuCtxGetCurrent(&cur));
    printf("  current is NULL after destroying it: %s\n", cur == NULL ? "yes" : "no");
    R(cuCtxSynchronize());
    R(cuDevicePrimaryCtxRelease(dev));
    R(cuDevicePrimaryCtxRelease(dev));
    R(cuDevicePrimaryCtxReset(dev));
    R(cuDevicePrimaryCtxReset(7));
}

static void cross_context(void)
{
    CUcontext other;
    CUdevice dev;
    CUdeviceptr p;
    CUstream s;
    CUevent e;
    setup();
    CK(cuDeviceGet(&dev, 0));
    CK(cuStreamCreate(&s, 0));
    CK(cuEventCreate(&e, 0));
    CK(cuMemAlloc(&p, 64));
    CK(cuCtxCreate(&other, NULL, 0, dev));
    R(cuStreamSynchronize(s));
    R(cuEventRecord(e, s));
    R(cuEventRecord(e, NULL));
    R(cuMemsetD8(p, 1, 64));
    R(cuMemFree(p));
    R(cuStreamDestroy(s));
    R(cuCtxDestroy(other));
    R(cuEventDestroy(e));
}

static const struct { const char *name; void (*run)(void); } cases[] = {
    { "no_init", no_init },
    { "bad_init", bad_init },
    { "bad_device", bad_device },
    { "no_context", no_context },
    { "bad_memory", bad_memory },
    { "bad_module", bad_module },
    { "bad_launch", bad_launch },
    { "bad_stream_event", bad_stream_event },
    { "bad_context", bad_context },
    { "cross_context", cross_context },
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_misuse KERNELS.ptx [CASE]\n");
        return 2;
    }
    ptx_path = argv[1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (argc > 2 && strcmp(argv[2], cases[i].name) != 0)
            continue;
        printf("%s:\n", cases[i].name);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            setvbuf(stdout, NULL, _IONBF, 0);   /* what a case printed survives its crash */
            cases[i].run();
            fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status))
            printf("  (ended by signal %d)\n", WTERMSIG(status));
        else if (WEXITSTATUS(status) != 0)
            printf("  (exit status %d)\n", WEXITSTATUS(status));
    }
    printf("PASS\n");
    return 0;
}
