/* prompt.h -- the gdb-like prompt of loom debug and loom exec --debug (debug.h's front end):
 * the session's state, shared by the reader and dispatch (prompt.c), the commands that set
 * breakpoints and move the kernel (prompt_run.c) and those that show its state (prompt_show.c). */
#ifndef LOOM_DEBUG_PROMPT_H
#define LOOM_DEBUG_PROMPT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "loom/debug.h"

/* Where the session is: before the first launch, inside a stop, while a kernel runs, after
 * the program ended. */
enum prompt_phase { PROMPT_BEFORE, PROMPT_STOPPED, PROMPT_RUNNING, PROMPT_ENDED };

/* What a command wants once it has run. */
enum prompt_result {
    PROMPT_STAY,                 /* read the next command */
    PROMPT_RESUME,               /* leave the prompt: run (before), or p->action (at a stop) */
    PROMPT_QUIT,                 /* end the session */
};

struct prompt {
    struct loom_debug *d;
    struct prompt *next;         /* the list of prompts (prompt.c) */
    FILE *in, *out;
    bool tty;                    /* input from a terminal: GNU readline */
    /* the commands given first: -ex ones, then the batch file's */
    char **ex;
    unsigned nex, ex_next;
    FILE *batch;
    bool batch_mode;             /* --batch: the session ends when its commands are spent */
    volatile enum prompt_phase phase;  /* (read by the SIGINT handler) */
    const struct loom_debug_stop *stop;  /* inside on_stop */
    enum loom_debug_action action;       /* what a PROMPT_RESUME command asked for */
    bool quitting;               /* quit or kill: every later stop ends its launch */
    bool killed;                 /* kill: every later stop ends its launch, the session goes on */
    bool detached;
    bool start;                  /* start: show the first launch's entry */
    unsigned repeat;             /* steps still to take silently (step N) */
    bool insn_level;             /* the last move was one instruction (stepi): show the PTX line */
    char last[512];              /* the last command read from the user, for an empty line */
    unsigned values;             /* $N of print */
    bool focus_shown;            /* a focus line was printed: the last one */
    unsigned shown_block[3], shown_thread[3];
    char shown_function[512];    /* the function of the last location shown */
    unsigned entry_launch;       /* the launch whose entry was checked */
    int warned[32];              /* pending breakpoints already warned of */
    unsigned nwarned;
    /* list: the file and the next line to show */
    char list_file[512];
    unsigned list_line;
    /* x: the last format, size and the address after the last one shown */
    char x_fmt, x_size;
    unsigned x_count;
    enum loom_debug_space x_space;
    uint64_t x_next;
    bool x_valid;
};

/* A command's handler: args are the words after its name (no leading blanks); fmt is the
 * /FMT suffix of print and x ("" when none). */
typedef enum prompt_result (*prompt_fn)(struct prompt *p, const char *args, const char *fmt);

/* Output (p->out) and one-line errors of commands. */
void prompt_printf(struct prompt *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void prompt_error(struct prompt *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True inside a stop; otherwise prints why a command that needs one cannot run. */
bool prompt_need_stop(struct prompt *p);
/* The last part of a path. */
const char *prompt_base(const char *path);
/* The demangled name of a kernel or function, into buf. */
const char *prompt_func(const char *name, char *buf, size_t size);
/* A location as "FILE:LINE<TAB>TEXT" lines: the CUDA line when .loc gives one, and the PTX
 * line when there is no CUDA line or ptx is set. */
void prompt_show_where(struct prompt *p, const struct loom_debug_where *w, bool ptx);
/* Parses an unsigned number (decimal or 0x); false when s is not one. */
bool prompt_number(const char *s, uint64_t *out);
/* An address: a number, or an expression evaluated at the stop; false after printing why. */
bool prompt_address(struct prompt *p, const char *expr, uint64_t *out);
/* Parses a memory space's name. */
bool prompt_space(const char *s, enum loom_debug_space *out);
const char *prompt_space_name(enum loom_debug_space s);

/* The commands (prompt_run.c, prompt_show.c). */
enum prompt_result prompt_cmd_break(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_tbreak(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_condition(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_delete(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_disable(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_enable(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_watch(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_run(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_start(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_continue(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_step(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_stepi(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_next(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_finish(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_until(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_reverse_stepi(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_reverse_step(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_reverse_continue(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_detach(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_kill(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_cuda(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_print(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_x(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_info(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_backtrace(struct prompt *p, const char *args, const char *fmt);
enum prompt_result prompt_cmd_list(struct prompt *p, const char *args, const char *fmt);
/* Breakpoint or watchpoint n as the core lists it; false when there is none. */
bool prompt_bp_info(struct prompt *p, int n, struct loom_debug_bp_info *out);
/* info breakpoints (also used by prompt_show.c's info) */
void prompt_info_breakpoints(struct prompt *p);
/* Checks the breakpoints set before the module was loaded, once per launch (prompt_run.c). */
void prompt_check_pending(struct prompt *p);

#endif
