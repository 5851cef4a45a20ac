// stress.cu -- host-side concurrency against the CUDA runtime: host threads issue random
// launches, copies, sets, syncs, stream/event/host-function work from one seed and check it all.
//
//   stress [--threads N] [--ops N] [--seconds S] [--seed S] [--reset] [--host-api] ...
//   (stress --help lists them; STRESS_SEED=S sets the seed too, the option wins)
//
// Each worker owns device buffers, streams, events and a host shadow of what each buffer must
// hold, and runs operations drawn from the table in stress_ops.cu. Work on a buffer is ordered
// on the buffer's home stream; moving the buffer to another stream records an event on the old
// one and makes the new one wait for it, so every result is defined and is compared with the
// shadow (synchronous and asynchronous read-backs, host functions comparing in stream order).
// A worker's host thread exits now and then (--life) and a new one goes on with its state.
// Every call's error is judged: in the default mode every call must succeed. Options add
// what Loom does not survive yet: --reset, a thread calling cudaDeviceReset while the workers
// run (a call racing a reset may fail with an error of `reset_errors`; results are compared
// only where no reset raced); --host-api, host functions calling the runtime (CUDA answers
// cudaErrorNotPermitted); --rerecord and --destroy-waited, events re-recorded on another
// stream while pending, or destroyed while a stream waits for them (both allowed by CUDA).
// A watchdog reports a thread that makes no progress for --hang seconds; a failure, a hang,
// a crash or a sanitizer report prints the seed and each thread's last calls.
#include "stress.h"

config cfg;
worker *g_workers;
worker g_resetter_trace;             // the reset thread's trace (id -1)
std::atomic<bool> g_stop;
static std::atomic<bool> g_failed;
std::atomic<unsigned long long> g_gen;      // --reset: even between resets, odd during one
static std::atomic<unsigned long long> g_tainted;  // --reset: 1 + the last epoch a racing call touched
static std::atomic<unsigned long long> g_resets;
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static double g_t0;
static char g_argv_line[1024];

// ---- the trace and failures --------------------------------------------------------------------

// --host-api: what host functions call.
const char *const host_api_names[] = {
    "cudaStreamSynchronize(own stream)", "cudaDeviceSynchronize()", "cudaMemcpy(D2H)", "cudaStreamQuery(own stream)",
};

static trace_entry *trace_add(worker *w, int result, const char *fmt, va_list ap)
{
    unsigned long long seq = w->trace_seq.fetch_add(1) + 1;
    trace_entry *t = &w->trace[seq % TRACE];
    t->seq.store(0);
    vsnprintf(t->text, sizeof t->text, fmt, ap);
    t->t0 = now_s();
    t->result.store(result);
    t->seq.store(seq);
    return t;
}

void note(worker *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    trace_add(w, cudaSuccess, fmt, ap);
    va_end(ap);
}

// Writes to a file descriptor through a buffer on the stack: no stdio lock, so that reports
// work in a signal handler, and while another thread that crashed holds such a lock.
static void say(int fd, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 1)
        n = (int)sizeof line - 1;
    for (int done = 0; n > 0 && done < n;) {
        ssize_t k = write(fd, line + done, (size_t)(n - done));
        if (k <= 0)
            break;
        done += (int)k;
    }
}

// The report of one thread's last calls.
static void dump_one(int fd, worker *w, const char *name, unsigned last)
{
    double now = now_s();
    say(fd, "  %s: op %u (%s), life %u, %.1f s since its last call returned%s\n", name, w->op,
            w->op_name ? w->op_name : "-", w->life, now - w->progress.load(), w->done.load() ? ", finished" : "");
    int api = w->hostfn_api.load();
    if (api)
        say(fd, "    a host function of this thread is inside %s (--host-api)\n", host_api_names[api - 1]);
    unsigned long long top = w->trace_seq.load();
    for (unsigned long long s = top >= last ? top - last + 1 : 1; s && s <= top; s++) {
        trace_entry *t = &w->trace[s % TRACE];
        if (t->seq.load() != s)
            continue;
        int r = t->result.load();
        if (r < 0)
            say(fd, "    #%llu %s ... running for %.1f s\n", s, t->text, now - t->t0);
        else
            say(fd, "    #%llu %s = %s\n", s, t->text, cudaGetErrorName((cudaError_t)r));
    }
}

static void dump_all(int fd)
{
    say(fd, "stress: seed %llu; rerun: %s\n", cfg.seed, g_argv_line);
    say(fd, "stress: the last calls of each thread (oldest first):\n");
    for (unsigned i = 0; g_workers && i < cfg.threads; i++) {
        char name[32];
        snprintf(name, sizeof name, "thread %u", i);
        dump_one(fd, &g_workers[i], name, cfg.trace);
    }
    if (cfg.reset)
        dump_one(fd, &g_resetter_trace, "reset thread", 4);
}

// The first failure is reported; every thread then stops after its current operation.
void fail(worker *w, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&g_lock);
    if (!g_failed.exchange(true))
        printf("FAIL: thread %d, op %u (%s): %s\n", w ? w->id : -1, w ? w->op : 0,
               w && w->op_name ? w->op_name : "-", msg);
    pthread_mutex_unlock(&g_lock);
    g_stop.store(true);
}

// ---- calls: traced, and judged against what CUDA allows ----------------------------------------

// The errors a call racing cudaDeviceReset may return (CUDA documents each for the calls
// that take a pointer, a stream or an event, or that report an earlier asynchronous fault).
static const cudaError_t reset_errors[] = {
    cudaErrorInvalidValue, cudaErrorInvalidResourceHandle, cudaErrorInvalidDevicePointer,
    cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorContextIsDestroyed, cudaErrorDeviceUninitialized,
};

void call_begin(worker *w, const char *fmt, ...)
{
    if (cfg.reset) {
        w->call_g0 = g_gen.load();
        w->entered.store(w->call_g0 + 1);
    }
    va_list ap;
    va_start(ap, fmt);
    trace_add(w, -1, fmt, ap);
    va_end(ap);
}

cudaError_t call_end(worker *w, cudaError_t e)
{
    w->trace[w->trace_seq.load() % TRACE].result.store(e);
    if (cfg.reset) {
        unsigned long long g1 = g_gen.load();
        w->raced = g1 != w->call_g0 || (g1 & 1);
        if (w->raced) {
            unsigned long long mark = ((g1 + 1) & ~1ull) + 1, old = g_tainted.load();
            while (old < mark && !g_tainted.compare_exchange_weak(old, mark)) {
            }
        }
        w->entered.store(0);
    }
    w->progress.store(now_s());
    return e;
}

// --reset: whether what w sees of its epoch is free of racing resets: the epoch is current,
// no call that raced a reset touched it and no other thread is in a call begun in another
// generation (its effects could land in this one). self: the thread to leave out, or NULL.
bool epoch_reliable(unsigned long long epoch, worker *self)
{
    if (!cfg.reset)
        return true;
    for (unsigned i = 0; i < cfg.threads; i++) {
        unsigned long long x = g_workers[i].entered.load();
        if (&g_workers[i] != self && x && x - 1 != epoch)
            return false;
    }
    return g_tainted.load() <= epoch && g_gen.load() == epoch;
}

// Judges a call's result: true when it succeeded. An error is a failure, except in --reset
// mode where an error of reset_errors is tolerated while a reset races (the state is then
// rebuilt before the next operation).
bool ok(worker *w, cudaError_t e)
{
    if (e == cudaSuccess)
        return true;
    if (cfg.reset) {
        bool documented = false;
        for (cudaError_t r : reset_errors)
            documented |= r == e;
        if (documented && (w->raced || w->dirty || !epoch_reliable(w->epoch, w))) {
            w->dirty = true;
            w->tolerated++;
            return false;
        }
        if (documented) {
            fail(w, "%s with no reset racing", cudaGetErrorName(e));
            return false;
        }
    }
    fail(w, "unexpected %s", cudaGetErrorName(e));
    return false;
}

// ---- a worker's lives ------------------------------------------------------------------------------

// --reset: drops the state of an earlier epoch (a reset freed it: it is forgotten, never freed
// again) or of an error, and builds a fresh one in the current epoch. After an error in the
// current epoch (another thread's racing kernel may have left a sticky fault), it frees what
// it has and waits for the next reset.
static void rebuild(worker *w)
{
    unsigned long long g = g_gen.load();
    bool same = g == w->epoch;
    note(w, "rebuild (epoch %llu, now %llu)", w->epoch, g);
    for (unsigned b = 0; b < cfg.buffers; b++) {
        if (same && w->bufs[b].d)
            CALL(w, cudaFree(w->bufs[b].d), "cudaFree(buf %u) (rebuild)", b);
        w->bufs[b].d = NULL;
    }
    for (unsigned s = SLOT_FIRST; s < SLOT_FIRST + cfg.streams; s++) {
        if (same && w->streams[s])
            CALL(w, cudaStreamDestroy(w->streams[s]), "cudaStreamDestroy(slot %u) (rebuild)", s);
        w->streams[s] = NULL;
    }
    for (unsigned i = 0; i < cfg.events; i++) {
        if (same && w->events[i] && event_unwaited(w, (int)i))
            CALL(w, cudaEventDestroy(w->events[i]), "cudaEventDestroy(event %u) (rebuild)", i);
        w->events[i] = NULL;
        w->event_waiters[i] = 0;
        w->event_waiter_gone[i] = false;
    }
    if (same && w->staging_ev)
        CALL(w, cudaEventDestroy(w->staging_ev), "cudaEventDestroy(staging) (rebuild)");
    w->staging_ev = NULL;
    if (same && w->dirty && w->life) {
        note(w, "waiting for the next reset");
        while (g_gen.load() == g && !g_stop.load()) {
            w->progress.store(now_s());
            usleep(100);
        }
    }
    while ((g = g_gen.load()) & 1) {
        w->progress.store(now_s());
        usleep(100);
    }
    CALL(w, cudaGetLastError(), "cudaGetLastError() (rebuild)");
    note(w, "rebuild: new state in epoch %llu", g);
    w->epoch = g;
    w->dirty = false;
    if (!ok(w, CALL(w, cudaEventCreateWithFlags(&w->staging_ev, cudaEventDisableTiming), "cudaEventCreate(staging)"))) {
        w->staging_ev = NULL;
        return;
    }
    for (unsigned b = 0; b < cfg.buffers; b++)
        if (!buffer_new(w, (int)b))
            return;
}

// Sets up a life's state: staging memory, the staging event and the buffers (kept from the
// last life when there was one).
static bool life_start(worker *w)
{
    if (!w->staging_ev && !ok(w, CALL(w, cudaEventCreateWithFlags(&w->staging_ev, cudaEventDisableTiming),
                                      "cudaEventCreate(staging)")))
        return false;
    for (unsigned b = 0; b < cfg.buffers; b++)
        if (!w->bufs[b].d && !buffer_new(w, (int)b))
            return false;
    return true;
}

// Ends a life: work on this thread's per-thread stream is moved off it, for the thread's exit
// destroys that stream.
static void life_end(worker *w)
{
    for (unsigned b = 0; b < cfg.buffers; b++)
        if (w->bufs[b].d && w->bufs[b].home == SLOT_PER_THREAD && !move(w, (int)b, SLOT_LEGACY))
            return;
    slot_gone(w, SLOT_PER_THREAD);
}

// The end of the run: every buffer compared once more, host functions counted, everything freed.
static void worker_finish(worker *w)
{
    w->op_name = "finish";
    if (ok(w, CALL(w, cudaDeviceSynchronize(), "cudaDeviceSynchronize() (finish)")))
        hostfn_all_done(w, "the final cudaDeviceSynchronize");
    for (unsigned b = 0; b < cfg.buffers && !g_stop.load() && !cfg.reset; b++) {
        buffer *B = &w->bufs[b];
        if (B->d && ok(w, CALL(w, cudaMemcpy(w->page, B->d, (size_t)B->n * 4, cudaMemcpyDeviceToHost),
                               "cudaMemcpy(buf %u, D2H) (finish)", b)))
            compare(w, (int)b, w->page, "the final cudaMemcpy");
    }
    if (cfg.reset && w->epoch != g_gen.load())
        return;   /* a reset freed it all */
    for (unsigned b = 0; b < cfg.buffers; b++)
        if (w->bufs[b].d) {
            ok(w, CALL(w, cudaFree(w->bufs[b].d), "cudaFree(buf %u) (finish)", b));
            w->bufs[b].d = NULL;
        }
    for (unsigned s = SLOT_FIRST; s < SLOT_FIRST + cfg.streams; s++)
        if (w->streams[s]) {
            ok(w, CALL(w, cudaStreamDestroy(w->streams[s]), "cudaStreamDestroy(slot %u) (finish)", s));
            w->streams[s] = NULL;
        }
    for (unsigned i = 0; i < cfg.events; i++)
        if (w->events[i]) {
            ok(w, CALL(w, cudaEventDestroy(w->events[i]), "cudaEventDestroy(event %u) (finish)", i));
            w->events[i] = NULL;
        }
    if (w->staging_ev)
        ok(w, CALL(w, cudaEventDestroy(w->staging_ev), "cudaEventDestroy(staging) (finish)"));
    w->staging_ev = NULL;
}

// After the last synchronisation: the contexts of host functions that were never enqueued.
static void free_orphans(worker *w)
{
    while (w->orphans) {
        hostfn_ctx *c = w->orphans;
        w->orphans = c->next_orphan;
        free(c);
    }
}

static bool time_up(void) { return cfg.seconds > 0 && now_s() - g_t0 >= cfg.seconds; }

// One life of a worker: a thread of its own that runs up to cfg.life operations.
static void *life_main(void *p)
{
    worker *w = (worker *)p;
    w->life++;
    if (!cfg.reset && !life_start(w))
        return NULL;
    unsigned n = cfg.life ? cfg.life / 2 + rnd(w, cfg.life) : 0;
    for (unsigned i = 0; (n == 0 || i < n) && !g_stop.load(); i++) {
        if (cfg.ops && w->op >= cfg.ops)
            break;
        if (time_up())
            break;
        if (cfg.reset && (w->dirty || w->epoch != g_gen.load() || !w->staging_ev))
            rebuild(w);
        if (!cfg.reset || !w->dirty)
            run_op(w);
        w->op++;
        if (w->hostfn_bad.load())
            fail(w, "%s", w->hostfn_msg);
    }
    if (!g_stop.load() && (!cfg.reset || (!w->dirty && w->epoch == g_gen.load())))
        life_end(w);
    return NULL;
}

static void *worker_main(void *p)
{
    worker *w = (worker *)p;
    while (!g_stop.load() && !(cfg.ops && w->op >= cfg.ops) && !time_up()) {
        pthread_t t;
        if (pthread_create(&t, NULL, life_main, w) != 0) {
            fail(w, "pthread_create: %s", strerror(errno));
            break;
        }
        pthread_join(t, NULL);
    }
    if (!g_stop.load())
        worker_finish(w);
    if (w->hostfn_bad.load())
        fail(w, "%s", w->hostfn_msg);
    w->done.store(true);
    return NULL;
}

// --reset: resets the device at random intervals while any worker runs.
static void *reset_main(void *)
{
    worker *w = &g_resetter_trace;
    bool running = true;
    while (running && !g_stop.load()) {
        usleep((useconds_t)(rnd(w, (unsigned)(2000 * cfg.reset_ms) + 1)));
        running = false;
        for (unsigned i = 0; i < cfg.threads; i++)
            running |= !g_workers[i].done.load();
        if (!running)
            break;
        w->op++;
        g_gen.fetch_add(1);
        cudaError_t e = CALL(w, cudaDeviceReset(), "cudaDeviceReset() #%llu", g_resets.load() + 1);
        g_gen.fetch_add(1);
        g_resets.fetch_add(1);
        if (e != cudaSuccess)
            fail(w, "cudaDeviceReset returned %s", cudaGetErrorName(e));
    }
    w->done.store(true);
    return NULL;
}

// ---- reports on crashes, sanitizer reports and timeouts -------------------------------------------

// The first thread to crash reports; others that crash meanwhile wait for it to end the process.
static std::atomic<bool> g_reporting;

static void on_fatal_signal(int sig)
{
    if (g_reporting.exchange(true))
        for (;;)
            pause();
    say(2, "\nstress: signal %d\n", sig);
    dump_all(2);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_term(int)
{
    if (g_reporting.exchange(true))
        for (;;)
            pause();
    say(1, "\nFAIL: stopped by SIGTERM (the runner's timeout: a hang?)\n");
    dump_all(1);
    _exit(124);
}

static void on_sanitizer_death(void)
{
    if (g_reporting.exchange(true))
        return;
    say(2, "\nstress: a sanitizer stops the program\n");
    dump_all(2);
}

// Signal handlers go where no one else (a sanitizer) has put one; sanitizers that are
// loaded get a death callback instead.
static void install_reports(void)
{
    const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (int s : sigs) {
        struct sigaction old;
        if (sigaction(s, NULL, &old) == 0 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
            signal(s, on_fatal_signal);
    }
    signal(SIGTERM, on_term);
    typedef void (*set_cb_t)(void (*)(void));
    set_cb_t set_cb = (set_cb_t)dlsym(RTLD_DEFAULT, "__sanitizer_set_death_callback");
    if (set_cb)
        set_cb(on_sanitizer_death);
}

// ---- main ---------------------------------------------------------------------------------------------

static void usage(FILE *f)
{
    fprintf(f,
            "usage: stress [OPTIONS]\n"
            "  --threads N     worker threads (default 4, at most %d)\n"
            "  --ops N         operations per worker (default 300; 0: no limit, see --seconds)\n"
            "  --seconds S     stop after S seconds (default 0: no limit)\n"
            "  --seed S        the seed (default 1, or STRESS_SEED); each worker draws from its own\n"
            "  --streams N     streams per worker besides the default ones (default 3, at most %d)\n"
            "  --buffers N     device buffers per worker (default 4, 2 to %d)\n"
            "  --events N      events per worker (default 4, at most %d)\n"
            "  --max-n N       elements of the largest buffer (default 4096)\n"
            "  --life N        a worker's thread exits after about N operations and a new one goes on\n"
            "                  (default 150; 0: one thread per worker)\n"
            "  --reset         a thread calls cudaDeviceReset while the workers run\n"
            "  --reset-ms M    mean time between resets (default 4 ms)\n"
            "  --host-api      host functions call the runtime (must get cudaErrorNotPermitted)\n"
            "  --rerecord      record an event on another stream while its last record may be pending\n"
            "  --destroy-waited  destroy events that a stream may still be waiting for\n"
            "  --hang S        report a hang when a thread makes no progress for S s (default 30)\n"
            "  --trace N       calls per thread shown in a report (default 12, at most %d)\n",
            MAX_THREADS, MAX_STREAMS, MAX_BUFS, MAX_EVENTS, TRACE - 1);
}

static bool parse_args(int argc, char **argv)
{
    const char *env = getenv("STRESS_SEED");
    if (env && *env)
        cfg.seed = strtoull(env, NULL, 0);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        if (!strcmp(a, "--reset") || !strcmp(a, "--host-api") || !strcmp(a, "--rerecord") ||
            !strcmp(a, "--destroy-waited") || !strcmp(a, "--help") || !strcmp(a, "-h"))
            takes = false;
        else if (!v) {
            fprintf(stderr, "stress: %s needs a value\n", a);
            return false;
        }
        if (!strcmp(a, "--threads")) cfg.threads = (unsigned)atoi(v);
        else if (!strcmp(a, "--ops")) cfg.ops = (unsigned)atoi(v);
        else if (!strcmp(a, "--seconds")) cfg.seconds = atof(v);
        else if (!strcmp(a, "--seed")) cfg.seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--streams")) cfg.streams = (unsigned)atoi(v);
        else if (!strcmp(a, "--buffers")) cfg.buffers = (unsigned)atoi(v);
        else if (!strcmp(a, "--events")) cfg.events = (unsigned)atoi(v);
        else if (!strcmp(a, "--max-n")) cfg.max_n = (unsigned)atoi(v);
        else if (!strcmp(a, "--life")) cfg.life = (unsigned)atoi(v);
        else if (!strcmp(a, "--reset-ms")) cfg.reset_ms = atof(v);
        else if (!strcmp(a, "--hang")) cfg.hang_s = atof(v);
        else if (!strcmp(a, "--trace")) cfg.trace = (unsigned)atoi(v);
        else if (!strcmp(a, "--reset")) cfg.reset = true;
        else if (!strcmp(a, "--host-api")) cfg.host_api = true;
        else if (!strcmp(a, "--rerecord")) cfg.rerecord = true;
        else if (!strcmp(a, "--destroy-waited")) cfg.destroy_waited = true;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "stress: unknown option %s\n", a);
            usage(stderr);
            return false;
        }
        if (takes)
            i++;
    }
    if (cfg.threads < 1 || cfg.threads > MAX_THREADS || cfg.streams > MAX_STREAMS || cfg.buffers < 2 ||
        cfg.buffers > MAX_BUFS || cfg.events < 1 || cfg.events > MAX_EVENTS || cfg.max_n < 1 || cfg.trace >= TRACE ||
        (cfg.ops == 0 && cfg.seconds <= 0) || cfg.hang_s <= 0) {
        fprintf(stderr, "stress: an option is out of range\n");
        usage(stderr);
        return false;
    }
    int n = snprintf(g_argv_line, sizeof g_argv_line, "loom exec %s --seed %llu", argv[0], cfg.seed);
    for (int i = 1; i < argc && n < (int)sizeof g_argv_line; i++) {
        if (!strcmp(argv[i], "--seed")) {
            i++;
            continue;
        }
        n += snprintf(g_argv_line + n, sizeof g_argv_line - (size_t)n, " %s", argv[i]);
    }
    return true;
}

int main(int argc, char **argv)
{
    if (!parse_args(argc, argv))
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("stress: seed %llu, %u threads, %u ops each%s, %u streams, %u buffers, %u events%s%s%s%s\n", cfg.seed,
           cfg.threads, cfg.ops, cfg.seconds > 0 ? " or until the time is up" : "", cfg.streams, cfg.buffers,
           cfg.events, cfg.reset ? ", racing cudaDeviceReset" : "", cfg.host_api ? ", host functions call the runtime" : "",
           cfg.rerecord ? ", events re-recorded across streams" : "",
           cfg.destroy_waited ? ", events destroyed while awaited" : "");
    fflush(stdout);
    install_reports();
    g_workers = new worker[cfg.threads]();
    g_t0 = now_s();
    cudaError_t e = cudaFree(0);   /* creates the device before the threads race */
    if (e != cudaSuccess) {
        printf("FAIL: cudaFree(0) returned %s\nFAIL\n", cudaGetErrorName(e));
        return 1;
    }
    pthread_t threads[MAX_THREADS], resetter;
    for (unsigned i = 0; i < cfg.threads; i++) {
        worker *w = &g_workers[i];
        w->id = (int)i;
        w->rng = cfg.seed * 0x2545f4914f6cdd1dull + i + 1;
        w->progress.store(now_s());
        for (unsigned b = 0; b < cfg.buffers; b++)
            w->bufs[b].shadow = (unsigned *)calloc(cfg.max_n, sizeof(unsigned));
        w->page = (unsigned *)malloc((size_t)cfg.max_n * 4);
        if (cfg.reset)
            w->staging = (unsigned *)malloc((size_t)cfg.max_n * 4);
        else if ((e = cudaMallocHost((void **)&w->staging, (size_t)cfg.max_n * 4)) != cudaSuccess)
            fail(w, "cudaMallocHost: %s", cudaGetErrorName(e));
    }
    g_resetter_trace.id = -1;
    g_resetter_trace.rng = cfg.seed ^ 0x5eedull;
    g_resetter_trace.progress.store(now_s());
    for (unsigned i = 0; i < cfg.threads; i++)
        pthread_create(&threads[i], NULL, worker_main, &g_workers[i]);
    if (cfg.reset)
        pthread_create(&resetter, NULL, reset_main, NULL);

    // The watchdog: a thread whose last call returned --hang seconds ago is reported as hung.
    for (;;) {
        bool all = true;
        double now = now_s();
        for (unsigned i = 0; i < cfg.threads; i++) {
            worker *w = &g_workers[i];
            if (w->done.load())
                continue;
            all = false;
            if (now - w->progress.load() > cfg.hang_s) {
                pthread_mutex_lock(&g_lock);
                printf("FAIL: HANG: thread %u has made no progress for %.0f s (op %u, %s)\n", i, now - w->progress.load(),
                       w->op, w->op_name ? w->op_name : "-");
                fflush(stdout);
                dump_all(1);
                printf("FAIL\n");
                fflush(stdout);
                _exit(3);
            }
        }
        if (cfg.reset && !g_resetter_trace.done.load() && now - g_resetter_trace.progress.load() > cfg.hang_s) {
            printf("FAIL: HANG: the reset thread has made no progress for %.0f s\n", now - g_resetter_trace.progress.load());
            dump_all(1);
            printf("FAIL\n");
            fflush(stdout);
            _exit(3);
        }
        if (all)
            break;
        usleep(20000);
    }
    for (unsigned i = 0; i < cfg.threads; i++)
        pthread_join(threads[i], NULL);
    if (cfg.reset)
        pthread_join(resetter, NULL);

    unsigned long long ops = 0, checks = 0, skipped = 0, tolerated = 0, hostfns = 0;
    for (unsigned i = 0; i < cfg.threads; i++) {
        worker *w = &g_workers[i];
        ops += w->op;
        checks += w->checks;
        skipped += w->skipped;
        tolerated += w->tolerated;
        hostfns += w->hostfn_done.load();
    }
    if (cfg.reset && !g_failed.load()) {
        /* after the races, a reset leaves a device that works */
        if (cudaDeviceReset() != cudaSuccess || !final_sanity())
            fail(NULL, "the device does not work after the final cudaDeviceReset");
    }
    if (!g_failed.load() && cudaDeviceSynchronize() == cudaSuccess)
        for (unsigned i = 0; i < cfg.threads; i++)
            free_orphans(&g_workers[i]);
    printf("stress: %llu operations, %llu read-backs compared, %llu host functions ran", ops, checks, hostfns);
    if (cfg.reset)
        printf(", %llu resets, %llu errors of racing calls tolerated, %llu read-backs not comparable", g_resets.load(),
               tolerated, skipped);
    printf(", %.1f s\n", now_s() - g_t0);
    if (g_failed.load()) {
        dump_all(1);
        printf("FAIL\n");
        return 1;
    }
    for (unsigned i = 0; i < cfg.threads; i++) {
        worker *w = &g_workers[i];
        for (unsigned b = 0; b < cfg.buffers; b++)
            free(w->bufs[b].shadow);
        free(w->page);
        if (cfg.reset)
            free(w->staging);
        else
            cudaFreeHost(w->staging);
    }
    worker *ws = g_workers;
    g_workers = NULL;   /* a sanitizer's report at exit must not read them */
    delete[] ws;
    printf("PASS\n");
    return 0;
}
