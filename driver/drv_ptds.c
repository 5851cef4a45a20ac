/* drv_ptds.c -- the per-thread default stream entry points (_ptds, _ptsz) that cuda.h selects
 * under CUDA_API_PER_THREAD_DEFAULT_STREAM: the NULL stream becomes CU_STREAM_PER_THREAD. The
 * synchronous ones (_ptds) are the legacy calls, which order at least as strictly. */
#include "driver/drv_internal.h"

#define PER_THREAD(s) ((s) ? (s) : (CUstream)(uintptr_t)2)   /* CU_STREAM_PER_THREAD */

/* PTSZ(name, base, parameters, arguments): name calls base with the stream made per-thread. */
#define PTSZ(name, base, params, args)                                                             \
    CUresult base params;                                                                          \
    CUresult name params;                                                                          \
    CUresult name params { return base args; }
#define PTDS PTSZ

PTSZ(cuStreamQuery_ptsz, cuStreamQuery, (CUstream s), (PER_THREAD(s)))
PTSZ(cuStreamSynchronize_ptsz, cuStreamSynchronize, (CUstream s), (PER_THREAD(s)))
PTSZ(cuStreamGetFlags_ptsz, cuStreamGetFlags, (CUstream s, unsigned *flags), (PER_THREAD(s), flags))
PTSZ(cuStreamGetPriority_ptsz, cuStreamGetPriority, (CUstream s, int *priority), (PER_THREAD(s), priority))
PTSZ(cuStreamGetId_ptsz, cuStreamGetId, (CUstream s, unsigned long long *id), (PER_THREAD(s), id))
PTSZ(cuStreamWaitEvent_ptsz, cuStreamWaitEvent, (CUstream s, CUevent e, unsigned flags), (PER_THREAD(s), e, flags))
PTSZ(cuStreamAddCallback_ptsz, cuStreamAddCallback, (CUstream s, CUstreamCallback fn, void *data, unsigned flags),
     (PER_THREAD(s), fn, data, flags))
PTSZ(cuLaunchHostFunc_ptsz, cuLaunchHostFunc, (CUstream s, CUhostFn fn, void *data), (PER_THREAD(s), fn, data))
PTSZ(cuEventRecord_ptsz, cuEventRecord, (CUevent e, CUstream s), (e, PER_THREAD(s)))
PTSZ(cuEventRecordWithFlags_ptsz, cuEventRecordWithFlags, (CUevent e, CUstream s, unsigned flags),
     (e, PER_THREAD(s), flags))
PTSZ(cuLaunchKernel_ptsz, cuLaunchKernel,
     (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
      CUstream s, void **params, void **extra),
     (f, gx, gy, gz, bx, by, bz, shared, PER_THREAD(s), params, extra))
PTSZ(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel,
     (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
      CUstream s, void **params),
     (f, gx, gy, gz, bx, by, bz, shared, PER_THREAD(s), params))
PTSZ(cuMemAllocAsync_ptsz, cuMemAllocAsync, (CUdeviceptr *p, size_t n, CUstream s), (p, n, PER_THREAD(s)))
PTSZ(cuMemFreeAsync_ptsz, cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, PER_THREAD(s)))
PTSZ(cuMemcpyAsync_ptsz, cuMemcpyAsync, (CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s),
     (d, src, n, PER_THREAD(s)))
PTSZ(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2, (CUdeviceptr d, const void *h, size_t n, CUstream s),
     (d, h, n, PER_THREAD(s)))
PTSZ(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2, (void *h, CUdeviceptr d, size_t n, CUstream s),
     (h, d, n, PER_THREAD(s)))
PTSZ(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2, (CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s),
     (d, src, n, PER_THREAD(s)))
PTSZ(cuMemcpy2DAsync_v2_ptsz, cuMemcpy2DAsync_v2, (const CUDA_MEMCPY2D *c, CUstream s), (c, PER_THREAD(s)))
PTSZ(cuMemsetD8Async_ptsz, cuMemsetD8Async, (CUdeviceptr d, unsigned char v, size_t n, CUstream s),
     (d, v, n, PER_THREAD(s)))
PTSZ(cuMemsetD16Async_ptsz, cuMemsetD16Async, (CUdeviceptr d, unsigned short v, size_t n, CUstream s),
     (d, v, n, PER_THREAD(s)))
PTSZ(cuMemsetD32Async_ptsz, cuMemsetD32Async, (CUdeviceptr d, unsigned v, size_t n, CUstream s),
     (d, v, n, PER_THREAD(s)))
PTSZ(cuMemsetD2D8Async_ptsz, cuMemsetD2D8Async, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h,
     CUstream s), (d, p, v, w, h, PER_THREAD(s)))
PTSZ(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h,
     CUstream s), (d, p, v, w, h, PER_THREAD(s)))
PTSZ(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async, (CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h,
     CUstream s), (d, p, v, w, h, PER_THREAD(s)))

PTDS(cuMemcpy_ptds, cuMemcpy, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PTDS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2, (CUdeviceptr d, const void *h, size_t n), (d, h, n))
PTDS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2, (void *h, CUdeviceptr d, size_t n), (h, d, n))
PTDS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PTDS(cuMemcpy2D_v2_ptds, cuMemcpy2D_v2, (const CUDA_MEMCPY2D *c), (c))
PTDS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned_v2, (const CUDA_MEMCPY2D *c), (c))
PTDS(cuMemsetD8_v2_ptds, cuMemsetD8_v2, (CUdeviceptr d, unsigned char v, size_t n), (d, v, n))
PTDS(cuMemsetD16_v2_ptds, cuMemsetD16_v2, (CUdeviceptr d, unsigned short v, size_t n), (d, v, n))
PTDS(cuMemsetD32_v2_ptds, cuMemsetD32_v2, (CUdeviceptr d, unsigned v, size_t n), (d, v, n))
PTDS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h),
     (d, p, v, w, h))
PTDS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h),
     (d, p, v, w, h))
PTDS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2, (CUdeviceptr d, size_t p, unsigned v, size_t w, size_t h),
     (d, p, v, w, h))

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra);
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra);
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    if (!config)
        return cuLaunchKernelEx(config, f, params, extra);
    CUlaunchConfig c = *config;
    c.hStream = PER_THREAD(c.hStream);
    return cuLaunchKernelEx(&c, f, params, extra);
}
