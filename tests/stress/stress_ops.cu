// stress_ops.cu -- the stress suite's operations: kernels, stream/event/buffer helpers, host
// functions and the weighted table of operations a worker draws from (see stress.cu).
#include "stress.h"

// ---- kernels: grid-stride, so any grid covers the buffer --------------------------------------

__global__ void k_fill(unsigned *p, int n, unsigned v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = v ^ (unsigned)(i * 7);
}

__global__ void k_add(unsigned *p, int n, unsigned v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] += v;
}

__global__ void k_mix(unsigned *p, const unsigned *q, int n, int m)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = p[i] * 3u + q[i % m];
}

// ---- streams, events, buffers ------------------------------------------------------------------

cudaStream_t stream_of(worker *w, int slot)
{
    if (slot == SLOT_LEGACY)
        return (w->op & 1) ? cudaStreamLegacy : (cudaStream_t)0;
    if (slot == SLOT_PER_THREAD)
        return cudaStreamPerThread;
    return w->streams[slot];
}

static int random_slot(worker *w)
{
    for (;;) {
        int s = (int)rnd(w, SLOT_FIRST + cfg.streams);
        if (s < SLOT_FIRST || w->streams[s])
            return s;
    }
}

// An event of the pool (created if the slot is empty), or -1 after an error.
static int some_event(worker *w)
{
    int i = (int)rnd(w, cfg.events);
    if (!w->events[i]) {
        unsigned flags = rnd(w, 2) ? cudaEventDisableTiming : cudaEventDefault;
        if (!ok(w, CALL(w, cudaEventCreateWithFlags(&w->events[i], flags), "cudaEventCreateWithFlags(event %d, %u)", i,
                        flags)))
            return (w->events[i] = NULL), -1;
        w->event_slot[i] = EV_NONE;
    }
    return i;
}

// Records event i of the pool on a slot. Unless --rerecord, an event last recorded on another
// stream is waited for first, so that the records of one event complete in the order made.
static bool record(worker *w, int i, int slot)
{
    int last = w->event_slot[i];
    if (!cfg.rerecord && last != EV_NONE && last != slot &&
        !ok(w, CALL(w, cudaEventSynchronize(w->events[i]), "cudaEventSynchronize(event %d) (last recorded on %d)", i,
                    last)))
        return false;
    w->event_slot[i] = slot;
    return ok(w, CALL(w, cudaEventRecord(w->events[i], stream_of(w, slot)), "cudaEventRecord(event %d, slot %d)", i,
                      slot));
}

// The stream of a slot goes away: its events' last records were made on another stream.
void slot_gone(worker *w, int slot)
{
    for (unsigned i = 0; i < cfg.events; i++) {
        if (w->event_slot[i] == slot)
            w->event_slot[i] = EV_GONE;
        if (w->event_waiters[i] & (1u << slot))
            w->event_waiter_gone[i] = true;
        w->event_waiters[i] &= ~(1u << slot);
    }
}

// Unless --destroy-waited, an event is destroyed only once no stream waits for it any more:
// the streams made to wait for it are synchronised (the device, if one is gone).
bool event_unwaited(worker *w, int i)
{
    if (!cfg.destroy_waited && w->event_waiter_gone[i]) {
        if (!ok(w, CALL(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize() (before destroying event %d)", i)))
            return false;
    } else if (!cfg.destroy_waited) {
        for (int s = 0; s < MAX_SLOTS; s++)
            if ((w->event_waiters[i] & (1u << s)) &&
                !ok(w, CALL(w, cudaStreamSynchronize(stream_of(w, s)), "cudaStreamSynchronize(slot %d) (before "
                            "destroying event %d)", s, i)))
                return false;
    }
    w->event_waiters[i] = 0;
    w->event_waiter_gone[i] = false;
    return true;
}

// Orders later work on slot `to` after all work so far on b's home slot: usually an event of
// the pool recorded there and waited for, sometimes a temporary event (destroyed right after
// the wait with --destroy-waited, else once `to` has passed it), sometimes the host waiting.
bool move(worker *w, int b, int to)
{
    buffer *B = &w->bufs[b];
    int from = B->home;
    if (from == to)
        return true;
    unsigned how = rnd(w, 8);
    if (how == 0) {
        if (!ok(w, CALL(w, cudaStreamSynchronize(stream_of(w, from)), "cudaStreamSynchronize(slot %d)", from)))
            return false;
    } else if (how == 1) {
        cudaEvent_t ev;
        if (!ok(w, CALL(w, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate(temporary)")))
            return false;
        bool good = ok(w, CALL(w, cudaEventRecord(ev, stream_of(w, from)), "cudaEventRecord(temporary, slot %d)",
                               from)) &&
                    ok(w, CALL(w, cudaStreamWaitEvent(stream_of(w, to), ev, 0), "cudaStreamWaitEvent(slot %d, temporary)",
                               to));
        if (good && !cfg.destroy_waited)
            good = ok(w, CALL(w, cudaStreamSynchronize(stream_of(w, to)), "cudaStreamSynchronize(slot %d) (before "
                              "destroying temporary)", to));
        if (!ok(w, CALL(w, cudaEventDestroy(ev), "cudaEventDestroy(temporary)")) || !good)
            return false;
    } else {
        int e = some_event(w);
        if (e < 0 || !record(w, e, from) ||
            !ok(w, CALL(w, cudaStreamWaitEvent(stream_of(w, to), w->events[e], 0), "cudaStreamWaitEvent(slot %d, event %d)",
                        to, e)))
            return false;
        w->event_waiters[e] |= 1u << to;
    }
    B->home = to;
    return true;
}

static int buffer_size(worker *w) { return 1 + (int)rnd(w, rnd(w, 2) ? 64 : cfg.max_n); }

// A new buffer: cudaMalloc then cudaMemset on the legacy stream, or cudaMallocAsync then
// cudaMemsetAsync on a random stream; the shadow is all zero.
bool buffer_new(worker *w, int b)
{
    buffer *B = &w->bufs[b];
    B->n = buffer_size(w);
    size_t bytes = (size_t)B->n * sizeof(unsigned);
    memset(B->shadow, 0, bytes);
    if (rnd(w, 3) == 0) {
        int s = random_slot(w);
        if (!ok(w, CALL(w, cudaMallocAsync((void **)&B->d, bytes, stream_of(w, s)), "cudaMallocAsync(buf %d, n %d, slot %d)",
                        b, B->n, s)))
            return (B->d = NULL), false;
        B->home = s;
        return ok(w, CALL(w, cudaMemsetAsync(B->d, 0, bytes, stream_of(w, s)), "cudaMemsetAsync(buf %d, 0, slot %d)", b,
                          s));
    }
    if (!ok(w, CALL(w, cudaMalloc((void **)&B->d, bytes), "cudaMalloc(buf %d, n %d)", b, B->n)))
        return (B->d = NULL), false;
    B->home = SLOT_LEGACY;
    return ok(w, CALL(w, cudaMemset(B->d, 0, bytes), "cudaMemset(buf %d, 0)", b));
}

// Frees a buffer: cudaFree (which waits for the device), or cudaFreeAsync on its stream.
static bool buffer_free(worker *w, int b)
{
    buffer *B = &w->bufs[b];
    unsigned *d = B->d;
    B->d = NULL;
    if (!d)
        return true;
    if (rnd(w, 2))
        return ok(w, CALL(w, cudaFreeAsync(d, stream_of(w, B->home)), "cudaFreeAsync(buf %d, slot %d)", b, B->home));
    return ok(w, CALL(w, cudaFree(d), "cudaFree(buf %d)", b));
}

// Compares a read-back of b with its shadow. A difference is a failure, unless a reset racing
// (--reset) explains it: the worker then rebuilds its state.
void compare(worker *w, int b, const unsigned *got, const char *how)
{
    buffer *B = &w->bufs[b];
    int bad = 0, first = -1;
    for (int i = 0; i < B->n; i++)
        if (got[i] != B->shadow[i] && bad++ == 0)
            first = i;
    if (!bad) {
        w->checks++;
        return;
    }
    if (!epoch_reliable(w->epoch, w)) {
        w->skipped++;
        w->dirty = true;
        return;
    }
    fail(w, "buffer %d (n %d, slot %d), read back by %s: %d element(s) differ, the first [%d] = 0x%08x, expected 0x%08x",
         b, B->n, B->home, how, bad, first, got[first], B->shadow[first]);
}

// Waits until the last use of staging is done.
static bool staging_idle(worker *w)
{
    return ok(w, CALL(w, cudaEventSynchronize(w->staging_ev), "cudaEventSynchronize(staging)"));
}

// ---- host functions ------------------------------------------------------------------------------

// A wrong result seen in a host function (on one of Loom's threads): kept for the worker,
// which fails at its next operation.
static void hostfn_wrong(worker *w, const char *fmt, ...)
{
    pthread_mutex_lock(&g_lock);
    if (!w->hostfn_msg[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->hostfn_msg, sizeof w->hostfn_msg, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&g_lock);
    w->hostfn_bad.fetch_add(1);
}

// CUDA: "The host function must not make any CUDA API calls. Attempting to use a CUDA API
// may result in cudaErrorNotPermitted"; a call that would wait for the stream cannot succeed.
static void host_api_call(hostfn_ctx *c)
{
    worker *w = c->w;
    cudaError_t e;
    unsigned tmp;
    w->hostfn_api.store(c->api + 1);
    switch (c->api) {
    case 0: e = cudaStreamSynchronize(c->stream); break;
    case 1: e = cudaDeviceSynchronize(); break;
    case 2: e = cudaMemcpy(&tmp, c->dev, sizeof tmp, cudaMemcpyDeviceToHost); break;
    default: e = cudaStreamQuery(c->stream); break;
    }
    w->hostfn_api.store(0);
    if (e != cudaErrorNotPermitted && !(c->api == 3 && e == cudaErrorNotReady))
        hostfn_wrong(w, "%s in a host function returned %s, not cudaErrorNotPermitted", host_api_names[c->api],
                     cudaGetErrorName(e));
}

// cudaLaunchHostFunc's function: compares the read-back before it in stream order.
static void CUDART_CB host_check(void *p)
{
    hostfn_ctx *c = (hostfn_ctx *)p;
    worker *w = c->w;
    int bad = 0, first = 0;
    for (int i = 0; i < c->n; i++)
        if (c->got[i] != c->expected[i] && bad++ == 0)
            first = i;
    if (bad && epoch_reliable(c->epoch, NULL))
        hostfn_wrong(w, "host function after the read-back of buffer %d (n %d): %d element(s) differ, the first [%d] = "
                        "0x%08x, expected 0x%08x", c->buf, c->n, bad, first, c->got[first], c->expected[first]);
    if (c->api >= 0)
        host_api_call(c);
    free(c);
    w->hostfn_done.fetch_add(1);
}

// cudaStreamAddCallback's function: the same, and the stream's status is cudaSuccess.
static void CUDART_CB host_callback(cudaStream_t, cudaError_t status, void *p)
{
    hostfn_ctx *c = (hostfn_ctx *)p;
    if (status != cudaSuccess && !cfg.reset)
        hostfn_wrong(c->w, "stream callback got status %s", cudaGetErrorName(status));
    host_check(p);
}

// Every host function enqueued so far has run (after a device-wide synchronisation).
void hostfn_all_done(worker *w, const char *after)
{
    if (cfg.reset)
        return;
    unsigned long long done = w->hostfn_done.load();
    if (done != w->hostfn_issued)
        fail(w, "after %s, %llu of %llu host functions have run", after, done, w->hostfn_issued);
}

// ---- operations ----------------------------------------------------------------------------------

static void launch_config(worker *w, int n, unsigned *out_grid, unsigned *out_block)
{
    static const unsigned blocks[] = { 32, 64, 128, 256, 96 };
    unsigned bs = blocks[rnd(w, 5)];
    unsigned full = (unsigned)(n + (int)bs - 1) / bs;
    *out_block = bs;
    *out_grid = rnd(w, 2) ? full : 1 + rnd(w, full < 4 ? full : 4);
}

// A kernel on b (moved first, at times, to another stream): fill, add, or mix in another buffer.
static void op_launch(worker *w, int kind)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    if (rnd(w, 4) == 0 && !move(w, b, random_slot(w)))
        return;
    unsigned grid, block, v = (unsigned)splitmix(&w->rng);
    launch_config(w, B->n, &grid, &block);
    cudaStream_t s = stream_of(w, B->home);
    cudaError_t e;
    if (kind == 0) {
        if (rnd(w, 2)) {
            void *args[] = { &B->d, &B->n, &v };
            e = CALL(w, cudaLaunchKernel((const void *)k_fill, dim3(grid), dim3(block), args, 0, s),
                     "cudaLaunchKernel(k_fill, %u x %u, slot %d, buf %d n %d)", grid, block, B->home, b, B->n);
        } else {
            e = CALL(w, (k_fill<<<grid, block, 0, s>>>(B->d, B->n, v), cudaGetLastError()),
                     "k_fill<<<%u, %u, slot %d>>>(buf %d n %d) + cudaGetLastError", grid, block, B->home, b, B->n);
        }
        for (int i = 0; i < B->n; i++)
            B->shadow[i] = v ^ (unsigned)(i * 7);
    } else if (kind == 1) {
        e = CALL(w, (k_add<<<grid, block, 0, s>>>(B->d, B->n, v), cudaPeekAtLastError()),
                 "k_add<<<%u, %u, slot %d>>>(buf %d n %d) + cudaPeekAtLastError", grid, block, B->home, b, B->n);
        for (int i = 0; i < B->n; i++)
            B->shadow[i] += v;
    } else {
        int c = (int)rnd(w, cfg.buffers);
        if (c == b)
            c = (c + 1) % (int)cfg.buffers;
        buffer *C = &w->bufs[c];
        if (!move(w, c, B->home))
            return;
        e = CALL(w, (k_mix<<<grid, block, 0, s>>>(B->d, C->d, B->n, C->n), cudaGetLastError()),
                 "k_mix<<<%u, %u, slot %d>>>(buf %d n %d, buf %d n %d) + cudaGetLastError", grid, block, B->home, b, B->n,
                 c, C->n);
        for (int i = 0; i < B->n; i++)
            B->shadow[i] = B->shadow[i] * 3u + C->shadow[i % C->n];
    }
    ok(w, e);
}

// cudaMemsetAsync of a part of b on its stream.
static void op_memset(worker *w)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    int off = (int)rnd(w, (unsigned)B->n), cnt = 1 + (int)rnd(w, (unsigned)(B->n - off));
    int byte = (int)rnd(w, 256);
    if (!ok(w, CALL(w, cudaMemsetAsync(B->d + off, byte, (size_t)cnt * 4, stream_of(w, B->home)),
                    "cudaMemsetAsync(buf %d + %d, 0x%02x, %d elements, slot %d)", b, off, byte, cnt, B->home)))
        return;
    for (int i = off; i < off + cnt; i++)
        B->shadow[i] = 0x01010101u * (unsigned)byte;
}

// cudaMemcpyAsync device to device between two buffers, on the destination's stream.
static void op_copy_d2d(worker *w)
{
    int b = (int)rnd(w, cfg.buffers), c = (int)rnd(w, cfg.buffers);
    if (c == b)
        c = (c + 1) % (int)cfg.buffers;
    buffer *B = &w->bufs[b], *C = &w->bufs[c];
    if (!move(w, c, B->home))
        return;
    int ob = (int)rnd(w, (unsigned)B->n), oc = (int)rnd(w, (unsigned)C->n);
    int room = B->n - ob < C->n - oc ? B->n - ob : C->n - oc;
    int cnt = 1 + (int)rnd(w, (unsigned)room);
    if (!ok(w, CALL(w, cudaMemcpyAsync(B->d + ob, C->d + oc, (size_t)cnt * 4, cudaMemcpyDeviceToDevice,
                                       stream_of(w, B->home)),
                    "cudaMemcpyAsync(buf %d + %d <- buf %d + %d, %d elements, D2D, slot %d)", b, ob, c, oc, cnt, B->home)))
        return;
    memcpy(B->shadow + ob, C->shadow + oc, (size_t)cnt * 4);
}

// Host data into b: cudaMemcpy from pageable memory on the legacy stream, or cudaMemcpyAsync
// from the staging buffer on b's stream.
static void op_upload(worker *w, bool async)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    int off = (int)rnd(w, (unsigned)B->n), cnt = 1 + (int)rnd(w, (unsigned)(B->n - off));
    unsigned v = (unsigned)splitmix(&w->rng);
    if (!async) {
        if (!move(w, b, SLOT_LEGACY))
            return;
        for (int i = 0; i < cnt; i++)
            w->page[i] = v + (unsigned)i;
        if (!ok(w, CALL(w, cudaMemcpy(B->d + off, w->page, (size_t)cnt * 4, cudaMemcpyHostToDevice),
                        "cudaMemcpy(buf %d + %d, %d elements, H2D)", b, off, cnt)))
            return;
        memset(w->page, 0xee, (size_t)cnt * 4);   /* a synchronous copy has read its source */
    } else {
        if (!staging_idle(w))
            return;
        for (int i = 0; i < cnt; i++)
            w->staging[i] = v + (unsigned)i;
        cudaStream_t s = stream_of(w, B->home);
        if (!ok(w, CALL(w, cudaMemcpyAsync(B->d + off, w->staging, (size_t)cnt * 4, cudaMemcpyHostToDevice, s),
                        "cudaMemcpyAsync(buf %d + %d, %d elements, H2D, slot %d)", b, off, cnt, B->home)) ||
            !ok(w, CALL(w, cudaEventRecord(w->staging_ev, s), "cudaEventRecord(staging, slot %d)", B->home)))
            return;
    }
    for (int i = 0; i < cnt; i++)
        B->shadow[off + i] = v + (unsigned)i;
}

// Reads b back and compares it with its shadow: cudaMemcpy on the legacy stream, or
// cudaMemcpyAsync into staging followed by one of the ways to wait for it.
static void op_check(worker *w, bool async)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    size_t bytes = (size_t)B->n * 4;
    if (!async) {
        if (!move(w, b, SLOT_LEGACY) ||
            !ok(w, CALL(w, cudaMemcpy(w->page, B->d, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(buf %d, D2H)", b)))
            return;
        compare(w, b, w->page, "cudaMemcpy");
        return;
    }
    if (!staging_idle(w))
        return;
    cudaStream_t s = stream_of(w, B->home);
    if (!ok(w, CALL(w, cudaMemcpyAsync(w->staging, B->d, bytes, cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync(buf %d, D2H, slot %d)", b, B->home)) ||
        !ok(w, CALL(w, cudaEventRecord(w->staging_ev, s), "cudaEventRecord(staging, slot %d)", B->home)))
        return;
    static const char *const ways[] = { "cudaStreamSynchronize", "cudaEventSynchronize", "cudaEventQuery polling",
                                        "cudaStreamQuery polling", "cudaDeviceSynchronize" };
    unsigned way = rnd(w, 5);
    cudaError_t e;
    switch (way) {
    case 0: e = CALL(w, cudaStreamSynchronize(s), "cudaStreamSynchronize(slot %d)", B->home); break;
    case 1: e = CALL(w, cudaEventSynchronize(w->staging_ev), "cudaEventSynchronize(staging)"); break;
    case 2:
    case 3:
        call_begin(w, way == 2 ? "cudaEventQuery(staging) until ready" : "cudaStreamQuery(slot %d) until ready", B->home);
        while ((e = way == 2 ? cudaEventQuery(w->staging_ev) : cudaStreamQuery(s)) == cudaErrorNotReady)
            sched_yield();
        call_end(w, e);
        break;
    default:
        e = CALL(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize()");
        if (e == cudaSuccess)
            hostfn_all_done(w, "cudaDeviceSynchronize");
        break;
    }
    if (ok(w, e))
        compare(w, b, w->staging, ways[way]);
}

// A read-back into memory of its own, then a host function (or a stream callback) that
// compares it, in stream order; --host-api: the function then calls the runtime.
static void op_host_fn(worker *w, bool callback)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    size_t bytes = (size_t)B->n * 4;
    hostfn_ctx *c = (hostfn_ctx *)malloc(sizeof *c + 2 * bytes);
    if (!c) {
        fail(w, "out of host memory");
        return;
    }
    cudaStream_t s = stream_of(w, B->home);
    *c = hostfn_ctx{ w, NULL, b, B->n, cfg.host_api ? (int)rnd(w, 4) : -1, w->epoch, s, B->d, (unsigned *)(c + 1),
                     (unsigned *)(c + 1) + B->n };
    memcpy(c->expected, B->shadow, bytes);
    if (!ok(w, CALL(w, cudaMemcpyAsync(c->got, B->d, bytes, cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync(buf %d, D2H, slot %d) for a host function", b, B->home))) {
        c->next_orphan = w->orphans;   /* the copy may still land (a racing reset) */
        w->orphans = c;
        return;
    }
    cudaError_t e = callback ? CALL(w, cudaStreamAddCallback(s, host_callback, c, 0), "cudaStreamAddCallback(slot %d%s%s)",
                                    B->home, c->api >= 0 ? ", calls " : "", c->api >= 0 ? host_api_names[c->api] : "")
                             : CALL(w, cudaLaunchHostFunc(s, host_check, c), "cudaLaunchHostFunc(slot %d%s%s)", B->home,
                                    c->api >= 0 ? ", calls " : "", c->api >= 0 ? host_api_names[c->api] : "");
    if (e == cudaSuccess) {
        w->hostfn_issued++;
    } else {
        ok(w, e);
        c->next_orphan = w->orphans;
        w->orphans = c;
    }
}

// Creates a stream in an empty slot, or destroys one (its buffers moved off it first); a new
// stream's flags and priority read back as created.
static void op_stream_cycle(worker *w)
{
    int slot = SLOT_FIRST + (int)rnd(w, cfg.streams);
    if (w->streams[slot]) {
        for (unsigned b = 0; b < cfg.buffers; b++)
            if (w->bufs[b].home == slot && !move(w, (int)b, (int)rnd(w, SLOT_FIRST)))
                return;
        cudaStream_t s = w->streams[slot];
        w->streams[slot] = NULL;
        slot_gone(w, slot);
        ok(w, CALL(w, cudaStreamDestroy(s), "cudaStreamDestroy(slot %d)", slot));
        return;
    }
    unsigned how = rnd(w, 3), flags = rnd(w, 2) ? cudaStreamNonBlocking : cudaStreamDefault;
    int prio = how == 2 ? -(int)rnd(w, 6) : 0;
    cudaError_t e;
    if (how == 0) {
        flags = cudaStreamDefault;
        e = CALL(w, cudaStreamCreate(&w->streams[slot]), "cudaStreamCreate(slot %d)", slot);
    } else if (how == 1) {
        e = CALL(w, cudaStreamCreateWithFlags(&w->streams[slot], flags), "cudaStreamCreateWithFlags(slot %d, %u)", slot,
                 flags);
    } else {
        e = CALL(w, cudaStreamCreateWithPriority(&w->streams[slot], flags, prio),
                 "cudaStreamCreateWithPriority(slot %d, %u, %d)", slot, flags, prio);
    }
    if (!ok(w, e)) {
        w->streams[slot] = NULL;
        return;
    }
    unsigned got_flags = 99;
    int got_prio = 99;
    if (!ok(w, CALL(w, cudaStreamGetFlags(w->streams[slot], &got_flags), "cudaStreamGetFlags(slot %d)", slot)) ||
        !ok(w, CALL(w, cudaStreamGetPriority(w->streams[slot], &got_prio), "cudaStreamGetPriority(slot %d)", slot)))
        return;
    if (got_flags != flags || got_prio != prio)
        fail(w, "stream in slot %d: flags %u priority %d read back as %u and %d", slot, flags, prio, got_flags, got_prio);
}

// Creates or destroys an event of the pool (destroying one that is still pending is allowed).
static void op_event_cycle(worker *w)
{
    int i = (int)rnd(w, cfg.events);
    if (w->events[i]) {
        cudaEvent_t e = w->events[i];
        if (!event_unwaited(w, i))
            return;
        w->events[i] = NULL;
        ok(w, CALL(w, cudaEventDestroy(e), "cudaEventDestroy(event %d)", i));
        return;
    }
    static const unsigned flags[] = { cudaEventDefault, cudaEventDisableTiming, cudaEventBlockingSync,
                                      cudaEventBlockingSync | cudaEventDisableTiming };
    unsigned f = flags[rnd(w, 4)];
    if (!ok(w, CALL(w, cudaEventCreateWithFlags(&w->events[i], f), "cudaEventCreateWithFlags(event %d, %u)", i, f)))
        w->events[i] = NULL;
    w->event_slot[i] = EV_NONE;
}

// Records an event on a random stream and asks whether it has happened.
static void op_event_query(worker *w)
{
    int i = some_event(w), slot = random_slot(w);
    if (i < 0 || !record(w, i, slot))
        return;
    cudaError_t e = CALL(w, cudaEventQuery(w->events[i]), "cudaEventQuery(event %d)", i);
    if (e != cudaErrorNotReady)
        ok(w, e);
}

// Two timing events around a kernel: the elapsed time is not negative.
static void op_event_timing(worker *w)
{
    int b = (int)rnd(w, cfg.buffers);
    buffer *B = &w->bufs[b];
    cudaEvent_t e0, e1;
    if (!ok(w, CALL(w, cudaEventCreate(&e0), "cudaEventCreate(timing 0)")))
        return;
    if (!ok(w, CALL(w, cudaEventCreate(&e1), "cudaEventCreate(timing 1)"))) {
        ok(w, CALL(w, cudaEventDestroy(e0), "cudaEventDestroy(timing 0)"));
        return;
    }
    cudaStream_t s = stream_of(w, B->home);
    unsigned v = (unsigned)splitmix(&w->rng);
    float ms = -1;
    bool good = ok(w, CALL(w, cudaEventRecord(e0, s), "cudaEventRecord(timing 0, slot %d)", B->home)) &&
                ok(w, CALL(w, (k_add<<<1, 64, 0, s>>>(B->d, B->n, v), cudaGetLastError()),
                           "k_add<<<1, 64, slot %d>>>(buf %d n %d) + cudaGetLastError", B->home, b, B->n));
    if (good)
        for (int i = 0; i < B->n; i++)
            B->shadow[i] += v;
    good = good && ok(w, CALL(w, cudaEventRecord(e1, s), "cudaEventRecord(timing 1, slot %d)", B->home)) &&
           ok(w, CALL(w, cudaEventSynchronize(e1), "cudaEventSynchronize(timing 1)")) &&
           ok(w, CALL(w, cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime(timing 0, timing 1)"));
    if (good && !(ms >= 0))
        fail(w, "cudaEventElapsedTime gave %g ms", (double)ms);
    ok(w, CALL(w, cudaEventDestroy(e0), "cudaEventDestroy(timing 0)"));
    ok(w, CALL(w, cudaEventDestroy(e1), "cudaEventDestroy(timing 1)"));
}

// Synchronises a stream or the device, or asks whether a stream is idle.
static void op_sync(worker *w)
{
    int slot = random_slot(w);
    unsigned how = rnd(w, 5);
    if (how == 0) {
        if (ok(w, CALL(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize()")))
            hostfn_all_done(w, "cudaDeviceSynchronize");
    } else if (how <= 2) {
        ok(w, CALL(w, cudaStreamSynchronize(stream_of(w, slot)), "cudaStreamSynchronize(slot %d)", slot));
    } else {
        cudaError_t e = CALL(w, cudaStreamQuery(stream_of(w, slot)), "cudaStreamQuery(slot %d)", slot);
        if (e != cudaErrorNotReady)
            ok(w, e);
    }
}

// Replaces a buffer by a new one of another size.
static void op_realloc(worker *w)
{
    int b = (int)rnd(w, cfg.buffers);
    if (buffer_free(w, b))
        buffer_new(w, b);
}

// Errors are per thread: a bad launch or copy direction is reported to this thread by the
// call, then once by cudaGetLastError; other threads' errors never show here.
static void op_errors(worker *w)
{
    cudaError_t e;
    unsigned how = rnd(w, 3);
    if (how == 0) {
        e = CALL(w, cudaPeekAtLastError(), "cudaPeekAtLastError() with no error pending");
        ok(w, e);
        return;
    }
    cudaError_t want;
    if (how == 1) {
        buffer *B = &w->bufs[0];
        e = CALL(w, (k_add<<<1, 2048, 0, stream_of(w, B->home)>>>(B->d, B->n, 1), cudaPeekAtLastError()),
                 "k_add<<<1, 2048>>> (too large a block) + cudaPeekAtLastError");
        want = e == cudaErrorInvalidConfiguration ? e : cudaErrorInvalidValue;
    } else {
        unsigned x = 0;
        e = CALL(w, cudaMemcpy(&x, w->page, 4, (cudaMemcpyKind)42), "cudaMemcpy(kind 42)");
        want = cudaErrorInvalidMemcpyDirection;
    }
    if (e != want) {
        // --reset: a kernel that raced a reset may have left a sticky fault, which every
        // call returns until the next reset; ok() tolerates it only while a reset races.
        if (cfg.reset && e != cudaSuccess && !ok(w, e))
            return;
        fail(w, "expected %s, got %s", cudaGetErrorName(want), cudaGetErrorName(e));
        return;
    }
    cudaError_t first = CALL(w, cudaGetLastError(), "cudaGetLastError() after the error");
    cudaError_t second = CALL(w, cudaGetLastError(), "cudaGetLastError() again");
    // --reset: a racing kernel's sticky fault may show up in between (see above)
    if (cfg.reset && first == want && second != cudaSuccess && !ok(w, second))
        return;
    if (first != want || second != cudaSuccess)
        fail(w, "cudaGetLastError after %s gave %s then %s", cudaGetErrorName(want), cudaGetErrorName(first),
             cudaGetErrorName(second));
}

// ---- the operation table: name, weight, what it does ------------------------------------------------

#define STRESS_OPS(X)                                                                                        \
    X(LAUNCH_FILL, 8, op_launch(w, 0))                                                                       \
    X(LAUNCH_ADD, 8, op_launch(w, 1))                                                                        \
    X(LAUNCH_MIX, 6, op_launch(w, 2))                                                                        \
    X(MEMSET_ASYNC, 4, op_memset(w))                                                                         \
    X(COPY_D2D, 4, op_copy_d2d(w))                                                                           \
    X(UPLOAD, 3, op_upload(w, false))                                                                        \
    X(UPLOAD_ASYNC, 3, op_upload(w, true))                                                                   \
    X(CHECK, 4, op_check(w, false))                                                                          \
    X(CHECK_ASYNC, 6, op_check(w, true))                                                                     \
    X(HOST_FUNC, 3, op_host_fn(w, false))                                                                    \
    X(STREAM_CALLBACK, 2, op_host_fn(w, true))                                                               \
    X(MOVE, 4, move(w, (int)rnd(w, cfg.buffers), random_slot(w)))                                            \
    X(REALLOC, 3, op_realloc(w))                                                                             \
    X(STREAM_CYCLE, 3, op_stream_cycle(w))                                                                   \
    X(EVENT_CYCLE, 3, op_event_cycle(w))                                                                     \
    X(EVENT_QUERY, 3, op_event_query(w))                                                                     \
    X(EVENT_TIMING, 2, op_event_timing(w))                                                                   \
    X(SYNC, 4, op_sync(w))                                                                                   \
    X(ERRORS, 2, op_errors(w))

enum op_kind {
#define X(name, weight, run) OP_##name,
    STRESS_OPS(X)
#undef X
    OP_COUNT
};
static const char *const op_names[] = {
#define X(name, weight, run) #name,
    STRESS_OPS(X)
#undef X
};
static const unsigned op_weights[] = {
#define X(name, weight, run) weight,
    STRESS_OPS(X)
#undef X
};

void run_op(worker *w)
{
    unsigned total = 0;
    for (unsigned k = 0; k < OP_COUNT; k++)
        total += op_weights[k];
    unsigned r = rnd(w, total), k = 0;
    while (r >= op_weights[k])
        r -= op_weights[k++];
    w->op_name = op_names[k];
    note(w, "op %u: %s", w->op, op_names[k]);
    switch (k) {
#define X(name, weight, run) \
    case OP_##name: run; break;
        STRESS_OPS(X)
#undef X
    }
}

// The device works after everything: one buffer filled by a kernel and read back.
bool final_sanity(void)
{
    unsigned *d, h[100];
    if (cudaMalloc((void **)&d, sizeof h) != cudaSuccess)
        return false;
    k_fill<<<1, 64>>>(d, 100, 5);
    bool good = cudaGetLastError() == cudaSuccess &&
                cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int i = 0; good && i < 100; i++)
        good = h[i] == (5u ^ (unsigned)(i * 7));
    return cudaFree(d) == cudaSuccess && good;
}
