/* drv_stream.c -- streams, events, stream callbacks and host functions: the runtime's, so that
 * a CUstream or CUevent is also a cudaStream_t or cudaEvent_t of the same device. */
#include <stdlib.h>

#include "driver/drv_internal.h"

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!phStream || (Flags & ~CU_STREAM_NON_BLOCKING)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaStreamCreateWithFlags(phStream, Flags));
    return drv_return(r, "cuStreamCreate(%#x)", Flags);
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!phStream || (flags & ~CU_STREAM_NON_BLOCKING)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaStreamCreateWithPriority(phStream, flags, priority));
    return drv_return(r, "cuStreamCreateWithPriority(%#x, %d)", flags, priority);
}

/* The calls below take a stream the runtime resolves (NULL is the legacy default stream). */
#define DRV_STREAM_CALL(name, rtcall, ...)                                                           \
    {                                                                                                \
        CUresult r = drv_enter(true);                                                                \
        if (r == CUDA_SUCCESS)                                                                       \
            r = DRV_CALL_RT(rtcall);                                                                 \
        return drv_return(r, name "(%p)", __VA_ARGS__);                                              \
    }

CUresult cuStreamDestroy_v2(CUstream hStream);
CUresult cuStreamDestroy_v2(CUstream hStream)
DRV_STREAM_CALL("cuStreamDestroy", cudaStreamDestroy(hStream), (void *)hStream)

CUresult cuStreamSynchronize(CUstream hStream);
CUresult cuStreamSynchronize(CUstream hStream)
DRV_STREAM_CALL("cuStreamSynchronize", cudaStreamSynchronize(hStream), (void *)hStream)

CUresult cuStreamQuery(CUstream hStream);
CUresult cuStreamQuery(CUstream hStream)
DRV_STREAM_CALL("cuStreamQuery", cudaStreamQuery(hStream), (void *)hStream)

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
DRV_STREAM_CALL("cuStreamGetFlags", cudaStreamGetFlags(hStream, flags), (void *)hStream)

CUresult cuStreamGetPriority(CUstream hStream, int *priority);
CUresult cuStreamGetPriority(CUstream hStream, int *priority)
DRV_STREAM_CALL("cuStreamGetPriority", cudaStreamGetPriority(hStream, priority), (void *)hStream)

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
DRV_STREAM_CALL("cuStreamWaitEvent", cudaStreamWaitEvent(hStream, hEvent, Flags), (void *)hStream)

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
DRV_STREAM_CALL("cuLaunchHostFunc", cudaLaunchHostFunc(hStream, fn, userData), (void *)hStream)

/* The runtime's callback gets a cudaError_t, the driver's a CUresult: the same int, and a
 * callback only runs once the stream's earlier work has succeeded. */
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
DRV_STREAM_CALL("cuStreamAddCallback",
                cudaStreamAddCallback(hStream, (cudaStreamCallback_t)(void (*)(void))callback, userData, flags),
                (void *)hStream)

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!phEvent || (Flags & ~CU_EVENT_FLAGS_MASK)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaEventCreateWithFlags(phEvent, Flags));
    return drv_return(r, "cuEventCreate(%#x)", Flags);
}

CUresult cuEventDestroy_v2(CUevent hEvent);
CUresult cuEventDestroy_v2(CUevent hEvent)
DRV_STREAM_CALL("cuEventDestroy", cudaEventDestroy(hEvent), (void *)hEvent)

CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
DRV_STREAM_CALL("cuEventRecord", cudaEventRecord(hEvent, hStream), (void *)hEvent)

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
DRV_STREAM_CALL("cuEventRecordWithFlags", cudaEventRecordWithFlags(hEvent, hStream, flags), (void *)hEvent)

CUresult cuEventSynchronize(CUevent hEvent);
CUresult cuEventSynchronize(CUevent hEvent)
DRV_STREAM_CALL("cuEventSynchronize", cudaEventSynchronize(hEvent), (void *)hEvent)

CUresult cuEventQuery(CUevent hEvent);
CUresult cuEventQuery(CUevent hEvent)
DRV_STREAM_CALL("cuEventQuery", cudaEventQuery(hEvent), (void *)hEvent)

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
DRV_STREAM_CALL("cuEventElapsedTime", cudaEventElapsedTime(pMilliseconds, hStart, hEnd), (void *)hStart)
#undef DRV_STREAM_CALL
