/* drv_cuda.h -- the part of CUDA 13's driver API (cuda.h) that Loom's libcuda.so.1 implements:
 * types, constants and the values the entry points take, so that Loom builds without CUDA. */
#ifndef DRV_CUDA_H
#define DRV_CUDA_H

#include <stddef.h>
#include <stdint.h>

#define DRV_CUDA_VERSION 13000

typedef enum {
#define DRV_ERROR(value, name, message) name = value,
#include "driver/drv_errors.def"
#undef DRV_ERROR
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUpointer_attribute;
typedef int CUjit_option;
typedef struct { char bytes[16]; } CUuuid;
typedef void (*CUstreamCallback)(CUstream stream, CUresult status, void *data);
typedef void (*CUhostFn)(void *data);

enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
};

enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13,
};

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

#define CU_CTX_FLAGS_MASK 0xffu
#define CU_STREAM_NON_BLOCKING 0x1u
#define CU_EVENT_FLAGS_MASK 0x7u      /* blocking sync, disable timing, interprocess */
#define CU_MEM_ATTACH_GLOBAL 0x1u
#define CU_MEM_ATTACH_HOST 0x2u
#define CU_LAUNCH_PARAM_END ((void *)0)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)

/* cuLaunchKernelEx's configuration and attributes */
enum { CU_LAUNCH_ATTRIBUTE_IGNORE = 0, CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };
typedef struct {
    int id;
    char pad[4];
    union {
        char pad[64];
        int cooperative;
        struct { unsigned x, y, z; } clusterDim;
    } value;
} CUlaunchAttribute;
typedef struct {
    unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
    unsigned sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned numAttrs;
} CUlaunchConfig;

/* cuMemcpy2D's description of a copy (arrays are not supported) */
typedef struct {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;

/* cuGetProcAddress's flags and query results */
#define CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM 0x2u
enum {
    CU_GET_PROC_ADDRESS_SUCCESS = 0,
    CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
    CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
};
typedef int CUdriverProcAddressQueryResult;

#endif
