/* loom_cmd_run.c -- `loom run`: runs one PTX kernel with its arguments on the command line,
 * in the syntax of the GPU-side recorder .tools/gpurun, with strict checking of every value. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/loom_cli.h"
#include "loom/loom.h"

#define RUN_USAGE_ERROR 2
#define RUN_KERNEL_ERROR 1
#define RUN_INTERRUPTED 130         /* 128 + SIGINT, as a shell reports a process Ctrl-C ended */
#define RUN_USAGE "usage: loom run FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] [--shared BYTES] [ARG ...]"

/* ---- Value types ------------------------------------------------------------------------ */

enum run_type {
    RUN_U8, RUN_U16, RUN_U32, RUN_U64, RUN_S8, RUN_S16, RUN_S32, RUN_S64, RUN_F32, RUN_F64,
    RUN_F16, RUN_BF16, RUN_B8, RUN_B16, RUN_B32, RUN_B64, RUN_PTR, RUN_NTYPES
};

static const struct {
    const char *name;
    unsigned size;
    char kind;                  /* 'u' unsigned, 's' signed, 'f' floating, 'h' half-width floating
                                   (f16, bf16), 'b' bits (either sign), 'p' pointer */
    const char *min, *max;      /* the range, as printed in messages */
} run_types[RUN_NTYPES] = {
    [RUN_U8] = { "u8", 1, 'u', "0", "255" },
    [RUN_U16] = { "u16", 2, 'u', "0", "65535" },
    [RUN_U32] = { "u32", 4, 'u', "0", "4294967295" },
    [RUN_U64] = { "u64", 8, 'u', "0", "18446744073709551615" },
    [RUN_S8] = { "s8", 1, 's', "-128", "127" },
    [RUN_S16] = { "s16", 2, 's', "-32768", "32767" },
    [RUN_S32] = { "s32", 4, 's', "-2147483648", "2147483647" },
    [RUN_S64] = { "s64", 8, 's', "-9223372036854775808", "9223372036854775807" },
    [RUN_F32] = { "f32", 4, 'f', NULL, NULL },
    [RUN_F64] = { "f64", 8, 'f', NULL, NULL },
    [RUN_F16] = { "f16", 2, 'h', NULL, NULL },
    [RUN_BF16] = { "bf16", 2, 'h', NULL, NULL },
    [RUN_B8] = { "b8", 1, 'b', "-128", "255" },
    [RUN_B16] = { "b16", 2, 'b', "-32768", "65535" },
    [RUN_B32] = { "b32", 4, 'b', "-2147483648", "4294967295" },
    [RUN_B64] = { "b64", 8, 'b', "-9223372036854775808", "18446744073709551615" },
    [RUN_PTR] = { "ptr", 8, 'p', "0", "18446744073709551615" },
};

#define RUN_TYPE_NAMES "u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64 b8 b16 b32 b64 ptr"

/* d rounded to nearest even in a binary format of `ebits` exponent and `mbits` fraction
 * bits (f16: 5, 10; bf16: 8, 7), straight from the double (no double rounding). Returns
 * false when d rounds beyond the largest finite value. NaN becomes the quiet NaN. */
static bool small_float(double d, unsigned ebits, unsigned mbits, uint16_t *out)
{
    uint16_t sign = signbit(d) ? (uint16_t)(1u << (ebits + mbits)) : 0;
    uint16_t inf = (uint16_t)(((1u << ebits) - 1) << mbits);
    if (isnan(d)) { *out = (uint16_t)(inf | (1u << (mbits - 1))); return true; }
    if (isinf(d)) { *out = sign | inf; return true; }
    double a = fabs(d);
    int bias = (1 << (ebits - 1)) - 1, e;
    frexp(a, &e);                           /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;                        /* a = 1.x * 2^exp */
    if (exp < 1 - bias) exp = 1 - bias;     /* subnormal: the smallest exponent's step */
    double step = ldexp(1.0, exp - (int)mbits), q = a / step, r = floor(q);
    if (q - r > 0.5 || (q - r == 0.5 && fmod(r, 2.0) != 0)) r += 1;
    /* r = significand in units of step: at most 2^(mbits+1) (which carries to the next exponent) */
    double v = r * step;
    if (a == 0) { *out = sign; return true; }
    int ve;
    frexp(v, &ve);
    int vexp = ve - 1;
    if (vexp > bias) return false;
    if (vexp < 1 - bias || v < ldexp(1.0, 1 - bias)) { *out = sign | (uint16_t)r; return true; }   /* subnormal */
    uint16_t frac = (uint16_t)(v / ldexp(1.0, vexp - (int)mbits) - ldexp(1.0, (int)mbits));
    *out = sign | (uint16_t)((unsigned)(vexp + bias) << mbits) | frac;
    return true;
}

static bool run_type_find(const char *name, size_t len, enum run_type *out)
{
    for (int t = 0; t < RUN_NTYPES; t++)
        if (strlen(run_types[t].name) == len && strncmp(run_types[t].name, name, len) == 0) {
            *out = (enum run_type)t;
            return true;
        }
    return false;
}

/* ---- The command's state ------------------------------------------------------------------ */

enum run_arg_kind { RUN_SCALAR, RUN_IN, RUN_OUT, RUN_INOUT };
enum run_init { RUN_INIT_NONE, RUN_INIT_FILE, RUN_INIT_ZERO, RUN_INIT_FILL, RUN_INIT_IOTA };

/* One kernel argument as written on the command line. */
struct run_arg {
    const char *text;
    enum run_arg_kind kind;
    enum run_type type;
    uint8_t value[8];           /* scalar, or the fill value: little-endian bytes */
    uint64_t count;
    enum run_init init;
    const char *in_path, *out_path;
    uint64_t addr;              /* device buffer */
    uint64_t param;             /* what the kernel's parameter receives */
};

struct run_opts {
    const char *file, *kernel, *device;
    unsigned grid[3], block[3];
    bool have_grid, have_block, have_shared, have_workers, have_timeout, have_watchdog, have_simt, have_trace_cap;
    double watchdog;
    const char *simt;
    const char *trace;          /* --trace FILE.json */
    uint64_t trace_cap;         /* --trace-cap N */
    bool trace_warps;
    uint64_t shared;
    unsigned workers;
    double timeout;
    bool stats, no_check, deterministic, verbose, cooperative, initcheck, racecheck, quiet;
    bool counters;                      /* --stats, --stats=json: per-line and memory counters */
    const char *stats_json;             /* --stats=json FILE */
    const char *report;                 /* --report FILE.html */
    char *policies[8];                  /* --simt a,b,...: each run in turn */
    const char *sched;                  /* --sched POLICY */
    bool have_sched;
    bool timing_model, have_timing;     /* --timing model: the summary line in virtual time */
    unsigned npolicies;
    struct run_arg *args;
    unsigned nargs;
};

/* The command whose messages these are: "run", or loom_cmd_run_debug's caller ("debug"). */
static const char *run_name = "run";

/* Prints "loom run: ..." on stderr as one line. */
static void run_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "loom %s: ", run_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Same, prefixed with the argument's position and text. */
static void arg_error(const struct run_arg *a, unsigned i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void arg_error(const struct run_arg *a, unsigned i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "loom %s: argument %u '%s': ", run_name, i + 1, a->text);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- Numbers ----------------------------------------------------------------------------
 * The values mean what .tools/gpurun makes of them: integers through strtoll/strtoull with
 * base 0 (decimal, 0x hex, leading-0 octal), floating values through strtod (f32 then
 * rounded from the double), stored as the low bytes, little-endian. Unlike gpurun, the
 * whole text must be a number and must fit the type. */

/* Parses `s` as a value of type t into out[0..size). On failure writes the reason to why. */
static bool parse_value(enum run_type t, const char *s, uint8_t out[8], char *why, size_t why_size)
{
    const char *name = run_types[t].name;
    char kind = run_types[t].kind;
    char *end;
    memset(out, 0, 8);
    if (!*s || *s == ' ' || *s == '\t' || *s == '\n') {
        snprintf(why, why_size, "'%s' is not a valid %s", s, name);
        return false;
    }
    errno = 0;
    if (kind == 'p' && strcmp(s, "null") == 0)
        return true;                                        /* (out is zeroed) */
    if (kind == 'h') {
        double d = strtod(s, &end);
        uint16_t h;
        if (end == s || *end) {
            snprintf(why, why_size, "'%s' is not a valid %s", s, name);
            return false;
        }
        if ((errno == ERANGE && isinf(d)) || !small_float(d, t == RUN_F16 ? 5 : 8, t == RUN_F16 ? 10 : 7, &h)) {
            snprintf(why, why_size, "%s is out of range for %s", s, name);
            return false;
        }
        memcpy(out, &h, 2);
        return true;
    }
    if (kind == 'b' && s[0] == '-') {
        enum run_type st = t == RUN_B8 ? RUN_S8 : t == RUN_B16 ? RUN_S16 : t == RUN_B32 ? RUN_S32 : RUN_S64;
        if (parse_value(st, s, out, why, why_size)) return true;
        snprintf(why, why_size, "%s is out of range for %s (%s to %s)", s, name, run_types[t].min, run_types[t].max);
        return false;
    }
    if (kind == 'f') {
        double d = strtod(s, &end);
        if (end == s || *end) {
            snprintf(why, why_size, "'%s' is not a valid %s", s, name);
            return false;
        }
        /* f32: a finite double at or beyond FLT_MAX plus half an ulp rounds to infinity. */
        if ((errno == ERANGE && isinf(d)) || (t == RUN_F32 && !isinf(d) && fabs(d) >= 0x1.ffffffp+127)) {
            snprintf(why, why_size, "%s is out of range for %s", s, name);
            return false;
        }
        if (t == RUN_F32) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    unsigned bits = run_types[t].size * 8;
    bool neg = s[0] == '-';
    if (kind == 'u' || kind == 'b' || kind == 'p') {
        unsigned long long v = strtoull(neg ? s + 1 : s, &end, 0);
        if (end == (neg ? s + 1 : s) || *end || (neg && (s[1] == '-' || s[1] == '+'))) {
            snprintf(why, why_size, "'%s' is not a valid %s", s, name);
            return false;
        }
        if (errno == ERANGE || (neg && v != 0) || (bits < 64 && v >> bits)) {
            snprintf(why, why_size, "%s is out of range for %s (%s to %s)", s, name, run_types[t].min,
                     run_types[t].max);
            return false;
        }
        memcpy(out, &v, run_types[t].size);
        return true;
    }
    long long v = strtoll(s, &end, 0);
    if (end == s || *end) {
        snprintf(why, why_size, "'%s' is not a valid %s", s, name);
        return false;
    }
    long long lo = bits < 64 ? -(1LL << (bits - 1)) : LLONG_MIN, hi = bits < 64 ? (1LL << (bits - 1)) - 1 : LLONG_MAX;
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(why, why_size, "%s is out of range for %s (%s to %s)", s, name, run_types[t].min, run_types[t].max);
        return false;
    }
    memcpy(out, &v, run_types[t].size);
    return true;
}

/* A whole decimal number without sign (grid, block, shared, workers). */
static bool parse_decimal(const char *s, size_t len, uint64_t *out)
{
    if (!len || len > 19)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* X[,Y[,Z]]: one to three decimal numbers of at least 1. */
static bool parse_dims(const char *opt, const char *s, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    const char *p = s;
    for (int i = 0;; i++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        uint64_t v;
        if (i == 3) {
            run_error("%s '%s': at most three dimensions (X[,Y[,Z]])", opt, s);
            return false;
        }
        if (!parse_decimal(p, len, &v) || v == 0 || v > UINT32_MAX) {
            run_error("%s '%s': each dimension must be a decimal number of at least 1", opt, s);
            return false;
        }
        out[i] = (unsigned)v;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

/* ---- Arguments --------------------------------------------------------------------------
 *   TYPE:VALUE | in:TYPE:COUNT=INIT | out:TYPE:COUNT>PATH | inout:TYPE:COUNT=INIT>PATH
 *   INIT: @PATH | zero | fill:VALUE | iota  */

static bool parse_arg(struct run_arg *a, unsigned i)
{
    const char *s = a->text, *colon = strchr(s, ':');
    char why[256];
    if (!colon) {
        arg_error(a, i, "expected TYPE:VALUE, in:TYPE:COUNT=INIT, out:TYPE:COUNT>PATH or inout:TYPE:COUNT=INIT>PATH");
        return false;
    }
    size_t klen = (size_t)(colon - s);
    if ((klen == 2 && !strncmp(s, "in", 2)) || (klen == 3 && !strncmp(s, "out", 3)) ||
        (klen == 5 && !strncmp(s, "inout", 5)))
        a->kind = klen == 2 ? RUN_IN : klen == 3 ? RUN_OUT : RUN_INOUT;
    else
        a->kind = RUN_SCALAR;
    if (a->kind == RUN_SCALAR) {
        if (!run_type_find(s, klen, &a->type)) {
            arg_error(a, i, "unknown type '%.*s' (" RUN_TYPE_NAMES ", or in/out/inout for buffers)", (int)klen, s);
            return false;
        }
        if (!parse_value(a->type, colon + 1, a->value, why, sizeof why)) {
            arg_error(a, i, "%s", why);
            return false;
        }
        return true;
    }
    const char *tp = colon + 1, *c2 = strchr(tp, ':');
    if (!c2) {
        arg_error(a, i, "expected %.*s:TYPE:COUNT...", (int)klen, s);
        return false;
    }
    if (!run_type_find(tp, (size_t)(c2 - tp), &a->type)) {
        arg_error(a, i, "unknown type '%.*s' (" RUN_TYPE_NAMES ")", (int)(c2 - tp), tp);
        return false;
    }
    const char *cnt = c2 + 1;
    size_t clen = strcspn(cnt, "=>");
    char count_text[32];
    char *end;
    snprintf(count_text, sizeof count_text, "%.*s", (int)(clen < 31 ? clen : 31), cnt);
    errno = 0;
    unsigned long long count = strtoull(count_text, &end, 0);
    if (!clen || clen > 30 || count_text[0] < '0' || count_text[0] > '9' || *end || errno == ERANGE) {
        arg_error(a, i, "'%.*s' is not a valid COUNT", (int)clen, cnt);
        return false;
    }
    if (count == 0) {
        arg_error(a, i, "COUNT must be at least 1");
        return false;
    }
    a->count = count;
    const char *rest = cnt + clen, *out = NULL;
    if (*rest == '=') {
        const char *init = rest + 1;
        size_t ilen = strcspn(init, ">");
        out = init[ilen] == '>' ? init + ilen + 1 : NULL;
        if (ilen >= 1 && init[0] == '@') {
            if (ilen == 1) {
                arg_error(a, i, "missing PATH after '=@'");
                return false;
            }
            a->init = RUN_INIT_FILE;
            a->in_path = strndup(init + 1, ilen - 1);
        } else if (ilen == 4 && !strncmp(init, "zero", 4)) {
            a->init = RUN_INIT_ZERO;
        } else if (ilen == 4 && !strncmp(init, "iota", 4)) {
            a->init = RUN_INIT_IOTA;
        } else if (ilen >= 5 && !strncmp(init, "fill:", 5)) {
            char *v = strndup(init + 5, ilen - 5);
            bool ok = v && parse_value(a->type, v, a->value, why, sizeof why);
            free(v);
            if (!ok) {
                arg_error(a, i, "in fill:VALUE, %s", why);
                return false;
            }
            a->init = RUN_INIT_FILL;
        } else {
            arg_error(a, i, "unknown initialiser '%.*s' (=@PATH, =zero, =fill:VALUE or =iota)", (int)ilen, init);
            return false;
        }
    } else if (*rest == '>') {
        out = rest + 1;
    }
    if (out) {
        if (!*out) {
            arg_error(a, i, "missing PATH after '>'");
            return false;
        }
        a->out_path = out;
    }
    switch (a->kind) {
    case RUN_IN:
        if (a->init == RUN_INIT_NONE) {
            arg_error(a, i, "an in buffer needs =@PATH, =zero, =fill:VALUE or =iota");
            return false;
        }
        if (a->out_path) {
            arg_error(a, i, "an in buffer is not written back; use inout:TYPE:COUNT=INIT>PATH");
            return false;
        }
        break;
    case RUN_OUT:
        if (a->init != RUN_INIT_NONE) {
            arg_error(a, i, "an out buffer starts zero-filled and takes no initialiser; use inout:TYPE:COUNT=INIT>PATH");
            return false;
        }
        if (!a->out_path) {
            arg_error(a, i, "an out buffer needs >PATH");
            return false;
        }
        break;
    default:
        if (a->init == RUN_INIT_NONE || !a->out_path) {
            arg_error(a, i, "an inout buffer needs =INIT and >PATH (inout:TYPE:COUNT=@IN>OUT)");
            return false;
        }
        break;
    }
    return true;
}

/* The kernel parameter's type, as the syntax of an argument would name it. */
static void param_type_name(const struct loom_param_info *p, char *out, size_t size)
{
    if (p->kind == LOOM_PARAM_BYTES)
        snprintf(out, size, "b8[%u]", p->size);
    else if (p->kind == LOOM_PARAM_FLOAT)
        snprintf(out, size, "f%u", p->size * 8);
    else
        snprintf(out, size, "%c%u", p->is_signed ? 's' : 'u', p->size * 8);
}

/* "n: u32, a: f32, x: u64": the kernel's parameters, for messages. (PTX from nvcc declares
 * pointers and 64-bit integers alike as .u64, so pointers are not singled out.) */
static void param_list(const struct loom_kernel *k, char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    unsigned n = loom_kernel_param_count(k);
    for (unsigned i = 0; i < n && used < size; i++) {
        struct loom_param_info p;
        char t[32];
        loom_kernel_param(k, i, &p);
        param_type_name(&p, t, sizeof t);
        int w = snprintf(out + used, size - used, "%s%s: %s", i ? ", " : "", p.name ? p.name : "?", t);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Checks argument i against parameter i of the kernel: sizes, and buffer limits. */
static bool check_arg(const struct run_arg *a, unsigned i, const struct loom_kernel *k,
                      const struct loom_device_props *props)
{
    struct loom_param_info p;
    char pt[32];
    loom_kernel_param(k, i, &p);
    param_type_name(&p, pt, sizeof pt);
    const char *pname = p.name ? p.name : "?";
    unsigned es = run_types[a->type].size;
    if (a->kind == RUN_SCALAR) {
        if (es != p.size) {
            arg_error(a, i, "parameter '%s' is %s (%u byte%s), %s is %u", pname, pt, p.size, p.size == 1 ? "" : "s",
                      run_types[a->type].name, es);
            return false;
        }
        return true;
    }
    if (p.size != 8 || p.kind != LOOM_PARAM_INT) {
        arg_error(a, i, "parameter '%s' is %s; a buffer's address needs a 64-bit integer parameter", pname, pt);
        return false;
    }
    if (a->count > (uint64_t)props->total_global_mem / es) {
        arg_error(a, i, "COUNT %" PRIu64 " of %s is more than the device's %zu bytes of memory", a->count,
                  run_types[a->type].name, props->total_global_mem);
        return false;
    }
    return true;
}

/* Input file of exactly COUNT elements; output path whose folder can be written. Returns 0,
 * RUN_KERNEL_ERROR for a file that cannot be read or written, RUN_USAGE_ERROR for a COUNT
 * that does not match the input file. */
static int check_files(const struct run_arg *a, unsigned i)
{
    struct stat st;
    uint64_t bytes = a->count * run_types[a->type].size;
    if (a->init == RUN_INIT_FILE) {
        if (stat(a->in_path, &st) != 0 || access(a->in_path, R_OK) != 0) {
            arg_error(a, i, "cannot read '%s': %s", a->in_path, strerror(errno));
            return RUN_KERNEL_ERROR;
        }
        if (S_ISDIR(st.st_mode)) {
            arg_error(a, i, "cannot read '%s': it is a directory", a->in_path);
            return RUN_KERNEL_ERROR;
        }
        if ((uint64_t)st.st_size != bytes) {
            arg_error(a, i, "'%s' has %" PRIu64 " bytes; COUNT %" PRIu64 " of %s needs %" PRIu64, a->in_path,
                      (uint64_t)st.st_size, a->count, run_types[a->type].name, bytes);
            return RUN_USAGE_ERROR;
        }
    }
    if (a->out_path) {
        if (stat(a->out_path, &st) == 0 && S_ISDIR(st.st_mode)) {
            arg_error(a, i, "cannot write '%s': it is a directory", a->out_path);
            return RUN_KERNEL_ERROR;
        }
        const char *slash = strrchr(a->out_path, '/');
        char *dir = slash ? strndup(a->out_path, slash == a->out_path ? 1 : (size_t)(slash - a->out_path)) : strdup(".");
        bool ok = dir && access(dir, W_OK | X_OK) == 0;
        int err = errno;
        free(dir);
        if (!ok) {
            arg_error(a, i, "cannot write '%s': %s", a->out_path, strerror(err));
            return RUN_KERNEL_ERROR;
        }
    }
    return 0;
}

/* ---- Options ----------------------------------------------------------------------------- */

/* Returns the value of an option given as `--opt VALUE` or `--opt=VALUE`, or NULL after
 * reporting that it is missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *eq)
{
    if (eq)
        return eq + 1;
    if (*i + 1 >= argc) {
        run_error("%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

static bool once(bool *seen, const char *opt)
{
    if (*seen) {
        run_error("%s given twice", opt);
        return false;
    }
    *seen = true;
    return true;
}

/* Parses the command line into o. Returns 0 to run, -1 after --help, or an exit status. */
static int parse_options(int argc, char **argv, struct run_opts *o)
{
    bool seen_kernel = false, seen_device = false, seen_trace = false;
    o->args = calloc((size_t)argc + 1, sizeof *o->args);
    if (!o->args) {
        run_error("out of memory");
        return RUN_KERNEL_ERROR;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !arg[1]) {
            if (!o->file)
                o->file = arg;
            else
                o->args[o->nargs++].text = arg;
            continue;
        }
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            puts(RUN_USAGE);
            puts("(see 'loom help run' for the arguments)");
            return -1;
        }
        if (!strcmp(arg, "-v") || !strcmp(arg, "--verbose")) {
            o->verbose = true;
            continue;
        }
        if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
            o->quiet = true;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(nlen < 31 ? nlen : 31), arg);
        const char *v;
        uint64_t n;
        if (!strcmp(name, "--stats")) {
            /* --stats: totals and counters; =brief: totals only (no instruction observed);
             * =json FILE: the counters as JSON (docs/OBSERVE.md). */
            if (eq && strcmp(eq + 1, "brief") && strcmp(eq + 1, "json")) {
                run_error("--stats takes no value, =brief or =json FILE, not '%s'", eq + 1);
                return RUN_USAGE_ERROR;
            }
            o->stats = true;
            o->counters = !eq || strcmp(eq + 1, "brief");
            if (eq && !strcmp(eq + 1, "json")) {
                if (i + 1 >= argc || !*argv[i + 1]) {
                    run_error("--stats=json needs a file name");
                    return RUN_USAGE_ERROR;
                }
                o->stats_json = argv[++i];
            }
            continue;
        }
        if (!strcmp(name, "--trace-warps")) {
            if (eq) {
                run_error("%s takes no value", name);
                return RUN_USAGE_ERROR;
            }
            o->trace_warps = true;
            continue;
        }
        if (!strcmp(name, "--no-check") || !strcmp(name, "--deterministic") ||
            !strcmp(name, "--cooperative") || !strcmp(name, "--initcheck") || !strcmp(name, "--racecheck")) {
            if (eq) {
                run_error("%s takes no value", name);
                return RUN_USAGE_ERROR;
            }
            if (name[2] == 'c')
                o->cooperative = true;
            else if (name[2] == 'i')
                o->initcheck = true;
            else if (name[2] == 'r')
                o->racecheck = true;
            else if (name[2] == 'n')
                o->no_check = true;
            else
                o->deterministic = true;
            continue;
        }
        if (!strcmp(name, "--report")) {
            if (o->report) {
                run_error("--report given twice");
                return RUN_USAGE_ERROR;
            }
            if (!(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!*v) {
                run_error("--report needs a file name");
                return RUN_USAGE_ERROR;
            }
            o->report = v;
            o->stats = o->counters = true;   /* (the report draws the counters) */
            continue;
        }
        if (!strcmp(name, "--kernel")) {
            if (!once(&seen_kernel, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!*v) {
                run_error("--kernel needs a name");
                return RUN_USAGE_ERROR;
            }
            o->kernel = v;
        } else if (!strcmp(name, "--grid") || !strcmp(name, "--block")) {
            bool grid = name[2] == 'g';
            if (!once(grid ? &o->have_grid : &o->have_block, name) || !(v = opt_value(argc, argv, &i, eq)) ||
                !parse_dims(name, v, grid ? o->grid : o->block))
                return RUN_USAGE_ERROR;
        } else if (!strcmp(name, "--shared")) {
            if (!once(&o->have_shared, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!parse_decimal(v, strlen(v), &n)) {
                run_error("--shared '%s' is not a number of bytes", v);
                return RUN_USAGE_ERROR;
            }
            o->shared = n;
        } else if (!strcmp(name, "--workers")) {
            if (!once(&o->have_workers, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!parse_decimal(v, strlen(v), &n) || n == 0 || n > 65536) {
                run_error("--workers '%s' must be a whole number from 1 to 65536", v);
                return RUN_USAGE_ERROR;
            }
            o->workers = (unsigned)n;
        } else if (!strcmp(name, "--timeout")) {
            char *end;
            if (!once(&o->have_timeout, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            errno = 0;
            o->timeout = strtod(v, &end);
            if (end == v || *end || errno || !(o->timeout > 0) || isinf(o->timeout)) {
                run_error("--timeout '%s' must be a number of seconds above 0", v);
                return RUN_USAGE_ERROR;
            }
        } else if (!strcmp(name, "--watchdog")) {
            char *end;
            if (!once(&o->have_watchdog, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            errno = 0;
            o->watchdog = strtod(v, &end);
            if (end == v || *end || errno || !(o->watchdog >= 0) || isinf(o->watchdog)) {
                run_error("--watchdog '%s' must be a number of seconds (0: off)", v);
                return RUN_USAGE_ERROR;
            }
        } else if (!strcmp(name, "--device")) {
            if (!once(&seen_device, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            o->device = v;
        } else if (!strcmp(name, "--trace")) {
            if (!once(&seen_trace, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!*v) {
                run_error("--trace needs a file name");
                return RUN_USAGE_ERROR;
            }
            o->trace = v;
        } else if (!strcmp(name, "--trace-cap")) {
            if (!once(&o->have_trace_cap, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (!parse_decimal(v, strlen(v), &n) || n == 0) {
                run_error("--trace-cap '%s' must be a whole number of events above 0", v);
                return RUN_USAGE_ERROR;
            }
            o->trace_cap = n;
        } else if (!strcmp(name, "--sched")) {
            if (!once(&o->have_sched, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            char why[256];
            if (loom_sched_check(v, why, sizeof why) != LOOM_OK) {
                run_error("--sched: %s", why);
                return RUN_USAGE_ERROR;
            }
            o->sched = v;
        } else if (!strcmp(name, "--timing")) {
            if (!once(&o->have_timing, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            if (strcmp(v, "model") != 0 && strcmp(v, "wall") != 0) {
                run_error("--timing is wall (the default) or model, not '%s'", v);
                return RUN_USAGE_ERROR;
            }
            o->timing_model = strcmp(v, "model") == 0;
        } else if (!strcmp(name, "--simt")) {
            if (!once(&o->have_simt, name) || !(v = opt_value(argc, argv, &i, eq)))
                return RUN_USAGE_ERROR;
            o->simt = v;
            char why[256];
            if (!loom_cli_split_simt(v, o->policies, sizeof o->policies / sizeof o->policies[0], &o->npolicies, why,
                                     sizeof why)) {
                run_error("%s", why);
                return RUN_USAGE_ERROR;
            }
        } else {
            run_error("unknown option '%s' (see 'loom help run')", arg);
            return RUN_USAGE_ERROR;
        }
    }
    if (!o->file) {
        run_error("no PTX file given (%s)", RUN_USAGE);
        return RUN_USAGE_ERROR;
    }
    if ((o->trace_warps || o->have_trace_cap) && !o->trace) {
        run_error("%s needs --trace FILE.json", o->trace_warps ? "--trace-warps" : "--trace-cap");
        return RUN_USAGE_ERROR;
    }
    if (!o->have_grid || !o->have_block) {
        run_error("%s is required", !o->have_grid ? "--grid" : "--block");
        return RUN_USAGE_ERROR;
    }
    return 0;
}

/* ---- Running ------------------------------------------------------------------------------ */

/* The kernel's name in messages: demangled, as compute-sanitizer prints it ("kernel(int*)").
 * The list of kernels for --kernel shows both, PTX name first. */
static const char *kernel_display_name(const struct loom_kernel *k)
{
    static char buf[1024];
    return loom_demangle(loom_kernel_name(k), buf, sizeof buf);
}

/* How well `want` names the kernel whose PTX name is `ptx`: 4 the PTX (mangled) name, 3 the
 * demangled signature ("ns::scale<float>(float*, int)"), 2 that without its parameters
 * ("ns::scale<float>"), 1 the plain function name ("scale"); 0 not at all. */
static int name_match(const char *ptx, const char *want)
{
    if (!strcmp(ptx, want)) return 4;
    char buf[1024];
    const char *d = loom_demangle(ptx, buf, sizeof buf);
    if (!strcmp(d, want)) return 3;
    /* the parameter list: the first '(' outside <>; a template's return type: up to the
     * last space outside <> before it */
    size_t cut = strlen(d), start = 0;
    int depth = 0;
    for (size_t i = 0; d[i]; i++) {
        if (d[i] == '<') depth++;
        else if (d[i] == '>' && depth) depth--;
        else if (d[i] == ' ' && !depth) start = i + 1;
        else if (d[i] == '(' && !depth) { cut = i; break; }
    }
    char *n = buf + start;
    if (!strcmp(n, want)) return 3;
    n[cut - start] = 0;
    if (!strcmp(n, want)) return 2;
    size_t len = cut - start;
    if (len && n[len - 1] == '>') {       /* template arguments of the function itself */
        depth = 0;
        for (size_t i = len; i-- > 0;) {
            if (n[i] == '>') depth++;
            else if (n[i] == '<' && --depth == 0) { n[i] = 0; break; }
        }
    }
    const char *base = n;
    depth = 0;
    for (const char *c = n; *c; c++) {
        if (*c == '<') depth++;
        else if (*c == '>' && depth) depth--;
        else if (!depth && c[0] == ':' && c[1] == ':') base = c + 2;
    }
    return !strcmp(base, want) ? 1 : 0;
}

/* Appends "PTXNAME (demangled)", or the PTX name alone when it is not mangled. */
static void add_name(char *names, size_t size, size_t *used, const char *ptx)
{
    char d[512];
    loom_demangle(ptx, d, sizeof d);
    if (*used >= size) return;
    int w = strcmp(d, ptx) ? snprintf(names + *used, size - *used, "%s%s (%s)", *used ? ", " : "", ptx, d)
                           : snprintf(names + *used, size - *used, "%s%s", *used ? ", " : "", ptx);
    if (w > 0) *used += (size_t)w;
}

/* Picks the kernel: the one --kernel names (by its PTX name, its demangled signature, that
 * without parameters, or its plain name, when only one kernel has it), or the module's only
 * entry. */
static struct loom_kernel *pick_kernel(struct loom_module *mod, const struct run_opts *o)
{
    unsigned n = loom_module_kernel_count(mod);
    char names[2048] = "";
    size_t used = 0;
    for (unsigned i = 0; i < n; i++) add_name(names, sizeof names, &used, loom_kernel_name(loom_module_kernel(mod, i)));
    if (o->kernel) {
        struct loom_kernel *best = NULL;
        int level = 0;
        unsigned ties = 0;
        for (unsigned i = 0; i < n; i++) {
            struct loom_kernel *k = loom_module_kernel(mod, i);
            int m = name_match(loom_kernel_name(k), o->kernel);
            if (m > level) { level = m; best = k; ties = 1; }
            else if (m && m == level) ties++;
        }
        if (best && ties == 1)
            return best;
        if (best) {
            char tied[2048] = "";
            size_t tu = 0;
            for (unsigned i = 0; i < n; i++) {
                const char *pn = loom_kernel_name(loom_module_kernel(mod, i));
                if (name_match(pn, o->kernel) == level) add_name(tied, sizeof tied, &tu, pn);
            }
            run_error("--kernel '%s' names %u kernels of %s; give one's PTX name or signature: %s", o->kernel, ties,
                      o->file, tied);
        } else if (n)
            run_error("no kernel named '%s' in %s; its kernels: %s", o->kernel, o->file, names);
        else
            run_error("no kernel named '%s' in %s, which has no kernels (.entry)", o->kernel, o->file);
        return NULL;
    }
    if (n == 1)
        return loom_module_kernel(mod, 0);
    if (n == 0)
        run_error("%s has no kernels (.entry)", o->file);
    else
        run_error("%s has %u kernels (%s); choose one with --kernel", o->file, n, names);
    return NULL;
}

/* Checks the launch shape against the device and the kernel (exit status 2 on error). */
static bool check_launch(const struct run_opts *o, struct loom_kernel *k, const struct loom_device_props *props)
{
    struct loom_kernel_attrs at;
    loom_kernel_attrs(k, &at);
    for (int d = 0; d < 3; d++) {
        if (o->grid[d] > (unsigned)props->max_grid_dim[d]) {
            run_error("--grid %c is %u, the device allows at most %d", "xyz"[d], o->grid[d], props->max_grid_dim[d]);
            return false;
        }
        if (o->block[d] > (unsigned)props->max_block_dim[d]) {
            run_error("--block %c is %u, the device allows at most %d", "xyz"[d], o->block[d], props->max_block_dim[d]);
            return false;
        }
    }
    uint64_t threads = (uint64_t)o->block[0] * o->block[1] * o->block[2];
    if (threads > at.max_threads_per_block) {
        run_error("--block %u,%u,%u is %" PRIu64 " threads; kernel '%s' allows at most %u per block", o->block[0],
                  o->block[1], o->block[2], threads, kernel_display_name(k), at.max_threads_per_block);
        return false;
    }
    /* cuLaunchKernel's limit without the opt-in attribute, which gpurun does not set. */
    if (o->shared > at.max_dynamic_shared) {
        run_error("--shared %" PRIu64 " is more than the %zu bytes of dynamic shared memory kernel '%s' may use",
                  o->shared, at.max_dynamic_shared, kernel_display_name(k));
        return false;
    }
    if (o->shared + at.shared_bytes > props->shared_per_block_optin) {
        run_error("--shared %" PRIu64 " with the kernel's %zu bytes of static shared memory is more than the %zu bytes "
                  "a block may have", o->shared, at.shared_bytes, props->shared_per_block_optin);
        return false;
    }
    return true;
}

/* Allocates and initialises the device buffer of a. */
/* Allocates and initialises the device buffer of a, as gpurun does: the contents are
 * prepared on the host and copied in, zero and out buffers are memset (so that
 * --initcheck counts every buffer as written). */
static bool make_buffer(struct loom_device *dev, struct run_arg *a, unsigned i)
{
    unsigned es = run_types[a->type].size;
    uint64_t bytes = a->count * es;
    if (loom_malloc(dev, (size_t)bytes, &a->addr) != LOOM_OK) {
        arg_error(a, i, "%s", loom_device_error(dev));
        return false;
    }
    a->param = a->addr;
    if (a->init == RUN_INIT_NONE || a->init == RUN_INIT_ZERO) {
        if (loom_memset(dev, a->addr, 0, (size_t)bytes) != LOOM_OK) {
            arg_error(a, i, "%s", loom_device_error(dev));
            return false;
        }
        return true;
    }
    uint8_t *p = malloc((size_t)bytes);
    if (!p) {
        arg_error(a, i, "out of host memory for %" PRIu64 " bytes", bytes);
        return false;
    }
    switch (a->init) {
    case RUN_INIT_FILE: {
        FILE *f = fopen(a->in_path, "rb");
        size_t got = f ? fread(p, 1, (size_t)bytes, f) : 0;
        int err = errno;
        if (f)
            fclose(f);
        if (got != bytes) {
            arg_error(a, i, "cannot read '%s': %s", a->in_path, f ? "short read" : strerror(err));
            free(p);
            return false;
        }
        break;
    }
    case RUN_INIT_FILL:
        for (uint64_t k = 0; k < a->count; k++)
            memcpy(p + k * es, a->value, es);
        break;
    default:
        /* iota: gpurun stores (long long)k: floats get k converted, integers its low bytes. */
        for (uint64_t k = 0; k < a->count; k++) {
            if (a->type == RUN_F32) {
                float f = (float)(long long)k;
                memcpy(p + k * es, &f, 4);
            } else if (a->type == RUN_F64) {
                double d = (double)(long long)k;
                memcpy(p + k * es, &d, 8);
            } else if (a->type == RUN_F16 || a->type == RUN_BF16) {
                uint16_t h = 0;
                if (!small_float((double)(long long)k, a->type == RUN_F16 ? 5 : 8, a->type == RUN_F16 ? 10 : 7, &h))
                    h = 0x7c00;                    /* f16 beyond 65504: infinity, as a conversion gives */
                memcpy(p + k * es, &h, 2);
            } else {
                memcpy(p + k * es, &k, es);
            }
        }
        break;
    }
    bool ok = loom_memcpy(dev, (void *)(uintptr_t)a->addr, p, (size_t)bytes) == LOOM_OK;
    if (!ok)
        arg_error(a, i, "%s", loom_device_error(dev));
    free(p);
    return ok;
}

static void describe_arg(const struct run_arg *a, const struct loom_param_info *p)
{
    const char *t = run_types[a->type].name;
    if (a->kind == RUN_SCALAR) {
        fprintf(stderr, "  %s = %s\n", p->name ? p->name : "?", strchr(a->text, ':') + 1);
        return;
    }
    static const char *const kinds[] = { "", "in", "out", "inout" };
    fprintf(stderr, "  %s = %s %s[%" PRIu64 "] at 0x%" PRIx64, p->name ? p->name : "?", kinds[a->kind], t, a->count,
            a->addr);
    if (a->init == RUN_INIT_FILE)
        fprintf(stderr, " from '%s'", a->in_path);
    else if (a->init == RUN_INIT_FILL)
        fprintf(stderr, " filled with %s", strstr(a->text, "fill:") + 5);
    else if (a->init == RUN_INIT_IOTA)
        fprintf(stderr, " = 0, 1, 2 ...");
    if (a->out_path)
        fprintf(stderr, ", written to '%s'", a->out_path);
    fputc('\n', stderr);
}

static void print_stats(const struct loom_kernel_stats *s, void *data)
{
    char name[1024];
    double eff = s->warp_instructions ? 100.0 * (double)s->thread_instructions / (32.0 * (double)s->warp_instructions) : 0;
    fprintf(stderr,
            "loom run: stats: kernel '%s': %" PRIu64 " launch%s, %.6f s, %" PRIu64 " warp instructions, %" PRIu64
            " thread instructions (SIMD efficiency %.1f%%), %" PRIu64 " divergent branches, %" PRIu64 " barrier waits\n"
            "loom run: stats: %" PRIu64 " CTAs on %u worker%s (claimed in %" PRIu64 " chunks, %" PRIu64 " steals), at most %" PRIu64
            " resident at once; occupancy %u CTAs/SM (%.0f%% of the warp slots)\n"
            "loom run: stats: %" PRIu64 " parks (CTAs set aside unfinished), %" PRIu64 " CTAs admitted because every "
            "resident one was parked, %" PRIu64 " worker wake-up%s\n",
            loom_demangle(s->kernel, name, sizeof name), s->launches, s->launches == 1 ? "" : "es", s->seconds, s->warp_instructions,
            s->thread_instructions, eff, s->divergent_branches, s->barrier_waits, s->ctas, s->workers,
            s->workers == 1 ? "" : "s", s->chunks, s->steals, s->max_resident, s->occupancy_ctas_per_sm, 100.0 * s->occupancy,
            s->parks, s->admits_parked, s->wakeups, s->wakeups == 1 ? "" : "s");
    loom_stats_print_timeline(stderr, "loom run: stats: ", s);
    loom_stats_print_simt(stderr, "loom run: stats: ", s);
    loom_stats_print_counters(stderr, "loom run: stats: ", s, 10);
}

static bool write_output(const struct run_arg *a)
{
    uint64_t bytes = a->count * run_types[a->type].size;
    FILE *f = fopen(a->out_path, "wb");
    if (!f) {
        run_error("cannot write '%s': %s", a->out_path, strerror(errno));
        return false;
    }
    size_t put = fwrite((const void *)(uintptr_t)a->addr, 1, (size_t)bytes, f);
    if (fclose(f) != 0 || put != bytes) {
        run_error("cannot write '%s': %s", a->out_path, strerror(errno));
        return false;
    }
    return true;
}

static double run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads the module, checks everything against the kernel, runs it and writes the outputs. */
/* The debugger of loom_cmd_run_debug's run, or NULL. */
static struct loom_debug *run_debugger;

static int run_one(struct run_opts *o, const char *simt, unsigned nth, FILE *json)
{
    struct loom_device_config cfg = {
        .workers = o->workers, .preset = o->device, .deterministic = o->deterministic,
        .no_check = o->no_check, .stats = o->stats, .counters = o->counters, .timeout_s = o->timeout,
        .initcheck = o->initcheck, .racecheck = o->racecheck,
        .progress = !o->quiet && isatty(STDERR_FILENO),
        .watchdog_s = o->have_watchdog ? o->watchdog : 60, .simt = simt, .sched = o->sched,
        .timing_model = o->timing_model, .sched_summary = o->timing_model,
        /* (the first policy's run only, when there are several) */
        .trace_path = nth == 0 ? o->trace : NULL, .trace_cap = o->trace_cap, .trace_warps = o->trace_warps,
        .debugger = run_debugger,
    };
    struct loom_device *dev = NULL;
    if (loom_device_create(&cfg, &dev) != LOOM_OK) {
        run_error("%s%s", loom_device_error(NULL), o->device ? " (see 'loom info --presets')" : "");
        return RUN_USAGE_ERROR;
    }
    int rc = RUN_USAGE_ERROR;
    struct loom_module *mod = NULL;
    /* Ctrl-C during the kernel stops it with a report of where every warp is (under the
     * debugger's prompt it pauses the kernel instead: debug/prompt.c) */
    if (!run_debugger)
        loom_device_catch_sigint(dev);
    void **params = NULL;
    FILE *probe = fopen(o->file, "rb");
    if (!probe) {
        run_error("cannot read '%s': %s", o->file, strerror(errno));
        rc = RUN_KERNEL_ERROR;
        goto out;
    }
    fclose(probe);
    enum loom_status st = loom_module_load_file(dev, o->file, &mod);
    if (st != LOOM_OK) {
        if (st == LOOM_ERR_PARSE || st == LOOM_ERR_UNSUPPORTED) {
            fprintf(stderr, "%s\n", loom_device_error(dev));
            rc = RUN_KERNEL_ERROR;
        } else {
            run_error("%s", loom_device_error(dev));
        }
        goto out;
    }
    struct loom_kernel *k = pick_kernel(mod, o);
    if (!k)
        goto out;
    struct loom_device_props props;
    loom_device_props(dev, &props);
    unsigned np = loom_kernel_param_count(k);
    if (o->nargs != np) {
        char list[2048];
        param_list(k, list, sizeof list);
        if (np == 0)
            run_error("kernel '%s' takes no arguments, %u given", kernel_display_name(k), o->nargs);
        else
            run_error("kernel '%s' takes %u argument%s, %u given: %s", kernel_display_name(k), np, np == 1 ? "" : "s",
                      o->nargs, list);
        goto out;
    }
    for (unsigned i = 0; i < np; i++) {
        if (!check_arg(&o->args[i], i, k, &props))
            goto out;
        int frc = check_files(&o->args[i], i);
        if (frc) {
            rc = frc;
            goto out;
        }
    }
    if (!check_launch(o, k, &props))
        goto out;
    params = calloc(np + 1, sizeof *params);
    if (!params) {
        run_error("out of memory");
        goto out;
    }
    for (unsigned i = 0; i < np; i++) {
        struct run_arg *a = &o->args[i];
        if (a->kind == RUN_SCALAR) {
            memcpy(&a->param, a->value, 8);
        } else if (!make_buffer(dev, a, i)) {
            rc = RUN_KERNEL_ERROR;
            goto out;
        }
        params[i] = &a->param;
    }
    if (o->verbose) {
        struct loom_kernel_attrs at;
        loom_kernel_attrs(k, &at);
        fprintf(stderr, "loom run: kernel '%s' of %s on %s: grid (%u,%u,%u), block (%u,%u,%u), %" PRIu64
                " bytes of dynamic and %zu of static shared memory, %u registers, %u argument%s\n",
                kernel_display_name(k), o->file, props.name, o->grid[0], o->grid[1], o->grid[2], o->block[0], o->block[1],
                o->block[2], o->shared, at.shared_bytes, at.num_regs, np, np == 1 ? "" : "s");
        for (unsigned i = 0; i < np; i++) {
            struct loom_param_info p;
            loom_kernel_param(k, i, &p);
            describe_arg(&o->args[i], &p);
        }
    }
    struct loom_launch_config lc = {
        .grid = { o->grid[0], o->grid[1], o->grid[2] },
        .block = { o->block[0], o->block[1], o->block[2] },
        .shared_bytes = (size_t)o->shared,
        .cooperative = o->cooperative,
    };
    double t0 = run_now();
    st = loom_launch(dev, k, &lc, params);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    double secs = run_now() - t0;
    fflush(stdout);
    if (st != LOOM_OK) {
        run_error("%s", loom_device_error(dev));
        rc = st == LOOM_ERR_INVALID_CONFIG || st == LOOM_ERR_INVALID_ARGS ? RUN_USAGE_ERROR
             : st == LOOM_ERR_INTERRUPTED                                 ? RUN_INTERRUPTED
                                                                          : RUN_KERNEL_ERROR;
        goto out;
    }
    if (o->verbose)
        fprintf(stderr, "loom run: kernel '%s' completed in %.6f s\n", kernel_display_name(k), secs);
    rc = 0;
    for (unsigned i = 0; i < np; i++)
        if (o->args[i].out_path && !write_output(&o->args[i]))
            rc = RUN_KERNEL_ERROR;
    if (o->stats && !o->stats_json && !o->report) {
        if (o->npolicies > 1) fprintf(stderr, "loom run: stats: under --simt %s:\n", simt);
        loom_stats_foreach(dev, print_stats, NULL);
    }
    /* the trace last: the outputs are written whatever becomes of it */
    if (o->trace && nth == 0 && loom_device_trace_flush(dev) != LOOM_OK) {
        run_error("%s", loom_device_error(dev));
        rc = RUN_KERNEL_ERROR;
    }
out:
    /* Statistics of what ran, even when the kernel failed: this device's run. */
    if (json) {
        if (nth == 0) {
            struct loom_device_props pr;
            loom_device_props(dev, &pr);
            loom_stats_json_begin(json, o->file, pr.name, o->simt ? o->simt : "pdom");
        } else {
            fputs(",\n", json);
        }
        loom_stats_write_json_run(dev, json, nth == 0);   /* (the sources once) */
    }
    free(params);
    loom_device_destroy(dev);   /* frees the buffers and the module; flushes kernel output */
    fflush(stdout);
    return rc;
}

/* Runs the kernel once under each SIMT policy given (--simt a,b,...: a fresh device
 * each time), and writes the statistics' JSON with a run per policy. */
static int run(struct run_opts *o)
{
    /* The statistics' and the report's files are made before anything runs: a path that
     * cannot be written stops here, not after the kernel. */
    FILE *json = NULL, *report = NULL;
    char why[PATH_MAX + 128];
    if ((o->stats_json && !(json = loom_cli_create(o->stats_json, "statistics", why, sizeof why))) ||
        (o->report && !(report = loom_cli_create(o->report, "report", why, sizeof why)))) {
        run_error("%s", why);
        if (json) fclose(json);
        return RUN_USAGE_ERROR;
    }
    /* The runs' document, in memory until every policy has run. */
    char *doc = NULL;
    size_t len = 0;
    FILE *mem = json || report ? open_memstream(&doc, &len) : NULL;
    int rc = 0;
    unsigned n = o->npolicies ? o->npolicies : 1;
    for (unsigned k = 0; k < n; k++) {
        int r = run_one(o, o->npolicies ? o->policies[k] : NULL, k, mem);
        if (r && !rc) rc = r;
        if (r == RUN_USAGE_ERROR || r == RUN_INTERRUPTED) break;
    }
    if (mem) {
        fputs("\n ]\n}\n", mem);
        fclose(mem);
    }
    if (json && (fwrite(doc, 1, len, json) != len) + (fclose(json) != 0)) {
        run_error("cannot write the statistics to '%s': %s", o->stats_json, strerror(errno));
        if (rc == 0) rc = RUN_KERNEL_ERROR;
    }
    if (report) {
        char err[512];
        int bad = loom_report_html(report, doc, len, err, sizeof err);
        if ((fclose(report) != 0) + bad) {
            run_error("%s: %s", o->report, bad ? err : strerror(errno));
            if (rc == 0) rc = RUN_KERNEL_ERROR;
        }
    }
    free(doc);
    return rc;
}

/* Parses a whole command line into o -- the options, then each kernel argument -- without
 * touching a file or a device. Returns 0 to run, -1 after --help, or an exit status. */
static int run_parse(int argc, char **argv, struct run_opts *o)
{
    run_name = argc > 0 && argv[0] && strcmp(argv[0], "debug") == 0 ? "debug" : "run";
    int rc = parse_options(argc, argv, o);
    for (unsigned i = 0; rc == 0 && i < o->nargs; i++)
        if (!parse_arg(&o->args[i], i))
            rc = RUN_USAGE_ERROR;
    return rc;
}

static void run_opts_free(struct run_opts *o)
{
    for (unsigned i = 0; o->args && i < o->nargs; i++)
        free((char *)o->args[i].in_path);
    free(o->args);
    for (unsigned k = 0; k < o->npolicies; k++) free(o->policies[k]);
}

int loom_cmd_run_parse(int argc, char **argv)
{
    struct run_opts o = { 0 };
    int rc = run_parse(argc, argv, &o);
    run_opts_free(&o);
    return rc < 0 ? 0 : rc;
}

int loom_cmd_run(int argc, char **argv)
{
    struct run_opts o = { 0 };
    int rc = run_parse(argc, argv, &o);
    if (rc == 0)
        rc = run(&o);
    else if (rc < 0)
        rc = 0;
    run_opts_free(&o);
    return rc;
}

int loom_cmd_run_debug(int argc, char **argv, struct loom_debug *d)
{
    run_debugger = d;
    int rc = loom_cmd_run(argc, argv);
    run_debugger = NULL;
    return rc;
}
