/* prompt_run.c -- the prompt's commands that place stops (break, tbreak, condition, delete,
 * enable, disable, watch), move the kernel (run, continue, step ... reverse-continue, detach,
 * kill) and move the focus (cuda block/thread/warp/lane). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "debug/prompt.h"

#define MAX_BPS 512

/* ---- Breakpoints -------------------------------------------------------------------------- */

/* How a breakpoint was asked for: "basic.cu:9", "line 40", "scale", "$L__BB0_2". */
static void bp_spec(const struct loom_debug_bp *bp, char *buf, size_t size)
{
    switch (bp->kind) {
    case LOOM_BP_LINE:
        if (bp->file) {
            snprintf(buf, size, "%s:%u", prompt_base(bp->file), bp->line);
            break;
        }
        /* fall through */
    case LOOM_BP_PTX_LINE:
        snprintf(buf, size, "PTX line %u", bp->line);
        break;
    case LOOM_BP_KERNEL:
    case LOOM_BP_LABEL:
        snprintf(buf, size, "%s", bp->name ? bp->name : "?");
        break;
    }
}

/* A placed breakpoint's first place: "basic.cu:9 (basic.ptx:40)" or "basic.ptx:40". */
static void bp_place(const struct loom_debug_where *w, char *buf, size_t size)
{
    if (w->cu_file && w->cu_line)
        snprintf(buf, size, "%s:%u (%s:%u)", prompt_base(w->cu_file), w->cu_line, prompt_base(w->ptx_file),
                 w->ptx_line);
    else
        snprintf(buf, size, "%s:%u", prompt_base(w->ptx_file), w->ptx_line);
}

bool prompt_bp_info(struct prompt *p, int n, struct loom_debug_bp_info *out)
{
    static struct loom_debug_bp_info all[MAX_BPS];   /* (one prompt serves at a time) */
    unsigned count = loom_debug_breakpoints(p->d, all, MAX_BPS);
    for (unsigned i = 0; i < count && i < MAX_BPS; i++)
        if (all[i].number == n) {
            *out = all[i];
            return true;
        }
    return false;
}

/* Splits "LOCATION if CONDITION". */
static void split_condition(const char *args, char *loc, size_t size, const char **cond)
{
    const char *s = args;
    *cond = NULL;
    for (; *s; s++)
        if ((s == args || s[-1] == ' ' || s[-1] == '\t') && strncmp(s, "if", 2) == 0 &&
            (s[2] == ' ' || s[2] == '\t' || s[2] == '(' || s[2] == '\0')) {
            *cond = s + 2 + strspn(s + 2, " \t");
            break;
        }
    size_t n = (size_t)(s - args);
    while (n && (args[n - 1] == ' ' || args[n - 1] == '\t'))
        n--;
    snprintf(loc, size, "%.*s", (int)n, args);
}

/* The file a bare LINE means: the CUDA file the focus stands in, else the PTX (NULL). */
static const char *current_file(struct prompt *p)
{
    if (p->phase != PROMPT_STOPPED)
        return NULL;
    struct loom_debug_where w;
    if (loom_debug_backtrace(p->d, &w, 1) == 0)
        w = p->stop->where;
    return w.cu_file && w.cu_line ? w.cu_file : NULL;
}

/* Sets a breakpoint from LOCATION [if CONDITION]; returns its number or 0 (reported). quiet:
 * no line when it is set (until LOCATION). */
static int set_breakpoint(struct prompt *p, const char *args, bool temporary, bool quiet)
{
    char loc[512], err[512] = "";
    const char *cond;
    split_condition(args, loc, sizeof loc, &cond);
    if (!loc[0]) {
        prompt_error(p, "break needs a location: FILE:LINE, LINE, a kernel or function, or a label");
        return 0;
    }
    if (cond && !*cond) {
        prompt_error(p, "'if' needs a condition (help break)");
        return 0;
    }
    struct loom_debug_bp bp = { .temporary = temporary, .condition = cond };
    char *colon = strrchr(loc, ':');
    uint64_t line;
    if (colon && prompt_number(colon + 1, &line)) {
        *colon = '\0';
        bp.kind = LOOM_BP_LINE;
        bp.file = loc;
        bp.line = (unsigned)line;
    } else if (prompt_number(loc, &line)) {
        bp.file = current_file(p);
        bp.kind = bp.file ? LOOM_BP_LINE : LOOM_BP_PTX_LINE;
        bp.line = (unsigned)line;
    } else {
        bp.kind = loc[0] == '$' || colon ? LOOM_BP_LABEL : LOOM_BP_KERNEL;
        bp.name = loc;
    }
    if ((bp.kind == LOOM_BP_LINE || bp.kind == LOOM_BP_PTX_LINE) && (line == 0 || line > 100000000)) {
        prompt_error(p, "line %llu does not exist", (unsigned long long)line);
        return 0;
    }
    bool pending = false;
    int n = loom_debug_break(p->d, &bp, &pending, err, sizeof err);
    if (!n && bp.kind == LOOM_BP_KERNEL) {
        /* not a kernel or function: a label of that name? */
        char err2[512];
        bp.kind = LOOM_BP_LABEL;
        n = loom_debug_break(p->d, &bp, &pending, err2, sizeof err2);
    }
    if (!n) {
        prompt_error(p, "%s", err[0] ? err : "cannot set the breakpoint");
        return 0;
    }
    if (quiet)
        return n;
    const char *what = temporary ? "Temporary breakpoint" : "Breakpoint";
    struct loom_debug_bp_info info;
    char spec[512], place[1024];
    bp_spec(&bp, spec, sizeof spec);
    if (pending || !prompt_bp_info(p, n, &info) || info.pending) {
        prompt_printf(p, "%s %d (%s) pending: %s.\n", what, n, spec,
                      p->phase == PROMPT_BEFORE ? "placed when the kernel's module is loaded"
                                                : "no module loaded now has it; placed if one that does is loaded");
        return n;
    }
    bp_place(&info.where, place, sizeof place);
    if (info.places > 1)
        prompt_printf(p, "%s %d at %s, %u places.\n", what, n, place, info.places);
    else
        prompt_printf(p, "%s %d at %s.\n", what, n, place);
    return n;
}

enum prompt_result prompt_cmd_break(struct prompt *p, const char *args, const char *fmt)
{
    set_breakpoint(p, args, false, false);
    return PROMPT_STAY;
}

enum prompt_result prompt_cmd_tbreak(struct prompt *p, const char *args, const char *fmt)
{
    set_breakpoint(p, args, true, false);
    return PROMPT_STAY;
}

/* Parses a breakpoint number at *s, moving past it; false (reported) when there is none. */
static bool parse_bp_number(struct prompt *p, const char **s, const char *cmd, int *out)
{
    char *end;
    long n = strtol(*s, &end, 10);
    if (end == *s || n <= 0 || n > 1000000 || (*end && *end != ' ' && *end != '\t')) {
        prompt_error(p, "%s: '%.*s' is not a breakpoint number", cmd, (int)strcspn(*s, " \t"), *s);
        return false;
    }
    *out = (int)n;
    *s = end + strspn(end, " \t");
    return true;
}

enum prompt_result prompt_cmd_condition(struct prompt *p, const char *args, const char *fmt)
{
    int n;
    char err[512] = "";
    if (!*args) {
        prompt_error(p, "usage: condition N [CONDITION]");
        return PROMPT_STAY;
    }
    if (!parse_bp_number(p, &args, "condition", &n))
        return PROMPT_STAY;
    struct loom_debug_bp_info info = { .is_watch = false };
    if (!prompt_bp_info(p, n, &info) || info.is_watch) {
        prompt_error(p, info.is_watch ? "Watchpoint %d takes no condition." : "No breakpoint number %d.", n);
        return PROMPT_STAY;
    }
    if (!loom_debug_condition(p->d, n, *args ? args : NULL, err, sizeof err)) {
        prompt_error(p, "%s", err[0] ? err : "bad condition");
        return PROMPT_STAY;
    }
    if (!*args)
        prompt_printf(p, "Breakpoint %d now unconditional.\n", n);
    return PROMPT_STAY;
}

/* Applies op to breakpoints N... of args, or to all of them without args. */
enum bp_op { BP_DELETE, BP_ENABLE, BP_DISABLE };

static void apply(struct prompt *p, int n, enum bp_op op)
{
    if (!(op == BP_DELETE ? loom_debug_delete(p->d, n) : loom_debug_enable(p->d, n, op == BP_ENABLE)))
        prompt_error(p, "No breakpoint number %d.", n);
}

static enum prompt_result bp_command(struct prompt *p, const char *args, enum bp_op op, const char *cmd)
{
    if (*args) {
        while (*args) {
            int n;
            if (!parse_bp_number(p, &args, cmd, &n))
                break;
            apply(p, n, op);
        }
        return PROMPT_STAY;
    }
    if (op == BP_DELETE) {
        loom_debug_delete_all(p->d);
        return PROMPT_STAY;
    }
    static struct loom_debug_bp_info all[MAX_BPS];
    unsigned count = loom_debug_breakpoints(p->d, all, MAX_BPS);
    for (unsigned i = 0; i < count && i < MAX_BPS; i++)
        loom_debug_enable(p->d, all[i].number, op == BP_ENABLE);
    return PROMPT_STAY;
}

enum prompt_result prompt_cmd_delete(struct prompt *p, const char *args, const char *fmt)
{
    return bp_command(p, args, BP_DELETE, "delete");
}

enum prompt_result prompt_cmd_disable(struct prompt *p, const char *args, const char *fmt)
{
    return bp_command(p, args, BP_DISABLE, "disable");
}

enum prompt_result prompt_cmd_enable(struct prompt *p, const char *args, const char *fmt)
{
    return bp_command(p, args, BP_ENABLE, "enable");
}

/* The words of s at parenthesis depth 0: their starts and lengths; returns how many. */
static unsigned words(const char *s, const char **start, size_t *len, unsigned max)
{
    unsigned n = 0;
    while (*s) {
        s += strspn(s, " \t");
        if (!*s)
            break;
        const char *b = s;
        int depth = 0;
        for (; *s && (depth > 0 || (*s != ' ' && *s != '\t')); s++)
            depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
        if (n < max) {
            start[n] = b;
            len[n] = (size_t)(s - b);
        }
        n++;
    }
    return n;
}

enum prompt_result prompt_cmd_watch(struct prompt *p, const char *args, const char *fmt)
{
    const char *w[8];
    size_t wl[8];
    unsigned n = words(args, w, wl, 8), first = 0;
    enum loom_debug_space space = LOOM_SPACE_GLOBAL;
    char word[64];
    if (n && wl[0] < sizeof word) {
        snprintf(word, sizeof word, "%.*s", (int)wl[0], w[0]);
        if (prompt_space(word, &space))
            first = 1;
    }
    if (n > 8 || first >= n) {
        prompt_error(p, "usage: watch [global|shared] ADDR [SIZE]");
        return PROMPT_STAY;
    }
    if (space != LOOM_SPACE_GLOBAL && space != LOOM_SPACE_SHARED) {
        prompt_error(p, "watch: only global and shared memory can be watched, not %s", prompt_space_name(space));
        return PROMPT_STAY;
    }
    uint64_t size = 4;
    unsigned last = n;
    char tail[32];
    if (n - first == 2 && wl[n - 1] < sizeof tail) {
        snprintf(tail, sizeof tail, "%.*s", (int)wl[n - 1], w[n - 1]);
        if (prompt_number(tail, &size))
            last = n - 1;
    }
    if (size != 1 && size != 2 && size != 4 && size != 8) {
        prompt_error(p, "watch: SIZE must be 1, 2, 4 or 8 bytes, not %llu", (unsigned long long)size);
        return PROMPT_STAY;
    }
    char expr[512];
    snprintf(expr, sizeof expr, "%.*s", (int)(w[last - 1] + wl[last - 1] - w[first]), w[first]);
    uint64_t addr;
    if (!prompt_address(p, expr, &addr))
        return PROMPT_STAY;
    char err[512] = "";
    int num = loom_debug_watch(p->d, space, addr, (unsigned)size, err, sizeof err);
    if (!num) {
        prompt_error(p, "%s", err[0] ? err : "cannot set the watchpoint");
        return PROMPT_STAY;
    }
    prompt_printf(p, "Watchpoint %d: %s 0x%llx (%u byte%s)\n", num, prompt_space_name(space), (unsigned long long)addr,
                  (unsigned)size, size == 1 ? "" : "s");
    return PROMPT_STAY;
}

void prompt_info_breakpoints(struct prompt *p)
{
    static struct loom_debug_bp_info all[MAX_BPS];
    unsigned count = loom_debug_breakpoints(p->d, all, MAX_BPS);
    if (count > MAX_BPS)
        count = MAX_BPS;
    if (!count) {
        prompt_printf(p, "No breakpoints or watchpoints.\n");
        return;
    }
    prompt_printf(p, "Num     Type           Disp Enb What\n");
    for (unsigned i = 0; i < count; i++) {
        const struct loom_debug_bp_info *b = &all[i];
        char place[1600] = "";
        if (b->is_watch) {
            snprintf(place, sizeof place, "%s 0x%llx (%u byte%s)", prompt_space_name(b->watch_space),
                     (unsigned long long)b->watch_addr, b->watch_size, b->watch_size == 1 ? "" : "s");
        } else if (b->pending) {
            char spec[512];
            bp_spec(&b->bp, spec, sizeof spec);
            snprintf(place, sizeof place, "<PENDING> %s", spec);
        } else {
            char spec[512], at[900];
            bp_spec(&b->bp, spec, sizeof spec);
            bp_place(&b->where, at, sizeof at);
            if (b->bp.kind == LOOM_BP_KERNEL || b->bp.kind == LOOM_BP_LABEL)
                snprintf(place, sizeof place, "%s at %s", spec, at);
            else
                snprintf(place, sizeof place, "%s", at);
            if (b->places > 1) {
                size_t used = strlen(place);
                snprintf(place + used, sizeof place - used, ", %u places", b->places);
            }
        }
        const char *type = b->is_watch ? "watchpoint" : "breakpoint";
        prompt_printf(p, "%-7d %-14s %-4s %-3s %s\n", b->number, type, b->bp.temporary ? "del" : "keep",
                      b->enabled ? "y" : "n", place);
        if (!b->is_watch && b->bp.condition && b->bp.condition[0])
            prompt_printf(p, "\tstop only if %s\n", b->bp.condition);
        if (b->hits)
            prompt_printf(p, "\t%s already hit %u time%s\n", type, b->hits, b->hits == 1 ? "" : "s");
    }
}

/* At a launch's first stop: breakpoints set before its module was loaded that found no code. */
void prompt_check_pending(struct prompt *p)
{
    static struct loom_debug_bp_info all[MAX_BPS];
    unsigned count = loom_debug_breakpoints(p->d, all, MAX_BPS);
    for (unsigned i = 0; i < count && i < MAX_BPS; i++) {
        char spec[512];
        bp_spec(&all[i].bp, spec, sizeof spec);
        bool warned = false;
        for (unsigned k = 0; k < p->nwarned; k++)
            warned |= p->warned[k] == all[i].number;
        if (!all[i].pending || warned)
            continue;
        const struct loom_debug_bp *bp = &all[i].bp;
        unsigned with = bp->kind == LOOM_BP_LINE && bp->file ? loom_debug_line_with_code(p->d, bp->file, bp->line) : 0;
        if (with && with != bp->line)
            prompt_printf(p, "warning: breakpoint %d (%s): no code on that line (the next line with code is %u); it "
                          "stays pending\n", all[i].number, spec, with);
        else
            prompt_printf(p, "warning: breakpoint %d (%s) matches no code of launch %u's module; it stays pending\n",
                          all[i].number, spec, p->stop->launch);
        if (p->nwarned < sizeof p->warned / sizeof p->warned[0])
            p->warned[p->nwarned++] = all[i].number;
    }
}

/* ---- Moving the kernel -------------------------------------------------------------------- */

/* A step-like command: N times (the steps in between are not shown). */
static enum prompt_result resume(struct prompt *p, const char *args, enum loom_debug_action a, bool insn,
                                 const char *cmd)
{
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    uint64_t n = 1;
    if (*args && (!prompt_number(args, &n) || n == 0 || n > 1000000000)) {
        prompt_error(p, "%s: '%s' is not a count (%s [N])", cmd, args, cmd);
        return PROMPT_STAY;
    }
    p->repeat = (unsigned)(n - 1);
    p->action = a;
    p->insn_level = insn;
    return PROMPT_RESUME;
}

static bool no_args(struct prompt *p, const char *args, const char *cmd)
{
    if (*args)
        prompt_error(p, "%s takes no argument", cmd);
    return !*args;
}

enum prompt_result prompt_cmd_run(struct prompt *p, const char *args, const char *fmt)
{
    if (!no_args(p, args, "run"))
        return PROMPT_STAY;
    if (p->phase == PROMPT_BEFORE)
        return PROMPT_RESUME;
    if (p->phase == PROMPT_ENDED)
        prompt_error(p, "run: running the program again is not supported yet (start the debugger again)");
    else
        prompt_error(p, "The program is already running (reverse-continue goes back towards the launch's start).");
    return PROMPT_STAY;
}

enum prompt_result prompt_cmd_start(struct prompt *p, const char *args, const char *fmt)
{
    enum prompt_result r = prompt_cmd_run(p, args, fmt);
    if (r == PROMPT_RESUME)
        p->start = true;
    return r;
}

enum prompt_result prompt_cmd_continue(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p) || !no_args(p, args, "continue"))
        return PROMPT_STAY;
    return resume(p, "", LOOM_DEBUG_CONTINUE, false, "continue");
}

enum prompt_result prompt_cmd_step(struct prompt *p, const char *args, const char *fmt)
{
    return resume(p, args, LOOM_DEBUG_STEP, false, "step");
}

enum prompt_result prompt_cmd_stepi(struct prompt *p, const char *args, const char *fmt)
{
    return resume(p, args, LOOM_DEBUG_STEPI, true, "stepi");
}

enum prompt_result prompt_cmd_next(struct prompt *p, const char *args, const char *fmt)
{
    return resume(p, args, LOOM_DEBUG_NEXT, false, "next");
}

enum prompt_result prompt_cmd_finish(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p) || !no_args(p, args, "finish"))
        return PROMPT_STAY;
    struct loom_debug_where w[2];
    if (loom_debug_backtrace(p->d, w, 2) < 2) {
        prompt_error(p, "\"finish\" not meaningful in the outermost frame.");
        return PROMPT_STAY;
    }
    char fn[512];
    prompt_printf(p, "Run till exit from #0  %s\n", prompt_func(w[0].function, fn, sizeof fn));
    return resume(p, "", LOOM_DEBUG_FINISH, false, "finish");
}

enum prompt_result prompt_cmd_until(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    if (!*args)
        return resume(p, "", LOOM_DEBUG_UNTIL, false, "until");
    if (strcmp(args, "barrier") == 0)
        return resume(p, "", LOOM_DEBUG_TO_BARRIER, false, "until");
    if (!set_breakpoint(p, args, true, true))
        return PROMPT_STAY;
    return resume(p, "", LOOM_DEBUG_CONTINUE, false, "until");
}

enum prompt_result prompt_cmd_reverse_stepi(struct prompt *p, const char *args, const char *fmt)
{
    return resume(p, args, LOOM_DEBUG_REVERSE_STEPI, true, "reverse-stepi");
}

enum prompt_result prompt_cmd_reverse_step(struct prompt *p, const char *args, const char *fmt)
{
    return resume(p, args, LOOM_DEBUG_REVERSE_STEP, false, "reverse-step");
}

enum prompt_result prompt_cmd_reverse_continue(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p) || !no_args(p, args, "reverse-continue"))
        return PROMPT_STAY;
    return resume(p, "", LOOM_DEBUG_REVERSE_CONTINUE, false, "reverse-continue");
}

enum prompt_result prompt_cmd_detach(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p) || !no_args(p, args, "detach"))
        return PROMPT_STAY;
    prompt_printf(p, "[Detached: the program runs to its end without stops]\n");
    p->detached = true;
    p->action = LOOM_DEBUG_DETACH;
    return PROMPT_RESUME;
}

enum prompt_result prompt_cmd_kill(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p) || !no_args(p, args, "kill"))
        return PROMPT_STAY;
    char fn[512];
    prompt_printf(p, "[Launch %u of %s killed]\n", p->stop->launch, prompt_func(p->stop->kernel, fn, sizeof fn));
    p->killed = true;
    p->action = LOOM_DEBUG_KILL;
    return PROMPT_RESUME;
}

/* ---- Focus ------------------------------------------------------------------------------------ */

/* Parses a coordinate "(1,0,0)", "(1, 0)", "1,0,0" or "1" at *s (missing parts are 0). */
static bool parse_coord(const char **s, unsigned out[3])
{
    const char *c = *s + strspn(*s, " \t");
    bool paren = *c == '(';
    if (paren)
        c++;
    out[0] = out[1] = out[2] = 0;
    for (unsigned i = 0; i < 3; i++) {
        c += strspn(c, " \t");
        if (!isdigit((unsigned char)*c))
            return false;
        char *end;
        unsigned long v = strtoul(c, &end, 10);
        if (v > 0x7fffffffUL)
            return false;
        out[i] = (unsigned)v;
        const char *after = end + strspn(end, " \t");
        if (*after != ',' && !(paren && *after == ')')) {
            c = end;
            break;
        }
        c = after;
        if (*c != ',')
            break;
        c++;
    }
    if (paren) {
        if (*c != ')')
            return false;
        c++;
    }
    if (*c && *c != ' ' && *c != '\t')
        return false;
    *s = c;
    return true;
}

/* Shows where the focused warp stands (after a switch). */
static void show_focus_where(struct prompt *p)
{
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    prompt_printf(p, "[Switching focus to block (%u,%u,%u) thread (%u,%u,%u) warp %u lane %u]\n", block[0], block[1],
                  block[2], thread[0], thread[1], thread[2], warp, lane);
    p->focus_shown = true;
    memcpy(p->shown_block, block, sizeof block);
    memcpy(p->shown_thread, thread, sizeof thread);
    struct loom_debug_where w;
    if (loom_debug_backtrace(p->d, &w, 1))
        prompt_show_where(p, &w, p->insn_level);
    else
        prompt_printf(p, "(block (%u,%u,%u) is not running now: a step runs until it issues)\n", block[0], block[1],
                      block[2]);
}

/* What a cuda command asks: new parts of the focus, or parts to show. */
struct focus_request {
    unsigned block[3], thread[3], warp, lane;    /* the focus now, with the new parts in */
    bool set_block, set_thread, set_warp, set_lane;
    char show[256];                              /* the parts named without a value */
};

/* Parses the words of a cuda command into r; false (reported) on a bad one. */
static bool parse_focus(struct prompt *p, const char *s, struct focus_request *r)
{
    while (*(s += strspn(s, " \t"))) {
        size_t n = strcspn(s, " \t(");
        char word[16];
        snprintf(word, sizeof word, "%.*s", (int)(n < 15 ? n : 15), s);
        s += n;
        const char *after = s + strspn(s, " \t");
        bool has_value = *after == '(' || isdigit((unsigned char)*after);
        size_t used = strlen(r->show);
        char *show = r->show + used;
        size_t room = sizeof r->show - used;
        const char *sep = used ? ", " : "";
        if (strcmp(word, "block") == 0 || strcmp(word, "thread") == 0) {
            bool is_block = word[0] == 'b';
            unsigned *v = is_block ? r->block : r->thread;
            if (!has_value) {
                snprintf(show, room, "%s%s (%u,%u,%u)", sep, word, v[0], v[1], v[2]);
                continue;
            }
            s = after;
            if (!parse_coord(&s, v)) {
                prompt_error(p, "cuda %s: a coordinate is (X,Y,Z), (X,Y) or X", word);
                return false;
            }
            *(is_block ? &r->set_block : &r->set_thread) = true;
        } else if (strcmp(word, "warp") == 0 || strcmp(word, "lane") == 0) {
            bool is_warp = word[0] == 'w';
            unsigned *v = is_warp ? &r->warp : &r->lane;
            if (!has_value) {
                snprintf(show, room, "%s%s %u", sep, word, *v);
                continue;
            }
            char *end;
            *v = (unsigned)strtoul(after, &end, 10);
            s = end;
            *(is_warp ? &r->set_warp : &r->set_lane) = true;
        } else if (strcmp(word, "kernel") == 0) {
            snprintf(show, room, "%skernel %u", sep, p->stop->launch);
        } else {
            prompt_error(p, "cuda: '%s' is not a focus (block, thread, warp, lane, kernel)", word);
            return false;
        }
    }
    bool change = r->set_block || r->set_thread || r->set_warp || r->set_lane;
    if (r->show[0] && change)
        prompt_error(p, "cuda: give every part of a new focus a value, or none to show it");
    else if ((r->set_warp || r->set_lane) && r->set_thread)
        prompt_error(p, "cuda: a thread, or a warp and lane, not both");
    else
        return true;
    return false;
}

enum prompt_result prompt_cmd_cuda(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    if (!*args) {
        prompt_error(p, "usage: cuda [block (X,Y,Z)] [thread (X,Y,Z)] | cuda warp W [lane L] | cuda kernel");
        return PROMPT_STAY;
    }
    struct focus_request r = { .show = "" };
    unsigned old_block[3], old_thread[3];
    loom_debug_get_focus(p->d, r.block, r.thread, &r.warp, &r.lane);
    memcpy(old_block, r.block, sizeof old_block);
    memcpy(old_thread, r.thread, sizeof old_thread);
    if (!parse_focus(p, args, &r))
        return PROMPT_STAY;
    if (r.show[0]) {
        prompt_printf(p, "%s\n", r.show);
        return PROMPT_STAY;
    }
    char err[512] = "";
    if ((r.set_block || r.set_thread) && !loom_debug_focus(p->d, r.block, r.thread, err, sizeof err)) {
        prompt_error(p, "%s", err[0] ? err : "no such thread");
        return PROMPT_STAY;
    }
    if ((r.set_warp || r.set_lane) && !loom_debug_focus_warp(p->d, r.warp, r.lane, err, sizeof err)) {
        prompt_error(p, "%s", err[0] ? err : "no such warp or lane");
        if (r.set_block)   /* (all or nothing) */
            loom_debug_focus(p->d, old_block, old_thread, err, sizeof err);
        return PROMPT_STAY;
    }
    show_focus_where(p);
    return PROMPT_STAY;
}
