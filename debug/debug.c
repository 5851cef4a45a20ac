/* debug.c -- the kernel debugger's core (loom/debug.h).
 *
 * A debugged launch does not hand its CTAs to the workers: the worker that starts it runs
 * them all itself (run_grid, through sched_grid.run_alone), one context per resident CTA,
 * in a fixed order, so the same commands stop at the same places. Each CTA runs through
 * the debugged dispatch (emu/emu_dbg.h): every issue is counted (the launch's tick), and at
 * a marked pc (a breakpoint's place, a store while a watchpoint exists) or while stepping,
 * dbg_issue decides whether to stop. A stop calls the front end's on_stop on this worker;
 * its answer says how to go on.
 *
 * Positions: issue k of a launch has position 2k before it runs and 2k + 1 after (a
 * watchpoint stops after the write). Going back re-runs the launch from its start with the
 * device memory it started with (a copy taken when it began), first searching for the last
 * position before the current one that the command asks for (RUN_SEARCH), then running
 * to it (RUN_TARGET). */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_dbg.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"
#include "emu/emu_obs.h"
#include "emu/simt/emu_simt.h"
#include "emu/simt/steps.h"
#include "loom/debug.h"
#include "memory/mem.h"
#include "debug/expr.h"
#include "debug/debug_int.h"
#include "sched/sched.h"

/* ---- State ----------------------------------------------------------------------------- */

struct dbg_place { const struct loom_module *m; uint32_t pc; };

struct dbg_bp {
    int number;
    bool watch, enabled, pending;
    struct loom_debug_bp bp;         /* strings owned: file, name, condition */
    struct dbg_expr *cond;
    unsigned hits;
    struct dbg_place *places;
    unsigned nplaces, cap;
    enum loom_debug_space space;     /* watch */
    uint64_t addr;
    unsigned size;
};

struct dbg_mod {
    struct loom_module *m;
    uint8_t *at;                     /* [ncode]: EMU_DBG_AT_* */
    struct emu_inst *code;           /* [ncode]: the program's code, runs cut before marked pcs */
    struct dbg_mod *next;
};

struct dbg_res { struct emu_cta *cta; uint64_t index; bool busy; };

enum dbg_mode { RUN_NORMAL, RUN_SEARCH, RUN_TARGET };

#define DBG_BT_TEXTS 16   /* frames whose text loom_debug_backtrace keeps */

struct loom_debug {
    struct loom_debug_config cfg;
    struct loom_device *dev;
    pthread_mutex_t lock;            /* breakpoints and modules (front ends may run on other threads) */
    struct dbg_bp **bps;
    unsigned nbps, bps_cap;
    int next_number;
    struct dbg_mod *mods;
    uint8_t none_at[1];              /* at[] of a launch that is not debugged (never read) */
    struct emu_dbg emu;
    _Atomic bool detached;
    _Atomic bool pause_req;
    _Atomic bool running;            /* a debugged launch runs (loom_debug_pause may stop it) */
    _Atomic bool remark_due;         /* breakpoints changed while it ran: remark on the worker */
    /* The launch running (debugged), else g == NULL. */
    struct sched_grid *g;
    const struct emu_launch *L;
    struct dbg_mod *lmod;
    struct dbg_res *res;
    unsigned nres, res_cap;
    uint64_t next_index, done;
    /* The stop in progress. */
    _Atomic bool in_stop;
    struct loom_debug_stop stop;
    struct emu_warp *stop_warp;
    uint32_t stop_pc;
    uint64_t stop_pos;
    char fault_text[2048];
    /* Focus. */
    unsigned fblock[3], fthread[3];
    /* Stepping: the focused warp's (block, warp) when the step began. */
    enum loom_debug_action step;
    unsigned sblock[3], swarp;
    unsigned sline;
    bool scuda;
    uint32_t sdepth;
    uint64_t sfrom;                  /* the position the step began at: it ends at a later one */
    /* A watched write found before its instruction ran (stop after it). */
    struct { bool on; int number; uint64_t addr; unsigned size, lane; uint64_t old; } wp;
    bool assert_check;               /* a call of __assertfail issued: look after it */
    const struct emu_cta *assert_cta;/* the CTA whose failed assert stopped already, and its index */
    uint64_t assert_index;
    /* Going back. */
    enum dbg_mode mode;
    enum loom_debug_action rev;
    uint64_t rev_from;               /* the position going back starts from */
    unsigned rblock[3], rwarp;
    bool found;
    uint64_t found_pos;
    int found_bp;
    unsigned rs_line;                /* reverse-step: the focused warp's line at its previous issue */
    bool rs_seen;
    uint64_t target_pos;
    enum loom_debug_reason target_reason;
    int target_bp;
    bool restart, kill;
    /* The device memory the launch started with. */
    struct dbg_snap { uint64_t base, size; void *copy; } *snap;
    unsigned nsnap, snap_cap;
    bool snap_ok;
    bool no_going_back;              /* loom_debug_set_going_back(d, false): no copy */
    uint64_t fifo_mark;
    uint64_t fifo_shown;             /* the launch's printf output shown at stops so far (FIFO offset):
                                      * a re-run makes the same text again and shows only what is new */
    /* Text handed out. */
    char bt_text[DBG_BT_TEXTS][256]; /* the texts of loom_debug_backtrace's last answer */
    char stop_text[512];             /* the stop's (kept until on_stop returns) */
    char src_line[1024];
    char *src_file_text;             /* a CUDA file read for loom_debug_source_line */
    size_t src_file_len;
    char src_file_name[512];
};

static struct loom_debug *of_emu(struct emu_dbg *e)
{
    return (struct loom_debug *)(void *)((char *)e - offsetof(struct loom_debug, emu));
}

static void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Room for one more element in *arr (n used of *cap, elements of `size` bytes): false when
 * out of memory. */
static bool grow(void *arr, unsigned n, unsigned *cap, size_t size)
{
    if (n < *cap) return true;
    unsigned ncap = *cap ? 2 * *cap : 8;
    void *p = realloc(*(void **)arr, ncap * size);
    if (!p) return false;
    *(void **)arr = p;
    *cap = ncap;
    return true;
}

const char *loom_debug_reason_name(enum loom_debug_reason r)
{
    static const char *const names[] = { "entry", "breakpoint", "step", "watchpoint", "barrier", "fault", "pause",
                                         "start", "exit" };
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

/* ---- Programs: functions, lines ---------------------------------------------------------- */

static const struct emu_func *func_at(const struct emu_program *p, uint32_t pc)
{
    for (uint32_t f = 0; f < p->nfuncs; f++)
        if (p->funcs[f].ir && !p->funcs[f].ir->is_decl && pc >= p->funcs[f].entry_pc && pc < p->funcs[f].end_pc)
            return &p->funcs[f];
    return NULL;
}

static const char *cu_file_name(const struct ptx_module *ir, uint32_t index)
{
    for (uint32_t i = 0; i < ir->nfiles; i++)
        if (ir->files[i].index == index) return ir->files[i].path;
    return NULL;
}

/* The line a step counts in: the CUDA line where .loc gives one, else the PTX line. */
static unsigned step_line(const struct emu_program *p, uint32_t pc, bool cuda)
{
    const struct emu_loc *l = &p->locs[pc];
    return cuda ? l->cu_line : l->ptx_line;
}

static bool prog_has_cuda(const struct emu_program *p)
{
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        if (p->locs[pc].cu_line) return true;
    return false;
}

static const char *ptx_path(const struct loom_module *m) { return m->ir->path ? m->ir->path : "<ptx>"; }

/* [a, b) into buf (cut to its size, without a trailing \r), trimmed of blanks when trim. */
static const char *copy_text(char *buf, size_t size, const char *a, const char *b, bool trim, unsigned *len)
{
    while (trim && a < b && (*a == ' ' || *a == '\t')) a++;
    while (b > a && (b[-1] == '\r' || (trim && (b[-1] == ' ' || b[-1] == '\t')))) b--;
    size_t n = (size_t)(b - a) < size - 1 ? (size_t)(b - a) : size - 1;
    memcpy(buf, a, n);
    buf[n] = 0;
    if (len) *len = (unsigned)n;
    return buf;
}

/* Line `line` of m's PTX, trimmed, into buf ("" when unknown). */
static const char *ptx_line_text(struct loom_module *m, unsigned line, char *buf, size_t size)
{
    const char *a, *b;
    if (!sched_module_line(m, line, &a, &b)) { buf[0] = 0; return buf; }
    return copy_text(buf, size, a, b, true, NULL);
}

/* Where pc is; the PTX line's text goes into buf (size bytes), none when buf is NULL. The
 * caller owns buf: front ends read breakpoints from their own threads while a worker fills
 * a stop, so no buffer of d's is shared between them. */
static void where_of(struct loom_module *m, uint32_t pc, struct loom_debug_where *out, char *buf, size_t size)
{
    memset(out, 0, sizeof *out);
    const struct emu_program *p = m->dprog;
    if (pc >= p->ncode) return;
    const struct emu_loc *l = &p->locs[pc];
    out->pc = pc;
    out->ptx_line = l->ptx_line;
    out->ptx_file = ptx_path(m);
    out->cu_line = l->cu_line;
    out->cu_file = l->cu_line ? cu_file_name(m->ir, l->cu_file) : NULL;
    const struct emu_func *f = func_at(p, pc);
    out->function = f ? f->ir->name : "?";
    out->text = buf ? ptx_line_text(m, l->ptx_line, buf, size) : NULL;
}

/* ---- Modules ---------------------------------------------------------------------------- */

static struct dbg_mod *mod_of(struct loom_debug *d, const struct loom_module *m)
{
    for (struct dbg_mod *x = d->mods; x; x = x->next)
        if (x->m == m) return x;
    return NULL;
}

/* Which of the demangled name's forms `want` is: the mangled name, the whole demangled
 * name, or its function part (without parameters, with or without the namespaces). */
static bool name_matches(const char *mangled, const char *want)
{
    if (strcmp(mangled, want) == 0) return true;
    char buf[1024];
    const char *dm = loom_demangle(mangled, buf, sizeof buf);
    if (strcmp(dm, want) == 0) return true;
    const char *paren = strchr(dm, '(');
    size_t n = paren ? (size_t)(paren - dm) : strlen(dm);
    /* templates: "void k<int>(...)" demangles with a return type first */
    const char *start = dm;
    for (const char *c = dm; c < dm + n; c++)
        if (*c == ' ') start = c + 1;
    size_t wl = strlen(want);
    if ((size_t)(dm + n - start) == wl && strncmp(start, want, wl) == 0) return true;
    const char *last = start;
    for (const char *c = start; c + 1 < dm + n; c++)
        if (c[0] == ':' && c[1] == ':') last = c + 2;
    if ((size_t)(dm + n - last) == wl && strncmp(last, want, wl) == 0) return true;
    const char *lt = memchr(last, '<', (size_t)(dm + n - last));   /* k<int> named as k */
    return lt && (size_t)(lt - last) == wl && strncmp(last, want, wl) == 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Whether `file` names path: the same, or its last parts. */
static bool file_matches(const char *path, const char *file)
{
    if (strcmp(path, file) == 0) return true;
    size_t pl = strlen(path), fl = strlen(file);
    return fl < pl && strcmp(path + pl - fl, file) == 0 && path[pl - fl - 1] == '/';
}

static bool is_ptx_name(const char *file)
{
    size_t n = strlen(file);
    return n > 4 && strcmp(file + n - 4, ".ptx") == 0;
}

static bool add_place(struct dbg_bp *b, const struct loom_module *m, uint32_t pc)
{
    if (!grow(&b->places, b->nplaces, &b->cap, sizeof *b->places)) return false;
    b->places[b->nplaces++] = (struct dbg_place){ m, pc };
    return true;
}

/* The first pc of each run of instructions on one line (PTX line, or CUDA file:line). */
static bool line_start(const struct emu_program *p, uint32_t pc, bool cuda)
{
    const struct emu_func *f = func_at(p, pc);
    if (!f) return false;
    if (pc == f->entry_pc) return true;
    const struct emu_loc *a = &p->locs[pc - 1], *b = &p->locs[pc];
    return cuda ? a->cu_line != b->cu_line || a->cu_file != b->cu_file : a->ptx_line != b->ptx_line;
}

/* Places b in module m; returns how many places it found there. */
static unsigned place_in(struct dbg_bp *b, struct loom_module *m)
{
    const struct emu_program *p = m->dprog;
    const struct ptx_module *ir = m->ir;
    unsigned before = b->nplaces;
    const struct loom_debug_bp *bp = &b->bp;
    switch (bp->kind) {
    case LOOM_BP_LINE:
    case LOOM_BP_PTX_LINE: {
        bool ptx = bp->kind == LOOM_BP_PTX_LINE || !bp->file || is_ptx_name(bp->file);
        if (ptx && bp->kind == LOOM_BP_LINE && bp->file && !file_matches(ptx_path(m), bp->file) &&
            strcmp(base_name(ptx_path(m)), base_name(bp->file)) != 0)
            return 0;
        int32_t fidx = -1;
        if (!ptx) {
            for (uint32_t i = 0; i < ir->nfiles && fidx < 0; i++)
                if (file_matches(ir->files[i].path, bp->file)) fidx = (int32_t)ir->files[i].index;
            if (fidx < 0) return 0;
        }
        /* A CUDA line's code may come in pieces (the compiler interleaves lines): as gdb, the
         * breakpoint goes to the first piece in each function only. */
        const struct emu_func *last = NULL;
        for (uint32_t pc = 0; pc < p->ncode; pc++) {
            const struct emu_loc *l = &p->locs[pc];
            bool on = ptx ? l->ptx_line == bp->line : l->cu_line == bp->line && (int32_t)l->cu_file == fidx;
            if (!on || !line_start(p, pc, !ptx)) continue;
            const struct emu_func *f = func_at(p, pc);
            if (!ptx && f == last) continue;
            last = f;
            add_place(b, m, pc);
        }
        break;
    }
    case LOOM_BP_KERNEL:
        for (uint32_t f = 0; f < p->nfuncs; f++) {
            const struct emu_func *fn = &p->funcs[f];
            if (fn->ir && !fn->ir->is_decl && fn->end_pc > fn->entry_pc && name_matches(fn->ir->name, bp->name))
                add_place(b, m, fn->entry_pc);
        }
        break;
    case LOOM_BP_LABEL: {
        const char *colon = strchr(bp->name, ':');
        const char *label = colon ? colon + 1 : bp->name;
        for (uint32_t f = 0; f < p->nfuncs; f++) {
            const struct emu_func *fn = &p->funcs[f];
            if (!fn->ir || fn->ir->is_decl) continue;
            if (colon) {
                char fname[512];
                snprintf(fname, sizeof fname, "%.*s", (int)(colon - bp->name), bp->name);
                if (!name_matches(fn->ir->name, fname)) continue;
            }
            for (uint32_t k = 0; k < fn->ir->nlabels; k++) {
                if (strcmp(fn->ir->labels[k].name, label) != 0) continue;
                const struct ptx_instr *target = fn->ir->labels[k].instr < fn->ir->ninstrs
                                                     ? &fn->ir->instrs[fn->ir->labels[k].instr] : NULL;
                for (uint32_t pc = fn->entry_pc; target && pc < fn->end_pc; pc++)
                    if (p->locs[pc].ir == target) { add_place(b, m, pc); break; }
            }
        }
        break;
    }
    }
    return b->nplaces - before;
}

/* The debugged dispatch's code: the program's, each chained run cut before the marked pcs
 * it holds (a run's members hold its remaining length). */
static void cut_runs(struct dbg_mod *x)
{
    const struct emu_program *p = x->m->dprog;
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        struct emu_inst *in = &x->code[pc];
        in->run = p->code[pc].run;
        for (uint32_t q = pc + 1; q < pc + in->run; q++)
            if (x->at[q]) {
                in->run = (uint8_t)(q - pc);
                break;
            }
    }
}

/* Marks the at[] bits of every module from the breakpoints and watchpoints, and cuts the
 * debugged code's runs before them. Only the worker running a debugged launch reads them, so
 * they change only when none runs, while it is stopped, or on it (dbg_issue, when another
 * thread changed breakpoints meanwhile: remark defers to it). Under d->lock. */
static void remark_now(struct loom_debug *d)
{
    bool watching = false;
    for (unsigned i = 0; i < d->nbps; i++)
        if (d->bps[i]->watch && d->bps[i]->enabled) watching = true;
    for (struct dbg_mod *x = d->mods; x; x = x->next) {
        const struct emu_program *p = x->m->dprog;
        for (uint32_t pc = 0; pc < p->ncode; pc++) {
            uint8_t a = p->code[pc].skind == EMU_SK_BAR ? EMU_DBG_AT_ALONE : 0;
            const struct ptx_instr *pi = p->locs[pc].ir;
            if (watching) {
                uint8_t mem = emu_obs_describe(p, pc).mem;
                if (mem == EMU_OBS_ST || mem == EMU_OBS_ATOM) a |= EMU_DBG_AT_STORE;
            }
            if (p->locs[pc].main && pi && pi->op == PTX_OP_BRKPT) a |= EMU_DBG_AT_BRKPT;
            if (p->locs[pc].main && pi && pi->op == PTX_OP_CALL && pi->nops >= 2 && pi->ops[1].kind == PTX_OPND_SYM &&
                pi->ops[1].sym->kind == PTX_SYM_FUNC && pi->ops[1].sym->func &&
                strcmp(pi->ops[1].sym->func->name, "__assertfail") == 0)
                a |= EMU_DBG_AT_ASSERT;
            x->at[pc] = a;
        }
    }
    for (unsigned i = 0; i < d->nbps; i++) {
        struct dbg_bp *b = d->bps[i];
        if (b->watch || !b->enabled) continue;
        for (unsigned k = 0; k < b->nplaces; k++) {
            struct dbg_mod *x = mod_of(d, b->places[k].m);
            if (x) x->at[b->places[k].pc] |= EMU_DBG_AT_BREAK;
        }
    }
    for (struct dbg_mod *x = d->mods; x; x = x->next) cut_runs(x);
}

static void remark(struct loom_debug *d)
{
    if (atomic_load(&d->running) && !atomic_load(&d->in_stop)) {
        atomic_store(&d->remark_due, true);     /* (the worker applies it at its next issue) */
        atomic_store(&d->emu.every, true);
        return;
    }
    remark_now(d);
}

void loom_debug_module_loaded(struct loom_debug *d, struct loom_module *m)
{
    struct dbg_mod *x = calloc(1, sizeof *x);
    if (!x) return;
    x->m = m;
    const struct emu_program *p = m->dprog;
    x->at = calloc(p->ncode ? p->ncode : 1, 1);
    x->code = malloc((p->ncode ? p->ncode : 1) * sizeof *x->code);
    if (!x->at || !x->code || !emu_program_steps(m->dprog)) {
        free(x->at);
        free(x->code);
        free(x);
        return;
    }
    memcpy(x->code, p->code, p->ncode * sizeof *x->code);
    for (uint32_t pc = 0; pc < p->ncode; pc++) x->code[pc].aux_owned = 0;   /* (the program owns aux) */
    pthread_mutex_lock(&d->lock);
    x->next = d->mods;
    d->mods = x;
    for (unsigned i = 0; i < d->nbps; i++) {
        struct dbg_bp *b = d->bps[i];
        if (!b->watch && place_in(b, m)) b->pending = false;
    }
    remark(d);
    pthread_mutex_unlock(&d->lock);
}

void loom_debug_module_unloading(struct loom_debug *d, struct loom_module *m)
{
    pthread_mutex_lock(&d->lock);
    for (unsigned i = 0; i < d->nbps; i++) {
        struct dbg_bp *b = d->bps[i];
        unsigned k = 0;
        for (unsigned j = 0; j < b->nplaces; j++)
            if (b->places[j].m != m) b->places[k++] = b->places[j];
        b->nplaces = k;
        if (!b->watch && !k) b->pending = true;
    }
    for (struct dbg_mod **p = &d->mods; *p; p = &(*p)->next)
        if ((*p)->m == m) {
            struct dbg_mod *x = *p;
            *p = x->next;
            free(x->at);
            free(x->code);
            free(x);
            break;
        }
    pthread_mutex_unlock(&d->lock);
}

/* ---- Creation ---------------------------------------------------------------------------- */

static int dbg_issue(struct emu_dbg *e, struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m);
static int dbg_after(struct emu_dbg *e, struct emu_warp *w, uint32_t pc);

enum loom_status loom_debug_create(const struct loom_debug_config *cfg, struct loom_debug **out)
{
    if (!cfg || !out || !cfg->on_stop) return LOOM_ERR_INVALID_VALUE;
    struct loom_debug *d = calloc(1, sizeof *d);
    if (!d) return LOOM_ERR_OUT_OF_MEMORY;
    d->cfg = *cfg;
    if (cfg->kernel && !(d->cfg.kernel = strdup(cfg->kernel))) { free(d); return LOOM_ERR_OUT_OF_MEMORY; }
    pthread_mutex_init(&d->lock, NULL);
    d->next_number = 1;
    d->emu.at = d->none_at;
    d->emu.issue = dbg_issue;
    d->emu.after_fn = dbg_after;
    *out = d;
    return LOOM_OK;
}

static void bp_free(struct dbg_bp *b)
{
    if (!b) return;
    free((char *)b->bp.file);
    free((char *)b->bp.name);
    free((char *)b->bp.condition);
    dbg_expr_free(b->cond);
    free(b->places);
    free(b);
}

static void snap_free(struct loom_debug *d)
{
    for (unsigned i = 0; i < d->nsnap; i++) free(d->snap[i].copy);
    d->nsnap = 0;
}

void loom_debug_destroy(struct loom_debug *d)
{
    if (!d) return;
    for (unsigned i = 0; i < d->nbps; i++) bp_free(d->bps[i]);
    free(d->bps);
    while (d->mods) {
        struct dbg_mod *x = d->mods;
        d->mods = x->next;
        free(x->at);
        free(x->code);
        free(x);
    }
    snap_free(d);
    free(d->snap);
    free(d->res);
    free(d->src_file_text);
    free((char *)d->cfg.kernel);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

bool loom_debug_set_device(struct loom_debug *d, struct loom_device *dev)
{
    if (dev && d->dev) return false;
    d->dev = dev;
    return true;
}

/* ---- Breakpoints ------------------------------------------------------------------------- */

static struct dbg_bp *bp_find(struct loom_debug *d, int n)
{
    for (unsigned i = 0; i < d->nbps; i++)
        if (d->bps[i]->number == n) return d->bps[i];
    return NULL;
}

/* Whether a name can mean something in a condition: a built-in, or a register that some
 * loaded function declares (any name while nothing is loaded). */
static bool known_name(void *ctx, const char *name)
{
    struct loom_debug *d = ctx;
    static const char *const builtin[] = { "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
                                           "blockIdx.z", "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x",
                                           "gridDim.y", "gridDim.z", "warp", "lane", "$tick" };
    for (unsigned i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(name, builtin[i]) == 0) return true;
    if (name[0] != '%') return false;
    for (int s = 1; s < PTX_SREG_COUNT_; s++)
        if (ptx_sreg_name((enum ptx_sreg)s) && strcmp(ptx_sreg_name((enum ptx_sreg)s), name) == 0) return true;
    if (!d->mods) return true;
    for (struct dbg_mod *x = d->mods; x; x = x->next)
        for (uint32_t f = 0; f < x->m->ir->nfuncs; f++) {
            const struct ptx_func *fn = x->m->ir->funcs[f];
            for (uint32_t r = 0; r < fn->nregs; r++)
                if (strcmp(fn->regs[r].name, name) == 0) return true;
        }
    return false;
}

static bool set_condition(struct loom_debug *d, struct dbg_bp *b, const char *text, char *err, size_t errlen)
{
    struct dbg_expr *e = NULL;
    char *copy = NULL;
    if (text && *text) {
        if (!(e = dbg_expr_parse(text, known_name, d, err, errlen))) return false;
        if (!(copy = strdup(text))) { dbg_expr_free(e); errf(err, errlen, "out of memory"); return false; }
    }
    dbg_expr_free(b->cond);
    free((char *)b->bp.condition);
    b->cond = e;
    b->bp.condition = copy;
    return true;
}

static bool bps_grow(struct loom_debug *d) { return grow(&d->bps, d->nbps, &d->bps_cap, sizeof *d->bps); }

/* Numbers b and adds it (room made by bps_grow); unlocks d->lock. Returns its number. */
static int add_bp(struct loom_debug *d, struct dbg_bp *b)
{
    b->number = d->next_number++;
    d->bps[d->nbps++] = b;
    remark(d);
    int n = b->number;
    pthread_mutex_unlock(&d->lock);
    return n;
}

/* Lines with code near `line` in the file that b names, for the message of a line without. */
static void near_lines(struct loom_debug *d, const struct loom_debug_bp *bp, char *out, size_t size)
{
    unsigned below = 0, above = 0;
    for (struct dbg_mod *x = d->mods; x; x = x->next) {
        for (unsigned line = bp->line; line-- > 1 && line + 200 > bp->line && !below;) {
            struct dbg_bp t = { .bp = *bp };
            t.bp.line = line;
            if (place_in(&t, x->m)) below = line;
            free(t.places);
        }
        for (unsigned line = bp->line + 1; line < bp->line + 200 && !above; line++) {
            struct dbg_bp t = { .bp = *bp };
            t.bp.line = line;
            if (place_in(&t, x->m)) above = line;
            free(t.places);
        }
    }
    if (below && above) snprintf(out, size, "; the nearest lines with code are %u and %u", below, above);
    else if (below || above) snprintf(out, size, "; the nearest line with code is %u", below ? below : above);
    else out[0] = 0;
}

/* Whether some loaded module has the file that bp names. */
static bool file_known(struct loom_debug *d, const struct loom_debug_bp *bp)
{
    for (struct dbg_mod *x = d->mods; x; x = x->next) {
        const struct loom_module *m = x->m;
        if (bp->kind == LOOM_BP_PTX_LINE || !bp->file) return true;
        if (is_ptx_name(bp->file)) {
            if (file_matches(ptx_path(m), bp->file) || strcmp(base_name(ptx_path(m)), base_name(bp->file)) == 0)
                return true;
            continue;
        }
        for (uint32_t i = 0; i < m->ir->nfiles; i++)
            if (file_matches(m->ir->files[i].path, bp->file)) return true;
    }
    return false;
}

int loom_debug_break(struct loom_debug *d, const struct loom_debug_bp *bp, bool *pending, char *err, size_t errlen)
{
    if (pending) *pending = false;
    if (!d || !bp) { errf(err, errlen, "no breakpoint given"); return 0; }
    if ((bp->kind == LOOM_BP_LINE || bp->kind == LOOM_BP_PTX_LINE) && bp->line == 0) {
        errf(err, errlen, "line numbers start at 1");
        return 0;
    }
    if ((bp->kind == LOOM_BP_KERNEL || bp->kind == LOOM_BP_LABEL) && (!bp->name || !*bp->name)) {
        errf(err, errlen, "a breakpoint on a kernel or label needs its name");
        return 0;
    }
    struct dbg_bp *b = calloc(1, sizeof *b);
    if (!b) { errf(err, errlen, "out of memory"); return 0; }
    b->bp.kind = bp->kind;
    b->bp.line = bp->line;
    b->bp.temporary = bp->temporary;
    b->enabled = true;
    if ((bp->file && !(b->bp.file = strdup(bp->file))) || (bp->name && !(b->bp.name = strdup(bp->name)))) {
        bp_free(b);
        errf(err, errlen, "out of memory");
        return 0;
    }
    pthread_mutex_lock(&d->lock);
    if (!set_condition(d, b, bp->condition, err, errlen) || !bps_grow(d)) {
        pthread_mutex_unlock(&d->lock);
        if (!*err) errf(err, errlen, "out of memory");
        bp_free(b);
        return 0;
    }
    unsigned found = 0;
    for (struct dbg_mod *x = d->mods; x; x = x->next) found += place_in(b, x->m);
    if (!found && d->mods && (bp->kind == LOOM_BP_PTX_LINE || (bp->kind == LOOM_BP_LINE && file_known(d, bp)))) {
        char near[128];
        near_lines(d, bp, near, sizeof near);
        if (bp->file) errf(err, errlen, "no code at %s:%u%s", bp->file, bp->line, near);
        else errf(err, errlen, "no code at line %u%s", bp->line, near);
        pthread_mutex_unlock(&d->lock);
        bp_free(b);
        return 0;
    }
    if (!found && d->mods && bp->kind == LOOM_BP_LABEL) {
        errf(err, errlen, "no label '%s' in the loaded modules", bp->name);
        pthread_mutex_unlock(&d->lock);
        bp_free(b);
        return 0;
    }
    b->pending = !found;
    if (pending) *pending = b->pending;
    return add_bp(d, b);
}

bool loom_debug_condition(struct loom_debug *d, int n, const char *condition, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->lock);
    struct dbg_bp *b = bp_find(d, n);
    bool ok = b && set_condition(d, b, condition, err, errlen);
    if (!b) errf(err, errlen, "no breakpoint number %d", n);
    pthread_mutex_unlock(&d->lock);
    return ok;
}

bool loom_debug_delete(struct loom_debug *d, int n)
{
    pthread_mutex_lock(&d->lock);
    bool found = false;
    for (unsigned i = 0; i < d->nbps; i++)
        if (d->bps[i]->number == n) {
            bp_free(d->bps[i]);
            memmove(&d->bps[i], &d->bps[i + 1], (d->nbps - i - 1) * sizeof *d->bps);
            d->nbps--;
            found = true;
            break;
        }
    if (found) remark(d);
    pthread_mutex_unlock(&d->lock);
    return found;
}

bool loom_debug_enable(struct loom_debug *d, int n, bool on)
{
    pthread_mutex_lock(&d->lock);
    struct dbg_bp *b = bp_find(d, n);
    if (b) {
        b->enabled = on;
        remark(d);
    }
    pthread_mutex_unlock(&d->lock);
    return b != NULL;
}

void loom_debug_delete_all(struct loom_debug *d)
{
    pthread_mutex_lock(&d->lock);
    for (unsigned i = 0; i < d->nbps; i++) bp_free(d->bps[i]);
    d->nbps = 0;
    remark(d);
    pthread_mutex_unlock(&d->lock);
}

unsigned loom_debug_breakpoints(struct loom_debug *d, struct loom_debug_bp_info *out, unsigned max)
{
    pthread_mutex_lock(&d->lock);
    unsigned n = d->nbps;
    for (unsigned i = 0; i < n && i < max; i++) {
        const struct dbg_bp *b = d->bps[i];
        struct loom_debug_bp_info *o = &out[i];
        memset(o, 0, sizeof *o);
        o->number = b->number;
        o->bp = b->bp;
        o->enabled = b->enabled;
        o->pending = b->pending;
        o->places = b->watch ? 0 : b->nplaces;
        o->hits = b->hits;
        o->is_watch = b->watch;
        o->watch_space = b->space;
        o->watch_addr = b->addr;
        o->watch_size = b->size;
        if (!b->watch && b->nplaces)
            where_of((struct loom_module *)b->places[0].m, b->places[0].pc, &o->where, o->text, sizeof o->text);
    }
    pthread_mutex_unlock(&d->lock);
    return n;
}

unsigned loom_debug_line_with_code(struct loom_debug *d, const char *file, unsigned line)
{
    pthread_mutex_lock(&d->lock);
    unsigned best = 0;
    for (unsigned l = line ? line : 1; l < line + 400 && !best; l++) {
        struct dbg_bp t = { .bp = { .kind = LOOM_BP_LINE, .file = file, .line = l } };
        for (struct dbg_mod *x = d->mods; x && !best; x = x->next)
            if (place_in(&t, x->m)) best = l;
        free(t.places);
    }
    pthread_mutex_unlock(&d->lock);
    return best;
}

int loom_debug_watch(struct loom_debug *d, enum loom_debug_space space, uint64_t addr, unsigned size, char *err,
                     size_t errlen)
{
    if (space != LOOM_SPACE_GLOBAL && space != LOOM_SPACE_SHARED) {
        errf(err, errlen, "watchpoints watch global or shared memory");
        return 0;
    }
    if (size == 0 || size > 8) {
        errf(err, errlen, "a watchpoint watches 1 to 8 bytes (%u given)", size);
        return 0;
    }
    if (space == LOOM_SPACE_GLOBAL && d->dev) {
        mem_read_begin(d->dev->mem);
        const struct mem_alloc *a = mem_find(d->dev->mem, addr, size);
        mem_read_end(d->dev->mem);
        if (!a) {
            errf(err, errlen, "0x%" PRIx64 " is not in a live device allocation", addr);
            return 0;
        }
    }
    struct dbg_bp *b = calloc(1, sizeof *b);
    if (!b) { errf(err, errlen, "out of memory"); return 0; }
    b->watch = true;
    b->enabled = true;
    b->space = space;
    b->addr = addr;
    b->size = size;
    pthread_mutex_lock(&d->lock);
    if (!bps_grow(d)) {
        pthread_mutex_unlock(&d->lock);
        bp_free(b);
        errf(err, errlen, "out of memory");
        return 0;
    }
    return add_bp(d, b);
}

/* ---- Reading a warp ---------------------------------------------------------------------- */

static bool same3(const unsigned a[3], const uint32_t b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

static struct emu_cta *cta_of(struct loom_debug *d, const unsigned block[3])
{
    for (unsigned i = 0; i < d->nres; i++)
        if (d->res[i].busy && same3(block, d->res[i].cta->ctaid)) return d->res[i].cta;
    return NULL;
}

static unsigned linear_thread(const struct emu_launch *L, const unsigned t[3])
{
    return t[0] + L->block[0] * (t[1] + L->block[1] * t[2]);
}

/* The pc where lane `lane` of w stands: the stopped warp's stop pc, a thread engine lane's
 * own pc, else the warp's. */
static uint32_t warp_pc(struct loom_debug *d, const struct emu_warp *w, unsigned lane)
{
    if (w == d->stop_warp) return d->stop_pc;
    const struct emu_cta *cta = w->cta;
    if (!w->done && emu_wait_kind(w) == EMU_WAIT_BARRIER) return w->wait.pc;   /* (as the reports name it) */
    if (cta->steps) {
        const struct steps_warp *sw = &cta->steps->sw[w->id];
        return sw->pc[lane < EMU_WARP_SIZE ? lane : 0];
    }
    return w->pc;
}

static struct emu_warp *focus_warp(struct loom_debug *d, unsigned *lane, char *err, size_t errlen)
{
    if (!d->in_stop || !d->L) { errf(err, errlen, "the kernel is not stopped"); return NULL; }
    struct emu_cta *cta = cta_of(d, d->fblock);
    if (!cta) {
        errf(err, errlen, "block (%u,%u,%u) is not running now (it has finished or has not started)", d->fblock[0],
             d->fblock[1], d->fblock[2]);
        return NULL;
    }
    unsigned t = linear_thread(d->L, d->fthread);
    if (lane) *lane = t % EMU_WARP_SIZE;
    return &cta->warps[t / EMU_WARP_SIZE];
}

struct lane_ctx {
    struct loom_debug *d;
    const struct emu_warp *w;
    unsigned lane;
    const struct emu_func *fn;
    bool varies;                 /* a name whose value may differ between lanes was read */
};

/* A register of fn by name: its row and type. */
static bool reg_find(const struct emu_func *fn, const char *name, uint16_t *row, enum ptx_type *type)
{
    if (!fn || !fn->reg_row) return false;
    for (uint32_t r = 0; r < fn->ir->nregs; r++)
        if (strcmp(fn->ir->regs[r].name, name) == 0) {
            *row = fn->reg_row[r];
            *type = fn->ir->regs[r].type;
            return true;
        }
    return false;
}

static bool is64(enum ptx_type t) { return ptx_type_size(t) == 8; }

static uint64_t reg_bits(const struct emu_warp *w, uint16_t row, enum ptx_type t, unsigned lane)
{
    if (t == PTX_T_PRED) return w->pred[row] >> lane & 1u;
    if (is64(t)) return w->r64[row][lane];
    return w->r32[row][lane];
}

/* A special register's value for one lane. */
static bool sreg_value(const struct emu_warp *w, const char *name, unsigned lane, uint64_t *out)
{
    const struct emu_cta *cta = w->cta;
    const struct emu_launch *L = cta->launch;
    for (int s = 1; s < PTX_SREG_COUNT_; s++) {
        const char *n = ptx_sreg_name((enum ptx_sreg)s);
        if (!n || strcmp(n, name) != 0) continue;
        switch ((enum ptx_sreg)s) {
        case PTX_SREG_TID_X: *out = w->tid[0][lane]; return true;
        case PTX_SREG_TID_Y: *out = w->tid[1][lane]; return true;
        case PTX_SREG_TID_Z: *out = w->tid[2][lane]; return true;
        case PTX_SREG_NTID_X: *out = L->block[0]; return true;
        case PTX_SREG_NTID_Y: *out = L->block[1]; return true;
        case PTX_SREG_NTID_Z: *out = L->block[2]; return true;
        case PTX_SREG_CTAID_X: *out = cta->ctaid[0]; return true;
        case PTX_SREG_CTAID_Y: *out = cta->ctaid[1]; return true;
        case PTX_SREG_CTAID_Z: *out = cta->ctaid[2]; return true;
        case PTX_SREG_NCTAID_X: *out = L->grid[0]; return true;
        case PTX_SREG_NCTAID_Y: *out = L->grid[1]; return true;
        case PTX_SREG_NCTAID_Z: *out = L->grid[2]; return true;
        case PTX_SREG_LANEID: *out = lane; return true;
        case PTX_SREG_WARPID: *out = w->id; return true;
        case PTX_SREG_SMID: *out = cta->smid; return true;
        default:
            if (L->prog->sreg_used[s]) { *out = w->r32[s][lane]; return true; }
            *out = 0;
            return true;
        }
    }
    return false;
}

static bool lane_lookup(void *ctx, const char *name, struct dbg_val *out, char *err, size_t errlen)
{
    struct lane_ctx *c = ctx;
    const struct emu_warp *w = c->w;
    const struct emu_launch *L = w->cta->launch;
    unsigned l = c->lane;
    *out = (struct dbg_val){ 0 };
    static const char *const dims[] = { "threadIdx", "blockIdx", "blockDim", "gridDim" };
    for (unsigned k = 0; k < 4; k++) {
        size_t n = strlen(dims[k]);
        if (strncmp(name, dims[k], n) == 0 && name[n] == '.' && name[n + 1] >= 'x' && name[n + 1] <= 'z' && !name[n + 2]) {
            unsigned a = (unsigned)(name[n + 1] - 'x');
            out->i = k == 0 ? w->tid[a][l] : k == 1 ? w->cta->ctaid[a] : k == 2 ? L->block[a] : L->grid[a];
            c->varies |= k == 0;
            return true;
        }
    }
    if (strcmp(name, "warp") == 0) { out->i = w->id; return true; }
    if (strcmp(name, "lane") == 0) { out->i = l; c->varies = true; return true; }
    c->varies = true;                            /* (registers) */
    if (strcmp(name, "$tick") == 0) { out->i = (int64_t)c->d->emu.tick; return true; }
    uint16_t row;
    enum ptx_type t;
    if (reg_find(c->fn, name, &row, &t)) {
        uint64_t v = reg_bits(w, row, t, l);
        switch (t) {
        case PTX_T_F32: { float f; uint32_t b = (uint32_t)v; memcpy(&f, &b, 4); out->is_float = true; out->f = f; break; }
        case PTX_T_F64: { double f; memcpy(&f, &v, 8); out->is_float = true; out->f = f; break; }
        case PTX_T_S8: out->i = (int8_t)v; break;
        case PTX_T_S16: out->i = (int16_t)v; break;
        case PTX_T_S32: out->i = (int32_t)v; break;
        default: out->i = (int64_t)v; break;
        }
        return true;
    }
    uint64_t v;
    if (sreg_value(w, name, l, &v)) { out->i = (int64_t)v; return true; }
    errf(err, errlen, "no register '%s' in %s", name, c->fn ? c->fn->ir->name : "this function");
    return false;
}

/* ---- The stop ----------------------------------------------------------------------------- */

static void focus_on(struct loom_debug *d, const struct emu_warp *w, unsigned lane)
{
    for (int k = 0; k < 3; k++) {
        d->fblock[k] = w->cta->ctaid[k];
        d->fthread[k] = w->tid[k][lane];
    }
}

static unsigned first_lane(emu_mask m) { return m ? (unsigned)__builtin_ctz(m) : 0; }

/* The CTA ends now: for kill and going back (the state is dropped). */
static int abort_cta(struct emu_warp *w, uint32_t pc, const char *why)
{
    struct emu_cta *cta = w->cta;
    cta->fault_store = (struct emu_fault){ .status = LOOM_ERR_INTERRUPTED, .pc = pc, .warp = w->id };
    snprintf(cta->fault_store.msg, sizeof cta->fault_store.msg, "%s", why);
    cta->fault = &cta->fault_store;
    return EMU_STOP_FAULT;
}

static bool is_focus(const struct loom_debug *d, const struct emu_warp *w, const unsigned block[3], unsigned warp)
{
    return w->id == warp && same3(block, w->cta->ctaid);
}

/* The search for where to go back to is over (it reached the position going back began
 * at, or the launch's end): run again, to what it found, or to the start. */
static void search_done(struct loom_debug *d)
{
    d->mode = RUN_TARGET;
    d->target_pos = d->found ? d->found_pos : 0;
    d->target_reason = !d->found                               ? LOOM_STOP_START
                       : d->rev == LOOM_DEBUG_REVERSE_CONTINUE ? (d->target_pos & 1 ? LOOM_STOP_WATCH
                                                                                    : LOOM_STOP_BREAKPOINT)
                                                               : LOOM_STOP_STEP;
    d->target_bp = d->found_bp;
    d->restart = true;
}

/* Whether the debugged dispatch must call dbg_issue at every issue now. */
static bool every_now(struct loom_debug *d)
{
    return d->mode != RUN_NORMAL || d->step != LOOM_DEBUG_CONTINUE || atomic_load(&d->pause_req) ||
           atomic_load(&d->remark_due);
}

static bool can_reverse(struct loom_debug *d, char *err, size_t errlen);

static void step_begin(struct loom_debug *d, enum loom_debug_action a)
{
    d->step = a;
    memcpy(d->sblock, d->fblock, sizeof d->sblock);
    d->swarp = linear_thread(d->L, d->fthread) / EMU_WARP_SIZE;
    d->scuda = prog_has_cuda(d->L->prog);
    d->sline = 0;
    d->sdepth = 0;
    d->sfrom = d->stop_pos;
    struct emu_cta *cta = cta_of(d, d->fblock);
    if (cta && d->swarp < cta->nwarps) {
        const struct emu_warp *w = &cta->warps[d->swarp];
        uint32_t pc = warp_pc(d, w, linear_thread(d->L, d->fthread) % EMU_WARP_SIZE);
        if (pc < d->L->prog->ncode) d->sline = step_line(d->L->prog, pc, d->scuda);
        d->sdepth = w->nframes;
    }
}

static bool can_reverse(struct loom_debug *d, char *err, size_t errlen)
{
    if (!d->L) { errf(err, errlen, "no kernel is running"); return false; }
    if (d->L->entry->host_uses & EMU_USES_MALLOC) {
        errf(err, errlen, "going back in a kernel that calls malloc is not supported yet");
        return false;
    }
    if (!d->snap_ok) {
        errf(err, errlen, d->no_going_back ? "going back is off (it was off when this launch started)"
                                           : "going back needs a copy of the device memory the launch started with, "
                                             "and there was no memory for it");
        return false;
    }
    return true;
}

bool loom_debug_can_reverse(struct loom_debug *d, char *err, size_t errlen) { return can_reverse(d, err, errlen); }

void loom_debug_set_going_back(struct loom_debug *d, bool on) { d->no_going_back = !on; }

/* Going back from position `from`: the launch runs again from its start, searching. */
static void go_back(struct loom_debug *d, enum loom_debug_action a, uint64_t from)
{
    d->rev = a;
    d->rev_from = from;
    memcpy(d->rblock, d->fblock, sizeof d->rblock);
    d->rwarp = linear_thread(d->L, d->fthread) / EMU_WARP_SIZE;
    d->mode = RUN_SEARCH;
    d->found = false;
    d->found_bp = 0;
    d->rs_seen = false;
    d->restart = true;
    atomic_store(&d->emu.every, true);
}

/* After the front end answered: how the launch goes on. w may be NULL (a fault stop, the
 * CTA is over anyway). */
static int apply(struct loom_debug *d, enum loom_debug_action a, struct emu_warp *w, uint32_t pc)
{
    d->step = LOOM_DEBUG_CONTINUE;
    switch (a) {
    case LOOM_DEBUG_CONTINUE: break;
    case LOOM_DEBUG_STEPI: case LOOM_DEBUG_STEP: case LOOM_DEBUG_NEXT: case LOOM_DEBUG_FINISH:
    case LOOM_DEBUG_UNTIL: case LOOM_DEBUG_TO_BARRIER:
        step_begin(d, a);
        break;
    case LOOM_DEBUG_REVERSE_STEPI: case LOOM_DEBUG_REVERSE_STEP: case LOOM_DEBUG_REVERSE_CONTINUE:
        if (!can_reverse(d, NULL, 0)) break;
        go_back(d, a, d->stop_pos);
        return w ? abort_cta(w, pc, "going back") : EMU_STOP_FAULT;
    case LOOM_DEBUG_DETACH:
        d->detached = true;
        break;
    case LOOM_DEBUG_KILL:
        d->kill = true;
        return w ? abort_cta(w, pc, "the debugger killed the launch") : EMU_STOP_FAULT;
    }
    atomic_store(&d->emu.every, every_now(d));
    return EMU_CONTINUE;
}

static void fill_stop(struct loom_debug *d, enum loom_debug_reason why, const struct emu_warp *w, uint32_t pc,
                      uint64_t pos)
{
    struct loom_debug_stop *s = &d->stop;
    memset(s, 0, sizeof *s);
    s->reason = why;
    s->kernel = d->L->entry->ir->name;
    s->launch = d->L->gridid;
    memcpy(s->block, d->fblock, sizeof s->block);
    memcpy(s->thread, d->fthread, sizeof s->thread);
    unsigned t = linear_thread(d->L, d->fthread);
    s->warp = t / EMU_WARP_SIZE;
    s->lane = t % EMU_WARP_SIZE;
    s->active = w ? w->active : 0;
    s->tick = pos / 2;
    d->stop_warp = (struct emu_warp *)w;
    d->stop_pc = pc;
    d->stop_pos = pos;
    where_of(d->lmod->m, pc, &s->where, d->stop_text, sizeof d->stop_text);
}

/* The launch's kernel printf output that is new since the last stop, shown before the stop. */
static void show_output(struct loom_debug *d)
{
    uint64_t now = emu_host_fifo_mark(d->dev->host);
    if (now > d->fifo_shown) {
        emu_host_fifo_show(d->dev->host, d->fifo_shown, now);
        d->fifo_shown = now;
    }
}

/* Stops: the front end is called, its answer applied. */
static int stop_here(struct loom_debug *d, struct emu_warp *w, uint32_t pc)
{
    show_output(d);
    enum loom_debug_action a;
    do {                                         /* (going back when it cannot: stay here) */
        d->in_stop = true;
        a = d->cfg.on_stop(d, &d->stop, d->cfg.ctx);
        d->in_stop = false;
    } while ((a == LOOM_DEBUG_REVERSE_STEPI || a == LOOM_DEBUG_REVERSE_STEP || a == LOOM_DEBUG_REVERSE_CONTINUE) &&
             !can_reverse(d, NULL, 0));
    int rc = apply(d, a, w, pc);
    d->stop_warp = NULL;
    return rc;
}

static bool watch_hit(struct loom_debug *d, const struct emu_warp *w, uint32_t pc, emu_mask m);

/* A stop before w issues pc (m: its guard-true lanes); the instruction then runs, and a
 * watchpoint it writes (one set during the stop too) stops after it. */
static int stop_before(struct loom_debug *d, struct emu_warp *w, uint32_t pc, emu_mask m)
{
    int rc = stop_here(d, w, pc);
    struct emu_dbg *e = &d->emu;
    if (rc == EMU_CONTINUE && !e->after && d->mode == RUN_NORMAL && (e->at[pc] & EMU_DBG_AT_STORE)) {
        pthread_mutex_lock(&d->lock);
        if (watch_hit(d, w, pc, m)) e->after = true;
        pthread_mutex_unlock(&d->lock);
    }
    return rc;
}

/* The first active lane of w for which b's condition holds, or -1. */
static int bp_lane(struct loom_debug *d, const struct dbg_bp *b, const struct emu_warp *w, uint32_t pc,
                   emu_mask active)
{
    if (!b->cond) return (int)first_lane(active);
    struct lane_ctx c = { d, w, 0, func_at(w->cta->launch->prog, pc), false };
    for (emu_mask k = active; k; k &= k - 1) {
        c.lane = (unsigned)__builtin_ctz(k);
        c.varies = false;
        struct dbg_val v;
        char err[160];
        if (dbg_expr_eval(b->cond, lane_lookup, &c, &v, err, sizeof err) && (v.is_float ? v.f != 0 : v.i != 0))
            return (int)c.lane;
        if (!c.varies) break;                    /* (the same for every lane: `blockIdx.x == 5 && ...`) */
    }
    return -1;
}

/* The breakpoint that stops w at pc, and the lane; NULL when none. */
static struct dbg_bp *bp_hit(struct loom_debug *d, const struct emu_warp *w, uint32_t pc, emu_mask active, int *lane)
{
    for (unsigned i = 0; i < d->nbps; i++) {
        struct dbg_bp *b = d->bps[i];
        if (b->watch || !b->enabled) continue;
        for (unsigned k = 0; k < b->nplaces; k++) {
            if (b->places[k].pc != pc || b->places[k].m != d->lmod->m) continue;
            int l = bp_lane(d, b, w, pc, active);
            if (l >= 0) { *lane = l; return b; }
        }
    }
    return NULL;
}

static uint64_t read_le(const void *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n > 8 ? 8 : n);
    return v;
}

/* Whether lanes of m write a watched address at pc: fills d->wp (the first watchpoint and
 * lane). */
static bool watch_hit(struct loom_debug *d, const struct emu_warp *w, uint32_t pc, emu_mask m)
{
    const struct emu_program *p = w->cta->launch->prog;
    struct emu_obs_desc desc = emu_obs_describe(p, pc);
    if (desc.mem != EMU_OBS_ST && desc.mem != EMU_OBS_ATOM) return false;
    if (!m) return false;
    const struct emu_inst *in = &p->code[pc];
    uint64_t addr[EMU_WARP_SIZE];
    emu_obs_lane_addrs(w, in, addr);
    unsigned size = desc.size;
    enum ptx_space sp = (enum ptx_space)in->space;
    for (emu_mask k = m; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint64_t a = addr[l];
        enum ptx_space s = sp;
        if (s == PTX_SPACE_NONE || s == PTX_SPACE_GENERIC) {
            s = emu_generic_space(w, a);
            if (s == PTX_SPACE_SHARED) a -= (uint64_t)(uintptr_t)w->cta->shared;
        }
        for (unsigned i = 0; i < d->nbps; i++) {
            const struct dbg_bp *b = d->bps[i];
            if (!b->watch || !b->enabled) continue;
            bool shared = b->space == LOOM_SPACE_SHARED;
            if (shared != (s == PTX_SPACE_SHARED || s == PTX_SPACE_SHARED_CLUSTER)) continue;
            if (!shared && s != PTX_SPACE_GLOBAL) continue;
            if (a + size <= b->addr || a >= b->addr + b->size) continue;
            d->wp.on = true;
            d->wp.number = b->number;
            d->wp.addr = a;
            d->wp.size = size;
            d->wp.lane = l;
            const void *src = shared ? (const void *)(w->cta->shared + b->addr) : (const void *)(uintptr_t)b->addr;
            d->wp.old = shared && b->addr + b->size > w->cta->shared_size ? 0 : read_le(src, b->size);
            return true;
        }
    }
    return false;
}

/* Whether pc is in the first line of its function (the parameters' loads), when the
 * function has other lines. */
static bool in_prologue(const struct emu_program *p, uint32_t pc, bool cuda)
{
    const struct emu_func *f = func_at(p, pc);
    if (!f) return false;
    unsigned first = step_line(p, f->entry_pc, cuda);
    for (uint32_t k = f->entry_pc; k <= pc; k++)
        if (step_line(p, k, cuda) != first) return false;
    for (uint32_t k = pc + 1; k < f->end_pc; k++)
        if (step_line(p, k, cuda) && step_line(p, k, cuda) != first) return true;
    return false;
}

/* Whether a step that began in the focused warp ends at this issue of it. */
static bool step_done(struct loom_debug *d, const struct emu_warp *w, uint32_t pc)
{
    const struct emu_program *p = w->cta->launch->prog;
    unsigned line = step_line(p, pc, d->scuda);
    switch (d->step) {
    case LOOM_DEBUG_STEPI: return true;
    case LOOM_DEBUG_STEP:       /* (into a call: past the lines of its prologue, as gdb) */
        return line && line != d->sline && line_start(p, pc, d->scuda) &&
               !(w->nframes > d->sdepth && in_prologue(p, pc, d->scuda));
    case LOOM_DEBUG_NEXT:
        return w->nframes <= d->sdepth && line && (line != d->sline || w->nframes < d->sdepth) &&
               line_start(p, pc, d->scuda);
    case LOOM_DEBUG_UNTIL:
        return w->nframes <= d->sdepth && line && (line > d->sline || w->nframes < d->sdepth) &&
               line_start(p, pc, d->scuda);
    case LOOM_DEBUG_FINISH: return w->nframes < d->sdepth;
    case LOOM_DEBUG_TO_BARRIER: return p->code[pc].skind == EMU_SK_BAR;
    default: return false;
    }
}

/* Going back, searching: is issue `pos` (2k) of w one that the command may stop at? */
static void search_issue(struct loom_debug *d, struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m,
                         uint64_t pos)
{
    bool focus = is_focus(d, w, d->rblock, d->rwarp);
    const struct emu_program *p = w->cta->launch->prog;
    switch (d->rev) {
    case LOOM_DEBUG_REVERSE_STEPI:
        if (focus && pos < d->rev_from) { d->found = true; d->found_pos = pos; }
        break;
    case LOOM_DEBUG_REVERSE_STEP:
        if (focus) {
            bool cuda = prog_has_cuda(p);
            unsigned line = step_line(p, pc, cuda);
            if (line && (!d->rs_seen || line != d->rs_line) && pos < d->rev_from) {
                d->found = true;
                d->found_pos = pos;
            }
            if (line) { d->rs_line = line; d->rs_seen = true; }
        }
        break;
    case LOOM_DEBUG_REVERSE_CONTINUE: {
        int lane;
        struct dbg_bp *b = d->lmod->at[pc] & EMU_DBG_AT_BREAK ? bp_hit(d, w, pc, active, &lane) : NULL;
        if (b && pos < d->rev_from) { d->found = true; d->found_pos = pos; d->found_bp = b->number; }
        if ((d->lmod->at[pc] & EMU_DBG_AT_STORE) && pos + 1 < d->rev_from && watch_hit(d, w, pc, m)) {
            d->found = true;
            d->found_pos = pos + 1;
            d->found_bp = d->wp.number;
        }
        d->wp.on = false;
        break;
    }
    default: break;
    }
}

static int dbg_issue(struct emu_dbg *e, struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m)
{
    struct loom_debug *d = of_emu(e);
    uint64_t pos = 2 * (e->tick - 1);
    if (atomic_load_explicit(&d->remark_due, memory_order_relaxed)) {
        pthread_mutex_lock(&d->lock);
        atomic_store(&d->remark_due, false);
        remark_now(d);
        pthread_mutex_unlock(&d->lock);
        atomic_store(&e->every, every_now(d));
    }
    if (d->detached || !d->L) return EMU_CONTINUE;
    if (d->mode == RUN_SEARCH) {
        if (pos >= d->rev_from) {                /* searched up to where going back began */
            search_done(d);
            return abort_cta(w, pc, "going back");
        }
        pthread_mutex_lock(&d->lock);
        search_issue(d, w, pc, active, m, pos);
        pthread_mutex_unlock(&d->lock);
        return EMU_CONTINUE;
    }
    if (d->mode == RUN_TARGET) {
        if (pos == d->target_pos) {
            d->mode = RUN_NORMAL;
            atomic_store(&e->every, every_now(d));
            if (d->target_reason == LOOM_STOP_STEP || d->target_reason == LOOM_STOP_BREAKPOINT) {
                if (d->target_reason == LOOM_STOP_BREAKPOINT) {
                    int lane;
                    pthread_mutex_lock(&d->lock);
                    bool hit = bp_hit(d, w, pc, active, &lane) != NULL;
                    pthread_mutex_unlock(&d->lock);
                    if (hit) focus_on(d, w, (unsigned)lane);
                }
            } else if (d->target_reason == LOOM_STOP_START) {
                focus_on(d, w, first_lane(active));
            }
            fill_stop(d, d->target_reason, w, pc, pos);
            d->stop.breakpoint = d->target_reason == LOOM_STOP_BREAKPOINT ? d->target_bp : 0;
            return stop_before(d, w, pc, m);
        }
        if (pos + 1 == d->target_pos) {          /* a watched write: stop after it (dbg_after) */
            d->mode = RUN_NORMAL;
            atomic_store(&e->every, every_now(d));
            pthread_mutex_lock(&d->lock);
            if (watch_hit(d, w, pc, m)) e->after = true;
            pthread_mutex_unlock(&d->lock);
        }
        return EMU_CONTINUE;
    }
    if (atomic_load_explicit(&d->pause_req, memory_order_relaxed)) {
        atomic_store(&d->pause_req, false);
        bool mine = d->step == LOOM_DEBUG_CONTINUE || is_focus(d, w, d->sblock, d->swarp) || !cta_of(d, d->fblock);
        if (mine) {
            if (!is_focus(d, w, d->fblock, linear_thread(d->L, d->fthread) / EMU_WARP_SIZE))
                focus_on(d, w, first_lane(active));
            fill_stop(d, LOOM_STOP_PAUSE, w, pc, pos);
            return stop_before(d, w, pc, m);
        }
        atomic_store(&d->pause_req, true);
    }
    if (e->at[pc] & EMU_DBG_AT_BRKPT) {         /* brkpt in the kernel: a breakpoint of its own (number 0) */
        focus_on(d, w, first_lane(m ? m : active));
        fill_stop(d, LOOM_STOP_BREAKPOINT, w, pc, pos);
        return stop_before(d, w, pc, m);
    }
    if ((e->at[pc] & EMU_DBG_AT_ASSERT) && m && !w->cta->asserted) {
        d->assert_check = true;                 /* a failed assert stops right after the call */
        e->after = true;
    }
    if (e->at[pc] & EMU_DBG_AT_BREAK) {
        int lane;
        pthread_mutex_lock(&d->lock);           /* (a front end may change breakpoints meanwhile) */
        struct dbg_bp *b = bp_hit(d, w, pc, active, &lane);
        int number = b ? b->number : 0;
        bool temporary = b && b->bp.temporary;
        if (b) b->hits++;
        pthread_mutex_unlock(&d->lock);
        if (b) {
            if (temporary) loom_debug_delete(d, number);
            focus_on(d, w, (unsigned)lane);
            fill_stop(d, LOOM_STOP_BREAKPOINT, w, pc, pos);
            d->stop.breakpoint = number;
            return stop_before(d, w, pc, m);
        }
    }
    if (d->step != LOOM_DEBUG_CONTINUE && pos > d->sfrom && is_focus(d, w, d->sblock, d->swarp) &&
        step_done(d, w, pc)) {          /* (pos: an entry stop comes before the first issue, at its pos) */
        enum loom_debug_reason why = d->step == LOOM_DEBUG_TO_BARRIER ? LOOM_STOP_BARRIER : LOOM_STOP_STEP;
        fill_stop(d, why, w, pc, pos);
        return stop_before(d, w, pc, m);
    }
    if (e->at[pc] & EMU_DBG_AT_STORE) {
        pthread_mutex_lock(&d->lock);
        if (watch_hit(d, w, pc, m)) e->after = true;
        pthread_mutex_unlock(&d->lock);
    }
    return EMU_CONTINUE;
}

static int dbg_after(struct emu_dbg *e, struct emu_warp *w, uint32_t pc)
{
    struct loom_debug *d = of_emu(e);
    if (d->assert_check) {
        d->assert_check = false;
        struct emu_cta *cta = w->cta;
        if (cta->asserted && d->mode == RUN_NORMAL) {   /* stop at the failed assert, its state intact */
            const struct emu_fault *f = &cta->fault_store;
            focus_on(d, w, f->lane < EMU_WARP_SIZE ? f->lane : 0);
            fill_stop(d, LOOM_STOP_FAULT, w, pc, 2 * (e->tick - 1) + 1);
            snprintf(d->fault_text, sizeof d->fault_text, "%s", f->msg);
            d->stop.fault = LOOM_ERR_ASSERT;
            d->stop.fault_report = d->fault_text;
            d->assert_cta = cta;                /* (its end as faulted is not a second stop) */
            d->assert_index = cta->ctaid[0] + d->L->grid[0] * (cta->ctaid[1] + d->L->grid[1] * cta->ctaid[2]);
            d->wp.on = false;
            return stop_here(d, w, pc);
        }
    }
    if (!d->wp.on) return EMU_CONTINUE;
    d->wp.on = false;
    pthread_mutex_lock(&d->lock);
    struct dbg_bp *b = bp_find(d, d->wp.number);
    struct dbg_bp copy = b ? *b : (struct dbg_bp){ 0 };
    if (b) b->hits++;
    pthread_mutex_unlock(&d->lock);
    if (!b) return EMU_CONTINUE;
    b = &copy;
    focus_on(d, w, d->wp.lane);
    fill_stop(d, LOOM_STOP_WATCH, w, pc, 2 * (e->tick - 1) + 1);
    struct loom_debug_stop *s = &d->stop;
    s->watchpoint = b->number;
    s->watch_addr = d->wp.addr;
    s->watch_size = d->wp.size;
    s->watch_old = d->wp.old;
    bool shared = b->space == LOOM_SPACE_SHARED;
    const void *src = shared ? (const void *)(w->cta->shared + b->addr) : (const void *)(uintptr_t)b->addr;
    s->watch_new = shared && b->addr + b->size > w->cta->shared_size ? 0 : read_le(src, b->size);
    return stop_here(d, w, pc);
}

/* ---- Running a debugged launch ------------------------------------------------------------ */

struct snap_walk { struct loom_debug *d; bool ok; struct dbg_snap *old; unsigned nold; };

static void snap_one(const struct mem_alloc *a, void *ctx)
{
    struct snap_walk *sw = ctx;
    struct loom_debug *d = sw->d;
    if (!sw->ok || (a->flags & (MEM_READONLY | MEM_TEXOBJ))) return;
    if (!grow(&d->snap, d->nsnap, &d->snap_cap, sizeof *d->snap)) { sw->ok = false; return; }
    void *copy = NULL;
    for (unsigned i = 0; i < sw->nold && !copy; i++)   /* (the last launch's copy of it: no new pages) */
        if (sw->old[i].copy && sw->old[i].size == a->size) {
            copy = sw->old[i].copy;
            sw->old[i].copy = NULL;
        }
    if (!copy && !(copy = malloc(a->size ? a->size : 1))) { sw->ok = false; return; }
    memcpy(copy, (const void *)(uintptr_t)a->base, a->size);
    d->snap[d->nsnap++] = (struct dbg_snap){ a->base, a->size, copy };
}

/* Copies the device memory the launch starts with (buffers of the last launch's copy are
 * reused where sizes match). */
static void snap_take(struct loom_debug *d)
{
    struct snap_walk sw = { d, true, d->snap, d->nsnap };
    d->snap = NULL;
    d->nsnap = d->snap_cap = 0;
    if (!(d->L->entry->host_uses & EMU_USES_MALLOC) && !d->no_going_back) mem_foreach(d->dev->mem, snap_one, &sw);
    for (unsigned i = 0; i < sw.nold; i++) free(sw.old[i].copy);
    free(sw.old);
    d->snap_ok = sw.ok && !d->no_going_back;
    if (!sw.ok) snap_free(d);
}

static void snap_restore(struct loom_debug *d)
{
    for (unsigned i = 0; i < d->nsnap; i++) memcpy((void *)(uintptr_t)d->snap[i].base, d->snap[i].copy, d->snap[i].size);
}

static void drop_contexts(struct loom_debug *d)
{
    for (unsigned i = 0; i < d->nres; i++) emu_cta_destroy(d->res[i].cta);
    d->nres = 0;
}

/* Starts the next CTA of the grid in a free context (a new one when none is free). */
static struct dbg_res *admit(struct loom_debug *d, uint64_t nctas)
{
    if (d->next_index >= nctas) return NULL;
    struct dbg_res *r = NULL;
    for (unsigned i = 0; i < d->nres && !r; i++)
        if (!d->res[i].busy) r = &d->res[i];
    if (!r) {
        if (!grow(&d->res, d->nres, &d->res_cap, sizeof *d->res)) return NULL;
        struct emu_cta *cta = emu_cta_create(d->L);
        if (!cta) return NULL;
        r = &d->res[d->nres++];
        *r = (struct dbg_res){ .cta = cta };
    }
    const struct emu_launch *L = d->L;
    uint64_t i = d->next_index++;
    uint32_t id[3] = { (uint32_t)(i % L->grid[0]), (uint32_t)((i / L->grid[0]) % L->grid[1]),
                       (uint32_t)(i / ((uint64_t)L->grid[0] * L->grid[1])) };
    emu_cta_begin(r->cta, id, (uint32_t)(i % (L->nsm ? L->nsm : 1)));
    r->index = i;
    r->busy = true;
    return r;
}

static bool attached(const struct loom_debug *d, const struct sched_grid *g)
{
    return !d->detached && (!d->cfg.kernel || name_matches(g->k->ir->name, d->cfg.kernel));
}

/* One pass over the launch; returns the fault that ended it (NULL: none) into *f. */
static void run_pass(struct loom_debug *d, struct sched_grid *g, unsigned max_res, struct emu_fault *f, bool *faulted)
{
    *faulted = false;
    d->next_index = 0;
    d->done = 0;
    d->emu.tick = 0;
    d->emu.after = false;
    d->wp.on = false;
    d->assert_check = false;
    d->assert_cta = NULL;
    atomic_store(&d->emu.every, every_now(d));
    uint64_t nctas = g->nctas;
    for (unsigned i = 0; i < d->nres; i++) d->res[i].busy = false;
    struct dbg_res *first = admit(d, nctas);
    if (!first && nctas) {
        *f = (struct emu_fault){ .status = LOOM_ERR_OUT_OF_MEMORY };
        snprintf(f->msg, sizeof f->msg, "out of host memory for a CTA of '%s'", g->L.entry->ir->name);
        *faulted = true;
        return;
    }
    if (d->mode == RUN_NORMAL && d->cfg.stop_at_entry && first) {
        struct emu_warp *w = &first->cta->warps[0];
        memset(d->fblock, 0, sizeof d->fblock);
        memset(d->fthread, 0, sizeof d->fthread);
        fill_stop(d, LOOM_STOP_ENTRY, w, g->L.entry->entry_pc, 0);
        if (stop_here(d, NULL, 0) != EMU_CONTINUE) return;
    }
    while (d->done < nctas) {
        bool yielded = false, any = false;
        for (unsigned i = 0; i < d->nres; i++) {
            struct dbg_res *r = &d->res[i];
            if (!r->busy) continue;
            any = true;
            enum emu_cta_state st = emu_cta_run(r->cta, 1u << 20);
            if (d->restart || d->kill) return;
            if (st == EMU_CTA_YIELD) { yielded = true; continue; }
            if (st == EMU_CTA_FAULT) {
                const struct emu_fault *cf = r->cta->fault ? r->cta->fault : &r->cta->fault_store;
                bool seen = cf->status == LOOM_ERR_ASSERT && d->assert_cta == r->cta && d->assert_index == r->index;
                if (d->mode == RUN_NORMAL && !d->detached && !seen) {
                    struct emu_warp *w = &r->cta->warps[cf->warp < r->cta->nwarps ? cf->warp : 0];
                    focus_on(d, w, cf->lane < EMU_WARP_SIZE ? cf->lane : 0);
                    fill_stop(d, LOOM_STOP_FAULT, w, cf->pc, 2 * (d->emu.tick ? d->emu.tick - 1 : 0));
                    snprintf(d->fault_text, sizeof d->fault_text, "%s", cf->msg);
                    d->stop.fault = (enum loom_status)cf->status;
                    d->stop.fault_report = d->fault_text;
                    d->stop.active = w->active;
                    stop_here(d, NULL, 0);
                    if (d->restart || d->kill) return;
                }
                *f = *cf;
                *faulted = true;
                r->busy = false;
                return;
            }
            r->busy = false;
            d->done++;
            admit(d, nctas);
        }
        if (!any) {
            if (!admit(d, nctas)) break;
            continue;
        }
        unsigned busy = 0;
        for (unsigned i = 0; i < d->nres; i++) busy += d->res[i].busy;
        if (yielded && busy < max_res) admit(d, nctas);
    }
}

/* The launch is over (stop_at_exit): the front end may go back from its end. */
static void exit_stop(struct loom_debug *d, struct sched_grid *g, const struct emu_fault *f)
{
    show_output(d);
    memset(&d->stop, 0, sizeof d->stop);
    d->stop.reason = LOOM_STOP_EXIT;
    d->stop.kernel = g->L.entry->ir->name;
    d->stop.launch = g->L.gridid;
    d->stop.fault = f ? (enum loom_status)f->status : LOOM_OK;
    snprintf(d->fault_text, sizeof d->fault_text, "%s", f ? f->msg : "");
    d->stop.fault_report = f ? d->fault_text : NULL;
    d->stop.tick = d->emu.tick;
    d->stop_pos = 2 * d->emu.tick;
    enum loom_debug_action a;
    do {
        d->in_stop = true;
        a = d->cfg.on_stop(d, &d->stop, d->cfg.ctx);
        d->in_stop = false;
    } while ((a == LOOM_DEBUG_REVERSE_STEPI || a == LOOM_DEBUG_REVERSE_STEP || a == LOOM_DEBUG_REVERSE_CONTINUE) &&
             !can_reverse(d, NULL, 0));
    if (a == LOOM_DEBUG_REVERSE_STEPI || a == LOOM_DEBUG_REVERSE_STEP || a == LOOM_DEBUG_REVERSE_CONTINUE)
        go_back(d, a, d->stop_pos);
    else if (a == LOOM_DEBUG_DETACH)
        d->detached = true;
}

static void run_grid(struct sched_grid *g)
{
    struct loom_debug *d = g->run_alone_ctx;
    struct loom_device *dev = d->dev;
    d->g = g;
    d->L = &g->L;
    pthread_mutex_lock(&d->lock);
    d->lmod = mod_of(d, g->k->mod);
    pthread_mutex_unlock(&d->lock);
    if (!d->lmod) {
        struct emu_fault f = { .status = LOOM_ERR_INTERNAL };
        snprintf(f.msg, sizeof f.msg, "the debugger does not know the module of '%s'", g->L.entry->ir->name);
        sched_grid_fault(g, &f);
        d->g = NULL;
        d->L = NULL;
        return;
    }
    d->emu.at = d->lmod->at;
    d->emu.code = d->lmod->code;
    memset(d->fblock, 0, sizeof d->fblock);
    memset(d->fthread, 0, sizeof d->fthread);
    d->step = LOOM_DEBUG_CONTINUE;
    d->mode = RUN_NORMAL;
    d->restart = d->kill = false;
    snap_take(d);
    d->fifo_mark = d->fifo_shown = emu_host_fifo_mark(dev->host);
    atomic_store(&d->running, true);
    unsigned max_res = dev->props.multiprocessors > 0 ? (unsigned)dev->props.multiprocessors * 4u : 8u;
    struct emu_fault f;
    bool faulted;
    for (;;) {
        run_pass(d, g, max_res, &f, &faulted);
        if (d->kill) {
            f = (struct emu_fault){ .status = LOOM_ERR_INTERRUPTED };
            snprintf(f.msg, sizeof f.msg, "kernel '%s' was killed by the debugger", g->L.entry->ir->name);
            faulted = true;
            break;
        }
        if (!d->restart && d->mode == RUN_SEARCH) search_done(d);   /* (going back from the end) */
        if (!d->restart && d->mode == RUN_NORMAL && d->cfg.stop_at_exit && !d->detached)
            exit_stop(d, g, faulted ? &f : NULL);
        if (!d->restart) break;
        d->restart = false;                     /* going back: the launch again from its start */
        snap_restore(d);
        emu_host_fifo_cut(dev->host, d->fifo_mark);
        drop_contexts(d);
    }
    drop_contexts(d);
    /* the launch's output shows now, as at its stops; then none of it stays in the FIFO */
    show_output(d);
    emu_host_fifo_erase(dev->host, d->fifo_mark, d->fifo_shown);
    atomic_store(&d->running, false);
    atomic_store(&d->pause_req, false);
    if (atomic_load(&d->remark_due)) {
        pthread_mutex_lock(&d->lock);
        atomic_store(&d->remark_due, false);
        remark_now(d);
        pthread_mutex_unlock(&d->lock);
    }
    if (faulted) sched_grid_fault(g, &f);
    atomic_store(&g->ctas_run, d->done);
    d->step = LOOM_DEBUG_CONTINUE;
    d->mode = RUN_NORMAL;
    atomic_store(&d->emu.every, false);
    d->kill = false;
    d->g = NULL;
    d->L = NULL;
    d->emu.at = d->none_at;
}

void loom_debug_launch_made(struct loom_debug *d, struct sched_grid *g)
{
    if (!attached(d, g)) return;
    const struct loom_module *m = g->k->mod;     /* the plain decode of the module (debug_int.h) */
    g->L.prog = m->dprog;
    g->L.entry = &m->dprog->funcs[g->k->fn - m->prog->funcs];
    g->run_alone = run_grid;
    g->run_alone_ctx = d;
    g->L.dbg = &d->emu;
}

/* ---- Focus and reads ----------------------------------------------------------------------- */

bool loom_debug_focus(struct loom_debug *d, const unsigned block[3], const unsigned thread[3], char *err, size_t errlen)
{
    if (!d->L) { errf(err, errlen, "no kernel is running"); return false; }
    const struct emu_launch *L = d->L;
    for (int k = 0; k < 3; k++) {
        if (block[k] >= L->grid[k]) {
            errf(err, errlen, "block (%u,%u,%u) does not exist: the grid is (%u,%u,%u)", block[0], block[1], block[2],
                 L->grid[0], L->grid[1], L->grid[2]);
            return false;
        }
        if (thread[k] >= L->block[k]) {
            errf(err, errlen, "thread (%u,%u,%u) does not exist: blocks are (%u,%u,%u)", thread[0], thread[1], thread[2],
                 L->block[0], L->block[1], L->block[2]);
            return false;
        }
    }
    memcpy(d->fblock, block, sizeof d->fblock);
    memcpy(d->fthread, thread, sizeof d->fthread);
    return true;
}

bool loom_debug_focus_warp(struct loom_debug *d, unsigned warp, unsigned lane, char *err, size_t errlen)
{
    if (!d->L) { errf(err, errlen, "no kernel is running"); return false; }
    const struct emu_launch *L = d->L;
    unsigned nthreads = L->block[0] * L->block[1] * L->block[2];
    unsigned nwarps = (nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    if (warp >= nwarps) { errf(err, errlen, "warp %u does not exist: blocks have %u warp%s", warp, nwarps, nwarps == 1 ? "" : "s"); return false; }
    if (lane >= EMU_WARP_SIZE || warp * EMU_WARP_SIZE + lane >= nthreads) {
        errf(err, errlen, "lane %u of warp %u does not exist: blocks have %u threads", lane, warp, nthreads);
        return false;
    }
    unsigned t = warp * EMU_WARP_SIZE + lane;
    d->fthread[0] = t % L->block[0];
    d->fthread[1] = (t / L->block[0]) % L->block[1];
    d->fthread[2] = t / (L->block[0] * L->block[1]);
    return true;
}

void loom_debug_get_focus(struct loom_debug *d, unsigned block[3], unsigned thread[3], unsigned *warp, unsigned *lane)
{
    if (block) memcpy(block, d->fblock, sizeof d->fblock);
    if (thread) memcpy(thread, d->fthread, sizeof d->fthread);
    unsigned t = d->L ? linear_thread(d->L, d->fthread) : 0;
    if (warp) *warp = t / EMU_WARP_SIZE;
    if (lane) *lane = t % EMU_WARP_SIZE;
}

bool loom_debug_launch(struct loom_debug *d, struct loom_debug_launch_info *out)
{
    memset(out, 0, sizeof *out);
    if (!d->L) return false;
    const struct emu_launch *L = d->L;
    out->kernel = L->entry->ir->name;
    out->launch = L->gridid;
    memcpy(out->grid, L->grid, sizeof out->grid);
    memcpy(out->block, L->block, sizeof out->block);
    out->dyn_shared = L->dyn_shared;
    out->simt = !L->simt ? "pdom" : L->simt->spec;
    out->tick = d->stop_pos / 2;
    for (unsigned i = 0; i < d->nres; i++) out->nblocks_running += d->res[i].busy;
    return true;
}

static const char *warp_state(const struct emu_warp *w, char *buf, size_t size)
{
    if (w->done) return "exited";
    if (w->cta->fault && w->cta->fault->warp == w->id) return "faulted";
    switch (emu_wait_kind(w)) {
    case EMU_WAIT_BARRIER: snprintf(buf, size, "at barrier %u", w->wait.barrier); return buf;
    case EMU_WAIT_WARPSYNC: return "at bar.warp.sync";
    case EMU_WAIT_POLL: return "polling memory";
    case EMU_WAIT_SLEEP: return "asleep (nanosleep)";
    default: return "ready";
    }
}

unsigned loom_debug_warps(struct loom_debug *d, struct loom_debug_warp_info *out, unsigned max)
{
    static char states[64][32];
    unsigned n = 0;
    if (!d->in_stop || !d->L) return 0;
    struct emu_cta *fc = cta_of(d, d->fblock);
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < d->nres; i++) {
            struct dbg_res *r = &d->res[i];
            if (!r->busy || (pass == 0) != (r->cta == fc)) continue;
            for (uint32_t k = 0; k < r->cta->nwarps; k++, n++) {
                if (n >= max) continue;
                const struct emu_warp *w = &r->cta->warps[k];
                struct loom_debug_warp_info *o = &out[n];
                memset(o, 0, sizeof *o);
                memcpy(o->block, r->cta->ctaid, sizeof o->block);
                o->warp = k;
                o->valid = w->valid;
                o->exited = w->exited;
                o->done = w->done;
                o->active = w->done ? 0 : w == d->stop_warp ? w->active : r->cta->steps ? w->valid & ~w->exited : w->active;
                o->state = w == d->stop_warp ? "stopped" : warp_state(w, states[n % 64], sizeof states[0]);
                unsigned lane = first_lane(o->active ? o->active : w->valid);
                where_of(d->lmod->m, warp_pc(d, w, lane), &o->where, NULL, 0);   /* (text: list) */
                o->frames = w->nframes;
                o->simt_depth = r->cta->steps ? 0 : w->sp;
            }
        }
    return n;
}

unsigned loom_debug_blocks(struct loom_debug *d, unsigned (*out)[3], unsigned max)
{
    unsigned n = 0;
    if (!d->L) return 0;
    for (unsigned i = 0; i < d->nres; i++) {
        if (!d->res[i].busy) continue;
        if (n < max) memcpy(out[n], d->res[i].cta->ctaid, sizeof out[n]);
        n++;
    }
    return n;
}

static const struct emu_func *focus_func(struct loom_debug *d, const struct emu_warp *w, unsigned lane)
{
    return func_at(w->cta->launch->prog, warp_pc(d, w, lane));
}

bool loom_debug_read_reg(struct loom_debug *d, const char *name, struct loom_debug_reg *out, char *err, size_t errlen)
{
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, err, errlen);
    if (!w) return false;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->valid = w->valid;
    const struct emu_func *fn = focus_func(d, w, lane);
    uint16_t row;
    enum ptx_type t;
    if (reg_find(fn, name, &row, &t)) {
        out->type = ptx_type_name(t) + (ptx_type_name(t)[0] == '.');
        out->kind = t == PTX_T_PRED ? LOOM_REG_PRED : is64(t) ? LOOM_REG_B64 : LOOM_REG_B32;
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) out->lane[l] = reg_bits(w, row, t, l);
        return true;
    }
    uint64_t v;
    if (sreg_value(w, name, 0, &v)) {
        out->type = "u32";
        out->kind = LOOM_REG_B32;
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) sreg_value(w, name, l, &out->lane[l]);
        return true;
    }
    errf(err, errlen, "no register '%s' in %s", name, fn ? fn->ir->name : "this function");
    return false;
}

unsigned loom_debug_reg_names(struct loom_debug *d, const char **names, unsigned max)
{
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, NULL, 0);
    if (!w) return 0;
    const struct emu_func *fn = focus_func(d, w, lane);
    if (!fn) return 0;
    unsigned n = 0;
    for (uint32_t r = 0; r < fn->ir->nregs; r++) {
        if (fn->ir->regs[r].vec > 1) continue;
        if (n < max) names[n] = fn->ir->regs[r].name;
        n++;
    }
    return n;
}

bool loom_debug_read_mem(struct loom_debug *d, enum loom_debug_space space, uint64_t addr, void *buf, size_t n,
                         char *err, size_t errlen)
{
    if (!d->in_stop || !d->L) { errf(err, errlen, "the kernel is not stopped"); return false; }
    if (space == LOOM_SPACE_GLOBAL || space == LOOM_SPACE_CONST) {
        const struct mem_alloc *a = mem_find(d->dev->mem, addr, n ? n : 1);
        if (!a || (a->flags & (MEM_ARRAY | MEM_TEXOBJ))) {
            errf(err, errlen, "0x%" PRIx64 "..0x%" PRIx64 " is not inside one device allocation", addr, addr + n);
            return false;
        }
        memcpy(buf, (const void *)(uintptr_t)addr, n);
        return true;
    }
    if (space == LOOM_SPACE_PARAM) {
        if (addr > d->L->params_size || n > d->L->params_size - addr) {
            errf(err, errlen, "the parameters are %" PRIu64 " bytes", d->L->params_size);
            return false;
        }
        memcpy(buf, d->L->params + addr, n);
        return true;
    }
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, err, errlen);
    if (!w) return false;
    if (space == LOOM_SPACE_SHARED) {
        uint64_t size = w->cta->shared_size;
        if (addr > size || n > size - addr) {
            errf(err, errlen, "block (%u,%u,%u) has %" PRIu64 " bytes of shared memory", d->fblock[0], d->fblock[1],
                 d->fblock[2], size);
            return false;
        }
        memcpy(buf, w->cta->shared + addr, n);
        return true;
    }
    uint64_t size = w->local_stride;
    if (addr > size || n > size - addr) {
        errf(err, errlen, "each thread has %" PRIu64 " bytes of local memory", size);
        return false;
    }
    memcpy(buf, w->local + (uint64_t)lane * w->local_stride + addr, n);
    return true;
}

bool loom_debug_eval(struct loom_debug *d, const char *expr, int64_t *out, bool *is_float, double *out_f, char *err,
                     size_t errlen)
{
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, err, errlen);
    if (!w) return false;
    struct dbg_expr *e = dbg_expr_parse(expr, NULL, NULL, err, errlen);
    if (!e) return false;
    struct lane_ctx c = { d, w, lane, focus_func(d, w, lane), false };
    struct dbg_val v;
    bool ok = dbg_expr_eval(e, lane_lookup, &c, &v, err, errlen);
    dbg_expr_free(e);
    if (!ok) return false;
    if (out) *out = v.is_float ? (int64_t)v.f : v.i;
    if (is_float) *is_float = v.is_float;
    if (out_f) *out_f = v.is_float ? v.f : (double)v.i;
    return true;
}

unsigned loom_debug_backtrace(struct loom_debug *d, struct loom_debug_where *out, unsigned max)
{
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, NULL, 0);
    if (!w) return 0;
    unsigned n = 0;
    uint32_t pc = warp_pc(d, w, lane);
    if (n < max) where_of(d->lmod->m, pc, &out[n], d->bt_text[0], sizeof d->bt_text[0]);
    n++;
    for (uint32_t f = w->nframes; f-- > 0;) {
        uint32_t call = w->frames[f].ret_pc ? w->frames[f].ret_pc - 1 : 0;
        if (n < max) {
            if (n < DBG_BT_TEXTS) where_of(d->lmod->m, call, &out[n], d->bt_text[n], sizeof d->bt_text[0]);
            else where_of(d->lmod->m, call, &out[n], NULL, 0);
        }
        n++;
    }
    return n;
}

static size_t put(char *buf, size_t size, size_t used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t size, size_t used, const char *fmt, ...)
{
    if (used >= size) return used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
    return n < 0 ? used : used + (size_t)n >= size ? size - 1 : used + (size_t)n;
}

static unsigned pc_line(const struct loom_debug *d, uint32_t pc)
{
    return pc < d->L->prog->ncode ? d->L->prog->locs[pc].ptx_line : 0;
}

size_t loom_debug_simt(struct loom_debug *d, char *buf, size_t size)
{
    unsigned lane;
    if (size) buf[0] = 0;
    struct emu_warp *w = focus_warp(d, &lane, buf, size);
    if (!w) return strlen(buf);
    size_t n = 0;
    const char *policy = d->L->simt ? d->L->simt->spec : "pdom";
    n = put(buf, size, n, "policy %s, warp %u of block (%u,%u,%u): valid 0x%08x, exited 0x%08x\n", policy, w->id,
            d->fblock[0], d->fblock[1], d->fblock[2], w->valid, w->exited);
    if (w->cta->steps) {                  /* the thread engine: lanes by pc */
        const struct steps_warp *sw = &w->cta->steps->sw[w->id];
        emu_mask left = w->valid & ~w->exited;
        while (left) {
            unsigned l = (unsigned)__builtin_ctz(left);
            uint32_t pc = sw->pc[l];
            emu_mask at = 0;
            for (emu_mask k = left; k; k &= k - 1) {
                unsigned j = (unsigned)__builtin_ctz(k);
                if (sw->pc[j] == pc) at |= 1u << j;
            }
            left &= ~at;
            n = put(buf, size, n, "  lanes 0x%08x at pc %u (PTX line %u)%s%s\n", at, pc, pc_line(d, pc),
                    at & sw->bar ? ", waiting at a barrier" : "", at & sw->sleeping ? ", asleep" : "");
        }
        return n;
    }
    uint32_t pc = warp_pc(d, w, lane);
    n = put(buf, size, n, "  running: lanes 0x%08x at pc %u (PTX line %u)\n", w->active, pc, pc_line(d, pc));
    for (uint32_t i = w->sp; i-- > 0;) {
        const struct emu_simt_entry *e = &w->stack[i];
        char rec[48];
        if (e->reconv >= d->L->prog->ncode) snprintf(rec, sizeof rec, "exit");
        else snprintf(rec, sizeof rec, "pc %u (PTX line %u)", e->reconv, pc_line(d, e->reconv));
        n = put(buf, size, n, "  stack[%u]: lanes 0x%08x resume at pc %u (PTX line %u), reconverge at %s\n", i, e->mask,
                e->pc, pc_line(d, e->pc), rec);
    }
    return n;
}

size_t loom_debug_barriers(struct loom_debug *d, char *buf, size_t size)
{
    if (size) buf[0] = 0;
    unsigned lane;
    struct emu_warp *w = focus_warp(d, &lane, buf, size);
    if (!w) return strlen(buf);
    const struct emu_cta *cta = w->cta;
    size_t n = 0;
    for (unsigned b = 0; b < 16; b++) {
        const struct emu_barrier *bar = &cta->bars[b];
        uint32_t waiting = 0;
        for (uint32_t k = 0; k < cta->nwarps; k++)
            if (!cta->warps[k].done && emu_wait_kind(&cta->warps[k]) == EMU_WAIT_BARRIER && cta->warps[k].wait.barrier == b)
                waiting |= 1u << k;
        if (!bar->arrived && !waiting) continue;
        n = put(buf, size, n, "barrier %u: %u thread%s arrived, expects %u; warps waiting: 0x%08x\n", b, bar->arrived,
                bar->arrived == 1 ? "" : "s", bar->expected_count ? bar->expected_count : cta->nthreads, waiting);
    }
    if (!n) n = put(buf, size, n, "no barrier of block (%u,%u,%u) has arrivals\n", d->fblock[0], d->fblock[1], d->fblock[2]);
    return n;
}

/* ---- Source ----------------------------------------------------------------------------------- */

const char *loom_debug_source_line(struct loom_debug *d, const char *file, unsigned line, unsigned *len)
{
    if (len) *len = 0;
    if (line == 0) return NULL;
    pthread_mutex_lock(&d->lock);
    struct loom_module *m = d->lmod ? d->lmod->m : d->mods ? d->mods->m : NULL;
    const char *path = NULL;
    if (file && !is_ptx_name(file)) {
        for (struct dbg_mod *x = d->mods; x && !path; x = x->next)
            for (uint32_t i = 0; i < x->m->ir->nfiles && !path; i++)
                if (file_matches(x->m->ir->files[i].path, file)) path = x->m->ir->files[i].path;
        if (!path) path = file;
    } else if (file) {
        for (struct dbg_mod *x = d->mods; x; x = x->next)
            if (file_matches(ptx_path(x->m), file) || strcmp(base_name(ptx_path(x->m)), base_name(file)) == 0) m = x->m;
    }
    const char *out = NULL;
    if (!path) {
        const char *a, *b;
        if (m && sched_module_line(m, line, &a, &b)) out = copy_text(d->src_line, sizeof d->src_line, a, b, false, len);
        pthread_mutex_unlock(&d->lock);
        return out;
    }
    if (strcmp(d->src_file_name, path) != 0) {
        free(d->src_file_text);
        d->src_file_text = NULL;
        d->src_file_len = 0;
        snprintf(d->src_file_name, sizeof d->src_file_name, "%s", path);
        FILE *f = fopen(path, "rb");
        if (f) {
            size_t cap = 0;
            bool too_big;
            d->src_file_text = ptx_read_stream(f, &cap, &too_big);
            d->src_file_len = d->src_file_text ? cap : 0;
            fclose(f);
        }
    }
    if (d->src_file_text) {
        const char *a = d->src_file_text, *end = d->src_file_text + d->src_file_len;
        for (unsigned k = 1; k < line && a < end; k++) {
            const char *nl = memchr(a, '\n', (size_t)(end - a));
            a = nl ? nl + 1 : end;
        }
        if (a < end) {
            const char *b = memchr(a, '\n', (size_t)(end - a));
            out = copy_text(d->src_line, sizeof d->src_line, a, b ? b : end, false, len);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return out;
}

bool loom_debug_pause(struct loom_debug *d)
{
    if (!d || !atomic_load(&d->running) || d->in_stop || d->detached) return false;
    atomic_store(&d->pause_req, true);
    atomic_store(&d->emu.every, true);
    return true;
}

unsigned loom_debug_kernels(struct loom_debug *d, const char **names, unsigned max)
{
    pthread_mutex_lock(&d->lock);
    unsigned n = 0;
    for (struct dbg_mod *x = d->mods; x; x = x->next)
        for (uint32_t f = 0; f < x->m->ir->nfuncs; f++) {
            const struct ptx_func *fn = x->m->ir->funcs[f];
            if (!fn->is_entry || fn->is_decl) continue;
            if (n < max) names[n] = fn->name;
            n++;
        }
    pthread_mutex_unlock(&d->lock);
    return n;
}

void *loom_debug_ctx(struct loom_debug *d) { return d ? d->cfg.ctx : NULL; }

const struct loom_kernel *loom_debug_kernel(struct loom_debug *d) { return d && d->g ? d->g->k : NULL; }
