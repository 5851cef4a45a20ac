// stress.h -- what the stress suite's two files share: the configuration, a worker's state,
// the traced call (CALL) and its judgement (ok), the global run state.
#ifndef LOOM_STRESS_H
#define LOOM_STRESS_H
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

// ---- configuration ----------------------------------------------------------------------------

enum { MAX_THREADS = 64, MAX_STREAMS = 8, MAX_EVENTS = 8, MAX_BUFS = 8, TRACE = 32, TEXT = 120 };
enum { SLOT_LEGACY = 0, SLOT_PER_THREAD = 1, SLOT_FIRST = 2, MAX_SLOTS = SLOT_FIRST + MAX_STREAMS };
enum { EV_NONE = -1, EV_GONE = -2 };   // event_slot: not recorded; recorded on a stream since destroyed

struct config {
    unsigned threads = 4, ops = 300, streams = 3, events = 4, buffers = 4, max_n = 4096, life = 150;
    unsigned trace = 12;
    double seconds = 0, hang_s = 30, reset_ms = 4;
    unsigned long long seed = 1;
    bool reset = false, host_api = false, rerecord = false, destroy_waited = false;
};
extern config cfg;

static inline double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline unsigned long long splitmix(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct hostfn_ctx;

struct trace_entry {
    std::atomic<unsigned long long> seq;  // 0: empty; written last
    std::atomic<int> result;              // -1 while the call runs
    double t0;
    char text[TEXT];
};

struct buffer {
    unsigned *d;            // NULL: none
    int n;
    unsigned *shadow;       // what the device buffer must hold once its stream gets there
    int home;               // the stream slot its work is ordered on
};

struct worker {
    int id;
    unsigned long long rng;
    cudaStream_t streams[MAX_SLOTS];       // slots >= SLOT_FIRST: created streams (NULL: none)
    cudaEvent_t events[MAX_EVENTS];
    int event_slot[MAX_EVENTS];             // where it was last recorded: a slot, EV_NONE or EV_GONE
    unsigned event_waiters[MAX_EVENTS];     // slots that were made to wait for it (bit mask)
    bool event_waiter_gone[MAX_EVENTS];     // and one of them has been destroyed since
    cudaEvent_t staging_ev;                 // recorded after each use of staging
    buffer bufs[MAX_BUFS];
    unsigned *staging;                      // pinned (pageable in --reset mode), max_n elements
    unsigned *page;                         // pageable, max_n elements
    unsigned long long epoch;               // --reset: the reset generation its resources are from
    bool dirty;                             // --reset: an error left its state unknown
    bool raced;                             // --reset: the last call raced a reset
    unsigned long long call_g0;
    unsigned op, life;
    const char *op_name;
    unsigned long long checks, skipped, tolerated;
    unsigned long long hostfn_issued;
    std::atomic<unsigned long long> hostfn_done, hostfn_bad;
    std::atomic<int> hostfn_api;            // --host-api: the call a host function is in (+1), 0 none
    char hostfn_msg[256];                   // the first wrong host-function result (under g_lock)
    hostfn_ctx *orphans;                    // contexts of host functions never enqueued, whose
                                            // read-back may still land: freed at the end
    std::atomic<unsigned long long> entered;  // --reset: generation + 1 when the call began, 0 none
    std::atomic<double> progress;           // when the last call returned
    std::atomic<bool> done;
    std::atomic<unsigned long long> trace_seq;
    trace_entry trace[TRACE];
};

// What a host function checks: the read-back it follows in stream order, against the shadow
// at the time it was enqueued. --host-api: it also calls the runtime (api >= 0).
struct hostfn_ctx {
    worker *w;
    hostfn_ctx *next_orphan;
    int buf, n, api;
    unsigned long long epoch;
    cudaStream_t stream;
    unsigned *dev;
    unsigned *expected, *got;
};

extern worker *g_workers;
extern worker g_resetter_trace;
extern std::atomic<bool> g_stop;
extern pthread_mutex_t g_lock;   // failure reports
extern std::atomic<unsigned long long> g_gen;
extern const char *const host_api_names[4];

static inline unsigned rnd(worker *w, unsigned n) { return n ? (unsigned)(splitmix(&w->rng) % n) : 0; }

// stress.cu: the trace, failures, traced calls and their judgement.
void note(worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fail(worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void call_begin(worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cudaError_t call_end(worker *w, cudaError_t e);
// A runtime call, traced (the format describes it) and timed for the watchdog.
#define CALL(w, expr, ...) (call_begin(w, __VA_ARGS__), call_end(w, (expr)))
bool epoch_reliable(unsigned long long epoch, worker *self);
bool ok(worker *w, cudaError_t e);

// stress_ops.cu: the operations and what the driver needs of them.
cudaStream_t stream_of(worker *w, int slot);
bool move(worker *w, int b, int to);
bool buffer_new(worker *w, int b);
void slot_gone(worker *w, int slot);
bool event_unwaited(worker *w, int i);
void compare(worker *w, int b, const unsigned *got, const char *how);
void hostfn_all_done(worker *w, const char *after);
void run_op(worker *w);
bool final_sanity(void);
#endif
