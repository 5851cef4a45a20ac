/* prompt_show.c -- the prompt's commands that show the stopped kernel: print (registers by
 * PTX name, expressions, @lanes), x (memory of any space), info, backtrace and list. */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debug/prompt.h"

/* ---- print ---------------------------------------------------------------------------------- */

/* A register's bits in format f (0: the register's type decides). */
static void format_reg(char *buf, size_t size, const struct loom_debug_reg *r, uint64_t bits, char f)
{
    bool wide = r->kind == LOOM_REG_B64;
    const char *t = r->type ? r->type : "b32";
    if (!wide)
        bits &= 0xffffffffu;
    if (!f) {
        if (r->kind == LOOM_REG_PRED) {
            snprintf(buf, size, "%s", bits & 1 ? "true" : "false");
            return;
        }
        f = t[0] == 'f' && (strcmp(t, "f32") == 0 || strcmp(t, "f64") == 0) ? 'f'
            : t[0] == 'u' ? 'u' : t[0] == 'b' && wide ? 'x' : 'd';
    }
    switch (f) {
    case 'x':
        snprintf(buf, size, "0x%" PRIx64, bits);
        break;
    case 'u':
        snprintf(buf, size, "%" PRIu64, bits);
        break;
    case 'f': {
        if (wide) {
            double v;
            memcpy(&v, &bits, sizeof v);
            snprintf(buf, size, "%.17g", v);
        } else {
            uint32_t b = (uint32_t)bits;
            float v;
            memcpy(&v, &b, sizeof v);
            snprintf(buf, size, "%.9g", (double)v);
        }
        break;
    }
    case 't': {
        int top = wide ? 63 : 31;
        while (top > 0 && !((bits >> top) & 1))
            top--;
        size_t o = 0;
        for (int i = top; i >= 0 && o + 1 < size; i--)
            buf[o++] = (char)('0' + ((bits >> i) & 1));
        buf[o] = '\0';
        break;
    }
    default:   /* 'd' */
        snprintf(buf, size, "%" PRId64, wide ? (int64_t)bits : (int64_t)(int32_t)(uint32_t)bits);
        break;
    }
}

static bool check_format(struct prompt *p, const char *fmt, const char *allowed, const char *cmd)
{
    if (fmt[0] && (fmt[1] || !strchr(allowed, fmt[0]))) {
        prompt_error(p, "%s: unknown format /%s (%s)", cmd, fmt, cmd[0] == 'p' ? "x d u f t" : "see help x");
        return false;
    }
    return true;
}

/* The focused warp's entry of loom_debug_warps; false when its block is not running. */
static bool focused_warp(struct prompt *p, struct loom_debug_warp_info *out)
{
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    unsigned n = loom_debug_warps(p->d, NULL, 0);
    struct loom_debug_warp_info *all = n ? calloc(n, sizeof *all) : NULL;
    bool found = false;
    if (all) {
        n = loom_debug_warps(p->d, all, n);
        for (unsigned i = 0; i < n && !found; i++)
            if (all[i].warp == warp && memcmp(all[i].block, block, sizeof block) == 0) {
                *out = all[i];
                found = true;
            }
    }
    free(all);
    return found;
}

/* %r5@lanes: the register in every lane of the focused warp, eight to a line. */
static void print_lanes(struct prompt *p, const struct loom_debug_reg *r, char f)
{
    struct loom_debug_warp_info w = { .valid = r->valid, .active = r->valid };
    focused_warp(p, &w);
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    char cell[32][72];
    int width = 1, last = -1;
    for (unsigned l = 0; l < 32; l++) {
        if (!(r->valid >> l & 1))
            continue;
        last = (int)l;
        char v[64];
        format_reg(v, sizeof v, r, r->lane[l], f);
        if (w.exited >> l & 1)
            snprintf(cell[l], sizeof cell[l], "-");
        else if (!(w.active >> l & 1))
            snprintf(cell[l], sizeof cell[l], "(%s)", v);
        else
            snprintf(cell[l], sizeof cell[l], "%s", v);
        int len = (int)strlen(cell[l]);
        if (len > width)
            width = len;
    }
    prompt_printf(p, "$%u = %s in the lanes of warp %u of block (%u,%u,%u) ((v) inactive, - exited):\n", ++p->values,
                  r->name, warp, block[0], block[1], block[2]);
    for (int row = 0; row <= last; row += 8) {
        prompt_printf(p, "  %2d-%-2d", row, row + 7 < last ? row + 7 : last);
        for (int l = row; l < row + 8 && l <= last; l++)
            prompt_printf(p, " %*s", width, (r->valid >> l & 1) ? cell[l] : "");
        prompt_printf(p, "\n");
    }
}

enum prompt_result prompt_cmd_print(struct prompt *p, const char *args, const char *fmt)
{
    if (!check_format(p, fmt, "xduft", "print"))
        return PROMPT_STAY;
    if (!*args) {
        prompt_error(p, "print needs an expression: print %%r5, print/x threadIdx.x * 2, print %%r5@lanes");
        return PROMPT_STAY;
    }
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    char expr[512], err[512] = "";
    snprintf(expr, sizeof expr, "%s", args);
    bool lanes = false;
    size_t n = strlen(expr);
    if (n > 6 && strcmp(expr + n - 6, "@lanes") == 0) {
        lanes = true;
        expr[n - 6] = '\0';
        while (n > 6 && (expr[strlen(expr) - 1] == ' ' || expr[strlen(expr) - 1] == '\t'))
            expr[strlen(expr) - 1] = '\0';
    }
    bool is_reg = expr[0] == '%' && expr[1] && expr[strspn(expr + 1, "abcdefghijklmnopqrstuvwxyz"
                                                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$") + 1] == '\0';
    if (lanes && !is_reg) {
        prompt_error(p, "print: @lanes follows a register (print %%r5@lanes), not '%s'", expr);
        return PROMPT_STAY;
    }
    if (is_reg) {
        struct loom_debug_reg r;
        if (!loom_debug_read_reg(p->d, expr, &r, err, sizeof err)) {
            prompt_error(p, "%s", err[0] ? err : "no such register");
            return PROMPT_STAY;
        }
        if (lanes) {
            print_lanes(p, &r, fmt[0]);
            return PROMPT_STAY;
        }
        unsigned block[3], thread[3], warp, lane;
        loom_debug_get_focus(p->d, block, thread, &warp, &lane);
        char v[80];
        format_reg(v, sizeof v, &r, r.lane[lane & 31], fmt[0]);
        prompt_printf(p, "$%u = %s\n", ++p->values, v);
        return PROMPT_STAY;
    }
    int64_t i;
    bool is_float;
    double d;
    if (!loom_debug_eval(p->d, expr, &i, &is_float, &d, err, sizeof err)) {
        prompt_error(p, "%s", err[0] ? err : "bad expression");
        return PROMPT_STAY;
    }
    char v[80];
    switch (fmt[0]) {
    case 'x': snprintf(v, sizeof v, "0x%" PRIx64, is_float ? (uint64_t)(int64_t)d : (uint64_t)i); break;
    case 'u': snprintf(v, sizeof v, "%" PRIu64, is_float ? (uint64_t)(int64_t)d : (uint64_t)i); break;
    case 'd': snprintf(v, sizeof v, "%" PRId64, is_float ? (int64_t)d : i); break;
    case 'f': snprintf(v, sizeof v, "%.17g", is_float ? d : (double)i); break;
    case 't': {
        struct loom_debug_reg fake = { .kind = LOOM_REG_B64, .type = "b64" };
        format_reg(v, sizeof v, &fake, (uint64_t)i, 't');
        break;
    }
    default:
        if (is_float)
            snprintf(v, sizeof v, "%.17g", d);
        else
            snprintf(v, sizeof v, "%" PRId64, i);
    }
    prompt_printf(p, "$%u = %s\n", ++p->values, v);
    return PROMPT_STAY;
}

/* ---- x ------------------------------------------------------------------------------------- */

/* Parses N, F and U of x/NFU in any order of F and U (as gdb does); false when malformed. */
static bool parse_x_format(const char *fmt, unsigned *count, char *f, char *u)
{
    const char *s = fmt;
    if (isdigit((unsigned char)*s)) {
        char *end;
        unsigned long n = strtoul(s, &end, 10);
        if (n == 0 || n > 4096)
            return false;
        *count = (unsigned)n;
        s = end;
    }
    for (; *s; s++) {
        if (strchr("xducf", *s))
            *f = *s;
        else if (strchr("bhwg", *s))
            *u = *s;
        else
            return false;
    }
    return true;
}

static void format_unit(char *buf, size_t size, const unsigned char *b, unsigned bytes, char f)
{
    uint64_t v = 0;
    memcpy(&v, b, bytes);
    int64_t s = bytes == 8 ? (int64_t)v : bytes == 4 ? (int32_t)v : bytes == 2 ? (int16_t)v : (int8_t)v;
    switch (f) {
    case 'x':
        snprintf(buf, size, "0x%0*" PRIx64, (int)bytes * 2, v);
        break;
    case 'u':
        snprintf(buf, size, "%" PRIu64, v);
        break;
    case 'c':
        if (isprint((int)(v & 0xff)))
            snprintf(buf, size, "%d '%c'", (int)(int8_t)v, (char)v);
        else
            snprintf(buf, size, "%d '\\%03o'", (int)(int8_t)v, (unsigned)(v & 0xff));
        break;
    case 'f':
        if (bytes == 8) {
            double d;
            memcpy(&d, &v, sizeof d);
            snprintf(buf, size, "%.17g", d);
            break;
        }
        if (bytes == 4) {
            uint32_t w = (uint32_t)v;
            float fl;
            memcpy(&fl, &w, sizeof fl);
            snprintf(buf, size, "%.9g", (double)fl);
            break;
        }
        /* fall through - no float of 1 or 2 bytes here */
    default:
        snprintf(buf, size, "%" PRId64, s);
        break;
    }
}

enum prompt_result prompt_cmd_x(struct prompt *p, const char *args, const char *fmt)
{
    unsigned count = !fmt[0] && p->x_count ? p->x_count : 1;   /* (x alone goes on as the last x did) */
    char f = p->x_fmt, u = p->x_size;
    if (!parse_x_format(fmt, &count, &f, &u)) {
        prompt_error(p, "x: bad format /%s: N, then a format (x d u f c) and a size (b h w g)", fmt);
        return PROMPT_STAY;
    }
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    if (f == 'c')
        u = 'b';
    enum loom_debug_space space;
    uint64_t addr;
    if (!*args) {
        if (!p->x_valid) {
            prompt_error(p, "usage: x/NFU SPACE ADDR (SPACE: global shared local param const)");
            return PROMPT_STAY;
        }
        space = p->x_space;
        addr = p->x_next;
    } else {
        char word[16];
        size_t n = strcspn(args, " \t");
        snprintf(word, sizeof word, "%.*s", (int)(n < 15 ? n : 15), args);
        const char *expr = args + n + strspn(args + n, " \t");
        if (!prompt_space(word, &space)) {
            prompt_error(p, "x: '%s' is not a memory space (global shared local param const)", word);
            return PROMPT_STAY;
        }
        if (!*expr) {
            prompt_error(p, "x: %s needs an address", word);
            return PROMPT_STAY;
        }
        if (!prompt_address(p, expr, &addr))
            return PROMPT_STAY;
    }
    unsigned bytes = u == 'b' ? 1 : u == 'h' ? 2 : u == 'g' ? 8 : 4;
    unsigned per_line = f == 'c' ? 8 : bytes == 8 ? 2 : bytes == 4 ? 4 : 8;
    unsigned char *buf = malloc((size_t)count * bytes);
    char err[512] = "";
    if (!buf)
        return PROMPT_STAY;
    if (!loom_debug_read_mem(p->d, space, addr, buf, (size_t)count * bytes, err, sizeof err)) {
        prompt_error(p, "%s", err[0] ? err : "cannot read that memory");
        free(buf);
        return PROMPT_STAY;
    }
    for (unsigned i = 0; i < count; i++) {
        if (i % per_line == 0)
            prompt_printf(p, "%s%s 0x%" PRIx64 ":", i ? "\n" : "", prompt_space_name(space), addr + (uint64_t)i * bytes);
        char v[64];
        format_unit(v, sizeof v, buf + (size_t)i * bytes, bytes, f);
        prompt_printf(p, "\t%s", v);
    }
    prompt_printf(p, "\n");
    free(buf);
    p->x_fmt = f;
    p->x_size = u;
    p->x_count = count;
    p->x_space = space;
    p->x_next = addr + (uint64_t)count * bytes;
    p->x_valid = true;
    return PROMPT_STAY;
}

/* ---- info ------------------------------------------------------------------------------------ */

static void where_text(const struct loom_debug_where *w, char *buf, size_t size)
{
    if (w->cu_file && w->cu_line)
        snprintf(buf, size, "%s:%u (%s:%u)", prompt_base(w->cu_file), w->cu_line, prompt_base(w->ptx_file), w->ptx_line);
    else
        snprintf(buf, size, "%s:%u", prompt_base(w->ptx_file), w->ptx_line);
}

static void info_warps(struct prompt *p)
{
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    unsigned n = loom_debug_warps(p->d, NULL, 0);
    struct loom_debug_warp_info *all = n ? calloc(n, sizeof *all) : NULL;
    if (!all) {
        prompt_printf(p, "No warps are running.\n");
        return;
    }
    n = loom_debug_warps(p->d, all, n);
    prompt_printf(p, "  %-12s %-4s %-10s %-10s %-18s %s\n", "Block", "Warp", "Active", "Exited", "State", "Line");
    for (unsigned i = 0; i < n; i++) {
        const struct loom_debug_warp_info *w = &all[i];
        char b[48], at[256] = "";
        snprintf(b, sizeof b, "(%u,%u,%u)", w->block[0], w->block[1], w->block[2]);
        if (!w->done)
            where_text(&w->where, at, sizeof at);
        bool focus = w->warp == warp && memcmp(w->block, block, sizeof block) == 0;
        char line[512];
        int len = snprintf(line, sizeof line, "%c %-12s %-4u 0x%08x 0x%08x %-18s %s", focus ? '*' : ' ', b, w->warp,
                         w->active, w->exited, w->state ? w->state : "", at);
        while (len > 0 && len < (int)sizeof line && line[len - 1] == ' ')
            line[--len] = '\0';
        prompt_printf(p, "%s\n", line);
    }
    free(all);
}

static void info_lanes(struct prompt *p)
{
    struct loom_debug_warp_info w;
    struct loom_debug_launch_info li;
    if (!focused_warp(p, &w) || !loom_debug_launch(p->d, &li)) {
        prompt_error(p, "The focused block is not running now.");
        return;
    }
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    prompt_printf(p, "  Lane  %-14s State\n", "Thread");
    for (unsigned l = 0; l < 32; l++) {
        if (!(w.valid >> l & 1))
            continue;
        unsigned t = warp * 32 + l, bx = li.block[0] ? li.block[0] : 1, by = li.block[1] ? li.block[1] : 1;
        char th[48];
        snprintf(th, sizeof th, "(%u,%u,%u)", t % bx, t / bx % by, t / bx / by);
        const char *state = w.exited >> l & 1 ? "exited" : w.active >> l & 1 ? "active" : "inactive";
        prompt_printf(p, "%c %-5u %-14s %s\n", l == lane ? '*' : ' ', l, th, state);
    }
}

static void info_text(struct prompt *p, size_t (*fn)(struct loom_debug *, char *, size_t), const char *none)
{
    size_t size = 1 << 16;
    char *buf = malloc(size);
    if (!buf)
        return;
    buf[0] = '\0';
    fn(p->d, buf, size);
    buf[size - 1] = '\0';
    size_t n = strlen(buf);
    if (n == 0)
        prompt_printf(p, "%s\n", none);
    else
        prompt_printf(p, "%s%s", buf, buf[n - 1] == '\n' ? "" : "\n");
    free(buf);
}

static void info_kernels(struct prompt *p)
{
    struct loom_debug_launch_info li;
    if (!loom_debug_launch(p->d, &li)) {
        prompt_printf(p, "No kernel is running.\n");
        return;
    }
    char fn[512];
    prompt_printf(p, "  Launch  Kernel\n* %-7u %s\n", li.launch, prompt_func(li.kernel, fn, sizeof fn));
    prompt_printf(p, "          grid (%u,%u,%u), block (%u,%u,%u), %" PRIu64 " bytes of dynamic shared memory\n",
                  li.grid[0], li.grid[1], li.grid[2], li.block[0], li.block[1], li.block[2], li.dyn_shared);
    prompt_printf(p, "          SIMT: %s; %u block%s running; %" PRIu64 " warp instructions so far\n",
                  li.simt ? li.simt : "?", li.nblocks_running, li.nblocks_running == 1 ? "" : "s", li.tick);
}

static void info_blocks(struct prompt *p)
{
    unsigned n = loom_debug_blocks(p->d, NULL, 0);
    unsigned (*b)[3] = n ? calloc(n, sizeof *b) : NULL;
    if (!b) {
        prompt_printf(p, "No blocks are running.\n");
        return;
    }
    n = loom_debug_blocks(p->d, b, n);
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    prompt_printf(p, "  Block\n");
    for (unsigned i = 0; i < n; i++)
        prompt_printf(p, "%c (%u,%u,%u)\n", memcmp(b[i], block, sizeof block) == 0 ? '*' : ' ', b[i][0], b[i][1], b[i][2]);
    free(b);
}

static void info_registers(struct prompt *p, const char *names)
{
    unsigned block[3], thread[3], warp, lane;
    loom_debug_get_focus(p->d, block, thread, &warp, &lane);
    char err[512] = "";
    struct loom_debug_reg r;
    if (*names) {
        char name[64];
        while (*(names += strspn(names, " \t"))) {
            size_t n = strcspn(names, " \t");
            snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), names);
            names += n;
            if (!loom_debug_read_reg(p->d, name, &r, err, sizeof err)) {
                prompt_error(p, "%s", err[0] ? err : "no such register");
                return;
            }
            char hex[40], nat[80];
            format_reg(hex, sizeof hex, &r, r.lane[lane & 31], 'x');
            format_reg(nat, sizeof nat, &r, r.lane[lane & 31], 0);
            prompt_printf(p, "%-10s %-5s %-20s %s\n", r.name, r.type ? r.type : "", hex, nat);
        }
        return;
    }
    unsigned n = loom_debug_reg_names(p->d, NULL, 0);
    const char **all = n ? calloc(n, sizeof *all) : NULL;
    if (!all) {
        prompt_printf(p, "The function declares no registers.\n");
        return;
    }
    n = loom_debug_reg_names(p->d, all, n);
    for (unsigned i = 0; i < n; i++) {
        if (!loom_debug_read_reg(p->d, all[i], &r, err, sizeof err))
            continue;
        char hex[40], nat[80];
        format_reg(hex, sizeof hex, &r, r.lane[lane & 31], 'x');
        format_reg(nat, sizeof nat, &r, r.lane[lane & 31], 0);
        prompt_printf(p, "%-10s %-5s %-20s %s\n", r.name, r.type ? r.type : "", hex, nat);
    }
    free(all);
}

static void info_line(struct prompt *p, const char *args)
{
    if (!*args) {
        struct loom_debug_where w;
        if (!loom_debug_backtrace(p->d, &w, 1))
            w = p->stop->where;
        char fn[512];
        prompt_func(w.function, fn, sizeof fn);
        if (w.cu_file && w.cu_line)
            prompt_printf(p, "Line %u of \"%s\" is at %s:%u (pc %u) in %s.\n", w.cu_line, prompt_base(w.cu_file),
                          prompt_base(w.ptx_file), w.ptx_line, (unsigned)w.pc, fn);
        else
            prompt_printf(p, "Line %u of \"%s\" (pc %u) is in %s.\n", w.ptx_line, prompt_base(w.ptx_file),
                          (unsigned)w.pc, fn);
        return;
    }
    char file[512];
    snprintf(file, sizeof file, "%s", args);
    char *colon = strrchr(file, ':');
    uint64_t line;
    if (!colon || !prompt_number(colon + 1, &line)) {
        prompt_error(p, "usage: info line [FILE:LINE]");
        return;
    }
    *colon = '\0';
    unsigned with = loom_debug_line_with_code(p->d, file, (unsigned)line);
    if (with == line)
        prompt_printf(p, "Line %u of \"%s\" has code.\n", (unsigned)line, prompt_base(file));
    else if (with)
        prompt_printf(p, "Line %u of \"%s\" has no code; the next line with code is %u.\n", (unsigned)line,
                      prompt_base(file), with);
    else
        prompt_printf(p, "Line %u of \"%s\" has no code, nor any line after it.\n", (unsigned)line, prompt_base(file));
}

static void info_frame(struct prompt *p)
{
    struct loom_debug_where w[2];
    unsigned n = loom_debug_backtrace(p->d, w, 2);
    if (!n) {
        prompt_error(p, "The focused block is not running now.");
        return;
    }
    char fn[512], at[600];
    where_text(&w[0], at, sizeof at);
    prompt_printf(p, "Stack level 0, pc %u in %s at %s\n", (unsigned)w[0].pc, prompt_func(w[0].function, fn, sizeof fn),
                  at);
    if (n > 1) {
        where_text(&w[1], at, sizeof at);
        prompt_printf(p, " called by frame 1, pc %u in %s at %s\n", (unsigned)w[1].pc,
                      prompt_func(w[1].function, fn, sizeof fn), at);
    }
}

static const char *const info_words[] = { "warps", "lanes", "simt", "barriers", "kernels", "blocks",
                                          "registers", "breakpoints", "line", "frame", "watchpoints" };

enum prompt_result prompt_cmd_info(struct prompt *p, const char *args, const char *fmt)
{
    size_t n = strcspn(args, " \t");
    const char *rest = args + n + strspn(args + n, " \t");
    const char *what = NULL;
    for (unsigned i = 0; n && i < sizeof info_words / sizeof info_words[0]; i++)
        if (strncmp(info_words[i], args, n) == 0 && (!what || strlen(info_words[i]) == n)) {
            if (what && strlen(what) != n && strlen(info_words[i]) != n) {
                prompt_error(p, "info: '%.*s' is ambiguous", (int)n, args);
                return PROMPT_STAY;
            }
            what = info_words[i];
        }
    if (n == 1 && args[0] == 'b')
        what = "breakpoints";   /* (gdb's info b) */
    if (n == 1 && args[0] == 'r')
        what = "registers";
    if (!what) {
        prompt_error(p, "info: %s%.*s%s (warps lanes simt barriers kernels blocks registers breakpoints line frame)",
                     n ? "unknown subject '" : "what?", (int)n, args, n ? "'" : "");
        return PROMPT_STAY;
    }
    if (strcmp(what, "breakpoints") == 0 || strcmp(what, "watchpoints") == 0) {
        prompt_info_breakpoints(p);
        return PROMPT_STAY;
    }
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    if (strcmp(what, "warps") == 0) info_warps(p);
    else if (strcmp(what, "lanes") == 0) info_lanes(p);
    else if (strcmp(what, "simt") == 0) info_text(p, loom_debug_simt, "(no SIMT state)");
    else if (strcmp(what, "barriers") == 0) info_text(p, loom_debug_barriers, "No thread waits at a barrier.");
    else if (strcmp(what, "kernels") == 0) info_kernels(p);
    else if (strcmp(what, "blocks") == 0) info_blocks(p);
    else if (strcmp(what, "registers") == 0) info_registers(p, rest);
    else if (strcmp(what, "line") == 0) info_line(p, rest);
    else info_frame(p);
    return PROMPT_STAY;
}

/* ---- backtrace, list ------------------------------------------------------------------------ */

enum prompt_result prompt_cmd_backtrace(struct prompt *p, const char *args, const char *fmt)
{
    if (!prompt_need_stop(p))
        return PROMPT_STAY;
    struct loom_debug_where w[64];
    unsigned n = loom_debug_backtrace(p->d, w, 64);
    if (!n) {
        prompt_error(p, "The focused block is not running now.");
        return PROMPT_STAY;
    }
    for (unsigned i = 0; i < n && i < 64; i++) {
        char fn[512], at[600];
        where_text(&w[i], at, sizeof at);
        prompt_printf(p, "#%-2u %s at %s\n", i, prompt_func(w[i].function, fn, sizeof fn), at);
    }
    return PROMPT_STAY;
}

enum prompt_result prompt_cmd_list(struct prompt *p, const char *args, const char *fmt)
{
    unsigned asked = 0;
    if (*args) {
        char file[512];
        snprintf(file, sizeof file, "%s", args);
        char *colon = strrchr(file, ':');
        uint64_t line;
        if (colon && prompt_number(colon + 1, &line)) {
            *colon = '\0';
            snprintf(p->list_file, sizeof p->list_file, "%s", file);
        } else if (!prompt_number(file, &line)) {
            prompt_error(p, "usage: list [FILE:LINE | LINE]");
            return PROMPT_STAY;
        }
        if (!p->list_file[0]) {
            prompt_error(p, "list: which file? (list FILE:LINE)");
            return PROMPT_STAY;
        }
        p->list_line = line > 5 ? (unsigned)line - 5 : 1;
        asked = (unsigned)line;
    }
    if (!p->list_file[0]) {
        prompt_error(p, "No kernel has stopped yet: list FILE:LINE shows a file.");
        return PROMPT_STAY;
    }
    unsigned shown = 0;
    for (unsigned l = p->list_line; l < p->list_line + 10; l++) {
        unsigned len = 0;
        const char *text = loom_debug_source_line(p->d, p->list_file, l, &len);
        if (!text)
            break;
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            len--;
        prompt_printf(p, "%u\t%.*s\n", l, (int)len, text);
        shown++;
    }
    unsigned len = 0;
    if (!shown && !loom_debug_source_line(p->d, p->list_file, 1, &len))
        prompt_error(p, "No source file named %s.", p->list_file);
    else if (!shown)
        prompt_error(p, "Line %u is out of range for \"%s\".", asked ? asked : p->list_line, prompt_base(p->list_file));
    p->list_line += shown ? shown : 0;
    return PROMPT_STAY;
}
