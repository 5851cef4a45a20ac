/* loom_dap.h -- what the two halves of `loom dap` share: the server's state, its writer of
 * protocol messages, and the requests that read a stopped launch (cli/loom_dap_inspect.c). */
#ifndef LOOM_DAP_H
#define LOOM_DAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/loom_dap_json.h"
#include "loom/debug.h"

/* A place a variablesReference or frameId stands for; valid while one stop lasts. */
enum dap_ref_kind {
    DAP_REF_FRAME,        /* a stack frame: frame of thread */
    DAP_REF_REGS,         /* the registers of one lane of thread's warp */
    DAP_REF_REG_LANES,    /* register `name` in every lane of thread's warp */
    DAP_REF_LANES,        /* the lanes of thread's warp */
    DAP_REF_WARP,         /* the warp: state, masks, SIMT stack, barriers */
    DAP_REF_SHARED,       /* the shared memory of thread's block, 16 bytes a row */
    DAP_REF_PARAMS,       /* the kernel's parameters */
    DAP_REF_GLOBAL,       /* global memory at addr (a pointer parameter's), 16 bytes a row */
};

struct dap_ref {
    enum dap_ref_kind kind;
    int64_t thread;       /* a DAP thread id: a warp of a running block (dap_thread_id) */
    unsigned lane, frame;
    char *name;           /* REG_LANES */
    uint64_t addr;        /* GLOBAL */
};

/* A breakpoint as the editor set it (its id is ours; number is the core's, 0: none). */
struct dap_bp {
    int id;
    char *source;         /* the editor's path: setBreakpoints replaces a source's set */
    char *file;           /* what the core is given: the .cu's last part, or the PTX path */
    bool is_cu;
    unsigned line;        /* as asked */
    char *condition;
    int number;
    bool verified;
    unsigned placed;      /* the line it stops at (0: not placed) */
    char message[256];
};

enum dap_state { DAP_IDLE, DAP_RUNNING, DAP_STOPPED, DAP_OVER };

struct dap_server {
    int out_fd;                      /* the protocol channel: the process's stdout as it was */
    FILE *log;                       /* --log FILE: the traffic, for troubleshooting */
    pthread_mutex_t write_lock;      /* one message at a time on out_fd; seq */
    int64_t seq;
    int line_base;                   /* 1, or 0 when the client counts lines from 0 */

    struct loom_debug *d;
    pthread_mutex_t lock;            /* all below; held by the protocol thread while it serves */
    pthread_cond_t cond;
    enum dap_state state;
    const struct loom_debug_stop *stop;   /* DAP_STOPPED: the stop in progress */
    bool have_action;
    enum loom_debug_action action, last_action;
    bool user_pause, detach, kill;
    bool holding;                    /* a launch's entry waits for configurationDone */
    bool pause_at_entry;             /* a pause asked for while no launch ran */

    /* launch */
    bool launched, configured, stop_on_entry, no_debug, started;   /* the run starts at launch */
    int run_argc;
    char **run_argv;
    char *ptx;                       /* the PTX file as the launch names it */
    pthread_t runner;
    int exit_status;

    /* the program's stdout and stderr, forwarded as output events */
    int pipe_out, pipe_err;          /* read ends */
    pthread_t reader;
    bool reader_stop;
    pthread_mutex_t drain_lock;

    struct dap_bp *bps;
    unsigned nbps;
    int next_bp_id;
    int *watches;                    /* the core's numbers of the data breakpoints */
    unsigned nwatches;

    int64_t *threads;                /* the thread ids the editor was told of (thread events) */
    unsigned nthreads;

    struct dap_ref *refs;            /* reference n is refs[n - 1] */
    unsigned nrefs, cap_refs;
};

/* ---- loom_cmd_dap.c ---------------------------------------------------------------- */
/* Sends an event; body is a JSON object's text or NULL. */
void dap_event(struct dap_server *s, const char *event, const char *body);
/* A new reference (1, 2 ...) for this stop; 0 when out of memory. */
int64_t dap_ref_add(struct dap_server *s, enum dap_ref_kind kind, int64_t thread, unsigned lane, unsigned frame,
                    const char *name);
const struct dap_ref *dap_ref_get(struct dap_server *s, int64_t ref);

/* ---- loom_dap_inspect.c: requests served while the launch is stopped ----------------- */
/* Each writes a response body (a JSON object) into body and returns true, or returns false
 * with a one-line reason in err. */
typedef bool dap_handler(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen);
dap_handler dap_threads, dap_stack_trace, dap_scopes, dap_variables, dap_evaluate, dap_exception_info,
    dap_data_breakpoint_info;

/* The DAP thread id of warp w of block b in the stopped launch, and back. */
int64_t dap_thread_id(struct dap_server *s, const unsigned block[3], unsigned warp);
/* Focuses on thread id's warp (lane: that lane; -1: keep the focused lane when it is that
 * warp, else its first active lane). False with err when it is no warp of the launch. */
bool dap_focus_thread(struct dap_server *s, int64_t id, int lane, char *err, size_t errlen);
/* The DAP thread ids of the warps running now, ascending (*n of them; NULL when none or out
 * of memory). Inside a stop. */
int64_t *dap_thread_ids(struct dap_server *s, unsigned *n);
/* The stopped event's body for stop st, its object left open (the caller adds members and '}'). */
void dap_write_stopped(struct dap_server *s, const struct loom_debug_stop *st, FILE *body);

#endif
