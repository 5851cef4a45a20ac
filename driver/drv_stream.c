/* drv_stream.c -- streams, events, stream callbacks and host functions: the runtime's, so that
 * a CUstream or CUevent is also a cudaStream_t or cudaEvent_t of the same device. */
#include <stdlib.h>

#include "driver/drv_internal.h"

/* The context each stream and event the driver created belongs to; handles the runtime
 * created (and the NULL stream of a thread the runtime runs in) belong to the primary one. */
struct owner {
    const void *handle;
    CUcontext ctx;
    struct owner *next;
};
static struct owner *owners;

static void owner_set(const void *handle, CUcontext ctx)
{
    struct owner *o = malloc(sizeof *o);
    if (!o)
        return;     /* the handle then counts as the primary context's */
    pthread_mutex_lock(&drv.lock);
    *o = (struct owner){ handle, ctx, owners };
    owners = o;
    pthread_mutex_unlock(&drv.lock);
}

static void owner_drop(const void *handle)
{
    pthread_mutex_lock(&drv.lock);
    for (struct owner **p = &owners; *p; p = &(*p)->next)
        if ((*p)->handle == handle) {
            struct owner *o = *p;
            *p = o->next;
            free(o);
            break;
        }
    pthread_mutex_unlock(&drv.lock);
}

static CUcontext owner_of(const void *handle)
{
    CUcontext c = &drv.primary;
    pthread_mutex_lock(&drv.lock);
    for (struct owner *o = owners; o; o = o->next)
        if (o->handle == handle) {
            c = o->ctx;
            break;
        }
    pthread_mutex_unlock(&drv.lock);
    return c;
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!phStream || (Flags & ~CU_STREAM_NON_BLOCKING)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaStreamCreateWithFlags(phStream, Flags))) == CUDA_SUCCESS)
        owner_set(*phStream, drv_ctx_current());
    return drv_return(r, "cuStreamCreate(%#x)", Flags);
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!phStream || (flags & ~CU_STREAM_NON_BLOCKING)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaStreamCreateWithPriority(phStream, flags, priority))) == CUDA_SUCCESS)
        owner_set(*phStream, drv_ctx_current());
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
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaStreamDestroy(hStream))) == CUDA_SUCCESS)
        owner_drop(hStream);
    return drv_return(r, "cuStreamDestroy(%p)", (void *)hStream);
}

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

/* Flags: CU_EVENT_WAIT_DEFAULT or CU_EVENT_WAIT_EXTERNAL (which matters to graph capture only). */
CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
DRV_STREAM_CALL("cuStreamGetId", cudaStreamGetId(hStream, streamId), (void *)hStream)

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && Flags > 1)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaStreamWaitEvent(hStream, hEvent, 0));
    return drv_return(r, "cuStreamWaitEvent(%p, %p, %#x)", (void *)hStream, (void *)hEvent, Flags);
}

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
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaEventCreateWithFlags(phEvent, Flags))) == CUDA_SUCCESS)
        owner_set(*phEvent, drv_ctx_current());
    return drv_return(r, "cuEventCreate(%#x)", Flags);
}

CUresult cuEventDestroy_v2(CUevent hEvent);
CUresult cuEventDestroy_v2(CUevent hEvent)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaEventDestroy(hEvent))) == CUDA_SUCCESS)
        owner_drop(hEvent);
    return drv_return(r, "cuEventDestroy(%p)", (void *)hEvent);
}

/* An event is recorded on a stream of its own context: the NULL stream is the current
 * context's, so recording there with another context current is an invalid handle. */
static CUresult record(CUevent e, CUstream s, unsigned flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && e && owner_of(e) != (s ? owner_of(s) : drv_ctx_current()))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaEventRecordWithFlags(e, s, flags));
    return r;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    return drv_return(record(hEvent, hStream, 0), "cuEventRecord(%p, %p)", (void *)hEvent, (void *)hStream);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return drv_return(record(hEvent, hStream, flags), "cuEventRecordWithFlags(%p, %p, %#x)", (void *)hEvent,
                      (void *)hStream, flags);
}

CUresult cuEventSynchronize(CUevent hEvent);
CUresult cuEventSynchronize(CUevent hEvent)
DRV_STREAM_CALL("cuEventSynchronize", cudaEventSynchronize(hEvent), (void *)hEvent)

CUresult cuEventQuery(CUevent hEvent);
CUresult cuEventQuery(CUevent hEvent)
DRV_STREAM_CALL("cuEventQuery", cudaEventQuery(hEvent), (void *)hEvent)

/* A NULL result pointer is an invalid handle to the driver (what an H100 returns). */
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pMilliseconds)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
    return drv_return(r, "cuEventElapsedTime(%p, %p)", (void *)hStart, (void *)hEnd);
}
#undef DRV_STREAM_CALL

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    unsigned flags;
    if (r == CUDA_SUCCESS && hStream)   /* a live stream (the runtime checks the handle) */
        r = DRV_CALL_RT(cudaStreamGetFlags(hStream, &flags));
    if (r == CUDA_SUCCESS)
        *pctx = hStream ? owner_of(hStream) : drv_ctx_current();
    return drv_return(r, "cuStreamGetCtx(%p)", (void *)hStream);
}
