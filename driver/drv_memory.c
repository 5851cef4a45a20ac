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
    size_t f = 0, t = 0;    /* either pointer may be NULL */
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaMemGetInfo(&f, &t));
    if (r == CUDA_SUCCESS && free_bytes)
        *free_bytes = f;
    if (r == CUDA_SUCCESS && total)
        *total = t;
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

/* Whether [p, p + n) is memory the device may use: a live allocation of Loom's, or host
 * memory the runtime pinned or registered. Loom's device addresses are host addresses, so
 * freed memory must be refused here, before a copy writes into the host's heap. */
static CUresult device_range(const void *p, size_t n)
{
    uint64_t base = 0;
    size_t size = 0;
    bool managed;
    if (loom_pointer_info(drv_device(), (uint64_t)(uintptr_t)p, &base, &size, &managed) == LOOM_OK)
        return (uint64_t)(uintptr_t)p - base + n <= size ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    CUresult r = DRV_CALL_RT(cudaPointerGetAttributes(&a, p));
    return r == CUDA_SUCCESS && a.type != cudaMemoryTypeUnregistered ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* Copies: Loom's addresses are host addresses, so one copy serves every direction once the
 * device sides (dev_dst, dev_src) are known to be device memory. */
static CUresult copy(void *dst, const void *src, size_t n, CUstream s, bool async, bool dev_dst, bool dev_src)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && n && dev_dst)
        r = device_range(dst, n);
    if (r == CUDA_SUCCESS && n && dev_src)
        r = device_range(src, n);
    if (r == CUDA_SUCCESS)
        r = async ? DRV_CALL_RT(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s))
                  : DRV_CALL_RT(cudaMemcpy(dst, src, n, cudaMemcpyDefault));
    return r;
}

#define DRV_COPY(name, aname, dtype, stype, dexpr, sexpr, ddev, sdev)                              \
    CUresult name(dtype dst, stype src, size_t n);                                                   \
    CUresult name(dtype dst, stype src, size_t n)                                                    \
    {                                                                                                \
        return drv_return(copy(dexpr, sexpr, n, NULL, false, ddev, sdev), #name "(%p, %p, %zu)", dexpr, sexpr, n); \
    }                                                                                                \
    CUresult aname(dtype dst, stype src, size_t n, CUstream s);                                      \
    CUresult aname(dtype dst, stype src, size_t n, CUstream s)                                       \
    {                                                                                                \
        return drv_return(copy(dexpr, sexpr, n, s, true, ddev, sdev), #aname "(%p, %p, %zu, %p)", dexpr, sexpr, n, \
                          (void *)s);                                                                \
    }
DRV_COPY(cuMemcpyHtoD_v2, cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, PTR(dst), (const void *)src, true, false)
DRV_COPY(cuMemcpyDtoH_v2, cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, dst, (const void *)PTR(src), false, true)
DRV_COPY(cuMemcpyDtoD_v2, cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, PTR(dst), (const void *)PTR(src), true, true)
DRV_COPY(cuMemcpy, cuMemcpyAsync, CUdeviceptr, CUdeviceptr, PTR(dst), (const void *)PTR(src), false, false)
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
    if (n > SIZE_MAX / width || (r = device_range(PTR(dst), n * width)) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_VALUE;
    if (width == 1)
        return async ? DRV_CALL_RT(cudaMemsetAsync(PTR(dst), (int)(value & 0xff), n, s))
                     : DRV_CALL_RT(cudaMemset(PTR(dst), (int)(value & 0xff), n));
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

/* Stream-ordered allocation: the runtime's (one pool for both APIs). */
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !dptr)
        r = CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaMallocAsync(&p, bytesize, hStream))) == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_return(r, "cuMemAllocAsync(%zu, %p) -> %p", bytesize, (void *)hStream, p);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaFreeAsync(PTR(dptr), hStream));
    return drv_return(r, "cuMemFreeAsync(%p, %p)", PTR(dptr), (void *)hStream);
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags);
CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaHostRegister(p, bytesize, Flags));
    return drv_return(r, "cuMemHostRegister(%p, %zu, %#x)", p, bytesize, Flags);
}

CUresult cuMemHostUnregister(void *p);
CUresult cuMemHostUnregister(void *p)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaHostUnregister(p));
    return drv_return(r, "cuMemHostUnregister(%p)", p);
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pdptr)
        r = CUDA_ERROR_INVALID_VALUE;
    void *d = NULL;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaHostGetDevicePointer(&d, p, Flags))) == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr)(uintptr_t)d;
    return drv_return(r, "cuMemHostGetDevicePointer(%p)", p);
}

/* One side of a 2D copy: its first byte, from the memory type (arrays are not supported). */
static CUresult side(int type, const void *host, CUdeviceptr dev, const void *array, size_t x, size_t y,
                     size_t pitch, const char **out)
{
    const char *base;
    if (type == CU_MEMORYTYPE_HOST)
        base = host;
    else if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED)
        base = PTR(dev);
    else if (type == CU_MEMORYTYPE_ARRAY && array)
        return drv_unsupported("cuMemcpy2D with a CUDA array");
    else
        return CUDA_ERROR_INVALID_VALUE;
    if (!base)
        return CUDA_ERROR_INVALID_VALUE;
    *out = base + y * pitch + x;
    return CUDA_SUCCESS;
}

static CUresult copy_2d(const CUDA_MEMCPY2D *c, CUstream s, bool async)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !c)
        r = CUDA_ERROR_INVALID_VALUE;
    const char *src = NULL, *dst = NULL;
    if (r == CUDA_SUCCESS)
        r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, c->srcPitch, &src);
    if (r == CUDA_SUCCESS)
        r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, c->dstPitch, &dst);
    size_t sp = 0, dp = 0;
    if (r == CUDA_SUCCESS) {
        sp = c->Height > 1 ? c->srcPitch : c->WidthInBytes;
        dp = c->Height > 1 ? c->dstPitch : c->WidthInBytes;
    }
    /* the device sides' extents: Height - 1 pitches and one row */
    if (r == CUDA_SUCCESS && c->WidthInBytes && c->Height && c->srcMemoryType == CU_MEMORYTYPE_DEVICE)
        r = device_range(src, (c->Height - 1) * sp + c->WidthInBytes);
    if (r == CUDA_SUCCESS && c->WidthInBytes && c->Height && c->dstMemoryType == CU_MEMORYTYPE_DEVICE)
        r = device_range(dst, (c->Height - 1) * dp + c->WidthInBytes);
    if (r == CUDA_SUCCESS) {
        r = async ? DRV_CALL_RT(cudaMemcpy2DAsync((void *)dst, dp, src, sp, c->WidthInBytes, c->Height,
                                                  cudaMemcpyDefault, s))
                  : DRV_CALL_RT(cudaMemcpy2D((void *)dst, dp, src, sp, c->WidthInBytes, c->Height, cudaMemcpyDefault));
    }
    return r;
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return drv_return(copy_2d(pCopy, NULL, false), "cuMemcpy2D(%p)", (const void *)pCopy);
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    return drv_return(copy_2d(pCopy, NULL, false), "cuMemcpy2DUnaligned(%p)", (const void *)pCopy);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return drv_return(copy_2d(pCopy, hStream, true), "cuMemcpy2DAsync(%p, %p)", (const void *)pCopy,
                      (void *)hStream);
}

/* 2D sets: one row at a time (rows of 16 and 32-bit values through set()). */
static CUresult set_2d(CUdeviceptr dst, size_t pitch, unsigned value, unsigned width, size_t w, size_t h, CUstream s,
                       bool async)
{
    if (h > 1 && pitch < w * width)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    for (size_t y = 0; y < h && r == CUDA_SUCCESS; y++) {
        r = set(dst + y * pitch, value, width, w, s, async);
        DRV_RT->leave();
    }
    return r;
}

#define DRV_SET_2D(name, width, vtype)                                                              \
    CUresult name(CUdeviceptr dst, size_t pitch, vtype value, size_t w, size_t h);                  \
    CUresult name(CUdeviceptr dst, size_t pitch, vtype value, size_t w, size_t h)                   \
    {                                                                                               \
        return drv_return(set_2d(dst, pitch, value, width, w, h, NULL, false), #name "(%p, %zu, %zu, %zu)", \
                          PTR(dst), pitch, w, h);                                                   \
    }
#define DRV_SET_2D_ASYNC(name, width, vtype)                                                        \
    CUresult name(CUdeviceptr dst, size_t pitch, vtype value, size_t w, size_t h, CUstream s);      \
    CUresult name(CUdeviceptr dst, size_t pitch, vtype value, size_t w, size_t h, CUstream s)       \
    {                                                                                               \
        return drv_return(set_2d(dst, pitch, value, width, w, h, s, true), #name "(%p, %zu, %zu, %zu, %p)", \
                          PTR(dst), pitch, w, h, (void *)s);                                        \
    }
DRV_SET_2D(cuMemsetD2D8_v2, 1, unsigned char)
DRV_SET_2D(cuMemsetD2D16_v2, 2, unsigned short)
DRV_SET_2D(cuMemsetD2D32_v2, 4, unsigned int)
DRV_SET_2D_ASYNC(cuMemsetD2D8Async, 1, unsigned char)
DRV_SET_2D_ASYNC(cuMemsetD2D16Async, 2, unsigned short)
DRV_SET_2D_ASYNC(cuMemsetD2D32Async, 4, unsigned int)
#undef DRV_SET_2D
#undef DRV_SET_2D_ASYNC

/* Prefetches and advice change where a GPU keeps managed memory; on Loom it is always where
 * both sides reach it, so a valid range is all they need. */
typedef struct { int type, id; } drv_mem_location;

static CUresult managed_range(CUdeviceptr p, size_t n)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!n || device_range(PTR(p), n) != CUDA_SUCCESS))
        r = CUDA_ERROR_INVALID_VALUE;
    return r;
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, drv_mem_location location, unsigned int flags,
                               CUstream hStream);
CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, drv_mem_location location, unsigned int flags,
                               CUstream hStream)
{
    CUresult r = managed_range(devPtr, count);
    struct loom_stream *ls;
    if (r == CUDA_SUCCESS)
        r = drv_from_cuda(DRV_RT->stream_resolve(hStream, false, &ls));
    return drv_return(r, "cuMemPrefetchAsync(%p, %zu, location %d/%d, %#x, %p)", PTR(devPtr), count, location.type,
                      location.id, flags, (void *)hStream);
}

CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, int advice, drv_mem_location location);
CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, int advice, drv_mem_location location)
{
    CUresult r = managed_range(devPtr, count);
    if (r == CUDA_SUCCESS && (advice < 1 || advice > 6))
        r = CUDA_ERROR_INVALID_VALUE;
    return drv_return(r, "cuMemAdvise(%p, %zu, %d, location %d/%d)", PTR(devPtr), count, advice, location.type,
                      location.id);
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr);
CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && (!numAttributes || !attributes || !data))
        r = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < numAttributes; i++)
        r = cuPointerGetAttribute(data[i], attributes[i], ptr);
    return drv_return(r, "cuPointerGetAttributes(%u, %p)", numAttributes, PTR(ptr));
}
