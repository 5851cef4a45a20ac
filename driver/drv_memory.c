/* drv_memory.c -- device, pitched, host and managed memory, copies and sets, pointer attributes:
 * the runtime's calls where it has them (one set of allocations for both APIs), Loom's otherwise. */
#include <stdlib.h>
#include <string.h>

#include "driver/drv_internal.h"

#define PTR(d) ((void *)(uintptr_t)(d))

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!dptr || !bytesize))
        r = CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaMalloc(&p, bytesize))) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_return(r, "cuMemAlloc(%zu) -> %p", bytesize, p);
}

CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaFree(PTR(dptr)));
    return drv_return(r, "cuMemFree(%p)", PTR(dptr));
}

/* Element sizes of 4, 8 and 16 bytes are allowed; the runtime chooses the pitch. */
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes);
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!dptr || !pPitch || !WidthInBytes || !Height ||
                              (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)))
        r = CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaMallocPitch(&p, pPitch, WidthInBytes, Height))) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_return(r, "cuMemAllocPitch(%zu, %zu, %u) -> %p", WidthInBytes, Height, ElementSizeBytes, p);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!dptr || !bytesize || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)))
        r = CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaMallocManaged(&p, bytesize, flags))) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_return(r, "cuMemAllocManaged(%zu, %#x) -> %p", bytesize, flags, p);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pp)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaHostAlloc(pp, bytesize, Flags));
    return drv_return(r, "cuMemHostAlloc(%zu, %#x)", bytesize, Flags);
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return cuMemHostAlloc(pp, bytesize, 0);
}

CUresult cuMemFreeHost(void *p);
CUresult cuMemFreeHost(void *p)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaFreeHost(p));
    return drv_return(r, "cuMemFreeHost(%p)", p);
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!free_bytes || !total))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaMemGetInfo(free_bytes, total));
    return drv_return(r, "cuMemGetInfo()");
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    CUresult r = drv_enter(true);
    uint64_t base = 0;
    size_t size = 0;
    bool managed;
    if (r == CUDA_SUCCESS && loom_pointer_info(drv_device(), dptr, &base, &size, &managed) != LOOM_OK)
        r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS) {
        if (pbase)
            *pbase = base;
        if (psize)
            *psize = size;
    }
    return drv_return(r, "cuMemGetAddressRange(%p)", PTR(dptr));
}

/* Copies: Loom's addresses are host addresses, so one copy serves every direction. */
static CUresult copy(void *dst, const void *src, size_t n, CUstream s, bool async)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = async ? DRV_CALL_RT(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s))
                  : DRV_CALL_RT(cudaMemcpy(dst, src, n, cudaMemcpyDefault));
    return r;
}

#define DRV_COPY(name, aname, dtype, stype, dexpr, sexpr)                                          \
    CUresult name(dtype dst, stype src, size_t n);                                                   \
    CUresult name(dtype dst, stype src, size_t n)                                                    \
    {                                                                                                \
        return drv_return(copy(dexpr, sexpr, n, NULL, false), #name "(%p, %p, %zu)", dexpr, sexpr, n); \
    }                                                                                                \
    CUresult aname(dtype dst, stype src, size_t n, CUstream s);                                      \
    CUresult aname(dtype dst, stype src, size_t n, CUstream s)                                       \
    {                                                                                                \
        return drv_return(copy(dexpr, sexpr, n, s, true), #aname "(%p, %p, %zu, %p)", dexpr, sexpr, n, \
                          (void *)s);                                                                \
    }
DRV_COPY(cuMemcpyHtoD_v2, cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, PTR(dst), (const void *)src)
DRV_COPY(cuMemcpyDtoH_v2, cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, dst, (const void *)PTR(src))
DRV_COPY(cuMemcpyDtoD_v2, cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, PTR(dst), (const void *)PTR(src))
DRV_COPY(cuMemcpy, cuMemcpyAsync, CUdeviceptr, CUdeviceptr, PTR(dst), (const void *)PTR(src))
#undef DRV_COPY

/* Sets of 8, 16 or 32-bit values. Bytes go through the runtime's memset; wider values are
 * copied from a host pattern, freed after the copy on the stream (asynchronous ones). */
static void free_pattern(void *p)
{
    free(p);
}

static CUresult set(CUdeviceptr dst, unsigned value, unsigned width, size_t n, CUstream s, bool async)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && dst % width)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS || !n)
        return r;
    if (width == 1)
        return async ? DRV_CALL_RT(cudaMemsetAsync(PTR(dst), (int)(value & 0xff), n, s))
                     : DRV_CALL_RT(cudaMemset(PTR(dst), (int)(value & 0xff), n));
    if (n > SIZE_MAX / width)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned char *pat = malloc(n * width);
    if (!pat)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        uint16_t v16 = (uint16_t)value;
        uint32_t v32 = value;
        memcpy(pat + i * width, width == 2 ? (void *)&v16 : (void *)&v32, width);
    }
    struct loom_stream *ls = NULL;
    r = async ? drv_from_cuda(DRV_RT->stream_resolve(s, false, &ls)) : CUDA_SUCCESS;
    if (r == CUDA_SUCCESS && !async) {
        r = drv_check(loom_memcpy(drv_device(), PTR(dst), pat, n * width));
        free(pat);
    } else if (r == CUDA_SUCCESS) {
        r = drv_check(loom_memcpy_async(drv_device(), PTR(dst), pat, n * width, ls));
        if (r != CUDA_SUCCESS || DRV_RT->add_host_func(ls, free_pattern, pat) != LOOM_OK)
            free(pat);  /* an enqueue that failed copies nothing; a failed free-after waits below */
    } else {
        free(pat);
    }
    return r;
}

#define DRV_SET(name, width, vtype)                                                                 \
    CUresult name(CUdeviceptr dst, vtype value, size_t n);                                          \
    CUresult name(CUdeviceptr dst, vtype value, size_t n)                                           \
    {                                                                                               \
        return drv_return(set(dst, value, width, n, NULL, false), #name "(%p, %#x, %zu)", PTR(dst), \
                          (unsigned)value, n);                                                      \
    }
#define DRV_SET_ASYNC(name, width, vtype)                                                           \
    CUresult name(CUdeviceptr dst, vtype value, size_t n, CUstream s);                              \
    CUresult name(CUdeviceptr dst, vtype value, size_t n, CUstream s)                               \
    {                                                                                               \
        return drv_return(set(dst, value, width, n, s, true), #name "(%p, %#x, %zu, %p)", PTR(dst), \
                          (unsigned)value, n, (void *)s);                                           \
    }
DRV_SET(cuMemsetD8_v2, 1, unsigned char)
DRV_SET(cuMemsetD16_v2, 2, unsigned short)
DRV_SET(cuMemsetD32_v2, 4, unsigned int)
DRV_SET_ASYNC(cuMemsetD8Async, 1, unsigned char)
DRV_SET_ASYNC(cuMemsetD16Async, 2, unsigned short)
DRV_SET_ASYNC(cuMemsetD32Async, 4, unsigned int)
#undef DRV_SET
#undef DRV_SET_ASYNC

/* Pointer attributes, from the runtime's view of the pointer. */
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !data)
        r = CUDA_ERROR_INVALID_VALUE;
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaPointerGetAttributes(&a, PTR(ptr)));
    if (r == CUDA_SUCCESS && a.type == cudaMemoryTypeUnregistered && attribute != CU_POINTER_ATTRIBUTE_MAPPED)
        r = CUDA_ERROR_INVALID_VALUE;
    uint64_t base = 0;
    size_t size = 0;
    bool managed = false;
    if (r == CUDA_SUCCESS) {
        bool known = loom_pointer_info(drv_device(), ptr, &base, &size, &managed) == LOOM_OK;
        switch (attribute) {
        case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = drv_ctx_current(); break;
        case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
            *(unsigned *)data = a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
            break;
        case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)a.devicePointer; break;
        case CU_POINTER_ATTRIBUTE_HOST_POINTER: *(void **)data = a.hostPointer; break;
        case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned *)data = a.type == cudaMemoryTypeManaged; break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
        case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = known ? base : ptr; break;
        case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = known ? size : 0; break;
        case CU_POINTER_ATTRIBUTE_MAPPED: *(unsigned *)data = a.type != cudaMemoryTypeUnregistered; break;
        default: r = drv_unsupported("cuPointerGetAttribute of this attribute"); break;
        }
    }
    return drv_return(r, "cuPointerGetAttribute(%d, %p)", (int)attribute, PTR(ptr));
}
