/* debug.h -- Loom's debugging API: stop kernels at breakpoints, watchpoints and faults,
 * step a warp, read its registers, predicates and memory, and go back in time.
 *
 * A debugger is made first and handed to the device in loom_device_config.debugger. Such a
 * device runs one worker with the deterministic schedule, and decodes each module twice: as
 * usual, and without folding and fusion, so that every PTX instruction runs and every
 * register keeps its own value. Launches of the kernels it attaches to
 * (loom_debug_config.kernel, or all) run the second through the debugged dispatch; others
 * run as on any device.
 *
 * When something stops a debugged launch, the worker running it calls the front end's
 * on_stop callback with the stop and waits for its answer: every warp of the launch stands
 * still meanwhile. Inside the callback (and only there) the front end may read the state
 * (loom_debug_read_*, loom_debug_warps, ...) and change breakpoints, focus and watchpoints;
 * it returns what to do next (continue, step, reverse ...). The same commands stop at the
 * same places run after run.
 *
 * Reverse execution re-runs the launch from its beginning (the device memory it started
 * with is kept) to the last stop before the current one that the command asks for. Kernel
 * printf output of a launch appears once, as if it had run straight through.
 *
 * "Inside on_stop" means while a stop is in progress: from the callback's start until it
 * returns, from any thread (a DAP server serves requests on its own thread meanwhile).
 *
 * Focus: a block and a thread of the launch, as cuda-gdb's; the focused warp is the one
 * holding that thread. Steps and per-lane reads follow the focus.
 *
 *     struct loom_debug *d;
 *     loom_debug_create(&(struct loom_debug_config){ .on_stop = prompt, .ctx = me }, &d);
 *     struct loom_device_config cfg = { .debugger = d };
 *     loom_device_create(&cfg, &dev);
 *     loom_debug_break(d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = "saxpy.cu", .line = 7 },
 *                      NULL, err, sizeof err);
 *     ... load, launch, synchronize: prompt() is called at each stop ...
 */
#ifndef LOOM_DEBUG_H
#define LOOM_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loom/loom.h"

#ifdef __cplusplus
extern "C" {
#endif

struct loom_debug;

/* Why a launch stopped. */
enum loom_debug_reason {
    LOOM_STOP_ENTRY,        /* a debugged launch begins (loom_debug_config.stop_at_entry), before any issue */
    LOOM_STOP_BREAKPOINT,   /* the focused warp is about to issue a breakpoint's instruction */
    LOOM_STOP_STEP,          /* a step, next, finish, until or reverse step ended */
    LOOM_STOP_WATCH,        /* a lane wrote a watched address (stopped after the write) */
    LOOM_STOP_BARRIER,      /* the focused warp is about to issue a barrier (LOOM_DEBUG_TO_BARRIER) */
    LOOM_STOP_FAULT,        /* a fault (memcheck, racecheck, trap, assert, deadlock ...): the faulting
                              * instruction, with the state as it was when the fault was found */
    LOOM_STOP_PAUSE,        /* loom_debug_pause was called */
    LOOM_STOP_START,        /* going back reached the launch's first instruction */
    LOOM_STOP_EXIT,         /* the launch is over (only when stop_at_exit); nothing of it runs now */
};
const char *loom_debug_reason_name(enum loom_debug_reason r);

/* Where a warp stands, or a stop happened. */
struct loom_debug_where {
    uint32_t pc;             /* index in the module's decoded code */
    unsigned ptx_line;       /* line in the PTX text (0: none) */
    const char *ptx_file;    /* the module's path, or "<ptx>" */
    const char *cu_file;     /* the CUDA file that .loc names, or NULL */
    unsigned cu_line;        /* 0: none */
    const char *function;    /* the .entry or .func it is in */
    const char *text;        /* the PTX instruction as written (one line, no newline) */
};

/* A stop. Pointers stay valid until the callback returns. */
struct loom_debug_stop {
    enum loom_debug_reason reason;
    int breakpoint;              /* the breakpoint's number (BREAKPOINT), else 0 */
    int watchpoint;              /* the watchpoint's number (WATCH), else 0 */
    uint64_t watch_addr;         /* WATCH: the address written (global: device address; shared: offset) */
    unsigned watch_size;         /* bytes written there */
    uint64_t watch_old, watch_new; /* WATCH: the watched value before and after (its size) */
    enum loom_status fault;      /* FAULT: the status; the report is fault_report */
    const char *fault_report;    /* FAULT: the full report as the run would print it */
    const char *kernel;          /* the launch's kernel (mangled name) */
    unsigned launch;             /* the launch's number on the device (1, 2 ...) */
    unsigned block[3], thread[3];/* the focus at the stop: the thread that stopped (its lane's) */
    unsigned warp, lane;         /* the focused warp in its block, and lane */
    uint32_t active;             /* the focused warp's active lanes */
    struct loom_debug_where where;
    uint64_t tick;               /* warp instructions issued by the launch before this stop */
};

/* What the front end asks for when it returns from on_stop. */
enum loom_debug_action {
    LOOM_DEBUG_CONTINUE,         /* run until a breakpoint, watchpoint or fault */
    LOOM_DEBUG_STEPI,            /* one instruction of the focused warp */
    LOOM_DEBUG_STEP,             /* to another source line (CUDA where .loc gives it, else PTX), into calls */
    LOOM_DEBUG_NEXT,             /* as STEP, over calls */
    LOOM_DEBUG_FINISH,           /* until the focused warp returns from the current .func */
    LOOM_DEBUG_UNTIL,            /* as NEXT, but never to a line at or above this one (out of loops) */
    LOOM_DEBUG_TO_BARRIER,       /* until the focused warp is about to issue a barrier */
    LOOM_DEBUG_REVERSE_STEPI,    /* back to the focused warp's previous instruction */
    LOOM_DEBUG_REVERSE_STEP,     /* back to the start of the focused warp's previous line */
    LOOM_DEBUG_REVERSE_CONTINUE, /* back to the previous breakpoint or watchpoint stop (or the start) */
    LOOM_DEBUG_DETACH,           /* no more stops: the launches run to completion */
    LOOM_DEBUG_KILL,             /* end the launch now: it fails with LOOM_ERR_INTERRUPTED */
};

struct loom_debug_config {
    /* Called on the worker running the launch at each stop; returns what to do next. */
    enum loom_debug_action (*on_stop)(struct loom_debug *d, const struct loom_debug_stop *stop, void *ctx);
    void *ctx;
    const char *kernel;          /* attach to launches of this kernel (mangled or demangled name, or
                                  * the demangled name's function part); NULL: all */
    bool stop_at_entry;          /* stop before a debugged launch's first instruction */
    bool stop_at_exit;           /* stop once when a debugged launch ends */
};

enum loom_status loom_debug_create(const struct loom_debug_config *cfg, struct loom_debug **out);
/* The ctx given in the config. */
void *loom_debug_ctx(struct loom_debug *d);
/* After the device that used it is destroyed. */
void loom_debug_destroy(struct loom_debug *d);

/* ---- Breakpoints -------------------------------------------------------------------- */

enum loom_debug_bp_kind {
    LOOM_BP_LINE,                /* file:line: a PTX line (file names the PTX, or NULL with a PTX line)
                                  * or a CUDA line (file names the .cu as .file gives it, or its last
                                  * part) */
    LOOM_BP_PTX_LINE,            /* a PTX line of any loaded module */
    LOOM_BP_KERNEL,              /* the first instruction of a kernel (name: mangled, demangled or its
                                  * function part) or of a .func */
    LOOM_BP_LABEL,               /* a label: "label" or "function:label" */
};

struct loom_debug_bp {
    enum loom_debug_bp_kind kind;
    const char *file;            /* LINE */
    unsigned line;               /* LINE, PTX_LINE */
    const char *name;            /* KERNEL, LABEL */
    bool temporary;              /* deleted when it first stops (tbreak) */
    /* A condition (loom_debug_condition's syntax), or NULL. */
    const char *condition;
};

/* Breakpoints and watchpoints may be set, changed and deleted from any thread at any time;
 * one set while a launch runs takes effect within a few instructions. */

/* Sets a breakpoint; returns its number (1, 2 ...) or 0 with a one-line reason in err
 * (a line without code says which lines near it have some). A breakpoint whose place is
 * in no module loaded yet stays pending and is placed when one is loaded: *pending is set. */
int loom_debug_break(struct loom_debug *d, const struct loom_debug_bp *bp, bool *pending, char *err, size_t errlen);
/* Sets breakpoint n's condition (NULL or "": none). A condition is an expression over
 * integers: blockIdx.x/y/z, threadIdx.x/y/z, blockDim, gridDim (.x/.y/.z), warp, lane,
 * PTX registers by name (%r5, %rd2, %p1, %f3 as its bits' value; %f3 compared as a float
 * when compared with a literal with a point), literals (decimal, 0x, 1.5), + - * / % & |
 * ^ << >> == != < <= > >= && || ! ( ). It is tested per active lane at the breakpoint: the
 * first lane for which it holds becomes the focus. Returns false with err on a bad one. */
bool loom_debug_condition(struct loom_debug *d, int n, const char *condition, char *err, size_t errlen);
bool loom_debug_delete(struct loom_debug *d, int n);          /* false: no breakpoint n */
bool loom_debug_enable(struct loom_debug *d, int n, bool on);
void loom_debug_delete_all(struct loom_debug *d);

enum loom_debug_space { LOOM_SPACE_GLOBAL, LOOM_SPACE_SHARED, LOOM_SPACE_LOCAL, LOOM_SPACE_PARAM,
                        LOOM_SPACE_CONST };

struct loom_debug_bp_info {
    int number;
    struct loom_debug_bp bp;     /* as set (strings owned by d) */
    bool enabled, pending;
    unsigned places;             /* instructions it stops at, in every loaded module */
    unsigned hits;               /* times it stopped */
    struct loom_debug_where where; /* its first place (pc, lines); pending: zeros; where.text
                                    * points into text below */
    char text[160];              /* the PTX instruction at that place */
    bool is_watch;               /* a watchpoint (loom_debug_watch): */
    enum loom_debug_space watch_space;
    uint64_t watch_addr;
    unsigned watch_size;
};
/* The breakpoints in number order: fills at most max, returns how many there are. */
unsigned loom_debug_breakpoints(struct loom_debug *d, struct loom_debug_bp_info *out, unsigned max);

/* Lines that have code, for editors (DAP setBreakpoints): the nearest line at or after
 * `line` in that file that a LINE breakpoint can use, or 0. */
unsigned loom_debug_line_with_code(struct loom_debug *d, const char *file, unsigned line);

/* ---- Watchpoints -------------------------------------------------------------------- */

/* Stops after a lane writes any of the size bytes at addr (global: a device address;
 * shared: an offset in the shared memory of whichever block writes it), naming the lane.
 * Going back, a reverse-continue stops at the previous such write. Returns its number
 * (they share numbers with breakpoints) or 0 with err. */
int loom_debug_watch(struct loom_debug *d, enum loom_debug_space space, uint64_t addr, unsigned size, char *err,
                     size_t errlen);

/* ---- Focus ---------------------------------------------------------------------------- */

/* Focuses on a block and thread of the stopped launch (cuda block (x,y,z) thread (x,y,z));
 * false with err when it does not exist in the launch's grid and block. A focus on a block
 * that is not running now is allowed (stepping runs until it issues), but reads fail. */
bool loom_debug_focus(struct loom_debug *d, const unsigned block[3], const unsigned thread[3], char *err,
                      size_t errlen);
/* Focuses on warp w, lane l of the focused block (cuda warp 2 lane 5). */
bool loom_debug_focus_warp(struct loom_debug *d, unsigned warp, unsigned lane, char *err, size_t errlen);
void loom_debug_get_focus(struct loom_debug *d, unsigned block[3], unsigned thread[3], unsigned *warp,
                          unsigned *lane);

/* ---- Reading state (only inside on_stop) ------------------------------------------------ */

struct loom_debug_launch_info {
    const char *kernel;
    unsigned launch;
    unsigned grid[3], block[3];
    uint64_t dyn_shared;
    const char *simt;            /* the SIMT policy's description */
    uint64_t tick;
    unsigned nblocks_running;    /* blocks started and not finished */
};
bool loom_debug_launch(struct loom_debug *d, struct loom_debug_launch_info *out);
/* The kernel of the launch running now (its parameters: loom_kernel_param; its static shared
 * memory: loom_kernel_attrs), or NULL. */
const struct loom_kernel *loom_debug_kernel(struct loom_debug *d);
/* The kernels (.entry, mangled names) of every loaded module, any time: fills at most max
 * (pointers valid while their module is loaded), returns how many there are. */
unsigned loom_debug_kernels(struct loom_debug *d, const char **names, unsigned max);

/* A warp of a running block. */
struct loom_debug_warp_info {
    unsigned block[3];
    unsigned warp;
    uint32_t valid, active, exited;   /* lanes that exist, run now, have exited */
    bool done;
    const char *state;           /* "running", "at barrier 0", "exited", "waits (nanosleep)", "faulted" ... */
    struct loom_debug_where where;
    unsigned frames;             /* .func calls in progress */
    uint32_t simt_depth;         /* PDOM stack entries (other policies: 0) */
};
/* Every warp of the running blocks, focused block first; fills at most max, returns how
 * many there are. */
unsigned loom_debug_warps(struct loom_debug *d, struct loom_debug_warp_info *out, unsigned max);

/* The running blocks (block indices), fills at most max triples; returns how many. */
unsigned loom_debug_blocks(struct loom_debug *d, unsigned (*out)[3], unsigned max);

/* A register's value in every lane of the focused warp. */
enum loom_debug_reg_kind { LOOM_REG_B32, LOOM_REG_B64, LOOM_REG_PRED };
struct loom_debug_reg {
    char name[64];               /* as in the PTX: %r5, %rd2, %p1, %f3, %tid.x ... */
    const char *type;            /* the PTX type: "u32", "f32", "pred" ... */
    enum loom_debug_reg_kind kind;
    uint64_t lane[32];           /* the bits per lane (b32: low 32) */
    uint32_t valid;              /* lanes that exist */
};
/* Reads register `name` of the focused warp's current function (a PTX register, or a
 * special register: %tid.x, %ctaid.y, %laneid, %warpid ...); false with err for a name
 * that is not there. */
bool loom_debug_read_reg(struct loom_debug *d, const char *name, struct loom_debug_reg *out, char *err,
                         size_t errlen);
/* The registers that the focused warp's current function declares, in declaration order:
 * fills at most max names (pointers owned by the module), returns how many there are. */
unsigned loom_debug_reg_names(struct loom_debug *d, const char **names, unsigned max);

/* Reads n bytes of memory at addr in space (shared: offset in the focused block's shared
 * memory; local: the focused thread's; param: the kernel's parameter buffer). false with
 * err when some byte is outside it. */
bool loom_debug_read_mem(struct loom_debug *d, enum loom_debug_space space, uint64_t addr, void *buf, size_t n,
                         char *err, size_t errlen);
/* The value of an expression (the condition syntax) for the focused lane. */
bool loom_debug_eval(struct loom_debug *d, const char *expr, int64_t *out, bool *is_float, double *out_f, char *err,
                     size_t errlen);

/* The focused warp's call stack: frame 0 is where it stands, then each .func call's
 * caller (the call instruction). Fills at most max, returns how many. The texts of the
 * first 16 frames stay valid until the next call (deeper frames have none: NULL). */
unsigned loom_debug_backtrace(struct loom_debug *d, struct loom_debug_where *out, unsigned max);

/* The SIMT state of the focused warp under the active policy, as text (the PDOM stack's
 * entries, or the thread engine's groups and their pcs): one entry per line, into buf. */
size_t loom_debug_simt(struct loom_debug *d, char *buf, size_t size);
/* The barriers of the focused block: one line per barrier with arrivals or waiters. */
size_t loom_debug_barriers(struct loom_debug *d, char *buf, size_t size);

/* Whether going back is possible now (inside on_stop): false with err when not (a kernel that
 * calls malloc; no memory for the copy of the device memory). A reverse action answered
 * when it is not possible acts as CONTINUE would not: the launch stays where it is and
 * on_stop is called again. */
bool loom_debug_can_reverse(struct loom_debug *d, char *err, size_t errlen);
/* Whether launches keep what going back needs (on by default): a copy of the device memory
 * each debugged launch starts with, made when it starts (memory-bound kernels with large
 * buffers start faster without it). From the next launch on. */
void loom_debug_set_going_back(struct loom_debug *d, bool on);

/* ---- Source ------------------------------------------------------------------------------ */

/* The modules' text: line `line` of the PTX file (the module of the current or last
 * launch, or the one named), or of a CUDA file that .loc names (read from disk); NULL when
 * there is none. The pointer is valid until the next call. */
const char *loom_debug_source_line(struct loom_debug *d, const char *file, unsigned line, unsigned *len);

/* ---- Control from other threads ----------------------------------------------------------- */

/* Stops the running debugged launch at the next issue of the warp being stepped (any
 * warp's when none is): on_stop is called with LOOM_STOP_PAUSE. Returns false when no
 * debugged launch runs now (or it is stopped already). Safe from any thread and from a
 * signal handler; loom_device_catch_sigint makes Ctrl-C call it on a debugged device. */
bool loom_debug_pause(struct loom_debug *d);

/* ---- Front ends ---------------------------------------------------------------------------- */

/* The gdb-like prompt (debug/prompt.c) on stdin/stdout: `loom debug` and `loom exec --debug`.
 * batch: a file of commands run first (then the session ends when they are spent, as gdb's
 * -batch), or NULL; ex: commands run first, in order (n of them). */
struct loom_debug_prompt_config {
    const char *batch;
    const char *const *ex;
    unsigned nex;
    const char *kernel;          /* attach to this kernel only */
    FILE *in, *out;              /* NULL: stdin, stdout */
};
/* A debugger whose stops are served by the prompt; the prompt runs once before the first
 * launch (to set breakpoints) when loom_debug_prompt_begin is called. */
enum loom_status loom_debug_prompt_create(const struct loom_debug_prompt_config *cfg, struct loom_debug **out);
/* The commands before the program runs (break, run ...): returns false when the user quit. */
bool loom_debug_prompt_begin(struct loom_debug *d);
/* After the program: reports how it ended and serves commands until quit. */
void loom_debug_prompt_end(struct loom_debug *d, int exit_status);

#ifdef __cplusplus
}
#endif

#endif
