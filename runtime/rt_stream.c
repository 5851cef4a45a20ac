/* rt_stream.c -- streams (legacy and per-thread default streams, flags, priorities),
 * events and host callbacks, mapped onto Loom's asynchronous streams. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_internal.h"

static void destroy_event(void *p)
{
    loom_event_destroy(p);
}

/* Live stream and event handles the program created, sorted by address. A handle is
 * checked by looking it up here, never by reading through it: after cudaStreamDestroy
 * or cudaEventDestroy it points at freed memory, and a wild one at anything. */
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static const void **handles;
static size_t nhandles, handles_cap;

/* Index of the first handle not below h (caller holds handles_lock). */
static size_t handle_pos(const void *h)
{
    size_t lo = 0, hi = nhandles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)handles[mid] < (uintptr_t)h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool handle_live(const void *h)
{
    pthread_mutex_lock(&handles_lock);
    size_t i = handle_pos(h);
    bool live = h && i < nhandles && handles[i] == h;
    pthread_mutex_unlock(&handles_lock);
    return live;
}

static bool handle_add(const void *h)
{
    pthread_mutex_lock(&handles_lock);
    bool ok = true;
    if (nhandles == handles_cap) {
        size_t ncap = handles_cap ? 2 * handles_cap : 64;
        const void **nv = realloc(handles, ncap * sizeof *nv);
        if (nv) {
            handles = nv;
            handles_cap = ncap;
        } else {
            ok = false;
        }
    }
    if (ok) {
        size_t i = handle_pos(h);
        memmove(&handles[i + 1], &handles[i], (nhandles - i) * sizeof *handles);
        handles[i] = h;
        nhandles++;
    }
    pthread_mutex_unlock(&handles_lock);
    return ok;
}

static void handle_del(const void *h)
{
    pthread_mutex_lock(&handles_lock);
    size_t i = handle_pos(h);
    if (i < nhandles && handles[i] == h) {
        memmove(&handles[i], &handles[i + 1], (nhandles - i - 1) * sizeof *handles);
        nhandles--;
    }
    pthread_mutex_unlock(&handles_lock);
}

/* The per-thread default stream of each host thread, created on first use and
 * destroyed when the thread exits. */
static _Thread_local struct CUstream_st *thread_stream;
static pthread_key_t thread_stream_key;
static pthread_once_t thread_stream_once = PTHREAD_ONCE_INIT;

static void thread_stream_exit(void *p)
{
    struct CUstream_st *s = p;
    if (s && s->ls)
        loom_stream_destroy(s->ls);
    free(s);
}

static void thread_stream_key_init(void)
{
    pthread_key_create(&thread_stream_key, thread_stream_exit);
}

static cudaError_t per_thread_stream(struct loom_stream **out_ls)
{
    if (!thread_stream) {
        pthread_once(&thread_stream_once, thread_stream_key_init);
        struct CUstream_st *s = calloc(1, sizeof *s);
        if (!s)
            return cudaErrorMemoryAllocation;
        enum loom_status st = loom_stream_create(rt.dev, cudaStreamDefault, 0, &s->ls);
        if (st != LOOM_OK) {
            free(s);
            return rt_error_from_status(st);
        }
        s->magic = RT_STREAM_MAGIC;
        s->per_thread = true;
        thread_stream = s;
        pthread_setspecific(thread_stream_key, s);
    }
    *out_ls = thread_stream->ls;
    return cudaSuccess;
}

enum loom_status rt_add_host_func(struct loom_stream *ls, void (*fn)(void *), void *data)
{
    return ls ? loom_stream_add_host_func(ls, fn, data) : loom_device_add_host_func(rt.dev, fn, data);
}

/* Whether all work of a stream is done; the legacy default stream is asked
 * through an event recorded on it. */
static enum loom_status query(struct loom_stream *ls)
{
    if (ls)
        return loom_stream_query(ls);
    struct loom_event *ev;
    enum loom_status s = loom_event_create(rt.dev, cudaEventDisableTiming, &ev);
    if (s != LOOM_OK)
        return s;
    s = loom_event_record(ev, NULL);
    if (s == LOOM_OK)
        s = loom_event_query(ev);
    if (s == LOOM_OK)
        loom_event_destroy(ev);
    else
        loom_device_add_host_func(rt.dev, destroy_event, ev);  /* once the stream has passed it */
    return s;
}

cudaError_t rt_stream_resolve(cudaStream_t s, bool per_thread, struct loom_stream **out_ls)
{
    *out_ls = NULL;
    if (s == NULL)
        return per_thread ? per_thread_stream(out_ls) : cudaSuccess;
    if (s == cudaStreamLegacy)
        return cudaSuccess;
    if (s == cudaStreamPerThread)
        return per_thread_stream(out_ls);
    if (!handle_live(s) || s->magic != RT_STREAM_MAGIC)
        return cudaErrorInvalidResourceHandle;
    *out_ls = s->ls;
    return cudaSuccess;
}

static cudaError_t stream_create(cudaStream_t *pStream, unsigned flags, int priority)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return cudaErrorInvalidValue;
    /* priorities run from 0 (least) to -5 (greatest); others are clamped, as CUDA does */
    if (priority > 0)
        priority = 0;
    if (priority < -5)
        priority = -5;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return cudaErrorMemoryAllocation;
    enum loom_status st = loom_stream_create(rt.dev, flags, priority, &s->ls);
    if (st != LOOM_OK) {
        free(s);
        return rt_check(st);
    }
    s->magic = RT_STREAM_MAGIC;
    s->flags = flags;
    s->priority = priority;
    if (!handle_add(s)) {
        loom_stream_destroy(s->ls);
        free(s);
        return cudaErrorMemoryAllocation;
    }
    pthread_mutex_lock(&rt.lock);
    s->id = rt.next_stream_id++;
    pthread_mutex_unlock(&rt.lock);
    *pStream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    cudaError_t e = stream_create(pStream, cudaStreamDefault, 0);
    return rt_return(e, "cudaStreamCreate() -> %p", e == cudaSuccess ? (void *)*pStream : NULL);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    cudaError_t e = stream_create(pStream, flags, 0);
    return rt_return(e, "cudaStreamCreateWithFlags(%u) -> %p", flags, e == cudaSuccess ? (void *)*pStream : NULL);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    cudaError_t e = stream_create(pStream, flags, priority);
    return rt_return(e, "cudaStreamCreateWithPriority(%u, %d) -> %p", flags, priority,
                     e == cudaSuccess ? (void *)*pStream : NULL);
}

/* A handle the user created (not a default stream). */
static bool user_stream(cudaStream_t s)
{
    return s && s != cudaStreamLegacy && s != cudaStreamPerThread && handle_live(s) && s->magic == RT_STREAM_MAGIC &&
           !s->per_thread;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess && !user_stream(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        e = rt_check(loom_stream_destroy(stream->ls));
        handle_del(stream);
        stream->magic = 0;
        free(stream);
    }
    return rt_return(e, "cudaStreamDestroy(%p)", (void *)stream);
}

static cudaError_t stream_sync(cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess)
        e = rt_check(ls ? loom_stream_synchronize(ls) : loom_synchronize(rt.dev));
    rt_memory_collect();
    return rt_return(e, "cudaStreamSynchronize(%p)", (void *)stream);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return stream_sync(stream, false); }
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return stream_sync(stream, true); }

static cudaError_t stream_query(cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess)
        e = rt_check(query(ls));
    /* cudaErrorNotReady is an answer, not an error: it does not become the last error */
    if (e == cudaErrorNotReady) {
        rt_log("cudaStreamQuery(%p) = cudaErrorNotReady", (void *)stream);
        rt_leave();
        return e;
    }
    return rt_return(e, "cudaStreamQuery(%p)", (void *)stream);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return stream_query(stream, false); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return stream_query(stream, true); }

static bool valid_event(cudaEvent_t ev);

static cudaError_t stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess && !valid_event(event))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_check(loom_stream_wait_event(ls, event->le));
    return rt_return(e, "cudaStreamWaitEvent(%p, %p, %u)", (void *)stream, (void *)event, flags);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return stream_wait_event(stream, event, flags, false);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return stream_wait_event(stream, event, flags, true);
}

/* Properties of a stream handle; the default streams are blocking, priority 0. */
static cudaError_t stream_props(cudaStream_t s, bool per_thread, unsigned *flags, int *prio,
                                unsigned long long *id)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(s, per_thread, &ls);
    if (e != cudaSuccess)
        return e;
    bool user = user_stream(s);
    if (flags)
        *flags = user ? s->flags : 0;
    if (prio)
        *prio = user ? s->priority : 0;
    if (id)
        *id = user ? s->id : (s == cudaStreamPerThread || (per_thread && !s)) ? 2 : 1;
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    return rt_return(flags ? stream_props(hStream, false, flags, NULL, NULL) : cudaErrorInvalidValue,
                     "cudaStreamGetFlags(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
    return rt_return(flags ? stream_props(hStream, true, flags, NULL, NULL) : cudaErrorInvalidValue,
                     "cudaStreamGetFlags(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    return rt_return(priority ? stream_props(hStream, false, NULL, priority, NULL) : cudaErrorInvalidValue,
                     "cudaStreamGetPriority(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    return rt_return(priority ? stream_props(hStream, true, NULL, priority, NULL) : cudaErrorInvalidValue,
                     "cudaStreamGetPriority(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    return rt_return(streamId ? stream_props(hStream, false, NULL, NULL, streamId) : cudaErrorInvalidValue,
                     "cudaStreamGetId(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    return rt_return(streamId ? stream_props(hStream, true, NULL, NULL, streamId) : cudaErrorInvalidValue,
                     "cudaStreamGetId(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    cudaError_t e = device ? stream_props(hStream, false, NULL, NULL, NULL) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return rt_return(e, "cudaStreamGetDevice(%p)", (void *)hStream);
}

cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    cudaError_t e = device ? stream_props(hStream, true, NULL, NULL, NULL) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return rt_return(e, "cudaStreamGetDevice(%p)", (void *)hStream);
}

/* Loom has no stream capture: every stream reports "not capturing". */
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    cudaError_t e = pCaptureStatus ? stream_props(stream, false, NULL, NULL, NULL) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pCaptureStatus = cudaStreamCaptureStatusNone;
    return rt_return(e, "cudaStreamIsCapturing(%p)", (void *)stream);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    cudaError_t e = pCaptureStatus ? stream_props(stream, true, NULL, NULL, NULL) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pCaptureStatus = cudaStreamCaptureStatusNone;
    return rt_return(e, "cudaStreamIsCapturing(%p)", (void *)stream);
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    static _Thread_local enum cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
    if (!mode)
        return rt_return(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode(NULL)");
    enum cudaStreamCaptureMode old = current;
    current = *mode;
    *mode = old;
    return rt_return(cudaSuccess, "cudaThreadExchangeStreamCaptureMode()");
}

/* ---- host callbacks ---- */

struct callback {
    cudaStreamCallback_t fn;
    cudaStream_t stream;
    void *data;
};

/* Runs a cudaStreamAddCallback callback with the stream's status. */
static void callback_trampoline(void *p)
{
    struct callback *c = p;
    enum loom_status s = loom_device_sticky_error(rt.dev);
    c->fn(c->stream, rt_error_from_status(s), c->data);
    free(c);
}

static cudaError_t add_callback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                unsigned int flags, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && (!callback || flags != 0))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess) {
        struct callback *c = malloc(sizeof *c);
        if (!c) {
            e = cudaErrorMemoryAllocation;
        } else {
            *c = (struct callback){ callback, stream, userData };
            e = rt_check(rt_add_host_func(ls, callback_trampoline, c));
            if (e != cudaSuccess)
                free(c);
        }
    }
    return rt_return(e, "cudaStreamAddCallback(%p)", (void *)stream);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags)
{
    return add_callback(stream, callback, userData, flags, false);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags)
{
    return add_callback(stream, callback, userData, flags, true);
}

static cudaError_t launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *userData, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !fn)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess)
        e = rt_check(rt_add_host_func(ls, fn, userData));
    return rt_return(e, "cudaLaunchHostFunc(%p)", (void *)stream);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return launch_host_func(stream, fn, userData, false);
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return launch_host_func(stream, fn, userData, true);
}

/* ---- events ---- */

static cudaError_t event_create(cudaEvent_t *event, unsigned flags)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (!event || (flags & ~known) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return cudaErrorInvalidValue;
    struct CUevent_st *ev = calloc(1, sizeof *ev);
    if (!ev)
        return cudaErrorMemoryAllocation;
    enum loom_status s = loom_event_create(rt.dev, flags, &ev->le);
    if (s != LOOM_OK) {
        free(ev);
        return rt_check(s);
    }
    ev->magic = RT_EVENT_MAGIC;
    ev->flags = flags;
    if (!handle_add(ev)) {
        loom_event_destroy(ev->le);
        free(ev);
        return cudaErrorMemoryAllocation;
    }
    *event = ev;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    cudaError_t e = event_create(event, cudaEventDefault);
    return rt_return(e, "cudaEventCreate() -> %p", e == cudaSuccess ? (void *)*event : NULL);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    cudaError_t e = event_create(event, flags);
    return rt_return(e, "cudaEventCreateWithFlags(%u) -> %p", flags, e == cudaSuccess ? (void *)*event : NULL);
}

static bool valid_event(cudaEvent_t ev)
{
    return ev && handle_live(ev) && ev->magic == RT_EVENT_MAGIC;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess && !valid_event(event))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        e = rt_check(loom_event_destroy(event->le));
        handle_del(event);
        event->magic = 0;
        free(event);
    }
    return rt_return(e, "cudaEventDestroy(%p)", (void *)event);
}

static cudaError_t event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !valid_event(event))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && (flags & ~(unsigned)cudaEventRecordExternal))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess)
        e = rt_check(loom_event_record(event->le, ls));
    return rt_return(e, "cudaEventRecord(%p, %p)", (void *)event, (void *)stream);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) { return event_record(event, stream, 0, false); }
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return event_record(event, stream, 0, true);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return event_record(event, stream, flags, false);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return event_record(event, stream, flags, true);
}

/* Inside a host function CUDA 13 permits this one call when the event has completed
 * (recorded on the H100: tests/cuda/src/host_func_calls.cu); Loom's waiting call refuses
 * an event still pending there. */
cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e == cudaErrorNotPermitted && loom_in_host_func() && valid_event(event))
        e = rt_error_from_status(loom_event_synchronize(event->le));
    else if (e == cudaSuccess && !valid_event(event))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_check(loom_event_synchronize(event->le));
    return rt_return(e, "cudaEventSynchronize(%p)", (void *)event);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !valid_event(event))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_check(loom_event_query(event->le));
    if (e == cudaErrorNotReady) {
        rt_log("cudaEventQuery(%p) = cudaErrorNotReady", (void *)event);
        rt_leave();
        return e;
    }
    return rt_return(e, "cudaEventQuery(%p)", (void *)event);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !ms)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && (!valid_event(start) || !valid_event(end)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess && ((start->flags | end->flags) & cudaEventDisableTiming))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess) {
        enum loom_status s = loom_event_elapsed_ms(start->le, end->le, ms);
        e = s == LOOM_ERR_INVALID_VALUE ? cudaErrorInvalidResourceHandle : rt_check(s);
    }
    return rt_return(e, "cudaEventElapsedTime(%p, %p)", (void *)start, (void *)end);
}
