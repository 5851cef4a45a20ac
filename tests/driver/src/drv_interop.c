/* drv_interop.c -- the runtime and the driver API in one program see one device: memory from
 * cudaMalloc filled with cuMemcpyHtoD, a driver stream used by cudaMemcpyAsync, a runtime stream
 * by cuLaunchKernel; a failing driver call leaves cudaGetLastError alone. Optional second
 * argument: a fatbinary of drv_kernels.cu to load with cuModuleLoadData as well. */
#include <cuda_runtime_api.h>
#include <string.h>

#include "drv_check.h"

#define CKRT(call) do { \
        cudaError_t e_ = (call); \
        if (e_ != cudaSuccess) { \
            printf("FAIL: %s = %s (line %d)\n", #call, cudaGetErrorName(e_), __LINE__); \
            exit(1); \
        } \
    } while (0)

static void run_add(CUmodule mod, const char *what)
{
    enum { N = 256 };
    int h[N], out[N];
    for (int i = 0; i < N; i++)
        h[i] = i;
    int *a = NULL, *c = NULL;
    CKRT(cudaMalloc((void **)&a, sizeof h));
    CKRT(cudaMalloc((void **)&c, sizeof h));
    CK(cuMemcpyHtoD((CUdeviceptr)(uintptr_t)a, h, sizeof h));
    CUdeviceptr coef;
    size_t size;
    CK(cuModuleGetGlobal(&coef, &size, mod, "coef"));
    int k[4] = { 1, 1, 1, 1 };
    CK(cuMemcpyHtoD(coef, k, sizeof k));
    CUfunction add;
    CK(cuModuleGetFunction(&add, mod, "add"));
    cudaStream_t rs;
    CKRT(cudaStreamCreate(&rs));
    CUdeviceptr da = (CUdeviceptr)(uintptr_t)a, dc = (CUdeviceptr)(uintptr_t)c;
    int n = N;
    void *params[] = { &da, &da, &dc, &n };
    CK(cuLaunchKernel(add, 2, 1, 1, 128, 1, 1, 0, (CUstream)rs, params, NULL));
    CUstream ds;
    CK(cuStreamCreate(&ds, 0));
    CKRT(cudaStreamSynchronize(rs));
    CKRT(cudaMemcpyAsync(out, c, sizeof out, cudaMemcpyDeviceToHost, (cudaStream_t)ds));
    CK(cuStreamSynchronize(ds));
    printf("%s: %d %d %d\n", what, out[0], out[1], out[255]);
    CK(cuStreamDestroy(ds));
    CKRT(cudaStreamDestroy(rs));
    CKRT(cudaFree(a));
    CK(cuMemFree(dc));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_interop KERNELS.ptx [KERNELS.fatbin]\n");
        return 2;
    }
    CKRT(cudaSetDevice(0));
    CKRT(cudaFree(NULL));   /* the runtime makes the primary context current */
    CK(cuInit(0));
    CUcontext cur = NULL;
    CK(cuCtxGetCurrent(&cur));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext primary;
    CK(cuDevicePrimaryCtxRetain(&primary, dev));
    printf("runtime's context is the primary one: %s\n", cur == primary ? "yes" : "no");
    CK(cuCtxSetCurrent(primary));

    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    run_add(mod, "ptx");
    CK(cuModuleUnload(mod));
    free(ptx);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "rb");
        if (!f) {
            printf("FAIL: cannot open %s\n", argv[2]);
            return 1;
        }
        static char image[1 << 20];
        size_t len = fread(image, 1, sizeof image, f);
        fclose(f);
        printf("fatbin read: %s\n", len > 0 ? "yes" : "no");
        CK(cuModuleLoadData(&mod, image));
        run_add(mod, "fatbin");
        CK(cuModuleUnload(mod));
    }

    CUdeviceptr p;
    printf("failing driver call: %s\n", drv_name(cuMemAlloc(&p, 0)));
    printf("cudaGetLastError after it: %s\n", cudaGetErrorName(cudaGetLastError()));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("PASS\n");
    return 0;
}
