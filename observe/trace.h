/* trace.h -- the Chrome trace recorder (--trace FILE.json): host API calls, streams,
 * kernels, CTAs on workers and, when the emulator reports them, warps.
 *
 * Events go to a buffer per recording thread (no lock after a thread's first event),
 * bounded by a cap on events shared through an atomic budget taken in blocks; past it
 * nothing more is recorded and the file says so (an instant event "trace capped at N
 * events" and "capped" in otherData). loom_trace_write writes the JSON object format
 * ({"traceEvents": [...]}, which ui.perfetto.dev and chrome://tracing open), events sorted
 * by track, then time: the same order run after run when the device is deterministic.
 *
 * Every timestamp given to these functions is CLOCK_MONOTONIC in nanoseconds (what
 * sched_now_ns returns); the file counts microseconds from the trace's origin (device
 * creation). Names (`name`, `end_reason`, `what`) must outlive the trace: string literals,
 * or strings from loom_trace_intern. */
#ifndef LOOM_OBSERVE_TRACE_H
#define LOOM_OBSERVE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOOM_TRACE_DEFAULT_CAP 1000000u

/* Tracks (Chrome "tid"s of the one process "Loom device"); each gets a thread_name. */
#define LOOM_TRACE_HOST_TRACK 1u                        /* "host API"; other host threads 2, 3 ... */
#define LOOM_TRACE_STREAM_TRACK(id) (1000u + (unsigned)(id))     /* "stream N", 0 the default */
#define LOOM_TRACE_WORKER_TRACK(w) (1000000u + (unsigned)(w))    /* "worker N" */

struct loom_trace;

struct loom_trace_opts {
    const char *path;           /* the JSON file */
    uint64_t cap;               /* events kept at most; 0: LOOM_TRACE_DEFAULT_CAP */
    bool warps;                 /* per-warp slices were asked for (loom_trace_warps) */
    uint64_t origin_ns;         /* time 0 of the file */
};

/* Creates (truncates) the file at once, so that an unwritable path fails before anything
 * runs: NULL with one line in err ("cannot write the trace file 'x': Permission denied"). */
struct loom_trace *loom_trace_open(const struct loom_trace_opts *o, char *err, size_t size);
/* Writes everything recorded so far over the file's contents (it may be called again
 * later: each call writes the whole trace). False with one line in err on failure. */
bool loom_trace_write(struct loom_trace *t, char *err, size_t size);
/* Whether events were recorded (or dropped) since the last loom_trace_write. */
bool loom_trace_dirty(struct loom_trace *t);
/* Closes the file and frees everything (writes nothing). */
void loom_trace_close(struct loom_trace *t);
/* The path and whether per-warp slices were asked for. */
const char *loom_trace_path(const struct loom_trace *t);
bool loom_trace_warps(const struct loom_trace *t);

/* A copy of s that lives as long as t (for event names); NULL when out of memory. */
const char *loom_trace_intern(struct loom_trace *t, const char *s);
/* Names a track (its thread_name); tracks not named get "stream N" / "worker N". */
void loom_trace_name_track(struct loom_trace *t, unsigned track, const char *name);

/* A slice [t0, t1] on track; args is the text of a JSON object ("{...}", copied) or NULL. */
void loom_trace_slice(struct loom_trace *t, unsigned track, const char *name, uint64_t t0_ns, uint64_t t1_ns,
                      const char *args);
/* A host API call: a slice on the calling thread's host track (LOOM_TRACE_HOST_TRACK for
 * the first thread that makes one, the next track for the next thread ...). */
void loom_trace_api(struct loom_trace *t, const char *name, uint64_t t0_ns, uint64_t t1_ns, const char *args);
/* An instant event on track (thread scope). */
void loom_trace_instant(struct loom_trace *t, unsigned track, const char *name, uint64_t ts_ns, const char *args);
/* A flow arrow from the calling thread's host track at ts_ns (inside the API call's slice)
 * to the slice that starts at to_ns on track `to` (a kernel or copy of a stream); id is
 * unique per trace (the operation's sequence number). */
void loom_trace_flow_out(struct loom_trace *t, const char *name, uint64_t id, uint64_t ts_ns);
void loom_trace_flow_in(struct loom_trace *t, unsigned to, const char *name, uint64_t id, uint64_t to_ns);
/* One run span of a CTA on a worker: from admission or resumption to finishing or being
 * set aside (end: "done", "parked", "fault"). kernel: an interned name. */
void loom_trace_cta(struct loom_trace *t, unsigned worker, const char *kernel, const uint32_t ctaid[3],
                    uint32_t gridid, uint64_t t0_ns, uint64_t t1_ns, const char *end);

/* Per-warp slices (--trace-warps), for the emulator side to call where a warp's slice
 * ends, on the worker thread running the CTA, only when loom_trace_warps(t):
 *   loom_trace_warp_slice: warp `warp` of the CTA whose linear index in the grid is
 *     cta_linear ran from t0_ns to t1_ns on worker `worker`, issuing `instructions` warp
 *     instructions, and stopped for end_reason (a literal: "budget", "barrier", "exit",
 *     "diverged", ...): a slice "warp N" on the worker's track, inside the CTA's span.
 *   loom_trace_warp_event: something that happened to that warp at ts_ns (what: a literal,
 *     "diverge", "reconverge", "barrier arrive", "barrier release", "exit"), at PTX line
 *     ptx_line (0: unknown), with the active mask after it: an instant event.
 * Both are safe from any worker at once (per-thread buffers) and cost one buffer append. */
void loom_trace_warp_slice(struct loom_trace *t, unsigned worker, unsigned cta_linear, unsigned warp, uint64_t t0_ns,
                           uint64_t t1_ns, const char *end_reason, uint64_t instructions);
void loom_trace_warp_event(struct loom_trace *t, unsigned worker, unsigned cta_linear, unsigned warp, uint64_t ts_ns,
                           const char *what, unsigned ptx_line, uint32_t mask);


#endif
