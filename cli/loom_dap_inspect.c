/* loom_dap_inspect.c -- `loom dap`'s requests that read a stopped launch: threads (one per
 * warp), stackTrace, scopes, variables, evaluate, exceptionInfo, dataBreakpointInfo. */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/loom_dap.h"
#include "observe/json.h"

#define DAP_MAX_FRAMES 64
#define DAP_MAX_REGS 4096
#define DAP_SHARED_ROWS 256   /* 4 KiB shown; evaluate `x` reads the rest */
#define DAP_PARAM_SLOTS 64
#define DAP_GLOBAL_ROWS 16    /* 256 bytes from a pointer parameter */

static const char *const special_regs[] = { "%tid.x", "%tid.y", "%tid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z",
                                             "%laneid", "%warpid" };

static bool stopped(struct dap_server *s, char *err, size_t errlen)
{
    if (s->state == DAP_STOPPED) return true;
    snprintf(err, errlen, "the kernel is not stopped");
    return false;
}

/* ---- Threads = warps ----------------------------------------------------------------------- */

static bool launch_dims(struct dap_server *s, struct loom_debug_launch_info *li, uint64_t *wpb)
{
    if (s->state != DAP_STOPPED || !loom_debug_launch(s->d, li)) return false;
    uint64_t tpb = (uint64_t)li->block[0] * li->block[1] * li->block[2];
    *wpb = (tpb + 31) / 32;
    return *wpb > 0;
}

int64_t dap_thread_id(struct dap_server *s, const unsigned block[3], unsigned warp)
{
    struct loom_debug_launch_info li;
    uint64_t wpb;
    if (!launch_dims(s, &li, &wpb)) return 1;
    uint64_t lin = ((uint64_t)block[2] * li.grid[1] + block[1]) * li.grid[0] + block[0];
    return (int64_t)(1 + lin * wpb + warp);
}

/* The block and warp of thread id (false: none of this launch's). */
static bool thread_place(struct dap_server *s, int64_t id, unsigned block[3], unsigned *warp,
                         struct loom_debug_launch_info *li)
{
    uint64_t wpb;
    if (id < 1 || !launch_dims(s, li, &wpb)) return false;
    uint64_t t = (uint64_t)id - 1, lin = t / wpb;
    *warp = (unsigned)(t % wpb);
    block[0] = (unsigned)(lin % li->grid[0]);
    block[1] = (unsigned)(lin / li->grid[0] % li->grid[1]);
    block[2] = (unsigned)(lin / li->grid[0] / li->grid[1]);
    return block[2] < li->grid[2];
}

/* Every warp of the running blocks (*n of them; NULL when out of memory). */
static struct loom_debug_warp_info *all_warps(struct dap_server *s, unsigned *n)
{
    unsigned cap = 256;
    for (;;) {
        struct loom_debug_warp_info *w = malloc(cap * sizeof *w);
        if (!w) return NULL;
        *n = loom_debug_warps(s->d, w, cap);
        if (*n <= cap) return w;
        free(w);
        cap = *n;
    }
}

/* Thread id's warp as loom_debug_warps describes it (false: not running). */
static bool warp_of(struct dap_server *s, int64_t id, struct loom_debug_warp_info *out)
{
    unsigned n = 0;
    struct loom_debug_warp_info *w = all_warps(s, &n);
    bool found = false;
    for (unsigned i = 0; w && i < n && !found; i++)
        if (dap_thread_id(s, w[i].block, w[i].warp) == id) {
            *out = w[i];
            found = true;
        }
    free(w);
    return found;
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t *dap_thread_ids(struct dap_server *s, unsigned *n)
{
    struct loom_debug_warp_info *w = all_warps(s, n);
    int64_t *ids = w && *n ? malloc(*n * sizeof *ids) : NULL;
    for (unsigned i = 0; ids && i < *n; i++)
        ids[i] = dap_thread_id(s, w[i].block, w[i].warp);
    if (ids) qsort(ids, *n, sizeof *ids, cmp_id);
    else *n = 0;
    free(w);
    return ids;
}

bool dap_focus_thread(struct dap_server *s, int64_t id, int lane, char *err, size_t errlen)
{
    unsigned block[3], warp, fb[3], ft[3], fw, fl;
    struct loom_debug_launch_info li;
    if (!thread_place(s, id, block, &warp, &li)) {
        snprintf(err, errlen, "thread %" PRId64 " is no warp of the stopped launch", id);
        return false;
    }
    loom_debug_get_focus(s->d, fb, ft, &fw, &fl);
    if (lane < 0) {
        if (memcmp(fb, block, sizeof fb) == 0 && fw == warp) {
            lane = (int)fl;
        } else {
            struct loom_debug_warp_info wi;
            uint32_t m = warp_of(s, id, &wi) ? (wi.active ? wi.active : wi.valid) : 1;
            lane = m ? __builtin_ctz(m) : 0;
        }
    }
    unsigned t = warp * 32 + (unsigned)lane;
    unsigned thread[3] = { t % li.block[0], t / li.block[0] % li.block[1], t / li.block[0] / li.block[1] };
    return loom_debug_focus(s->d, block, thread, err, errlen);
}

/* The focus as it was, to put back after a read of another warp. */
struct saved_focus {
    unsigned block[3], thread[3], warp, lane;
};

static void focus_save(struct dap_server *s, struct saved_focus *f)
{
    loom_debug_get_focus(s->d, f->block, f->thread, &f->warp, &f->lane);
}

static void focus_restore(struct dap_server *s, const struct saved_focus *f)
{
    char err[128];
    loom_debug_focus(s->d, f->block, f->thread, err, sizeof err);
}

bool dap_threads(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)args, (void)err, (void)errlen;
    if (s->state != DAP_STOPPED) {
        fprintf(body, "{\"threads\":[{\"id\":1,\"name\":\"kernel (%s)\"}]}",
                s->state == DAP_RUNNING ? "running" : s->state == DAP_OVER ? "ended" : "not started");
        return true;
    }
    unsigned n = 0;
    struct loom_debug_warp_info *w = all_warps(s, &n);
    fputs("{\"threads\":[", body);
    for (unsigned i = 0; w && i < n; i++)
        fprintf(body, "%s{\"id\":%" PRId64 ",\"name\":\"block (%u,%u,%u) warp %u\"}", i ? "," : "",
                dap_thread_id(s, w[i].block, w[i].warp), w[i].block[0], w[i].block[1], w[i].block[2], w[i].warp);
    fputs("]}", body);
    free(w);
    return true;
}

/* ---- Stops and frames -------------------------------------------------------------------------- */

static const char *last_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The .cu file that .loc names, as the editor can open it: the path itself, else the file of
 * that name beside the PTX file (PTX moved from where nvcc wrote it); NULL when neither is. */
static char *cu_path(const char *cu, const char *ptx)
{
    char buf[PATH_MAX];
    if (access(cu, R_OK) == 0) return realpath(cu, NULL);
    const char *slash = ptx ? strrchr(ptx, '/') : NULL;
    int dir = slash ? (int)(slash - ptx) : 1;
    snprintf(buf, sizeof buf, "%.*s/%s", dir, slash ? ptx : ".", last_part(cu));
    return access(buf, R_OK) == 0 ? realpath(buf, NULL) : NULL;
}

/* "source":{...} of a place, and its line: the CUDA line where .loc gives one and the file
 * can be found, else the PTX line. */
static unsigned write_source(struct dap_server *s, const struct loom_debug_where *w, FILE *m)
{
    char *path = w->cu_file && w->cu_line ? cu_path(w->cu_file, w->ptx_file) : NULL;
    unsigned line = path ? w->cu_line : w->ptx_line;
    if (!path && w->ptx_file && strcmp(w->ptx_file, "<ptx>") != 0)
        path = realpath(w->ptx_file, NULL);
    if (path || (w->ptx_file && line)) {
        fputs(",\"source\":{\"name\":", m);
        loom_json_str(m, last_part(path ? path : w->ptx_file));
        if (path) {
            fputs(",\"path\":", m);
            loom_json_str(m, path);
        }
        fputc('}', m);
    }
    free(path);
    fprintf(m, ",\"line\":%u,\"column\":%d", line ? line - 1 + (unsigned)s->line_base : 0, s->line_base);
    return line;
}

static void where_text(const struct loom_debug_where *w, char *buf, size_t n)
{
    if (w->cu_file && w->cu_line)
        snprintf(buf, n, "%s:%u (PTX line %u)", last_part(w->cu_file), w->cu_line, w->ptx_line);
    else
        snprintf(buf, n, "%s:%u", w->ptx_file ? last_part(w->ptx_file) : "<ptx>", w->ptx_line);
}

/* The PTX instruction at w, white space collapsed (nvcc writes tabs), into buf: the text the
 * core gives, else the PTX line's. */
static const char *instruction_text(struct dap_server *s, const struct loom_debug_where *w, char *buf, size_t n)
{
    unsigned len = 0;
    const char *t = w->text;
    if (!t && w->ptx_line) {
        t = loom_debug_source_line(s->d, w->ptx_file, w->ptx_line, &len);
    } else if (t) {
        len = (unsigned)strlen(t);
    }
    size_t k = 0;
    for (unsigned i = 0; t && i < len && k + 1 < n; i++) {
        bool space = isspace((unsigned char)t[i]);
        if (space && (k == 0 || buf[k - 1] == ' ')) continue;
        buf[k++] = space ? ' ' : t[i];
    }
    while (k > 0 && buf[k - 1] == ' ') k--;
    buf[k] = 0;
    return buf;
}

void dap_write_stopped(struct dap_server *s, const struct loom_debug_stop *st, FILE *m)
{
    /* (steps, barriers, the start: "step") */
    static const char *const reasons[] = {
        [LOOM_STOP_ENTRY] = "entry", [LOOM_STOP_BREAKPOINT] = "breakpoint", [LOOM_STOP_WATCH] = "data breakpoint",
        [LOOM_STOP_FAULT] = "exception", [LOOM_STOP_PAUSE] = "pause",
    };
    char where[PATH_MAX + 64], desc[PATH_MAX + 512];
    where_text(&st->where, where, sizeof where);
    const char *reason = (unsigned)st->reason < sizeof reasons / sizeof reasons[0] && reasons[st->reason]
                             ? reasons[st->reason] : "step";
    switch (st->reason) {
    case LOOM_STOP_BREAKPOINT:
        snprintf(desc, sizeof desc, "breakpoint %d at %s", st->breakpoint, where);
        break;
    case LOOM_STOP_WATCH:
        snprintf(desc, sizeof desc, "watchpoint %d: block (%u,%u,%u) thread (%u,%u,%u) wrote %u bytes at 0x%" PRIx64
                 ": 0x%" PRIx64 " -> 0x%" PRIx64, st->watchpoint, st->block[0], st->block[1], st->block[2],
                 st->thread[0], st->thread[1], st->thread[2], st->watch_size, st->watch_addr, st->watch_old,
                 st->watch_new);
        break;
    case LOOM_STOP_FAULT: {
        const char *r = st->fault_report ? st->fault_report : loom_status_string(st->fault);
        const char *nl = strchr(r, '\n');
        snprintf(desc, sizeof desc, "%.*s", nl ? (int)(nl - r) : (int)strlen(r), r);
        break;
    }
    case LOOM_STOP_START:
        snprintf(desc, sizeof desc, "back at the launch's first instruction");
        break;
    case LOOM_STOP_ENTRY:
        snprintf(desc, sizeof desc, "launch %u of %s", st->launch, st->kernel ? st->kernel : "?");
        break;
    default:
        snprintf(desc, sizeof desc, "%s at %s", loom_debug_reason_name(st->reason), where);
    }
    fprintf(m, "{\"reason\":\"%s\",\"threadId\":%" PRId64 ",\"allThreadsStopped\":true,\"description\":", reason,
            dap_thread_id(s, st->block, st->warp));
    loom_json_str(m, desc);
    if (st->reason == LOOM_STOP_FAULT) {
        fputs(",\"text\":", m);
        loom_json_str(m, st->fault_report ? st->fault_report : desc);
    }
}

bool dap_stack_trace(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    int64_t tid, start = 0, levels = 0;
    if (!stopped(s, err, errlen)) return false;
    if (!dap_json_int(args, "threadId", &tid)) {
        snprintf(err, errlen, "stackTrace needs threadId");
        return false;
    }
    dap_json_int(args, "startFrame", &start);
    dap_json_int(args, "levels", &levels);
    struct saved_focus f;
    focus_save(s, &f);
    if (!dap_focus_thread(s, tid, -1, err, errlen)) return false;
    struct loom_debug_where w[DAP_MAX_FRAMES];
    unsigned n = loom_debug_backtrace(s->d, w, DAP_MAX_FRAMES), lane, blk[3], thr[3], wp;
    loom_debug_get_focus(s->d, blk, thr, &wp, &lane);
    focus_restore(s, &f);
    if (n > DAP_MAX_FRAMES) n = DAP_MAX_FRAMES;
    fputs("{\"stackFrames\":[", body);
    for (unsigned i = (unsigned)(start > 0 ? start : 0), k = 0; i < n && (levels <= 0 || k < levels); i++, k++) {
        char name[1024], dm[512], text[256];
        const char *fn = w[i].function ? loom_demangle(w[i].function, dm, sizeof dm) : "?";
        instruction_text(s, &w[i], text, sizeof text);
        if (w[i].cu_file && w[i].cu_line)
            snprintf(name, sizeof name, "%s  [PTX %u: %s]", fn, w[i].ptx_line, text);
        else
            snprintf(name, sizeof name, "%s  [%s]", fn, text);
        fprintf(body, "%s{\"id\":%" PRId64 ",\"name\":", k ? "," : "", dap_ref_add(s, DAP_REF_FRAME, tid, lane, i, NULL));
        loom_json_str(body, name);
        write_source(s, &w[i], body);
        fprintf(body, ",\"instructionPointerReference\":\"%" PRIu32 "\"}", w[i].pc);
    }
    fprintf(body, "],\"totalFrames\":%u}", n);
    return true;
}

bool dap_scopes(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    int64_t fid;
    if (!stopped(s, err, errlen)) return false;
    const struct dap_ref *r = dap_json_int(args, "frameId", &fid) ? dap_ref_get(s, fid) : NULL;
    if (!r || r->kind != DAP_REF_FRAME) {
        snprintf(err, errlen, "scopes needs the frameId of a frame of this stop");
        return false;
    }
    int64_t tid = r->thread;
    unsigned lane = r->lane;
    fprintf(body,
            "{\"scopes\":[{\"name\":\"Registers (lane %u)\",\"presentationHint\":\"registers\",\"variablesReference\":"
            "%" PRId64 ",\"expensive\":false},",
            lane, dap_ref_add(s, DAP_REF_REGS, tid, lane, 0, NULL));
    fprintf(body, "{\"name\":\"Lanes\",\"variablesReference\":%" PRId64 ",\"expensive\":false},",
            dap_ref_add(s, DAP_REF_LANES, tid, lane, 0, NULL));
    fprintf(body, "{\"name\":\"Warp\",\"variablesReference\":%" PRId64 ",\"expensive\":false},",
            dap_ref_add(s, DAP_REF_WARP, tid, lane, 0, NULL));
    fprintf(body, "{\"name\":\"Shared memory\",\"variablesReference\":%" PRId64 ",\"expensive\":true},",
            dap_ref_add(s, DAP_REF_SHARED, tid, lane, 0, NULL));
    fprintf(body, "{\"name\":\"Parameters\",\"presentationHint\":\"arguments\",\"variablesReference\":%" PRId64
            ",\"expensive\":false}]}",
            dap_ref_add(s, DAP_REF_PARAMS, tid, lane, 0, NULL));
    return true;
}

/* ---- Values ------------------------------------------------------------------------------------ */

static float half_to_float(uint16_t h)
{
    int e = h >> 10 & 0x1f;
    float m = (float)(h & 0x3ff);
    float v = e == 0 ? ldexpf(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf(m + 1024.0f, e - 25);
    return h & 0x8000 ? -v : v;
}

/* bits of a register of PTX type `type` as text: signed and unsigned in decimal, floats as
 * %g, b8-b32 as signed decimal and hex, b64 in hex, predicates as true/false. */
static void format_value(const char *type, enum loom_debug_reg_kind kind, uint64_t bits, char *buf, size_t n)
{
    unsigned width = kind == LOOM_REG_B64 ? 64 : 32;
    if (type && isdigit((unsigned char)type[1])) width = (unsigned)atoi(type + 1);
    if (type && strncmp(type, "bf16", 4) == 0) width = 16;
    if (width == 0 || width > 64) width = 64;
    uint64_t v = width == 64 ? bits : bits & ((1ull << width) - 1);
    if (kind == LOOM_REG_PRED || (type && strcmp(type, "pred") == 0)) {
        snprintf(buf, n, "%s", bits ? "true" : "false");
    } else if (type && type[0] == 's') {
        int64_t sv = width == 64 ? (int64_t)v : (int64_t)(v << (64 - width)) >> (64 - width);
        snprintf(buf, n, "%" PRId64, sv);
    } else if (type && type[0] == 'u') {
        snprintf(buf, n, "%" PRIu64, v);
    } else if (type && strcmp(type, "f32") == 0) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, 4);
        snprintf(buf, n, "%.9g", f);
    } else if (type && strcmp(type, "f64") == 0) {
        double f;
        memcpy(&f, &v, 8);
        snprintf(buf, n, "%.17g", f);
    } else if (type && strcmp(type, "f16") == 0) {
        snprintf(buf, n, "%.5g", half_to_float((uint16_t)v));
    } else if (type && strcmp(type, "bf16") == 0) {
        uint32_t u = (uint32_t)v << 16;
        float f;
        memcpy(&f, &u, 4);
        snprintf(buf, n, "%.4g", f);
    } else if (width <= 32) {
        /* bit types (nvcc declares most registers .b32): the signed value and the bits */
        int64_t sv = (int64_t)(v << (64 - width)) >> (64 - width);
        snprintf(buf, n, "%" PRId64 " (0x%" PRIx64 ")", sv, v);
    } else {
        snprintf(buf, n, "0x%0*" PRIx64, (int)(width / 4), v);
    }
}

/* One variable: {"name":..,"value":..} plus the members in more (or ""). */
static void write_var(FILE *m, bool first, const char *name, const char *value, const char *more)
{
    fputs(first ? "{\"name\":" : ",{\"name\":", m);
    loom_json_str(m, name);
    fputs(",\"value\":", m);
    loom_json_str(m, value);
    fprintf(m, "%s}", more);
}

static void write_reg(struct dap_server *s, FILE *m, bool first, int64_t tid, const char *name, unsigned lane)
{
    struct loom_debug_reg r;
    char err[256], value[64], more[192];
    if (!loom_debug_read_reg(s->d, name, &r, err, sizeof err)) {
        write_var(m, first, name, err, "");
        return;
    }
    format_value(r.type, r.kind, r.lane[lane & 31], value, sizeof value);
    snprintf(more, sizeof more, ",\"type\":\"%s\",\"evaluateName\":\"%s\",\"variablesReference\":%" PRId64,
             r.type ? r.type : "", name, dap_ref_add(s, DAP_REF_REG_LANES, tid, lane, 0, name));
    write_var(m, first, name, value, more);
}

static void vars_regs(struct dap_server *s, const struct dap_ref *r, FILE *m)
{
    const char **names = malloc(DAP_MAX_REGS * sizeof *names);
    unsigned n = names ? loom_debug_reg_names(s->d, names, DAP_MAX_REGS) : 0;
    if (n > DAP_MAX_REGS) n = DAP_MAX_REGS;
    for (unsigned i = 0; i < n; i++)
        write_reg(s, m, i == 0, r->thread, names[i], r->lane);
    for (unsigned i = 0; i < sizeof special_regs / sizeof special_regs[0]; i++)
        write_reg(s, m, n == 0 && i == 0, r->thread, special_regs[i], r->lane);
    free(names);
}

static void vars_reg_lanes(struct dap_server *s, const struct dap_ref *r, FILE *m)
{
    struct loom_debug_reg reg;
    struct loom_debug_warp_info w;
    char err[256], value[96], name[32];
    if (!loom_debug_read_reg(s->d, r->name, &reg, err, sizeof err)) {
        write_var(m, true, r->name, err, "");
        return;
    }
    uint32_t active = warp_of(s, r->thread, &w) ? w.active : reg.valid;
    bool first = true;
    for (unsigned l = 0; l < 32; l++) {
        if (!(reg.valid >> l & 1)) continue;
        format_value(reg.type, reg.kind, reg.lane[l], value, 64);
        if (!(active >> l & 1)) strcat(value, " (inactive)");
        snprintf(name, sizeof name, "lane %u", l);
        write_var(m, first, name, value, "");
        first = false;
    }
}

static void vars_lanes(struct dap_server *s, const struct dap_ref *r, FILE *m)
{
    struct loom_debug_warp_info w;
    struct loom_debug_launch_info li;
    unsigned block[3], warp;
    if (!warp_of(s, r->thread, &w) || !thread_place(s, r->thread, block, &warp, &li)) {
        write_var(m, true, "warp", "not running", "");
        return;
    }
    bool first = true;
    for (unsigned l = 0; l < 32; l++) {
        if (!(w.valid >> l & 1)) continue;
        unsigned t = warp * 32 + l;
        char name[32], value[96], more[64];
        snprintf(name, sizeof name, "lane %u", l);
        snprintf(value, sizeof value, "thread (%u,%u,%u) %s", t % li.block[0], t / li.block[0] % li.block[1],
                 t / li.block[0] / li.block[1],
                 w.exited >> l & 1 ? "exited" : w.active >> l & 1 ? "active" : "inactive");
        snprintf(more, sizeof more, ",\"variablesReference\":%" PRId64,
                 dap_ref_add(s, DAP_REF_REGS, r->thread, l, 0, NULL));
        write_var(m, first, name, value, more);
        first = false;
    }
}

static void vars_warp(struct dap_server *s, const struct dap_ref *r, FILE *m)
{
    struct loom_debug_warp_info w;
    struct loom_debug_launch_info li;
    char v[PATH_MAX + 512], dm[512];
    if (!warp_of(s, r->thread, &w) || !loom_debug_launch(s->d, &li)) {
        write_var(m, true, "warp", "not running", "");
        return;
    }
    snprintf(v, sizeof v, "(%u,%u,%u)", w.block[0], w.block[1], w.block[2]);
    write_var(m, true, "block", v, "");
    snprintf(v, sizeof v, "%u", w.warp);
    write_var(m, false, "warp", v, "");
    write_var(m, false, "state", w.state ? w.state : "", "");
    where_text(&w.where, v, sizeof v);
    size_t len = strlen(v);
    char text[256];
    snprintf(v + len, sizeof v - len, "  %s", instruction_text(s, &w.where, text, sizeof text));
    write_var(m, false, "at", v, "");
    snprintf(v, sizeof v, "0x%08" PRIx32, w.active);
    write_var(m, false, "active lanes", v, "");
    snprintf(v, sizeof v, "0x%08" PRIx32, w.exited);
    write_var(m, false, "exited lanes", v, "");
    snprintf(v, sizeof v, "%u", w.frames);
    write_var(m, false, "call depth", v, "");
    char buf[4096];
    buf[0] = 0;
    loom_debug_simt(s->d, buf, sizeof buf);
    write_var(m, false, "SIMT", buf, "");
    buf[0] = 0;
    loom_debug_barriers(s->d, buf, sizeof buf);
    write_var(m, false, "barriers", buf[0] ? buf : "none", "");
    snprintf(v, sizeof v, "%s, launch %u: grid (%u,%u,%u), block (%u,%u,%u), SIMT %s, %" PRIu64 " instructions",
             li.kernel ? loom_demangle(li.kernel, dm, sizeof dm) : "?", li.launch, li.grid[0], li.grid[1], li.grid[2],
             li.block[0], li.block[1], li.block[2], li.simt ? li.simt : "?", li.tick);
    write_var(m, false, "kernel", v, "");
}

/* Memory from base as rows of 16 bytes (u32 words, little-endian) until a read fails. */
static void vars_memory(struct dap_server *s, enum loom_debug_space space, uint64_t base, unsigned rows,
                        unsigned step, FILE *m)
{
    char err[256], name[32], value[96];
    bool first = true;
    for (unsigned i = 0; i < rows; i++) {
        uint8_t b[16];
        uint64_t at = base + (uint64_t)i * step;
        unsigned got = step;
        while (got > 0 && !loom_debug_read_mem(s->d, space, at, b, got, err, sizeof err))
            got -= 4;
        if (got == 0) break;
        size_t len = 0;
        for (unsigned k = 0; k + 4 <= got; k += 4) {
            uint32_t word = (uint32_t)b[k] | (uint32_t)b[k + 1] << 8 | (uint32_t)b[k + 2] << 16 | (uint32_t)b[k + 3] << 24;
            len += (size_t)snprintf(value + len, sizeof value - len, "%s%08" PRIx32, k ? " " : "", word);
        }
        snprintf(name, sizeof name, "0x%04" PRIx64, at);
        write_var(m, first, name, value, "");
        first = false;
        if (got < step) break;
    }
    if (first) write_var(m, true, "(none)", "", "");
}

/* The kernel's parameters by their PTX names and types; a pointer expands to the global
 * memory it points to. Without the kernel (none runs): the buffer, 8 bytes a row. */
static void vars_params(struct dap_server *s, const struct dap_ref *r, FILE *m)
{
    const struct loom_kernel *k = loom_debug_kernel(s->d);
    unsigned n = k ? loom_kernel_param_count(k) : 0;
    if (!k) {
        vars_memory(s, LOOM_SPACE_PARAM, 0, DAP_PARAM_SLOTS, 8, m);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        struct loom_param_info p;
        loom_kernel_param(k, i, &p);
        char type[32], value[192], more[128] = "", err[128];
        uint64_t bits = 0;
        if (p.kind == LOOM_PARAM_BYTES || p.size > 8) {
            snprintf(type, sizeof type, "b8[%u]", p.size);
            uint8_t b[32];
            unsigned show = p.size < sizeof b ? p.size : (unsigned)sizeof b;
            size_t len = 0;
            if (!loom_debug_read_mem(s->d, LOOM_SPACE_PARAM, p.offset, b, show, err, sizeof err))
                snprintf(value, sizeof value, "%s", err);
            else
                for (unsigned j = 0; j < show; j++)
                    len += (size_t)snprintf(value + len, sizeof value - len, "%s%02x", j ? " " : "", b[j]);
            if (show < p.size) snprintf(value + len, sizeof value - len, " ...");
        } else if (!loom_debug_read_mem(s->d, LOOM_SPACE_PARAM, p.offset, &bits, p.size, err, sizeof err)) {
            snprintf(type, sizeof type, "?");
            snprintf(value, sizeof value, "%s", err);
        } else if (p.is_pointer) {
            snprintf(type, sizeof type, "ptr");
            snprintf(value, sizeof value, "0x%016" PRIx64, bits);
            int64_t ref = dap_ref_add(s, DAP_REF_GLOBAL, r->thread, r->lane, 0, NULL);
            if (ref) s->refs[ref - 1].addr = bits;
            snprintf(more, sizeof more, ",\"variablesReference\":%" PRId64, ref);
        } else {
            snprintf(type, sizeof type, "%c%u", p.kind == LOOM_PARAM_FLOAT ? 'f' : p.is_signed ? 's' : 'u', 8 * p.size);
            format_value(type, p.size == 8 ? LOOM_REG_B64 : LOOM_REG_B32, bits, value, sizeof value);
        }
        size_t len = strlen(more);
        snprintf(more + len, sizeof more - len, ",\"type\":\"%s\"", type);
        write_var(m, i == 0, p.name ? p.name : "?", value, more);
    }
    if (n == 0) write_var(m, true, "(none)", "", "");
}

bool dap_variables(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    int64_t ref;
    if (!stopped(s, err, errlen)) return false;
    const struct dap_ref *r = dap_json_int(args, "variablesReference", &ref) ? dap_ref_get(s, ref) : NULL;
    if (!r || r->kind == DAP_REF_FRAME) {
        snprintf(err, errlen, "variables needs a variablesReference of this stop");
        return false;
    }
    struct dap_ref copy = *r;   /* (the table grows while the variables are written) */
    struct saved_focus f;
    focus_save(s, &f);
    if (!dap_focus_thread(s, copy.thread, (int)copy.lane, err, errlen)) return false;
    fputs("{\"variables\":[", body);
    switch (copy.kind) {
    case DAP_REF_REGS: vars_regs(s, &copy, body); break;
    case DAP_REF_REG_LANES: vars_reg_lanes(s, &copy, body); break;
    case DAP_REF_LANES: vars_lanes(s, &copy, body); break;
    case DAP_REF_WARP: vars_warp(s, &copy, body); break;
    case DAP_REF_SHARED: vars_memory(s, LOOM_SPACE_SHARED, 0, DAP_SHARED_ROWS, 16, body); break;
    case DAP_REF_PARAMS: vars_params(s, &copy, body); break;
    case DAP_REF_GLOBAL: vars_memory(s, LOOM_SPACE_GLOBAL, copy.addr, DAP_GLOBAL_ROWS, 16, body); break;
    case DAP_REF_FRAME: break;
    }
    fputs("]}", body);
    focus_restore(s, &f);
    return true;
}

/* ---- Evaluate ------------------------------------------------------------------------------------ */

static bool space_named(const char *w, enum loom_debug_space *out)
{
    static const char *const names[] = { "global", "shared", "local", "param", "const" };
    for (unsigned i = 0; i < 5; i++)
        if (strcmp(w, names[i]) == 0) {
            *out = (enum loom_debug_space)i;
            return true;
        }
    return false;
}

/* An address: a number, or an expression for the focused lane. */
static bool eval_addr(struct dap_server *s, const char *text, uint64_t *out, char *err, size_t errlen)
{
    int64_t v;
    bool is_float;
    double fv;
    char *end;
    unsigned long long u = strtoull(text, &end, 0);
    if (end != text && *end == 0) {
        *out = u;
        return true;
    }
    if (!loom_debug_eval(s->d, text, &v, &is_float, &fv, err, errlen)) return false;
    *out = (uint64_t)v;
    return true;
}

/* x/NFU [SPACE] ADDR: N units (b h w g: 1 2 4 8 bytes) in format F (x d u f). */
static bool eval_examine(struct dap_server *s, const char *e, FILE *body, char *err, size_t errlen)
{
    unsigned count = 1, unit = 4;
    char fmt = 'x';
    const char *p = e + 1;
    if (*p == '/') {
        p++;
        if (isdigit((unsigned char)*p)) count = (unsigned)strtoul(p, (char **)&p, 10);
        for (; *p && !isspace((unsigned char)*p); p++) {
            if (strchr("xduf", *p)) fmt = *p;
            else if (*p == 'b') unit = 1;
            else if (*p == 'h') unit = 2;
            else if (*p == 'w') unit = 4;
            else if (*p == 'g') unit = 8;
            else {
                snprintf(err, errlen, "x: unknown format letter '%c' (formats x d u f, units b h w g)", *p);
                return false;
            }
        }
    }
    while (isspace((unsigned char)*p)) p++;
    char word[16] = "";
    enum loom_debug_space space = LOOM_SPACE_GLOBAL;
    if (sscanf(p, "%15s", word) == 1 && space_named(word, &space))
        for (p += strlen(word); isspace((unsigned char)*p); p++) {}
    if (!*p || count == 0 || count > 1024) {
        snprintf(err, errlen, "usage: x/NFU [global|shared|local|param|const] ADDRESS (N at most 1024)");
        return false;
    }
    uint64_t addr;
    if (!eval_addr(s, p, &addr, err, errlen)) return false;
    if (fmt == 'f' && unit < 4) unit = 4;
    uint8_t *buf = malloc((size_t)count * unit);
    if (!buf || !loom_debug_read_mem(s->d, space, addr, buf, (size_t)count * unit, err, errlen)) {
        free(buf);
        return false;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *t = open_memstream(&text, &len);
    for (unsigned i = 0; t && i < count; i++) {
        uint64_t v = 0;
        memcpy(&v, buf + (size_t)i * unit, unit);
        if (i % 8 == 0) fprintf(t, "%s0x%" PRIx64 ":", i ? "\n" : "", addr + (uint64_t)i * unit);
        char val[64];
        if (fmt == 'x') snprintf(val, sizeof val, "0x%0*" PRIx64, (int)unit * 2, v);
        else if (fmt == 'u') snprintf(val, sizeof val, "%" PRIu64, v);
        else if (fmt == 'd') snprintf(val, sizeof val, "%" PRId64, unit == 8 ? (int64_t)v
                                                           : (int64_t)(v << (64 - 8 * unit)) >> (64 - 8 * unit));
        else format_value(unit == 8 ? "f64" : "f32", unit == 8 ? LOOM_REG_B64 : LOOM_REG_B32, v, val, sizeof val);
        fprintf(t, " %s", val);
    }
    if (t) fclose(t);
    fputs("{\"result\":", body);
    loom_json_str(body, text ? text : "");
    fputs(",\"variablesReference\":0}", body);
    free(text);
    free(buf);
    return true;
}

/* %reg or %reg@lanes: the focused lane's value (expandable to every lane), or all lanes. */
static bool eval_register(struct dap_server *s, int64_t tid, unsigned lane, const char *e, FILE *body, char *err,
                          size_t errlen)
{
    char name[64];
    const char *at = strchr(e, '@');
    snprintf(name, sizeof name, "%.*s", at ? (int)(at - e) : (int)strlen(e), e);
    struct loom_debug_reg r;
    if (!loom_debug_read_reg(s->d, name, &r, err, errlen)) return false;
    char value[4096], one[64];
    if (at && strcmp(at, "@lanes") != 0) {
        snprintf(err, errlen, "'%s': only @lanes may follow a register", at);
        return false;
    }
    if (at) {
        size_t len = (size_t)snprintf(value, sizeof value, "[");
        for (unsigned l = 0; l < 32; l++) {
            if (!(r.valid >> l & 1)) continue;
            format_value(r.type, r.kind, r.lane[l], one, sizeof one);
            len += (size_t)snprintf(value + len, sizeof value - len, "%s%s", len > 1 ? ", " : "", one);
        }
        snprintf(value + len, sizeof value - len, "]");
    } else {
        format_value(r.type, r.kind, r.lane[lane & 31], value, sizeof value);
    }
    fputs("{\"result\":", body);
    loom_json_str(body, value);
    fprintf(body, ",\"type\":\"%s\",\"variablesReference\":%" PRId64 "}", r.type ? r.type : "",
            dap_ref_add(s, DAP_REF_REG_LANES, tid, lane, 0, name));
    return true;
}

/* cuda block (x,y,z) thread (x,y,z) | cuda thread (x,y,z) | cuda warp W lane L | cuda lane L:
 * moves the focus, as cuda-gdb's commands do (steps follow it). */
static bool eval_focus(struct dap_server *s, const char *e, FILE *body, char *err, size_t errlen)
{
    unsigned b[3], t[3], w, l, fw, fl;
    loom_debug_get_focus(s->d, b, t, &fw, &fl);
    bool ok;
    if (sscanf(e, "cuda block (%u,%u,%u) thread (%u,%u,%u)", &b[0], &b[1], &b[2], &t[0], &t[1], &t[2]) == 6 ||
        sscanf(e, "cuda thread (%u,%u,%u)", &t[0], &t[1], &t[2]) == 3)
        ok = loom_debug_focus(s->d, b, t, err, errlen);
    else if (sscanf(e, "cuda warp %u lane %u", &w, &l) == 2)
        ok = loom_debug_focus_warp(s->d, w, l, err, errlen);
    else if (sscanf(e, "cuda lane %u", &l) == 1)
        ok = loom_debug_focus_warp(s->d, fw, l, err, errlen);
    else {
        snprintf(err, errlen, "usage: cuda block (X,Y,Z) thread (X,Y,Z) | cuda thread (X,Y,Z) | cuda warp W lane L"
                              " | cuda lane L");
        return false;
    }
    if (!ok) return false;
    loom_debug_get_focus(s->d, b, t, &w, &l);
    fprintf(body, "{\"result\":\"focus: block (%u,%u,%u) thread (%u,%u,%u), warp %u lane %u\","
                  "\"variablesReference\":0}", b[0], b[1], b[2], t[0], t[1], t[2], w, l);
    return true;
}

bool dap_evaluate(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    const char *expr = dap_json_str(args, "expression");
    if (!expr) {
        snprintf(err, errlen, "evaluate needs 'expression'");
        return false;
    }
    if (!stopped(s, err, errlen)) return false;
    while (isspace((unsigned char)*expr)) expr++;
    char e[1024];
    snprintf(e, sizeof e, "%s", expr);
    for (size_t n = strlen(e); n > 0 && isspace((unsigned char)e[n - 1]);) e[--n] = 0;
    if (strncmp(e, "cuda ", 5) == 0)
        return eval_focus(s, e, body, err, errlen);
    int64_t fid;
    const struct dap_ref *r = dap_json_int(args, "frameId", &fid) ? dap_ref_get(s, fid) : NULL;
    struct saved_focus f;
    focus_save(s, &f);
    int64_t tid = r ? r->thread : dap_thread_id(s, f.block, f.warp);
    unsigned lane = r ? r->lane : f.lane;
    if (r && !dap_focus_thread(s, r->thread, (int)r->lane, err, errlen)) return false;
    bool ok;
    if (e[0] == 'x' && (e[1] == '/' || e[1] == ' ')) {
        ok = eval_examine(s, e, body, err, errlen);
    } else if (e[0] == '%') {
        ok = eval_register(s, tid, lane, e, body, err, errlen);
    } else {
        int64_t v;
        bool is_float = false;
        double fv;
        ok = loom_debug_eval(s->d, e, &v, &is_float, &fv, err, errlen);
        if (ok && is_float) fprintf(body, "{\"result\":\"%.9g\",\"variablesReference\":0}", fv);
        else if (ok) fprintf(body, "{\"result\":\"%" PRId64 "\",\"variablesReference\":0}", v);
    }
    focus_restore(s, &f);
    return ok;
}

bool dap_exception_info(struct dap_server *s, const struct dap_json *args, FILE *body, char *err, size_t errlen)
{
    (void)args;
    if (!stopped(s, err, errlen)) return false;
    const struct loom_debug_stop *st = s->stop;
    if (st->reason != LOOM_STOP_FAULT) {
        snprintf(err, errlen, "the kernel stopped for a %s, not a fault", loom_debug_reason_name(st->reason));
        return false;
    }
    const char *r = st->fault_report ? st->fault_report : loom_status_string(st->fault);
    const char *nl = strchr(r, '\n');
    char first[1024];
    snprintf(first, sizeof first, "%.*s", nl ? (int)(nl - r) : (int)strlen(r), r);
    fputs("{\"exceptionId\":", body);
    loom_json_str(body, loom_status_name(st->fault));
    fputs(",\"description\":", body);
    loom_json_str(body, first);
    fputs(",\"breakMode\":\"always\",\"details\":{\"message\":", body);
    loom_json_str(body, first);
    fputs(",\"stackTrace\":", body);
    loom_json_str(body, r);
    fputs("}}", body);
    return true;
}

/* What can be watched: a row of the Shared memory scope, or an expression "global ADDR" /
 * "shared ADDR" (optionally ":SIZE", default 4 bytes). */
bool dap_data_breakpoint_info(struct dap_server *s, const struct dap_json *args, FILE *body, char *err,
                              size_t errlen)
{
    const char *name = dap_json_str(args, "name");
    int64_t ref = 0;
    dap_json_int(args, "variablesReference", &ref);
    const struct dap_ref *r = ref ? dap_ref_get(s, ref) : NULL;
    if (!name) {
        snprintf(err, errlen, "dataBreakpointInfo needs 'name'");
        return false;
    }
    char id[96] = "", desc[160] = "";
    unsigned long long addr;
    unsigned size = 4;
    char space[16];
    if (r && (r->kind == DAP_REF_SHARED || r->kind == DAP_REF_GLOBAL) && sscanf(name, "%llx", &addr) == 1) {
        const char *sp = r->kind == DAP_REF_SHARED ? "shared" : "global";
        snprintf(id, sizeof id, "%s:%llx:16", sp, addr);
        snprintf(desc, sizeof desc, "%s memory 0x%llx (16 bytes)", sp, addr);
    } else if (!r && sscanf(name, "%15s", space) == 1 && (strcmp(space, "global") == 0 || strcmp(space, "shared") == 0)) {
        char text[128];
        const char *p = name + strlen(space);
        snprintf(text, sizeof text, "%s", p);
        char *colon = strrchr(text, ':');
        if (colon) {
            size = (unsigned)strtoul(colon + 1, NULL, 0);
            *colon = 0;
        }
        uint64_t a = strtoull(text, NULL, 0);   /* (an expression needs a stop to be read) */
        if (s->state == DAP_STOPPED && !eval_addr(s, text, &a, err, errlen))
            return false;
        snprintf(id, sizeof id, "%s:%" PRIx64 ":%u", space, a, size ? size : 4);
        snprintf(desc, sizeof desc, "%s memory 0x%" PRIx64 " (%u bytes)", space, a, size ? size : 4);
    }
    if (!id[0]) {
        fputs("{\"dataId\":null,\"description\":\"only rows of Shared memory and the expressions 'global ADDRESS' "
              "and 'shared OFFSET' (with :SIZE) can be watched\"}", body);
        return true;
    }
    fputs("{\"dataId\":", body);
    loom_json_str(body, id);
    fputs(",\"description\":", body);
    loom_json_str(body, desc);
    fputs(",\"accessTypes\":[\"write\"],\"canPersist\":false}", body);
    return true;
}
