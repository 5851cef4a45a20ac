/* drv_query.c -- enumeration, stream contexts, pointer attributes, managed-memory advice, peers,
 * cache preferences, ids, flags, the PCI bus id; checked here, so it ends with PASS anywhere. */
#include <string.h>

#include "drv_check.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: drv_query KERNELS.ptx\n");
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx, other;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char *ptx = drv_read_file(argv[1]);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));

    unsigned count = 0;
    CK(cuModuleGetFunctionCount(&count, mod));
    EXPECT(count == 4);
    CUfunction fns[4];
    CK(cuModuleEnumerateFunctions(fns, 4, mod));
    CUfunction add;
    CK(cuModuleGetFunction(&add, mod, "add"));
    int found = 0;
    for (unsigned i = 0; i < 4; i++) {
        const char *name;
        CK(cuFuncGetName(&name, fns[i]));
        found += strcmp(name, "add") == 0 && fns[i] == add;
        CUmodule m;
        CK(cuFuncGetModule(&m, fns[i]));
        EXPECT(m == mod);
    }
    EXPECT(found == 1);

    CUstream s;
    CK(cuStreamCreate(&s, 0));
    CK(cuCtxCreate(&other, NULL, 0, dev));
    CUcontext sc = NULL;
    CK(cuStreamGetCtx(s, &sc));
    EXPECT(sc == ctx);
    CK(cuStreamGetCtx(NULL, &sc));
    EXPECT(sc == other);
    unsigned long long id1 = 0, id2 = 0, sid = 0;
    CK(cuCtxGetId(ctx, &id1));
    CK(cuCtxGetId(NULL, &id2));
    EXPECT(id1 != id2);
    CK(cuStreamGetId(s, &sid));
    CK(cuCtxSetFlags(CU_CTX_SCHED_YIELD));
    unsigned cflags = 0;
    CK(cuCtxGetFlags(&cflags));
    EXPECT(cflags == CU_CTX_SCHED_YIELD);
    CK(cuCtxPopCurrent(NULL));
    char bus[32];
    CK(cuDeviceGetPCIBusId(bus, sizeof bus, dev));
    CUdevice same = -1;
    CK(cuDeviceGetByPCIBusId(&same, bus));
    EXPECT(same == dev);

    CUdeviceptr m;
    CK(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
    CUmemLocation loc = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
    CK(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc));
    CK(cuMemPrefetchAsync(m, 4096, loc, 0, s));
    CK(cuStreamSynchronize(s));
    CUpointer_attribute attrs[] = { CU_POINTER_ATTRIBUTE_IS_MANAGED, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL };
    unsigned managed = 0;
    size_t range = 0;
    int ordinal = -1;
    void *data[] = { &managed, &range, &ordinal };
    CK(cuPointerGetAttributes(3, attrs, data, m + 100));
    EXPECT(managed == 1 && range == 4096 && ordinal == 0);

    int peer = -1;
    CK(cuDeviceCanAccessPeer(&peer, dev, dev));
    EXPECT(peer == 0);
    CUfunc_cache cache;
    CK(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1));
    CK(cuCtxGetCacheConfig(&cache));
    EXPECT(cache == CU_FUNC_CACHE_PREFER_L1);

    CK(cuMemFree(m));
    CK(cuStreamDestroy(s));
    CK(cuCtxDestroy(other));
    CK(cuModuleUnload(mod));
    free(ptx);
    printf("PASS\n");
    return 0;
}
