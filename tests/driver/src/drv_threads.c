/* drv_threads.c -- four host threads use the driver API at once: each makes the primary or a
 * context of its own current, loads nothing (the module is shared), and runs its own stream of
 * copies and launches; every result is checked here. */
#include <pthread.h>
#include <string.h>

#include "drv_check.h"

static CUdevice dev;
static CUcontext primary;
static CUfunction scale;

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    CUcontext own = NULL;
    if (id % 2)
        CK(cuCtxCreate(&own, NULL, 0, dev));
    else
        CK(cuCtxSetCurrent(primary));
    enum { N = 2048 };
    float *h;
    CK(cuMemAllocHost((void **)&h, N * sizeof(float)));
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d;
    CK(cuMemAlloc(&d, N * sizeof(float)));
    float a = (float)(id + 2);
    int n = N;
    void *params[] = { &d, &a, &n };
    for (int round = 0; round < 20; round++) {
        CK(cuMemcpyHtoDAsync(d, h, N * sizeof(float), s));
        CK(cuLaunchKernel(scale, N / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
        CK(cuMemcpyDtoHAsync(h, d, N * sizeof(float), s));
        CK(cuStreamSynchronize(s));
        for (int i = 0; i < N; i++)
            h[i] /= a;
    }
    EXPECT(h[5] == 5.0f && h[N - 1] == (float)(N - 1));
    CUcontext cur;
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == (own ? own : primary));
    CK(cuMemFree(d));
    CK(cuStreamDestroy(s));
    CK(cuMemFreeHost(h));
    if (own)
        CK(cuCtxDestroy(own));
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_threads KERNELS.ptx\n");
        return 2;
    }
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&primary, dev));
    CK(cuCtxSetCurrent(primary));
    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&scale, mod, "scale"));
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CK(cuModuleUnload(mod));
    free(ptx);
    printf("PASS\n");
    return 0;
}
