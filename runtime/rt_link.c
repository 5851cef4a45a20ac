/* rt_link.c -- the device-link step for -rdc programs, done on PTX text: splits each
 * text into module-scope statements, resolves .extern across texts, emits one module. */
#define _GNU_SOURCE
#include "runtime/rt_link.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum st_kind { ST_HEADER, ST_FILE, ST_FUNC, ST_VAR, ST_SECTION, ST_OTHER };
enum st_link { LK_NONE, LK_EXTERN, LK_VISIBLE, LK_WEAK, LK_COMMON };

/* One module-scope statement: [start, end) of the unit's text. */
struct stmt {
    size_t start, end;
    size_t name, name_len;      /* name_len 0: the statement names nothing */
    unsigned char kind, link;
    bool has_body;              /* a function definition (or a section block) */
};

/* A symbol name; `unit`/`stmt` locate its definition among included units. */
struct sym {
    const char *name;
    size_t len;
    int def_unit, def_stmt;
    unsigned char def_link;
    bool internal;              /* per-unit table: defined here without linkage */
    int first_unit;             /* global table: first included unit naming it */
    bool multi;                 /* global table: named by two or more included units */
    bool emitted;               /* a declaration or definition is already in the output */
};

struct symtab {
    struct sym *v;
    size_t cap, n;
};

struct unit {
    const char *s;
    size_t n;
    const char *name;
    struct stmt *st;
    size_t nst, cap;
    struct symtab syms;         /* names this unit declares or defines */
    unsigned max_file, file_base;
    unsigned ver_major, ver_minor, sm;
    size_t target, target_len;  /* text after ".target" */
    bool included, optional;
};

struct buf {
    char *p;
    size_t n, cap;
    bool oom;
};

static int errf(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && err_len)
        vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return -1;
}

static void put(struct buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

/* ---- symbol tables (open addressing, FNV-1a) ---- */

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static struct sym *sym_find(const struct symtab *t, const char *name, size_t len)
{
    if (!t->cap)
        return NULL;
    for (size_t i = hash(name, len) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        struct sym *e = &t->v[i];
        if (!e->name)
            return NULL;
        if (e->len == len && !memcmp(e->name, name, len))
            return e;
    }
}

static struct sym *sym_add(struct symtab *t, const char *name, size_t len)
{
    struct sym *e = sym_find(t, name, len);
    if (e)
        return e;
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct sym *v = calloc(cap, sizeof *v);
        if (!v)
            return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->v[i].name)
                continue;
            size_t j = hash(t->v[i].name, t->v[i].len) & (cap - 1);
            while (v[j].name)
                j = (j + 1) & (cap - 1);
            v[j] = t->v[i];
        }
        free(t->v);
        t->v = v;
        t->cap = cap;
    }
    size_t i = hash(name, len) & (t->cap - 1);
    while (t->v[i].name)
        i = (i + 1) & (t->cap - 1);
    e = &t->v[i];
    *e = (struct sym){ .name = name, .len = len, .def_unit = -1, .def_stmt = -1, .first_unit = -1 };
    t->n++;
    return e;
}

/* ---- lexing ---- */

static bool ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Skips a string literal or comment at i; returns the index after it (i when none). */
static size_t skip_literal(const char *s, size_t n, size_t i)
{
    if (s[i] == '"') {
        for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++)
            if (s[i] == '\\' && i + 1 < n)
                i++;
        return i < n ? i + 1 : n;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
        for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
            ;
        return i + 1 < n ? i + 2 : n;
    }
    return i;
}

static size_t skip_space(const char *s, size_t n, size_t i)
{
    for (;;) {
        while (i < n && (isspace((unsigned char)s[i]) || s[i] == '\0'))
            i++;
        if (i < n && s[i] == '/') {
            size_t j = skip_literal(s, n, i);
            if (j != i) {
                i = j;
                continue;
            }
        }
        return i;
    }
}

static bool word_at(const char *s, size_t n, size_t i, const char *w)
{
    size_t k = strlen(w);
    return i + k <= n && !memcmp(s + i, w, k) && (i + k == n || !ident_char((unsigned char)s[i + k]));
}

/* Index after the group opened by s[i] ('(' or '{'), nesting and literals aware. */
static size_t skip_group(const char *s, size_t n, size_t i, bool *out_ok)
{
    int depth = 0;
    while (i < n) {
        size_t j = skip_literal(s, n, i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = s[i++];
        if (c == '(' || c == '{')
            depth++;
        else if ((c == ')' || c == '}') && --depth == 0) {
            *out_ok = true;
            return i;
        }
    }
    *out_ok = false;
    return n;
}

/* Reads the token at i: sets [*out_a, *out_b) and returns the index after it. */
static size_t token(const char *s, size_t n, size_t i, size_t *out_a, size_t *out_b)
{
    i = skip_space(s, n, i);
    *out_a = i;
    if (i >= n)
        return *out_b = n;
    if (s[i] == '.' || ident_start((unsigned char)s[i])) {
        for (i++; i < n && ident_char((unsigned char)s[i]); i++)
            ;
    } else {
        i++;
    }
    *out_b = i;
    return i;
}

/* Classifies statement t (linkage, kind, name) from its leading directives. */
static void classify(const char *s, struct stmt *t)
{
    size_t n = t->end, i = t->start, a, b;
    bool want_func_name = false;
    size_t last_ident = 0, last_len = 0;
    t->kind = ST_OTHER;
    t->link = LK_NONE;
    while (i < n) {
        i = token(s, n, i, &a, &b);
        if (a >= n)
            break;
        char c = s[a];
        size_t k = b - a;
        if (c == '.') {
            if (k == 7 && !memcmp(s + a, ".extern", 7)) t->link = LK_EXTERN;
            else if (k == 8 && !memcmp(s + a, ".visible", 8)) t->link = LK_VISIBLE;
            else if (k == 5 && !memcmp(s + a, ".weak", 5)) t->link = LK_WEAK;
            else if (k == 7 && !memcmp(s + a, ".common", 7)) t->link = LK_COMMON;
            else if ((k == 5 && !memcmp(s + a, ".func", 5)) || (k == 6 && !memcmp(s + a, ".entry", 6))) {
                t->kind = ST_FUNC;
                want_func_name = true;
            } else if (k == 8 && !memcmp(s + a, ".section", 8)) {
                t->kind = ST_SECTION;
                return;
            } else if (t->kind == ST_OTHER &&
                       ((k == 7 && !memcmp(s + a, ".global", 7)) || (k == 6 && !memcmp(s + a, ".const", 6)) ||
                        (k == 7 && !memcmp(s + a, ".shared", 7)) || (k == 6 && !memcmp(s + a, ".local", 6))))
                t->kind = ST_VAR;
            if (i < n && s[skip_space(s, n, i)] == '(' && !want_func_name) {
                bool ok;
                i = skip_group(s, n, skip_space(s, n, i), &ok);   /* .attribute(...) and the like */
            }
            continue;
        }
        if (c == '(') {
            bool ok;
            i = skip_group(s, n, a, &ok);
            continue;
        }
        if (ident_start((unsigned char)c)) {
            if (want_func_name) {
                t->name = a;
                t->name_len = k;
                return;
            }
            last_ident = a;
            last_len = k;
            continue;
        }
        if (c == '[' || c == '<' || c == '=' || c == ';' || c == '{')
            break;
    }
    if (t->kind == ST_VAR && last_len) {
        t->name = last_ident;
        t->name_len = last_len;
    }
}

/* Splits unit u into module-scope statements. */
static int scan_unit(struct unit *u, char *err, size_t err_len)
{
    const char *s = u->s;
    size_t n = u->n, i = 0;
    for (;;) {
        i = skip_space(s, n, i);
        if (i >= n)
            return 0;
        struct stmt t = { .start = i };
        if (word_at(s, n, i, ".version") || word_at(s, n, i, ".target") ||
            word_at(s, n, i, ".address_size") || word_at(s, n, i, ".file")) {
            bool file = word_at(s, n, i, ".file");
            while (i < n && s[i] != '\n')
                i++;
            t.end = i;
            t.kind = file ? ST_FILE : ST_HEADER;
            if (file) {
                unsigned long idx = strtoul(s + t.start + 5, NULL, 10);
                if (idx > u->max_file && idx < 1000000)
                    u->max_file = (unsigned)idx;
            } else if (word_at(s, n, t.start, ".version")) {
                sscanf(s + t.start + 8, " %u.%u", &u->ver_major, &u->ver_minor);
            } else if (word_at(s, n, t.start, ".target")) {
                size_t a = skip_space(s, t.end, t.start + 7);
                u->target = a;
                u->target_len = t.end - a;
                const char *sm = memchr(s + a, '_', t.end - a);
                u->sm = sm ? (unsigned)strtoul(sm + 1, NULL, 10) : 0;
            }
        } else {
            int paren = 0, brace = 0;
            bool init = false, done = false;
            while (i < n && !done) {
                size_t j = skip_literal(s, n, i);
                if (j != i) {
                    i = j;
                    continue;
                }
                char c = s[i];
                if (c == '(') paren++;
                else if (c == ')') paren--;
                else if (c == '=' && paren == 0 && brace == 0) init = true;
                else if (c == '{' && paren == 0 && brace == 0 && !init) {
                    bool ok;
                    i = skip_group(s, n, i, &ok);
                    if (!ok)
                        return errf(err, err_len, "%s: unterminated block at offset %zu", u->name, t.start);
                    t.has_body = true;
                    done = true;
                    continue;
                } else if (c == '{') brace++;
                else if (c == '}') brace--;
                else if (c == ';' && paren == 0 && brace == 0) done = true;
                i++;
            }
            if (!done)
                return errf(err, err_len, "%s: unterminated statement at offset %zu", u->name, t.start);
            t.end = i;
            classify(s, &t);
        }
        if (u->nst == u->cap) {
            size_t cap = u->cap ? u->cap * 2 : 64;
            struct stmt *v = realloc(u->st, cap * sizeof *v);
            if (!v)
                return errf(err, err_len, "out of memory");
            u->st = v;
            u->cap = cap;
        }
        u->st[u->nst++] = t;
    }
}

static bool is_def(const struct stmt *t)
{
    if (t->link == LK_EXTERN || !t->name_len)
        return false;
    return t->kind == ST_VAR || (t->kind == ST_FUNC && t->has_body);
}

/* Records the names of unit u in its own table. */
static int index_unit(struct unit *u)
{
    for (size_t k = 0; k < u->nst; k++) {
        struct stmt *t = &u->st[k];
        if (!t->name_len)
            continue;
        struct sym *e = sym_add(&u->syms, u->s + t->name, t->name_len);
        if (!e)
            return -1;
        if (is_def(t) && e->def_stmt < 0) {
            e->def_stmt = (int)k;
            e->def_link = t->link;
            e->internal = t->link == LK_NONE;
        } else if (t->link == LK_NONE && (t->kind == ST_FUNC || t->kind == ST_VAR)) {
            e->internal = true;     /* a forward prototype of an internal function */
        }
    }
    return 0;
}

static void unit_free(struct unit *u)
{
    free(u->st);
    free(u->syms.v);
}

/* Whether an included unit other than `self` defines name with linkage. */
static int find_definer(struct unit *u, unsigned n, const char *name, size_t len, bool included_only)
{
    for (unsigned j = 0; j < n; j++) {
        if (included_only && !u[j].included)
            continue;
        struct sym *e = sym_find(&u[j].syms, name, len);
        if (e && e->def_stmt >= 0 && e->def_link != LK_NONE)
            return (int)j;
    }
    return -1;
}

/* Marks units to include: all non-optional ones, then optional ones that
 * resolve an .extern of an included unit, to a fixed point. */
static void select_units(struct unit *u, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        u[j].included = !u[j].optional;
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned j = 0; j < n; j++) {
            if (!u[j].included)
                continue;
            for (size_t k = 0; k < u[j].nst; k++) {
                struct stmt *t = &u[j].st[k];
                if (t->link != LK_EXTERN || !t->name_len)
                    continue;
                const char *name = u[j].s + t->name;
                if (find_definer(u, n, name, t->name_len, true) >= 0)
                    continue;
                int d = find_definer(u, n, name, t->name_len, false);
                if (d >= 0) {
                    u[d].included = true;
                    changed = true;
                }
            }
        }
    }
}

/* Builds the global table over included units; fails on duplicate strong definitions. */
static int build_global(struct unit *u, unsigned n, struct symtab *g, char *err, size_t err_len)
{
    for (unsigned j = 0; j < n; j++) {
        if (!u[j].included)
            continue;
        for (size_t k = 0; k < u[j].nst; k++) {
            struct stmt *t = &u[j].st[k];
            if (!t->name_len)
                continue;
            struct sym *e = sym_add(g, u[j].s + t->name, t->name_len);
            if (!e)
                return errf(err, err_len, "out of memory");
            if (e->first_unit < 0)
                e->first_unit = (int)j;
            else if (e->first_unit != (int)j)
                e->multi = true;
            if (!is_def(t) || t->link == LK_NONE)
                continue;
            bool strong = t->link == LK_VISIBLE;
            if (e->def_unit >= 0) {
                bool old_strong = e->def_link == LK_VISIBLE;
                if (strong && old_strong)
                    return errf(err, err_len, "device link: symbol '%.*s' is defined in both %s and %s",
                                (int)t->name_len, u[j].s + t->name, u[e->def_unit].name, u[j].name);
                if (!strong || old_strong)
                    continue;
            }
            e->def_unit = (int)j;
            e->def_stmt = (int)k;
            e->def_link = t->link;
        }
    }
    return 0;
}

/* Emission context for one unit. */
struct emit {
    struct buf *b;
    const struct unit *u;
    unsigned index;
    const struct symtab *g;
    bool strip_loc_tail;
    const char *extern_to;      /* replaces the .extern keyword (prototype of a resolved function) */
};

static bool needs_rename(const struct emit *x, const char *name, size_t len)
{
    const struct sym *l = sym_find(&x->u->syms, name, len);
    if (!l || !l->internal)
        return false;
    const struct sym *e = sym_find(x->g, name, len);
    return e && e->multi;
}

/* Copies an integer at i (after spaces) adding base; returns the index after it. */
static size_t emit_index(const struct emit *x, size_t i, size_t end)
{
    const char *s = x->u->s;
    size_t a = i;
    while (i < end && (s[i] == ' ' || s[i] == '\t'))
        i++;
    put(x->b, s + a, i - a);
    if (i < end && isdigit((unsigned char)s[i])) {
        unsigned long v = strtoul(s + i, NULL, 10);
        while (i < end && isdigit((unsigned char)s[i]))
            i++;
        char tmp[24];
        snprintf(tmp, sizeof tmp, "%lu", v + x->u->file_base);
        put(x->b, tmp, strlen(tmp));
    }
    return i;
}

/* Copies [i, end) of the unit, renaming clashing internal symbols, renumbering
 * .file/.loc indices and, when linking, dropping the inlining tail of .loc. */
static void emit_range(const struct emit *x, size_t i, size_t end)
{
    const char *s = x->u->s;
    while (i < end) {
        size_t j = skip_literal(s, end, i);
        if (j != i) {
            put(x->b, s + i, j - i);
            i = j;
            continue;
        }
        char c = s[i];
        if (c == '.') {
            size_t a = i;
            for (i++; i < end && ident_char((unsigned char)s[i]); i++)
                ;
            size_t k = i - a;
            if (k == 7 && x->extern_to && !memcmp(s + a, ".extern", 7)) {
                puts_(x->b, x->extern_to);
                continue;
            }
            put(x->b, s + a, k);
            if ((k == 4 && !memcmp(s + a, ".loc", 4)) || (k == 5 && !memcmp(s + a, ".file", 5))) {
                i = emit_index(x, i, end);
                if (k == 4) {
                    size_t e = i;
                    while (e < end && s[e] != '\n' && !(x->strip_loc_tail && s[e] == ','))
                        e++;
                    put(x->b, s + i, e - i);
                    while (e < end && s[e] != '\n')
                        e++;
                    i = e;
                }
            }
            continue;
        }
        if (isdigit((unsigned char)c)) {
            size_t a = i;
            while (i < end && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
                i++;
            put(x->b, s + a, i - a);
            continue;
        }
        if (ident_start((unsigned char)c)) {
            size_t a = i;
            for (i++; i < end && ident_char((unsigned char)s[i]); i++)
                ;
            put(x->b, s + a, i - a);
            if (c != '%' && needs_rename(x, s + a, i - a)) {
                char tmp[24];
                snprintf(tmp, sizeof tmp, "$link%u", x->index);
                puts_(x->b, tmp);
            }
            continue;
        }
        put(x->b, s + i, 1);
        i++;
    }
}

static void emit_stmt(struct emit *x, const struct stmt *t, const char *extern_to)
{
    x->extern_to = extern_to;
    emit_range(x, t->start, t->end);
    x->extern_to = NULL;
    puts_(x->b, "\n");
}

static const char *link_keyword(unsigned char link)
{
    return link == LK_WEAK ? ".weak" : link == LK_COMMON ? ".common" : ".visible";
}

/* Phase "declarations": everything without a body, deduplicated. */
static void emit_decls(struct emit *x, struct symtab *g)
{
    const struct unit *u = x->u;
    for (size_t k = 0; k < u->nst; k++) {
        const struct stmt *t = &u->st[k];
        if (t->kind == ST_HEADER || t->kind == ST_FILE || t->kind == ST_SECTION || t->has_body)
            continue;
        if (!t->name_len || t->link == LK_NONE) {
            emit_stmt(x, t, NULL);     /* internal names are renamed, so never duplicated */
            continue;
        }
        struct sym *e = sym_find(g, u->s + t->name, t->name_len);
        bool resolved = e && e->def_unit >= 0;
        if (t->link == LK_EXTERN) {
            if (e->emitted)
                continue;
            if (!resolved) {
                emit_stmt(x, t, NULL);
                e->emitted = true;
            } else if (t->kind == ST_FUNC) {
                emit_stmt(x, t, link_keyword(e->def_link));   /* a prototype */
                e->emitted = true;
            }
            continue;   /* a resolved variable: its definition comes in this phase */
        }
        if (t->kind == ST_VAR) {
            if (e->def_unit != (int)x->index || e->def_stmt != (int)k)
                continue;  /* a weak duplicate */
            emit_stmt(x, t, NULL);
            e->emitted = true;
        } else if (!e->emitted) {
            emit_stmt(x, t, NULL);     /* a prototype of a linked function */
            e->emitted = true;
        }
    }
}

/* Phase "bodies": function definitions, the kept copy of each weak one. */
static void emit_bodies(struct emit *x, const struct symtab *g)
{
    const struct unit *u = x->u;
    for (size_t k = 0; k < u->nst; k++) {
        const struct stmt *t = &u->st[k];
        if (t->kind != ST_FUNC || !t->has_body)
            continue;
        if (t->name_len && t->link != LK_NONE) {
            const struct sym *e = sym_find(g, u->s + t->name, t->name_len);
            if (e && (e->def_unit != (int)x->index || e->def_stmt != (int)k))
                continue;
        }
        emit_stmt(x, t, NULL);
        puts_(x->b, "\n");
    }
}

static int load_units(const struct rt_link_text *in, unsigned n, struct unit **out_u, char *err, size_t err_len)
{
    struct unit *u = calloc(n ? n : 1, sizeof *u);
    if (!u)
        return errf(err, err_len, "out of memory");
    for (unsigned j = 0; j < n; j++) {
        u[j].s = in[j].text;
        u[j].n = in[j].text ? strnlen(in[j].text, in[j].len) : 0;
        u[j].name = in[j].name ? in[j].name : "ptx";
        u[j].optional = in[j].optional;
        if (scan_unit(&u[j], err, err_len) || index_unit(&u[j])) {
            for (unsigned k = 0; k <= j; k++)
                unit_free(&u[k]);
            free(u);
            if (err && err_len && !err[0])
                errf(err, err_len, "out of memory");
            return -1;
        }
    }
    *out_u = u;
    return 0;
}

int rt_link_select(const struct rt_link_text *in, unsigned n, bool *out_included, char *err, size_t err_len)
{
    struct unit *u;
    if (err && err_len)
        err[0] = '\0';
    if (load_units(in, n, &u, err, err_len))
        return -1;
    select_units(u, n);
    for (unsigned j = 0; j < n; j++) {
        out_included[j] = u[j].included;
        unit_free(&u[j]);
    }
    free(u);
    return 0;
}

/* Writes the joined module: header, declarations of all units, bodies of all
 * units, then the .file table. */
static void emit_module(struct unit *u, unsigned n, struct symtab *g, struct buf *b)
{
    unsigned vmaj = 0, vmin = 0, sm = 0, file_base = 0;
    int tgt = -1;
    for (unsigned j = 0; j < n; j++) {
        if (!u[j].included)
            continue;
        if (u[j].ver_major > vmaj || (u[j].ver_major == vmaj && u[j].ver_minor > vmin)) {
            vmaj = u[j].ver_major;
            vmin = u[j].ver_minor;
        }
        if (u[j].target_len && (tgt < 0 || u[j].sm > sm)) {
            tgt = (int)j;
            sm = u[j].sm;
        }
        u[j].file_base = file_base;
        file_base += u[j].max_file;
    }
    char head[64];
    snprintf(head, sizeof head, ".version %u.%u\n.target ", vmaj, vmin);
    puts_(b, head);
    if (tgt >= 0)
        put(b, u[tgt].s + u[tgt].target, u[tgt].target_len);
    else
        puts_(b, "sm_75");
    puts_(b, "\n.address_size 64\n\n");
    for (int phase = 0; phase < 3; phase++) {
        for (unsigned j = 0; j < n; j++) {
            if (!u[j].included)
                continue;
            struct emit x = { .b = b, .u = &u[j], .index = j, .g = g, .strip_loc_tail = true };
            if (phase == 0)
                emit_decls(&x, g);
            else if (phase == 1)
                emit_bodies(&x, g);
            else
                for (size_t k = 0; k < u[j].nst; k++)
                    if (u[j].st[k].kind == ST_FILE)
                        emit_stmt(&x, &u[j].st[k], NULL);
        }
        puts_(b, "\n");
    }
}

int rt_link_ptx(const struct rt_link_text *in, unsigned n, char **out_text, size_t *out_len,
                char *err, size_t err_len)
{
    struct unit *u;
    if (err && err_len)
        err[0] = '\0';
    *out_text = NULL;
    *out_len = 0;
    if (n == 0)
        return errf(err, err_len, "device link: no PTX");
    if (load_units(in, n, &u, err, err_len))
        return -1;
    select_units(u, n);
    unsigned count = 0, last = 0;
    for (unsigned j = 0; j < n; j++)
        if (u[j].included) {
            count++;
            last = j;
        }
    int rc = 0;
    struct buf b = { 0 };
    struct symtab g = { 0 };
    if (count == 1) {
        put(&b, u[last].s, u[last].n);
    } else if (count == 0) {
        rc = errf(err, err_len, "device link: every PTX text is an optional library");
    } else if ((rc = build_global(u, n, &g, err, err_len)) == 0) {
        emit_module(u, n, &g, &b);
    }
    if (rc == 0 && (b.oom || !b.p))
        rc = errf(err, err_len, "out of memory");
    if (rc == 0) {
        *out_text = b.p;
        *out_len = b.n;
    } else {
        free(b.p);
    }
    free(g.v);
    for (unsigned j = 0; j < n; j++)
        unit_free(&u[j]);
    free(u);
    return rc;
}

bool rt_link_defines(const char *text, size_t len, const char *sym)
{
    size_t k = strlen(sym);
    len = strnlen(text, len);
    if (!k || !memmem(text, len, sym, k))
        return false;
    struct unit u = { .s = text, .n = len, .name = "ptx" };
    bool found = false;
    if (scan_unit(&u, NULL, 0) == 0 && index_unit(&u) == 0) {
        const struct sym *e = sym_find(&u.syms, sym, k);
        found = e && e->def_stmt >= 0;
    }
    unit_free(&u);
    return found;
}
