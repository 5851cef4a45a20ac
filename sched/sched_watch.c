/* sched_watch.c -- the watchdog: with a time limit (--timeout), a host function (stream
 * callback) that runs past it is reported, and the program ends; with progress on (a
 * terminal), a kernel running for 2 s or more keeps one line on stderr saying how far it is;
 * when no CTA finishes for the --watchdog time, a note says where the warps are. */
#define _GNU_SOURCE     /* dladdr */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "include/loom/loom.h"
#include "sched/sched.h"

/* A kernel past its limit is stopped by the workers themselves; a host function is the
 * program's own code, which nothing can stop from outside, and its stream can never go
 * on. So the watchdog reports it (which function) on stderr with write(2), which cannot
 * block on a stdio lock the function may hold, flushes the program's stdout when no one
 * holds it, and ends the process with the status of timeout(1). */
static void report_and_exit(const struct sched *s, void (*fn)(void *))
{
    char name[256] = "";
    Dl_info info;
    if (dladdr((void *)(uintptr_t)fn, &info) && info.dli_sname)
        snprintf(name, sizeof name, " '%s'", info.dli_sname);
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    char line[768];
    int n = snprintf(line, sizeof line,
                     "loom: the host function%s at %p (cudaLaunchHostFunc or a stream callback) has run for more "
                     "than %g s (--timeout); Loom cannot stop it, so the program ends here (exit status 124)\n",
                     name, (void *)(uintptr_t)fn, s->timeout_s);
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) n = 0;
    _exit(124);
}

#define PROGRESS_AFTER_S 2.0

/* Under s->lock: the line for the grid running longest, once it has run PROGRESS_AFTER_S
 * ("loom: kernel 'scale<...>': 1200 of 5000 CTAs, 12 s"), drawn over itself with \r; erased
 * when no grid has run that long. write(2): the program may hold stderr's stdio lock. */
static void progress(struct sched *s)
{
    double now = sched_now();
    struct sched_grid *longest = NULL;
    for (struct sched_grid *g = s->active; g; g = g->next_active)
        if (!g->finished && (!longest || g->t_start < longest->t_start)) longest = g;
    char line[256];
    int n = 0;
    if (longest && now - longest->t_start >= PROGRESS_AFTER_S) {
        char name[64];
        uint64_t done = atomic_load_explicit(&longest->done, memory_order_relaxed);
        n = snprintf(line, sizeof line, "\r\033[Kloom: kernel '%s': %llu of %llu CTAs, %.0f s",
                     loom_short_name(longest->L.entry->ir->name, 40, name, sizeof name),
                     (unsigned long long)(done < longest->nctas ? done : longest->nctas),
                     (unsigned long long)longest->nctas, now - longest->t_start);
        s->progress_shown = true;
    } else if (s->progress_shown) {
        sched_progress_erase(s);
    }
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) n = 0;
}

void sched_progress_erase(struct sched *s)
{
    ssize_t w = write(STDERR_FILENO, "\r\033[K", 4);
    (void)w;                    /* nothing to do when stderr is gone */
    s->progress_shown = false;
}

/* The no-progress watchdog, under s->lock: when grids run but no CTA has finished for
 * s->watchdog_s, says so once (until one finishes) and asks each worker to say where its
 * resident CTAs' warps are (run_residents); the kernels keep running. */
struct stall {
    uint64_t finished;          /* CTAs finished, all workers, when last looked */
    double since;               /* when that count last changed, or no grid ran */
    bool noted;
};

static void watch_progress(struct sched *s, struct stall *st)
{
    double now = sched_now();
    uint64_t finished = 0;
    for (unsigned i = 0; i < s->workers; i++) finished += atomic_load_explicit(&s->wslots[i].finished, memory_order_relaxed);
    struct sched_grid *oldest = NULL;
    for (struct sched_grid *g = s->active; g; g = g->next_active)
        if (!g->finished && (!oldest || g->t_start < oldest->t_start)) oldest = g;
    if (!oldest || finished != st->finished) {
        st->finished = finished;
        st->since = now;
        st->noted = false;
        return;
    }
    if (st->noted || now - st->since < s->watchdog_s) return;
    st->noted = true;
    if (s->progress_shown) sched_progress_erase(s);
    char name[64], line[512];
    uint64_t done = atomic_load_explicit(&oldest->done, memory_order_relaxed);
    int n = snprintf(line, sizeof line,
                     "loom: no CTA has finished for %.0f s (kernel '%s' has run %.0f s, %llu of %llu CTAs done); "
                     "it keeps running (--timeout S stops a kernel, --watchdog 0 turns this note off). Where the "
                     "resident CTAs' warps are:\n", now - st->since,
                     loom_short_name(oldest->L.entry->ir->name, 40, name, sizeof name), now - oldest->t_start,
                     (unsigned long long)(done < oldest->nctas ? done : oldest->nctas),
                     (unsigned long long)oldest->nctas);
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0) n = 0;
    atomic_fetch_add_explicit(&s->notes, 1, memory_order_relaxed);
}

/* Wakes up a few times per limit (at most once a second, at least every 10 ms; twice a
 * second for progress) and looks at what each worker's host function has been running for. */
static void *watch_main(void *arg)
{
    struct sched *s = arg;
    double period = s->timeout_s > 0 ? s->timeout_s / 4 : 1;
    if (period > 1) period = 1;
    if (s->watchdog_s > 0 && period > s->watchdog_s / 4) period = s->watchdog_s / 4;
    struct stall stall = { .since = sched_now() };
    if (s->progress && period > 0.5) period = 0.5;
    if (period < 0.01) period = 0.01;
    pthread_mutex_lock(&s->lock);
    while (!s->shutdown) {
        struct timespec due;
        clock_gettime(CLOCK_MONOTONIC, &due);
        uint64_t ns = (uint64_t)due.tv_nsec + (uint64_t)(period * 1e9);
        due.tv_sec += (time_t)(ns / 1000000000u);
        due.tv_nsec = (long)(ns % 1000000000u);
        pthread_cond_timedwait(&s->watch_cv, &s->lock, &due);
        if (s->shutdown || !s->ready) continue;
        if (s->progress) progress(s);
        if (s->watchdog_s > 0) watch_progress(s, &stall);
        if (s->timeout_s <= 0) continue;
        uint64_t now = sched_now_ns();
        for (unsigned i = 0; i < s->workers; i++) {
            uint64_t t0 = atomic_load(&s->wslots[i].host_t0_ns);
            double ran = t0 ? 1e-9 * (double)(now - t0) : 0;
            if (t0 && ran > s->timeout_s) report_and_exit(s, atomic_load(&s->wslots[i].host_fn));
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

bool sched_watch_start(struct sched *s)
{
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return false;
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    bool ok = pthread_cond_init(&s->watch_cv, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (ok && pthread_create(&s->watchdog, NULL, watch_main, s) != 0) {
        pthread_cond_destroy(&s->watch_cv);
        ok = false;
    }
    s->watching = ok;
    return ok;
}

/* Called with s->shutdown set (under s->lock, then released). */
void sched_watch_stop(struct sched *s)
{
    if (!s->watching) return;
    pthread_mutex_lock(&s->lock);
    pthread_cond_broadcast(&s->watch_cv);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->watchdog, NULL);
    pthread_cond_destroy(&s->watch_cv);
    s->watching = false;
}
