/* drv_basic.c -- the driver API end to end: device queries, the primary context, a module
 * from PTX, launches with kernelParams and with `extra`, copies, sets, globals, attributes. */
#include <string.h>

#include "drv_check.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_basic KERNELS.ptx\n");
        return 2;
    }
    int version = 0;
    CK(cuDriverGetVersion(&version));
    printf("driver version >= 13000: %s\n", version >= 13000 ? "yes" : "no");
    CK(cuInit(0));
    int count = 0;
    CK(cuDeviceGetCount(&count));
    printf("devices: %d\n", count);
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    static const struct { CUdevice_attribute a; const char *name; } attrs[] = {
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cc major" },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cc minor" },
        { CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size" },
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads per block" },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "max block x" },
        { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, "max block z" },
        { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "max grid x" },
        { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "max grid y" },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared per block" },
        { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "shared per block optin" },
        { CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "registers per block" },
        { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, "threads per SM" },
        { CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, "unified addressing" },
        { CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, "managed memory" },
        { CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, "cooperative launch" },
        { CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, "concurrent kernels" },
        { CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, "texture alignment" },
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = -1;
        CK(cuDeviceGetAttribute(&v, attrs[i].a, dev));
        printf("%s: %d\n", attrs[i].name, v);
    }
    char name[256];
    CK(cuDeviceGetName(name, sizeof name, dev));
    printf("name is set: %s\n", name[0] ? "yes" : "no");
    size_t total = 0;
    CK(cuDeviceTotalMem(&total, dev));
    printf("total memory > 1 GiB: %s\n", total > (1u << 30) ? "yes" : "no");

    CUcontext ctx, cur;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuCtxGetCurrent(&cur));
    printf("current is primary: %s\n", cur == ctx ? "yes" : "no");
    unsigned flags = 99;
    int active = -1;
    CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("primary state: flags %u active %d\n", flags, active);
    CUdevice cdev = -1;
    CK(cuCtxGetDevice(&cdev));
    printf("context device: %d\n", cdev);

    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    CUfunction add, scale, bump;
    CK(cuModuleGetFunction(&add, mod, "add"));
    CK(cuModuleGetFunction(&scale, mod, "scale"));
    CK(cuModuleGetFunction(&bump, mod, "bump"));

    /* kernelParams, with a __constant__ array set through cuModuleGetGlobal */
    enum { N = 1000 };
    int ha[N], hb[N], hc[N];
    for (int i = 0; i < N; i++) {
        ha[i] = i;
        hb[i] = 2 * i;
    }
    CUdeviceptr da, db, dc, coef;
    size_t coef_size = 0;
    CK(cuModuleGetGlobal(&coef, &coef_size, mod, "coef"));
    printf("coef size: %zu\n", coef_size);
    int hcoef[4] = { 1, 2, 3, 4 };
    CK(cuMemcpyHtoD(coef, hcoef, sizeof hcoef));
    CK(cuMemAlloc(&da, sizeof ha));
    CK(cuMemAlloc(&db, sizeof hb));
    CK(cuMemAlloc(&dc, sizeof hc));
    CK(cuMemcpyHtoD(da, ha, sizeof ha));
    CK(cuMemcpyHtoD(db, hb, sizeof hb));
    int n = N;
    void *params[] = { &da, &db, &dc, &n };
    CK(cuLaunchKernel(add, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CK(cuMemcpyDtoH(hc, dc, sizeof hc));
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += hc[i];
    printf("add sum: %ld\n", sum);

    /* `extra`: the arguments packed in one buffer at their PTX offsets */
    float hx[N];
    for (int i = 0; i < N; i++)
        hx[i] = (float)i;
    CUdeviceptr dx;
    CK(cuMemAlloc(&dx, sizeof hx));
    CK(cuMemcpyHtoD(dx, hx, sizeof hx));
    struct { CUdeviceptr x; float a; int n; } packed = { dx, 0.5f, N };
    size_t packed_size = sizeof packed;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                      CU_LAUNCH_PARAM_END };
    CK(cuLaunchKernel(scale, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, NULL, extra));
    CK(cuMemcpyDtoH(hx, dx, sizeof hx));
    printf("scale: %g %g %g\n", hx[1], hx[10], hx[999]);

    /* a __device__ global counted by atomics, set with cuMemsetD32 */
    CUdeviceptr counter;
    size_t counter_size;
    CK(cuModuleGetGlobal(&counter, &counter_size, mod, "counter"));
    CK(cuMemsetD32(counter, 5, 1));
    CK(cuLaunchKernel(bump, 8, 1, 1, 96, 1, 1, 0, NULL, NULL, NULL));
    CK(cuCtxSynchronize());
    int hcount = 0;
    CK(cuMemcpyDtoH(&hcount, counter, sizeof hcount));
    printf("counter: %d (size %zu)\n", hcount, counter_size);

    /* sets and device to device copies */
    unsigned char bytes[64];
    CK(cuMemsetD8(dc, 0xab, 64));
    CK(cuMemsetD16(dc + 64, 0x1234, 8));
    CK(cuMemcpyDtoD(db, dc, 80));
    CK(cuMemcpyDtoH(bytes, db, sizeof bytes));
    unsigned short shorts[8];
    CK(cuMemcpyDtoH(shorts, db + 64, sizeof shorts));
    printf("memset: %02x %02x %04x %04x\n", bytes[0], bytes[63], shorts[0], shorts[7]);

    /* function attributes and occupancy */
    int v;
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, add));
    printf("add max threads per block: %d\n", v);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, add));
    printf("add static shared: %d\n", v);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, add));
    printf("add ptx version: %d\n", v);
    int blocks = 0;
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add, 256, 0));
    printf("add occupancy at 256 threads: %d\n", blocks);
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add, 1024, 0));
    printf("add occupancy at 1024 threads: %d\n", blocks);

    /* pitched and host memory, pointer attributes */
    CUdeviceptr pitched;
    size_t pitch = 0;
    CK(cuMemAllocPitch(&pitched, &pitch, 100, 10, 4));
    printf("pitch for 100 bytes: %zu\n", pitch);
    void *host = NULL;
    CK(cuMemAllocHost(&host, 4096));
    unsigned mtype = 0;
    CK(cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)host));
    printf("host memory type: %u\n", mtype);
    CK(cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, da));
    printf("device memory type: %u\n", mtype);
    CUdeviceptr managed;
    CK(cuMemAllocManaged(&managed, 256, CU_MEM_ATTACH_GLOBAL));
    int *mp = (int *)(uintptr_t)managed;
    mp[0] = 41;
    void *mparams[] = { &managed, &managed, &managed, &n };
    n = 1;
    CK(cuMemcpyHtoD(coef, (int[4]){ 0, 0, 0, 0 }, 16));
    CK(cuLaunchKernel(add, 1, 1, 1, 1, 1, 1, 0, NULL, mparams, NULL));
    CK(cuCtxSynchronize());
    printf("managed: %d\n", mp[0]);
    void *host2 = NULL;
    CK(cuMemHostAlloc(&host2, 1024, CU_MEMHOSTALLOC_PORTABLE));
    size_t free_b = 0, total_b = 0;
    CK(cuMemGetInfo(&free_b, &total_b));
    printf("free <= total: %s\n", free_b <= total_b && total_b > 0 ? "yes" : "no");

    /* cuGetProcAddress finds the versioned entry point */
    CUresult (*alloc)(CUdeviceptr *, size_t) = NULL;
    CUdriverProcAddressQueryResult found;
    CK(cuGetProcAddress("cuMemAlloc", (void **)&alloc, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
    CUdeviceptr viaproc = 0;
    CK(alloc(&viaproc, 64));
    printf("cuGetProcAddress: found %d, allocated %s\n", found, viaproc ? "yes" : "no");
    CK(cuMemFree(viaproc));

    CK(cuMemFreeHost(host));
    CK(cuMemFreeHost(host2));
    CK(cuMemFree(managed));
    CK(cuMemFree(pitched));
    CK(cuMemFree(da));
    CK(cuMemFree(db));
    CK(cuMemFree(dc));
    CK(cuMemFree(dx));
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    free(ptx);
    printf("PASS\n");
    return 0;
}
