/* drv_stale.c -- driver API calls with handles that were valid once: destroyed streams, events
 * and contexts, freed memory, an unloaded module, a released primary context; and cooperative
 * launches too large for the device. Each case runs in a child process of its own (a crash is
 * reported, not fatal) and prints every call's CUresult name. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drv_check.h"

static const char *ptx_path;

#define R(call) printf("  %s = %s\n", #call, drv_name(call))

static CUdevice dev;
static CUcontext ctx;
static CUmodule mod;
static CUfunction scale;

static void setup(void)
{
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char *ptx = drv_read_file(ptx_path);
    CK(cuModuleLoadData(&mod, ptx));
    free(ptx);
    CK(cuModuleGetFunction(&scale, mod, "scale"));
}

static void stream(void)
{
    CUstream s;
    CUdeviceptr p;
    int h[4];
    setup();
    CK(cuMemAlloc(&p, 64));
    CK(cuStreamCreate(&s, 0));
    R(cuStreamDestroy(s));
    R(cuStreamSynchronize(s));
    R(cuStreamQuery(s));
    R(cuMemcpyHtoDAsync(p, h, sizeof h, s));
    R(cuMemsetD8Async(p, 0, 4, s));
    float a = 1;
    int n = 4;
    void *params[] = { &p, &a, &n };
    R(cuLaunchKernel(scale, 1, 1, 1, 4, 1, 1, 0, s, params, NULL));
    R(cuStreamDestroy(s));
    R(cuCtxSynchronize());
}

static void event(void)
{
    CUevent e, e2;
    float ms;
    setup();
    CK(cuEventCreate(&e, 0));
    CK(cuEventCreate(&e2, 0));
    CK(cuEventRecord(e2, NULL));
    R(cuEventDestroy(e));
    R(cuEventRecord(e, NULL));
    R(cuEventQuery(e));
    R(cuEventSynchronize(e));
    R(cuEventElapsedTime(&ms, e, e2));
    R(cuStreamWaitEvent(NULL, e, 0));
    R(cuEventDestroy(e));
    R(cuEventDestroy(e2));
}

static void context(void)
{
    CUcontext c, cur;
    unsigned v;
    setup();
    CK(cuCtxCreate(&c, NULL, 0, dev));
    R(cuCtxDestroy(c));
    R(cuCtxGetCurrent(&cur));
    printf("  current is the primary context: %s\n", cur == ctx ? "yes" : "no");
    R(cuCtxSetCurrent(c));
    R(cuCtxPushCurrent(c));
    R(cuCtxGetApiVersion(c, &v));
    R(cuCtxDestroy(c));
    R(cuCtxSynchronize());
}

static void destroyed_current(void)
{
    CUcontext c, cur;
    CUdeviceptr p;
    setup();
    CK(cuCtxCreate(&c, NULL, 0, dev));
    CK(cuCtxPushCurrent(c));
    R(cuCtxDestroy(c));
    R(cuCtxGetCurrent(&cur));
    printf("  current: %s\n", cur == c ? "the destroyed one" : cur == ctx ? "the primary one" : cur ? "other" : "none");
    R(cuMemAlloc(&p, 16));
    R(cuCtxPopCurrent(&cur));
    R(cuCtxGetCurrent(&cur));
    printf("  current: %s\n", cur == c ? "the destroyed one" : cur == ctx ? "the primary one" : cur ? "other" : "none");
}

static void released_primary(void)
{
    CUdeviceptr p;
    CUcontext cur;
    setup();
    R(cuModuleUnload(mod));
    R(cuDevicePrimaryCtxRelease(dev));
    R(cuCtxGetCurrent(&cur));
    printf("  current is the primary context: %s\n", cur == ctx ? "yes" : "no");
    R(cuMemAlloc(&p, 16));
    R(cuCtxSynchronize());
    R(cuDevicePrimaryCtxRetain(&cur, dev));
    R(cuMemAlloc(&p, 16));
    R(cuMemFree(p));
}

static void memory(void)
{
    CUdeviceptr p;
    int h[4] = { 1, 2, 3, 4 };
    setup();
    CK(cuMemAlloc(&p, 64));
    CK(cuMemFree(p));
    R(cuMemcpyHtoD(p, h, sizeof h));
    R(cuMemcpyDtoH(h, p, sizeof h));
    R(cuMemsetD32(p, 0, 4));
    R(cuMemFree(p));
    void *host;
    CK(cuMemAllocHost(&host, 64));
    R(cuMemFreeHost(host));
    R(cuMemFreeHost(host));
}

static void module(void)
{
    CUfunction f;
    CUdeviceptr g;
    size_t size;
    int v;
    setup();
    R(cuModuleUnload(mod));
    R(cuModuleUnload(mod));
    R(cuModuleGetFunction(&f, mod, "scale"));
    R(cuModuleGetGlobal(&g, &size, mod, "counter"));
    R(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, scale));
    R(cuFuncSetAttribute(scale, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
    R(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, scale, 128, 0));
}

static void cooperative(void)
{
    CUdeviceptr p;
    setup();
    CK(cuMemAlloc(&p, 4096));
    float a = 1;
    int n = 0;
    void *params[] = { &p, &a, &n };
    R(cuLaunchCooperativeKernel(scale, 100000, 1, 1, 1024, 1, 1, 0, NULL, params));
    R(cuLaunchCooperativeKernel(scale, 132, 1, 1, 1024, 1, 1, 0, NULL, params));
    R(cuLaunchCooperativeKernel(scale, 1, 1, 1, 2048, 1, 1, 0, NULL, params));
    R(cuCtxSynchronize());
}

static const struct { const char *name; void (*run)(void); } cases[] = {
    { "stream", stream },
    { "event", event },
    { "context", context },
    { "destroyed_current", destroyed_current },
    { "released_primary", released_primary },
    { "memory", memory },
    { "module", module },
    { "cooperative", cooperative },
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_stale KERNELS.ptx\n");
        return 2;
    }
    ptx_path = argv[1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        printf("%s:\n", cases[i].name);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            setvbuf(stdout, NULL, _IONBF, 0);   /* what a case printed survives its crash */
            cases[i].run();
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
