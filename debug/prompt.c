/* prompt.c -- the gdb-like prompt `(loom) ` of loom debug and loom exec --debug: reading
 * commands (-ex, --batch, GNU readline on a terminal, plain lines otherwise), the command
 * table and help, the report of a stop, and debug.h's loom_debug_prompt_* functions. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "debug/prompt.h"

#define PROMPT "(loom) "

/* ---- Commands ------------------------------------------------------------------------ */

static enum prompt_result cmd_help(struct prompt *p, const char *args, const char *fmt);
static enum prompt_result cmd_quit(struct prompt *p, const char *args, const char *fmt);

/* A command: its name, its aliases (" "-separated), whether an empty line repeats it, its
 * usage line and its help. */
struct command {
    const char *name, *aliases;
    prompt_fn fn;
    bool repeats;
    const char *usage, *summary, *help;
};

static const struct command commands[] = {
    {"break", "b br", prompt_cmd_break, false, "break LOCATION [if CONDITION]",
     "stop where LOCATION's code is about to run",
     "LOCATION is FILE:LINE (a .cu line that .loc names, or a line of the .ptx file), LINE (of the\n"
     "file the focus stands in; before the kernel runs, of the PTX), a kernel or .func name\n"
     "(mangled, demangled or its function part), or a label ($L__BB0_2, or FUNCTION:LABEL).\n"
     "CONDITION is tested in each active lane: blockIdx.x/y/z, threadIdx.x/y/z, blockDim,\n"
     "gridDim, warp, lane, registers by PTX name (%r5, %rd2, %p1, %f3), literals, and\n"
     "+ - * / % & | ^ << >> == != < <= > >= && || ! ( ); the first lane where it holds\n"
     "becomes the focus.  Example: break scale.cu:12 if threadIdx.x == 33 && blockIdx.x == 1"},
    {"tbreak", "tb", prompt_cmd_tbreak, false, "tbreak LOCATION [if CONDITION]",
     "a breakpoint deleted when it first stops", "As break; the breakpoint is deleted when it stops."},
    {"condition", "cond", prompt_cmd_condition, false, "condition N [CONDITION]",
     "set or remove breakpoint N's condition",
     "Without CONDITION the breakpoint becomes unconditional (break's help gives the syntax)."},
    {"delete", "d", prompt_cmd_delete, false, "delete [N...]", "delete breakpoints and watchpoints",
     "Without N, deletes them all."},
    {"disable", "dis", prompt_cmd_disable, false, "disable [N...]", "disable breakpoints and watchpoints",
     "Without N, disables them all."},
    {"enable", "en", prompt_cmd_enable, false, "enable [N...]", "enable breakpoints and watchpoints",
     "Without N, enables them all."},
    {"watch", "", prompt_cmd_watch, false, "watch [global|shared] ADDR [SIZE]",
     "stop when a lane writes memory",
     "Stops after any lane writes one of the SIZE bytes (default 4) at ADDR, names the lane and\n"
     "shows the old and new value. ADDR is a number or an expression (%rd4+8; write it without\n"
     "blanks when SIZE follows); shared addresses are offsets in whichever block writes them.\n"
     "reverse-continue stops at the write before."},
    {"run", "r", prompt_cmd_run, false, "run", "start the program",
     "Leaves the prompt and runs the program; stops come back to it."},
    {"start", "", prompt_cmd_start, false, "start", "start the program, stopping before its first kernel's first instruction",
     "As run, with a stop when the first debugged launch begins."},
    {"continue", "c cont fg", prompt_cmd_continue, true, "continue",
     "run until a breakpoint, watchpoint or fault",
     "Every warp of the launch runs (and the later launches, under loom exec --debug)."},
    {"step", "s", prompt_cmd_step, true, "step [N]", "run the focused warp to another source line, into calls",
     "A source line is the CUDA line where .loc gives one, else the PTX line."},
    {"stepi", "si", prompt_cmd_stepi, true, "stepi [N]", "run one instruction of the focused warp",
     "Shows the PTX instruction it stops at."},
    {"next", "n", prompt_cmd_next, true, "next [N]", "as step, over .func calls", "As step, but over calls."},
    {"finish", "fin", prompt_cmd_finish, true, "finish", "run until the current .func returns",
     "Not meaningful in a kernel's own frame."},
    {"until", "u", prompt_cmd_until, true, "until [LOCATION | barrier]",
     "as next, but never back to a line at or above this one (out of a loop)",
     "until LOCATION runs to LOCATION (a temporary breakpoint); until barrier runs the focused\n"
     "warp until it is about to issue a barrier (bar.sync, __syncthreads)."},
    {"reverse-stepi", "rsi", prompt_cmd_reverse_stepi, true, "reverse-stepi",
     "back to the focused warp's previous instruction",
     "Loom re-runs the launch from its start, deterministically, to the stop before."},
    {"reverse-step", "rs", prompt_cmd_reverse_step, true, "reverse-step",
     "back to the start of the focused warp's previous line", "As reverse-stepi, by source lines."},
    {"reverse-continue", "rc", prompt_cmd_reverse_continue, true, "reverse-continue",
     "back to the previous breakpoint or watchpoint stop",
     "Or to the launch's start when there is none. With a watchpoint on the address a fault\n"
     "reads, it goes back to the write that put the bad value there."},
    {"detach", "", prompt_cmd_detach, false, "detach", "let the program run to its end without stops",
     "The kernels complete with the same results as without the debugger."},
    {"kill", "k", prompt_cmd_kill, false, "kill", "end the running kernel now",
     "The launch fails as if interrupted."},
    {"print", "p inspect", prompt_cmd_print, false, "print[/FMT] EXPR[@lanes]",
     "show a register or an expression for the focused lane",
     "EXPR is a register by its PTX name (%r5, %rd2, %f3, %p1, %tid.x, %laneid) or an\n"
     "expression (break's condition syntax). EXPR@lanes shows a register in every lane of\n"
     "the focused warp: (v) marks inactive lanes, - exited ones. FMT: x hex, d signed, u\n"
     "unsigned, f float, t binary."},
    {"x", "", prompt_cmd_x, true, "x/NFU SPACE ADDR", "examine memory",
     "N units of size U (b 1, h 2, w 4, g 8 bytes) in format F (x hex, d signed, u unsigned,\n"
     "f float, c char) at ADDR of SPACE: global, shared (the focused block's), local (the\n"
     "focused thread's), param (the kernel's parameters) or const. ADDR is a number or an\n"
     "expression. Example: x/4dw global %rd4"},
    {"info", "i inf", prompt_cmd_info, false, "info WHAT",
     "warps lanes simt barriers kernels blocks registers breakpoints line frame",
     "info warps        every warp of the running blocks: masks, state, line\n"
     "info lanes        the focused warp's lanes: thread, active, inactive or exited\n"
     "info simt         the SIMT policy's state of the focused warp (PDOM stack, groups)\n"
     "info barriers     the focused block's barriers\n"
     "info kernels      the running launch\n"
     "info blocks       the running blocks\n"
     "info registers [REG...]  the focused lane's registers\n"
     "info breakpoints  breakpoints and watchpoints\n"
     "info line [LOCATION]  where a line's code is\n"
     "info frame        the focused warp's frame"},
    {"backtrace", "bt where", prompt_cmd_backtrace, false, "backtrace", "the focused warp's .func calls",
     "Frame 0 is where the warp stands; each next one is the call of the one before."},
    {"list", "l", prompt_cmd_list, true, "list [FILE:LINE | LINE | FUNCTION]", "show source lines",
     "Around the stop: the CUDA source where .loc gives it, else the PTX. Again: the next lines."},
    {"cuda", "", prompt_cmd_cuda, false, "cuda [block (X,Y,Z)] [thread (X,Y,Z)] | cuda warp W [lane L]",
     "show or change the focus",
     "cuda block (1,0,0) thread (33,0,0), cuda thread 5, cuda warp 2 lane 5, cuda lane 3;\n"
     "cuda block, cuda thread, cuda warp, cuda lane or cuda kernel alone show the focus."},
    {"help", "h", cmd_help, false, "help [COMMAND]", "list the commands, or describe one", ""},
    {"quit", "q exit", cmd_quit, false, "quit", "end the session (a running kernel is killed)", ""},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static bool has_alias(const struct command *c, const char *word)
{
    size_t n = strlen(word);
    for (const char *a = c->aliases; *a;) {
        size_t len = strcspn(a, " ");
        if (len == n && strncmp(a, word, n) == 0)
            return true;
        a += len;
        a += strspn(a, " ");
    }
    return false;
}

/* The command a word names: its name, an alias, or a prefix of one name only. An unknown or
 * ambiguous word is reported here. */
static const struct command *find_command(struct prompt *p, const char *word)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, word) == 0 || has_alias(&commands[i], word))
            return &commands[i];
    const struct command *hit = NULL;
    char names[256] = "";
    unsigned nhit = 0;
    size_t n = strlen(word);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strncmp(commands[i].name, word, n) == 0) {
            hit = &commands[i];
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", nhit++ ? ", " : "", commands[i].name);
        }
    if (nhit == 1)
        return hit;
    if (nhit > 1) {
        prompt_error(p, "Ambiguous command \"%s\": %s.", word, names);
        return NULL;
    }
    const struct command *best = NULL;
    unsigned best_d = 3;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        unsigned dist = loom_edit_distance(word, commands[i].name);
        if (dist < best_d) {
            best_d = dist;
            best = &commands[i];
        }
    }
    if (best)
        prompt_error(p, "Undefined command: \"%s\".  Did you mean \"%s\"?  Try \"help\".", word, best->name);
    else
        prompt_error(p, "Undefined command: \"%s\".  Try \"help\".", word);
    return NULL;
}

static enum prompt_result cmd_help(struct prompt *p, const char *args, const char *fmt)
{
    if (!*args) {
        prompt_printf(p, "Commands (help COMMAND describes one; a unique prefix is enough):\n");
        for (size_t i = 0; i < NCOMMANDS; i++) {
            char names[64];
            size_t n = (size_t)snprintf(names, sizeof names, "%s", commands[i].name);
            for (const char *a = commands[i].aliases; *a && n < sizeof names; a += strspn(a, " ")) {
                size_t len = strcspn(a, " ");
                n += (size_t)snprintf(names + n, sizeof names - n, ", %.*s", (int)len, a);
                a += len;
            }
            prompt_printf(p, "  %-26s %s\n", names, commands[i].summary);
        }
        prompt_printf(p, "An empty line repeats the last step, continue, list or x command.\n");
        return PROMPT_STAY;
    }
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(args, " \t"), args);
    const struct command *c = find_command(p, word);
    if (c) {
        prompt_printf(p, "usage: %s\n%c%s.\n", c->usage, toupper((unsigned char)c->summary[0]), c->summary + 1);
        if (c->aliases[0])
            prompt_printf(p, "Aliases: %s\n", c->aliases);
        if (c->help[0])
            prompt_printf(p, "%s\n", c->help);
    }
    return PROMPT_STAY;
}

static enum prompt_result cmd_quit(struct prompt *p, const char *args, const char *fmt)
{
    p->quitting = true;
    p->action = LOOM_DEBUG_KILL;
    return PROMPT_QUIT;
}

/* ---- Output ---------------------------------------------------------------------------- */

void prompt_printf(struct prompt *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fflush(p->out);
}

/* Errors go to the same stream as the rest, so that a transcript keeps their order. */
void prompt_error(struct prompt *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fputc('\n', p->out);
    fflush(p->out);
}

bool prompt_need_stop(struct prompt *p)
{
    if (p->phase == PROMPT_STOPPED)
        return true;
    prompt_error(p, p->phase == PROMPT_ENDED ? "The program has ended: no kernel is stopped."
                                             : "The program is not being run.");
    return false;
}

const char *prompt_base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "?";
}

const char *prompt_func(const char *name, char *buf, size_t size)
{
    return name ? loom_demangle(name, buf, size) : "?";
}

/* One source line, without its line end and leading blanks kept as written. */
static void show_line(struct prompt *p, const char *file, unsigned line, const char *fallback)
{
    unsigned len = 0;
    const char *text = loom_debug_source_line(p->d, file, line, &len);
    if (text) {
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            len--;
        prompt_printf(p, "%s:%u\t%.*s\n", prompt_base(file), line, (int)len, text);
    } else if (fallback) {
        prompt_printf(p, "%s:%u\t%s\n", prompt_base(file), line, fallback);
    } else {
        prompt_printf(p, "%s:%u\t(the source is not available)\n", prompt_base(file), line);
    }
}

void prompt_show_where(struct prompt *p, const struct loom_debug_where *w, bool ptx)
{
    if (w->cu_file && w->cu_line)
        show_line(p, w->cu_file, w->cu_line, NULL);
    if (ptx || !w->cu_file || !w->cu_line) {
        const char *t = w->text ? w->text : "";
        while (*t == ' ' || *t == '\t')
            t++;
        if (w->ptx_line)
            prompt_printf(p, "%s:%u\t%s\n", prompt_base(w->ptx_file), w->ptx_line, t);
        else
            prompt_printf(p, "pc %u\t%s\n", (unsigned)w->pc, t);
    }
    /* list goes on from here */
    bool cu = w->cu_file && w->cu_line;
    snprintf(p->list_file, sizeof p->list_file, "%s", cu ? w->cu_file : w->ptx_file ? w->ptx_file : "");
    p->list_line = cu ? w->cu_line : w->ptx_line;
    p->list_line = p->list_line > 5 ? p->list_line - 5 : 1;
}

/* ---- Parsing helpers ---------------------------------------------------------------------- */

bool prompt_number(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool prompt_address(struct prompt *p, const char *expr, uint64_t *out)
{
    if (prompt_number(expr, out))
        return true;
    if (!prompt_need_stop(p))
        return false;
    int64_t v;
    bool is_float;
    double f;
    char err[256];
    if (!loom_debug_eval(p->d, expr, &v, &is_float, &f, err, sizeof err)) {
        prompt_error(p, "%s", err);
        return false;
    }
    if (is_float) {
        prompt_error(p, "an address must be an integer, not %g", f);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

static const char *const space_names[] = { "global", "shared", "local", "param", "const" };

bool prompt_space(const char *s, enum loom_debug_space *out)
{
    for (unsigned i = 0; i < sizeof space_names / sizeof space_names[0]; i++)
        if (strcmp(s, space_names[i]) == 0) {
            *out = (enum loom_debug_space)i;
            return true;
        }
    return false;
}

const char *prompt_space_name(enum loom_debug_space s)
{
    return (unsigned)s < sizeof space_names / sizeof space_names[0] ? space_names[s] : "?";
}

/* ---- Reading commands ------------------------------------------------------------------------ */

/* The next line of input, without its end (malloc'd), or NULL when input is spent: the -ex
 * commands, then the batch file, then (without --batch) the terminal or standard input.
 * *user is set for lines typed at the prompt (an empty one repeats). */
static char *read_line(struct prompt *p, bool *user)
{
    *user = false;
    if (p->ex_next < p->nex) {
        char *line = strdup(p->ex[p->ex_next++]);
        if (line)
            prompt_printf(p, PROMPT "%s\n", line);
        return line;
    }
    char *line = NULL;
    size_t cap = 0;
    if (p->batch) {
        for (;;) {
            ssize_t n = getline(&line, &cap, p->batch);
            if (n < 0) {
                fclose(p->batch);
                p->batch = NULL;
                free(line);
                line = NULL;
                break;
            }
            line[strcspn(line, "\r\n")] = '\0';
            const char *s = line + strspn(line, " \t");
            if (*s && *s != '#') {
                prompt_printf(p, PROMPT "%s\n", line);
                return line;
            }
        }
    }
    if (p->batch_mode)
        return NULL;
    *user = true;
    if (p->tty) {
        line = readline(PROMPT);
        if (!line)
            prompt_printf(p, "quit\n");
        else if (*line && (history_length == 0 || strcmp(history_get(history_base + history_length - 1)->line, line)))
            add_history(line);
        return line;
    }
    prompt_printf(p, PROMPT);
    if (getline(&line, &cap, p->in) < 0) {
        free(line);
        prompt_printf(p, "quit\n");
        return NULL;
    }
    line[strcspn(line, "\r\n")] = '\0';
    prompt_printf(p, "%s\n", line);
    return line;
}

/* Runs one command line. */
static enum prompt_result execute(struct prompt *p, char *line, bool user)
{
    char *s = line + strspn(line, " \t");
    size_t end = strlen(s);
    while (end && (s[end - 1] == ' ' || s[end - 1] == '\t'))
        s[--end] = '\0';
    if (!*s || *s == '#')
        return PROMPT_STAY;
    /* the command word ends at a blank or at print's and x's /FMT */
    size_t wlen = strcspn(s, " \t/");
    char word[64], fmt[32] = "";
    snprintf(word, sizeof word, "%.*s", (int)(wlen < 63 ? wlen : 63), s);
    const char *rest = s + wlen;
    if (*rest == '/') {
        size_t flen = strcspn(rest + 1, " \t");
        snprintf(fmt, sizeof fmt, "%.*s", (int)(flen < 31 ? flen : 31), rest + 1);
        rest += 1 + flen;
    }
    rest += strspn(rest, " \t");
    const struct command *c = find_command(p, word);
    if (!c)
        return PROMPT_STAY;
    if (fmt[0] && c->fn != prompt_cmd_print && c->fn != prompt_cmd_x) {
        prompt_error(p, "%s takes no /FORMAT (only print and x do)", c->name);
        return PROMPT_STAY;
    }
    /* an empty line repeats a step as typed; list and x go on from where they ended */
    if (user)
        snprintf(p->last, sizeof p->last, "%s", !c->repeats ? "" : c->fn == prompt_cmd_list ? "list"
                                                : c->fn == prompt_cmd_x ? "x" : s);
    return c->fn(p, rest, fmt);
}

/* Serves commands until one resumes or ends the session (or input is spent: quit). */
static enum prompt_result serve(struct prompt *p)
{
    for (;;) {
        bool user;
        char *line = read_line(p, &user);
        if (!line) {
            p->quitting = true;
            p->action = LOOM_DEBUG_KILL;
            return PROMPT_QUIT;
        }
        if (user && !line[strspn(line, " \t")] && p->last[0]) {
            free(line);
            line = strdup(p->last);
            if (!line)
                continue;
        }
        enum prompt_result r = execute(p, line, user);
        free(line);
        if (r != PROMPT_STAY)
            return r;
    }
}

/* ---- Stops ------------------------------------------------------------------------------ */

static void show_focus(struct prompt *p, const unsigned block[3], const unsigned thread[3], unsigned warp,
                       unsigned lane)
{
    prompt_printf(p, "[block (%u,%u,%u) thread (%u,%u,%u) warp %u lane %u]\n", block[0], block[1], block[2],
                  thread[0], thread[1], thread[2], warp, lane);
    p->focus_shown = true;
    memcpy(p->shown_block, block, sizeof p->shown_block);
    memcpy(p->shown_thread, thread, sizeof p->shown_thread);
}

/* A watched value: as a signed integer and in hex, and for 4 and 8 bytes as a float too (the
 * debugger does not know the C type). */
static void show_value(struct prompt *p, const char *what, uint64_t v, unsigned size)
{
    int64_t s = size >= 8 ? (int64_t)v : size == 4 ? (int32_t)v : size == 2 ? (int16_t)v : (int8_t)v;
    uint64_t bits = size >= 8 ? v : v & ((1ull << (8 * size)) - 1);
    char f[64] = "";
    if (size == 4) {
        uint32_t b = (uint32_t)v;
        float x;
        memcpy(&x, &b, sizeof x);
        snprintf(f, sizeof f, ", as a float %.9g", (double)x);
    } else if (size == 8) {
        double x;
        memcpy(&x, &v, sizeof x);
        snprintf(f, sizeof f, ", as a double %.17g", x);
    }
    prompt_printf(p, "%s = %lld (0x%llx%s)\n", what, (long long)s, (unsigned long long)bits, f);
}

/* The report of a stop: why, the focus (when it changed or this is not a step), where. */
static void show_stop(struct prompt *p, const struct loom_debug_stop *s)
{
    char fn[512];
    prompt_func(s->where.function ? s->where.function : s->kernel, fn, sizeof fn);
    bool ptx = p->insn_level;
    bool same_focus = p->focus_shown && memcmp(p->shown_block, s->block, sizeof s->block) == 0 &&
                      memcmp(p->shown_thread, s->thread, sizeof s->thread) == 0;
    bool header = true;
    switch (s->reason) {
    case LOOM_STOP_BREAKPOINT: {
        struct loom_debug_bp_info b;
        /* a temporary breakpoint may be gone once it stopped */
        bool known = prompt_bp_info(p, s->breakpoint, &b), temp = !known || b.bp.temporary;
        /* a breakpoint set on PTX (a line or a label) shows the PTX instruction too */
        size_t fl = known && b.bp.file ? strlen(b.bp.file) : 0;
        ptx |= known && (b.bp.kind == LOOM_BP_PTX_LINE || b.bp.kind == LOOM_BP_LABEL ||
                         (fl > 4 && strcmp(b.bp.file + fl - 4, ".ptx") == 0));
        prompt_printf(p, "\n%s %d, %s (launch %u)\n", temp ? "Temporary breakpoint" : "Breakpoint", s->breakpoint,
                      fn, s->launch);
        break;
    }
    case LOOM_STOP_WATCH: {
        struct loom_debug_bp_info w = { .watch_space = LOOM_SPACE_GLOBAL, .watch_size = s->watch_size };
        prompt_bp_info(p, s->watchpoint, &w);
        if (!w.is_watch)
            w.watch_addr = s->watch_addr;
        prompt_printf(p, "\nWatchpoint %d: %s 0x%llx (%u byte%s) written by block (%u,%u,%u) thread (%u,%u,%u) lane %u\n\n",
                      s->watchpoint, prompt_space_name(w.watch_space), (unsigned long long)w.watch_addr, w.watch_size,
                      w.watch_size == 1 ? "" : "s", s->block[0], s->block[1], s->block[2], s->thread[0], s->thread[1],
                      s->thread[2], s->lane);
        show_value(p, "Old value", s->watch_old, w.watch_size);
        show_value(p, "New value", s->watch_new, w.watch_size);
        ptx = true;
        break;
    }
    case LOOM_STOP_BARRIER:
        prompt_printf(p, "\nAt a barrier, %s (launch %u)\n", fn, s->launch);
        ptx = true;
        break;
    case LOOM_STOP_FAULT:
        prompt_printf(p, "\nKernel fault (%s), %s (launch %u):\n%s\n", loom_status_string(s->fault), fn, s->launch,
                      s->fault_report ? s->fault_report : "");
        ptx = true;
        break;
    case LOOM_STOP_PAUSE:
        prompt_printf(p, "\nPaused, %s (launch %u)\n", fn, s->launch);
        ptx = true;
        break;
    case LOOM_STOP_START:
        prompt_printf(p, "\nNo more reverse-execution history: the start of launch %u of %s.\n", s->launch, fn);
        break;
    case LOOM_STOP_ENTRY:
        prompt_printf(p, "\nLaunch %u of %s begins\n", s->launch, fn);
        break;
    case LOOM_STOP_EXIT:
        prompt_printf(p, "\nLaunch %u of %s ended\n", s->launch, fn);
        break;
    case LOOM_STOP_STEP:
        header = strcmp(p->shown_function, fn) != 0;
        if (header)
            prompt_printf(p, "%s (launch %u)\n", fn, s->launch);
        break;
    }
    if (header || !same_focus)
        show_focus(p, s->block, s->thread, s->warp, s->lane);
    snprintf(p->shown_function, sizeof p->shown_function, "%s", fn);
    if (s->reason != LOOM_STOP_EXIT)
        prompt_show_where(p, &s->where, ptx);
}

static enum loom_debug_action on_stop(struct loom_debug *d, const struct loom_debug_stop *stop, void *ctx)
{
    struct prompt *p = ctx;
    if (p->quitting || p->killed)
        return LOOM_DEBUG_KILL;
    if (p->detached)
        return LOOM_DEBUG_DETACH;
    p->stop = stop;
    p->phase = PROMPT_STOPPED;
    if (stop->launch != p->entry_launch) {
        p->entry_launch = stop->launch;
        prompt_check_pending(p);
    }
    if (stop->reason == LOOM_STOP_ENTRY && p->start) {
        p->start = false;
    } else if (stop->reason == LOOM_STOP_ENTRY) {   /* (asked for internally, to check breakpoints) */
        p->stop = NULL;
        p->phase = PROMPT_RUNNING;
        return LOOM_DEBUG_CONTINUE;
    }
    if (stop->reason == LOOM_STOP_STEP && p->repeat) {
        p->repeat--;
        p->stop = NULL;
        p->phase = PROMPT_RUNNING;
        return p->action;
    }
    p->repeat = 0;
    /* (the stop's instruction text, copied: the core may reuse its buffer in later calls) */
    struct loom_debug_stop copy = *stop;
    char text[512];
    snprintf(text, sizeof text, "%s", stop->where.text ? stop->where.text : "");
    copy.where.text = text;
    show_stop(p, &copy);
    p->insn_level = false;
    enum prompt_result r = serve(p);
    p->stop = NULL;
    p->phase = PROMPT_RUNNING;
    return r == PROMPT_QUIT ? LOOM_DEBUG_KILL : p->action;
}

/* ---- The prompts of debuggers ------------------------------------------------------------ */

/* debug.h has no way back from a debugger to its ctx: the prompts are listed here. */
static pthread_mutex_t prompts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prompt *prompts;

static struct prompt *prompt_of(struct loom_debug *d)
{
    pthread_mutex_lock(&prompts_lock);
    struct prompt *p = prompts;
    while (p && p->d != d)
        p = p->next;
    pthread_mutex_unlock(&prompts_lock);
    return p;
}

static void prompt_free(struct prompt *p)
{
    pthread_mutex_lock(&prompts_lock);
    for (struct prompt **pp = &prompts; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    pthread_mutex_unlock(&prompts_lock);
    for (unsigned i = 0; i < p->nex; i++)
        free(p->ex[i]);
    free(p->ex);
    if (p->batch)
        fclose(p->batch);
    free(p);
}

/* Readline completes command names in the first word. */
static char *complete_command(const char *text, int state)
{
    static size_t next;
    if (!state)
        next = 0;
    size_t n = strlen(text);
    while (next < NCOMMANDS) {
        const char *name = commands[next++].name;
        if (strncmp(name, text, n) == 0)
            return strdup(name);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;
    return start == 0 ? rl_completion_matches(text, complete_command) : NULL;
}

enum loom_status loom_debug_prompt_create(const struct loom_debug_prompt_config *cfg, struct loom_debug **out)
{
    *out = NULL;
    struct prompt *p = calloc(1, sizeof *p);
    if (!p)
        return LOOM_ERR_OUT_OF_MEMORY;
    p->in = cfg->in ? cfg->in : stdin;
    p->out = cfg->out ? cfg->out : stdout;
    p->tty = isatty(fileno(p->in));
    p->x_fmt = 'x';
    p->x_size = 'w';
    if (cfg->batch) {
        p->batch = fopen(cfg->batch, "r");
        if (!p->batch) {
            free(p);
            return LOOM_ERR_IO;
        }
        p->batch_mode = true;
    }
    if (cfg->nex) {
        p->ex = calloc(cfg->nex, sizeof *p->ex);
        for (unsigned i = 0; p->ex && i < cfg->nex; i++)
            if ((p->ex[i] = strdup(cfg->ex[i])))
                p->nex = i + 1;
        if (p->nex != cfg->nex) {
            prompt_free(p);
            return LOOM_ERR_OUT_OF_MEMORY;
        }
    }
    struct loom_debug_config dc = {
        .on_stop = on_stop, .ctx = p, .kernel = cfg->kernel, .stop_at_entry = true,
    };
    enum loom_status st = loom_debug_create(&dc, &p->d);
    if (st != LOOM_OK) {
        prompt_free(p);
        return st;
    }
    if (p->tty) {
        rl_instream = p->in;
        rl_outstream = p->out;
        rl_readline_name = "loom";
        rl_catch_signals = 0;   /* Ctrl-C belongs to Loom's handler (it stops a running kernel) */
        rl_attempted_completion_function = complete;
    }
    pthread_mutex_lock(&prompts_lock);
    p->next = prompts;
    prompts = p;
    pthread_mutex_unlock(&prompts_lock);
    *out = p->d;
    return LOOM_OK;
}

/* Ctrl-C at a terminal pauses the running kernel (a PAUSE stop); at the prompt it does nothing. */
static struct prompt *volatile sigint_prompt;
static struct sigaction sigint_old;

static void on_sigint(int sig)
{
    struct prompt *p = sigint_prompt;
    if (p && p->phase == PROMPT_RUNNING)
        loom_debug_pause(p->d);
}

bool loom_debug_prompt_begin(struct loom_debug *d)
{
    struct prompt *p = prompt_of(d);
    if (!p)
        return false;
    if (p->tty && !sigint_prompt) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigint_prompt = p;
        sigaction(SIGINT, &sa, &sigint_old);
    }
    p->phase = PROMPT_BEFORE;
    enum prompt_result r = serve(p);
    if (r == PROMPT_QUIT)
        return false;
    p->phase = PROMPT_RUNNING;
    return true;
}

void loom_debug_prompt_end(struct loom_debug *d, int exit_status)
{
    struct prompt *p = prompt_of(d);
    if (!p)
        return;
    p->phase = PROMPT_ENDED;
    if (!p->quitting) {
        if (exit_status == 0)
            prompt_printf(p, "[Program exited normally]\n");
        else
            prompt_printf(p, "[Program exited with code %d]\n", exit_status);
        serve(p);
    }
    if (sigint_prompt == p) {
        sigaction(SIGINT, &sigint_old, NULL);
        sigint_prompt = NULL;
    }
    prompt_free(p);
}
