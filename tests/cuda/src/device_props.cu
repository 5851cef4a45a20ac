// device_props.cu -- device management: count, set/get, properties against attributes,
// versions, limits (printf FIFO, heap, stack), priorities, flags, cache configuration.
#include <cstring>
#include "check.h"

int main()
{
    int count = 0, dev = -1;
    CK(cudaGetDeviceCount(&count));
    CK(cudaSetDevice(0));
    CK(cudaGetDevice(&dev));
    printf("devices >= 1: %s, current %d\n", count >= 1 ? "yes" : "no", dev);
    EXPECT(count >= 1 && dev == 0);
    cudaError_t e = cudaSetDevice(count);
    printf("cudaSetDevice(count): %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidDevice);
    cudaGetLastError();

    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("info: %s, compute capability %d.%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
    struct { cudaDeviceAttr attr; long long prop; const char *name; } pairs[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "maxThreadsPerBlock"},
        {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "maxThreadsDim[0]"},
        {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "maxThreadsDim[2]"},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0], "maxGridSize[0]"},
        {cudaDevAttrMaxGridDimY, p.maxGridSize[1], "maxGridSize[1]"},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock, "sharedMemPerBlock"},
        {cudaDevAttrWarpSize, p.warpSize, "warpSize"},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "multiProcessorCount"},
        {cudaDevAttrComputeCapabilityMajor, p.major, "major"},
        {cudaDevAttrComputeCapabilityMinor, p.minor, "minor"},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "maxThreadsPerMultiProcessor"},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor, "sharedMemPerMultiprocessor"},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "regsPerBlock"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin, "sharedMemPerBlockOptin"},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor, "maxBlocksPerMultiProcessor"},
        {cudaDevAttrL2CacheSize, p.l2CacheSize, "l2CacheSize"},
        {cudaDevAttrManagedMemory, p.managedMemory, "managedMemory"},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "cooperativeLaunch"},
        {cudaDevAttrUnifiedAddressing, p.unifiedAddressing, "unifiedAddressing"},
        {cudaDevAttrConcurrentKernels, p.concurrentKernels, "concurrentKernels"},
    };
    int mismatched = 0;
    for (auto &q : pairs) {
        int v = -1;
        CK(cudaDeviceGetAttribute(&v, q.attr, 0));
        if (v != q.prop) {
            printf("attribute %s: %d, property %lld\n", q.name, v, q.prop);
            mismatched++;
        }
    }
    printf("attributes agreeing with properties: %d of %d\n", (int)(sizeof pairs / sizeof pairs[0]) - mismatched,
           (int)(sizeof pairs / sizeof pairs[0]));
    EXPECT(mismatched == 0);
    EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.major >= 7);
    EXPECT(p.totalGlobalMem > ((size_t)1 << 30) && p.unifiedAddressing == 1 && p.managedMemory == 1);
    EXPECT(strlen(p.name) > 0);

    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("runtime version %d, driver at least runtime: %s\n", rt, drv >= rt ? "yes" : "no");
    EXPECT(rt == 13000 && drv >= rt);

    size_t v = 0;
    CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
    CK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    printf("printf FIFO limit %zu\n", v);
    EXPECT(v == (4 << 20));
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
    CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    printf("malloc heap limit %zu\n", v);
    EXPECT(v == (16 << 20));
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    printf("info: stack limit %zu\n", v);
    EXPECT(v > 0);

    int least = 1, greatest = 1;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("stream priorities from %d to %d\n", least, greatest);
    EXPECT(least == 0 && greatest < 0);
    cudaFuncCache cc;
    CK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CK(cudaDeviceGetCacheConfig(&cc));
    printf("info: cache config %d\n", (int)cc);
    unsigned flags = 0;
    CK(cudaGetDeviceFlags(&flags));
    int peer = -1;
    if (count == 1) {
        e = cudaDeviceCanAccessPeer(&peer, 0, 0);
        printf("peer access to itself: %s\n", cudaGetErrorName(e));
        cudaGetLastError();
    }
    CK(cudaDeviceSynchronize());
    return finish();
}
