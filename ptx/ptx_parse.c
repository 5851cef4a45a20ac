/* ptx_parse.c -- recursive-descent parser from PTX text to the module IR
 * (PTX ISA chapters "Syntax", "State Spaces, Types, and Variables", "Directives"). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lex.h"

/* Module-level and body directives the parser understands. */
enum ptx_dir {
    DIR_NONE = 0,
    DIR_VERSION, DIR_TARGET, DIR_ADDRESS_SIZE, DIR_ENTRY, DIR_FUNC, DIR_REG, DIR_SREG, DIR_LOCAL,
    DIR_SHARED, DIR_CONST, DIR_GLOBAL, DIR_PARAM, DIR_TEX, DIR_EXTERN, DIR_VISIBLE, DIR_WEAK,
    DIR_COMMON, DIR_ALIGN, DIR_PTR, DIR_FILE, DIR_LOC, DIR_SECTION, DIR_PRAGMA, DIR_MAXNTID,
    DIR_REQNTID, DIR_MINNCTAPERSM, DIR_MAXNCTAPERSM, DIR_MAXNREG, DIR_NORETURN,
    DIR_REQNCTAPERCLUSTER, DIR_EXPLICITCLUSTER, DIR_MAXCLUSTERRANK, DIR_BLOCKSAREC, DIR_ALIAS,
    DIR_BRANCHTARGETS, DIR_CALLTARGETS, DIR_CALLPROTOTYPE, DIR_ATTRIBUTE, DIR_ABI_PRESERVE,
    DIR_ABI_PRESERVE_CONTROL,
};

static const struct {
    const char *text;
    enum ptx_dir dir;
} ptx_dirs[] = {
    { ".version", DIR_VERSION }, { ".target", DIR_TARGET }, { ".address_size", DIR_ADDRESS_SIZE },
    { ".entry", DIR_ENTRY }, { ".func", DIR_FUNC }, { ".reg", DIR_REG }, { ".sreg", DIR_SREG },
    { ".local", DIR_LOCAL }, { ".shared", DIR_SHARED }, { ".const", DIR_CONST },
    { ".global", DIR_GLOBAL }, { ".param", DIR_PARAM }, { ".tex", DIR_TEX },
    { ".extern", DIR_EXTERN }, { ".visible", DIR_VISIBLE }, { ".weak", DIR_WEAK },
    { ".common", DIR_COMMON }, { ".align", DIR_ALIGN }, { ".ptr", DIR_PTR }, { ".file", DIR_FILE },
    { ".loc", DIR_LOC }, { ".section", DIR_SECTION }, { ".pragma", DIR_PRAGMA },
    { ".maxntid", DIR_MAXNTID }, { ".reqntid", DIR_REQNTID }, { ".minnctapersm", DIR_MINNCTAPERSM },
    { ".maxnctapersm", DIR_MAXNCTAPERSM }, { ".maxnreg", DIR_MAXNREG },
    { ".noreturn", DIR_NORETURN }, { ".reqnctapercluster", DIR_REQNCTAPERCLUSTER },
    { ".explicitcluster", DIR_EXPLICITCLUSTER }, { ".maxclusterrank", DIR_MAXCLUSTERRANK },
    { ".blocksareclusters", DIR_BLOCKSAREC }, { ".alias", DIR_ALIAS },
    { ".branchtargets", DIR_BRANCHTARGETS }, { ".calltargets", DIR_CALLTARGETS },
    { ".callprototype", DIR_CALLPROTOTYPE }, { ".attribute", DIR_ATTRIBUTE },
    { ".abi_preserve", DIR_ABI_PRESERVE }, { ".abi_preserve_control", DIR_ABI_PRESERVE_CONTROL },
};

/* What an interned word means as a keyword; computed once per distinct word. */
struct ptx_kw {
    bool done;
    uint8_t type;            /* enum ptx_type */
    uint8_t dir;             /* enum ptx_dir */
    uint16_t mod;            /* enum ptx_mod */
    uint16_t op;             /* enum ptx_opcode; PTX_OP_COUNT_ = none */
    uint16_t sreg;           /* enum ptx_sreg */
};

/* Scoped name binding inside a function: registers and body/param symbols. */
struct ptx_bind {
    int32_t reg;             /* register index + 1; 0 = none */
    struct ptx_symbol *sym;
    uint16_t depth;          /* scope depth of the binding */
    uint16_t ldepth;         /* scope depth of the label binding */
    int32_t label;           /* label index + 1; 0 = none. Labels are scoped like
                              * variables: inline asm blocks repeat label names. */
};

struct ptx_undo {
    uint32_t id;
    struct ptx_bind old;
};

/* A growable array of fixed-size elements (scratch storage during a parse). */
struct ptx_vec {
    void *v;
    size_t n, cap, elsize;
};

struct ptx_parser {
    struct ptx_lexer lx;
    struct ptx_token tok;
    struct ptx_diags *diags;
    const char *path;
    struct ptx_module *m;
    struct ptx_arena *arena;
    struct ptx_interner *names;
    size_t errors_at_start;

    struct ptx_kw *kw;
    uint32_t kwcap;
    struct ptx_symbol **gsym;        /* module scope, by name id */
    struct ptx_bind *bind;           /* function scope, by name id */
    uint32_t bindcap;

    struct ptx_vec undo;             /* struct ptx_undo */
    struct ptx_vec touched;          /* uint32_t ids bound in this function */
    uint16_t depth;

    struct ptx_vec funcs, globals, files;
    /* Current function. */
    struct ptx_func *fn;
    struct ptx_vec regs, instrs, labels, locals;
    struct ptx_vec label_first_use;  /* struct ptx_loc per label: where first referenced */
    struct ptx_vec label_in_branch;  /* bool per label: first referenced as a branch target */
    struct ptx_vec label_redirect;   /* int32_t per label: merged into another label, or -1 */
    struct ptx_vec hoist;            /* scratch for ptx_scope_close */
    struct ptx_vec opstack;          /* struct ptx_operand scratch stack */
    uint16_t cu_file;
    uint32_t cu_line, cu_col;
    bool in_branch;                  /* operand of bra/brx: unknown names are labels */
    bool no_labels;                  /* address base: unknown names are errors, not labels */
};

/* ---- small utilities ---------------------------------------------------- */

static void *ptx_vec_push(struct ptx_vec *v)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 16;
        void *nv = realloc(v->v, ncap * v->elsize);
        if (!nv)
            abort();
        v->v = nv;
        v->cap = ncap;
    }
    void *p = (char *)v->v + v->n++ * v->elsize;
    memset(p, 0, v->elsize);
    return p;
}

static void ptx_vec_free(struct ptx_vec *v)
{
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

#define VEC_AT(vec, type, i) (((type *)(vec).v)[i])

/* Copies a scratch vector's contents into the arena. */
static void *ptx_vec_to_arena(struct ptx_parser *ps, const struct ptx_vec *v)
{
    return ptx_arena_dup(ps->arena, v->v, v->n * v->elsize);
}

static void ptx_error_at(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void ptx_error_at(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(ps->diags, PTX_SEV_ERROR, ps->path, line, col, fmt, ap);
    va_end(ap);
}

#define ERR_TOK(ps, ...) ptx_error_at((ps), (ps)->tok.line, (ps)->tok.col, __VA_ARGS__)

static void ptx_next(struct ptx_parser *ps)
{
    ptx_lex_next(&ps->lx, &ps->tok);
}

/* Text of the current token for messages, clipped. */
static const char *ptx_tok_desc(struct ptx_parser *ps, char *buf, size_t size)
{
    const struct ptx_token *t = &ps->tok;
    if (t->kind == PTX_TK_EOF)
        return "end of file";
    size_t n = t->len < size - 1 ? t->len : size - 1;
    if (t->kind == PTX_TK_STRING) {
        snprintf(buf, size, "\"%.*s\"", (int)(n > size - 3 ? size - 3 : n), t->p);
        return buf;
    }
    memcpy(buf, t->p, n);
    buf[n] = 0;
    return buf;
}

static void ptx_expected(struct ptx_parser *ps, const char *what)
{
    char buf[64];
    if (ps->tok.kind == PTX_TK_ERROR) {
        ERR_TOK(ps, "%s", ps->tok.err);
        return;
    }
    ERR_TOK(ps, "expected %s before '%s'", what, ptx_tok_desc(ps, buf, sizeof buf));
}

static bool ptx_accept(struct ptx_parser *ps, int kind)
{
    if (ps->tok.kind != kind)
        return false;
    ptx_next(ps);
    return true;
}

static bool ptx_expect(struct ptx_parser *ps, int kind, const char *what)
{
    if (ptx_accept(ps, kind))
        return true;
    ptx_expected(ps, what);
    return false;
}

/* Error recovery: skip to the end of the statement (past ';'), stopping before a
 * '}' that closes an enclosing scope. */
static void ptx_skip_statement(struct ptx_parser *ps)
{
    int depth = 0;
    for (;;) {
        int k = ps->tok.kind;
        if (k == PTX_TK_EOF)
            return;
        if (k == ';' && depth == 0) {
            ptx_next(ps);
            return;
        }
        if (k == '{')
            depth++;
        if (k == '}') {
            if (depth == 0)
                return;
            depth--;
        }
        ptx_next(ps);
    }
}

static void ptx_grow_ids(struct ptx_parser *ps)
{
    uint32_t need = ptx_interner_count(ps->names);
    if (need <= ps->bindcap)
        return;
    uint32_t ncap = ps->bindcap ? ps->bindcap : 1024;
    while (ncap < need)
        ncap *= 2;
    ps->kw = realloc(ps->kw, ncap * sizeof *ps->kw);
    ps->gsym = realloc(ps->gsym, ncap * sizeof *ps->gsym);
    ps->bind = realloc(ps->bind, ncap * sizeof *ps->bind);
    if (!ps->kw || !ps->gsym || !ps->bind)
        abort();
    size_t extra = ncap - ps->bindcap;
    memset(ps->kw + ps->bindcap, 0, extra * sizeof *ps->kw);
    memset(ps->gsym + ps->bindcap, 0, extra * sizeof *ps->gsym);
    memset(ps->bind + ps->bindcap, 0, extra * sizeof *ps->bind);
    ps->bindcap = ncap;
}

/* Keyword meaning of an interned word (opcode, suffix, type, directive, sreg). */
static const struct ptx_kw *ptx_kw_of(struct ptx_parser *ps, uint32_t id)
{
    if (id >= ps->bindcap)
        ptx_grow_ids(ps);
    struct ptx_kw *k = &ps->kw[id];
    if (k->done)
        return k;
    const char *s = ptx_interner_str(ps->names, id);
    size_t len = ptx_interner_len(ps->names, id);
    k->done = true;
    k->op = PTX_OP_COUNT_;
    if (s[0] == '.') {
        k->type = (uint8_t)ptx_type_lookup(s, len);
        k->mod = (uint16_t)ptx_mod_lookup(s, len);
        for (size_t i = 0; i < sizeof ptx_dirs / sizeof ptx_dirs[0]; i++)
            if (strcmp(ptx_dirs[i].text, s) == 0)
                k->dir = (uint8_t)ptx_dirs[i].dir;
    } else if (s[0] == '%') {
        k->sreg = (uint16_t)ptx_sreg_lookup(s, len);
    } else {
        k->op = (uint16_t)ptx_opcode_lookup(s, len);
    }
    return k;
}

static const char *ptx_name(struct ptx_parser *ps, uint32_t id)
{
    return ptx_interner_str(ps->names, id);
}

static struct ptx_loc ptx_tok_loc(struct ptx_parser *ps)
{
    struct ptx_loc l = { ps->tok.line, ps->tok.col, ps->cu_file, ps->cu_line, ps->cu_col };
    return l;
}

/* ---- scopes and bindings ------------------------------------------------- */

static struct ptx_bind *ptx_binding(struct ptx_parser *ps, uint32_t id)
{
    if (id >= ps->bindcap)
        ptx_grow_ids(ps);
    return &ps->bind[id];
}

/* Binds a name in the current scope; false when already bound in this scope. */
static bool ptx_bind_name(struct ptx_parser *ps, uint32_t id, int32_t reg, struct ptx_symbol *sym)
{
    struct ptx_bind *b = ptx_binding(ps, id);
    if ((b->reg || b->sym) && b->depth == ps->depth)
        return false;
    struct ptx_undo *u = ptx_vec_push(&ps->undo);
    u->id = id;
    u->old = *b;
    *(uint32_t *)ptx_vec_push(&ps->touched) = id;
    b->reg = reg;
    b->sym = sym;
    b->depth = ps->depth;
    return true;
}

static void ptx_scope_open(struct ptx_parser *ps, size_t *out_mark)
{
    *out_mark = ps->undo.n;
    ps->depth++;
}

static bool ptx_label_pending(struct ptx_parser *ps, int32_t label1)
{
    return label1 && VEC_AT(ps->labels, struct ptx_label, label1 - 1).instr == UINT32_MAX;
}

/* Closes a scope. Labels referenced in it but not defined there move to the
 * enclosing scope (a forward branch out of a block), merging with a pending
 * label of the same name there. */
static void ptx_scope_close(struct ptx_parser *ps, size_t mark)
{
    ps->hoist.n = 0;
    for (size_t i = mark; i < ps->undo.n; i++) {
        uint32_t id = VEC_AT(ps->undo, struct ptx_undo, i).id;
        struct ptx_bind *b = &ps->bind[id];
        if (b->ldepth == ps->depth && ptx_label_pending(ps, b->label)) {
            bool dup = false;
            for (size_t j = 0; j < ps->hoist.n && !dup; j++)
                dup = VEC_AT(ps->hoist, uint32_t, j) == id;
            if (!dup)
                *(uint32_t *)ptx_vec_push(&ps->hoist) = id;
        }
    }
    size_t nh = ps->hoist.n;
    int32_t *moved = nh ? malloc(nh * sizeof *moved) : NULL;
    for (size_t j = 0; j < nh; j++)
        moved[j] = ps->bind[VEC_AT(ps->hoist, uint32_t, j)].label;
    while (ps->undo.n > mark) {
        struct ptx_undo *u = &VEC_AT(ps->undo, struct ptx_undo, --ps->undo.n);
        ps->bind[u->id] = u->old;
    }
    ps->depth--;
    for (size_t j = 0; j < nh; j++) {
        uint32_t id = VEC_AT(ps->hoist, uint32_t, j);
        struct ptx_bind *b = &ps->bind[id];
        if (b->label) {
            VEC_AT(ps->label_redirect, int32_t, moved[j] - 1) = b->label - 1;
            continue;
        }
        struct ptx_undo *u = ptx_vec_push(&ps->undo);
        u->id = id;
        u->old = *b;
        b->label = moved[j];
        b->ldepth = ps->depth;
    }
    free(moved);
}

/* ---- constant expressions ------------------------------------------------ */

static bool ptx_cexpr(struct ptx_parser *ps, int prec, int64_t *out);

static bool ptx_cexpr_primary(struct ptx_parser *ps, int64_t *out)
{
    int k = ps->tok.kind;
    if (k == PTX_TK_INT) {
        *out = (int64_t)ps->tok.ival;
        ptx_next(ps);
        return true;
    }
    if (k == '-' || k == '~' || k == '!' || k == '+') {
        ptx_next(ps);
        int64_t v;
        if (!ptx_cexpr_primary(ps, &v))
            return false;
        *out = k == '-' ? (int64_t)(0 - (uint64_t)v) : k == '~' ? ~v : k == '!' ? !v : v;
        return true;
    }
    if (k == '(') {
        ptx_next(ps);
        if (!ptx_cexpr(ps, 0, out))
            return false;
        return ptx_expect(ps, ')', "')'");
    }
    ptx_expected(ps, "integer constant");
    return false;
}

/* Binary operator precedence (higher binds tighter), or -1. */
static int ptx_binop_prec(int k)
{
    switch (k) {
    case '*': case '/': return 6;
    case '+': case '-': return 5;
    case PTX_TK_SHL: case PTX_TK_SHR: return 4;
    case '&': return 3;
    case '^': return 2;
    case '|': return 1;
    default: return -1;
    }
}

/* Integer constant expression: + - * / << >> & ^ | ~ ! and parentheses (PTX ISA
 * "Constant Expressions"), evaluated in 64-bit two's complement. */
static bool ptx_cexpr(struct ptx_parser *ps, int prec, int64_t *out)
{
    int64_t lhs;
    if (!ptx_cexpr_primary(ps, &lhs))
        return false;
    for (;;) {
        int k = ps->tok.kind;
        int p = ptx_binop_prec(k);
        if (p < 0 || p < prec)
            break;
        uint32_t line = ps->tok.line, col = ps->tok.col;
        ptx_next(ps);
        int64_t rhs;
        if (!ptx_cexpr(ps, p + 1, &rhs))
            return false;
        uint64_t a = (uint64_t)lhs, b = (uint64_t)rhs;
        switch (k) {
        case '*': lhs = (int64_t)(a * b); break;
        case '+': lhs = (int64_t)(a + b); break;
        case '-': lhs = (int64_t)(a - b); break;
        case PTX_TK_SHL: lhs = b >= 64 ? 0 : (int64_t)(a << b); break;
        case PTX_TK_SHR: lhs = b >= 64 ? 0 : (int64_t)(a >> b); break;
        case '&': lhs = (int64_t)(a & b); break;
        case '^': lhs = (int64_t)(a ^ b); break;
        case '|': lhs = (int64_t)(a | b); break;
        case '/':
            if (rhs == 0) {
                ptx_error_at(ps, line, col, "division by zero in constant expression");
                return false;
            }
            lhs = (rhs == -1) ? (int64_t)(0 - a) : lhs / rhs;
            break;
        }
    }
    *out = lhs;
    return true;
}

static bool ptx_parse_uint(struct ptx_parser *ps, const char *what, uint64_t *out)
{
    uint32_t line = ps->tok.line, col = ps->tok.col;
    int64_t v;
    if (ps->tok.kind != PTX_TK_INT && ps->tok.kind != '(' && ps->tok.kind != '-') {
        ptx_expected(ps, what);
        return false;
    }
    if (!ptx_cexpr(ps, 0, &v))
        return false;
    if (v < 0) {
        ptx_error_at(ps, line, col, "%s must not be negative", what);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

/* ---- symbols ------------------------------------------------------------- */

static struct ptx_symbol *ptx_new_symbol(struct ptx_parser *ps, uint32_t id, enum ptx_sym_kind kind)
{
    struct ptx_symbol *s = ptx_arena_alloc(ps->arena, sizeof *s);
    s->name = ptx_name(ps, id);
    s->kind = kind;
    s->loc = ptx_tok_loc(ps);
    return s;
}

/* Registers a module-scope symbol; reports a redefinition unless one of the two
 * is only a declaration (.extern variable, function prototype). */
static struct ptx_symbol *ptx_declare_global(struct ptx_parser *ps, uint32_t id, struct ptx_symbol *s)
{
    ptx_grow_ids(ps);
    struct ptx_symbol *old = ps->gsym[id];
    if (old) {
        bool old_decl = old->kind == PTX_SYM_FUNC ? (old->func && old->func->is_decl)
                                                  : old->linkage == PTX_LINK_EXTERN;
        bool new_decl = s->kind == PTX_SYM_FUNC ? (s->func && s->func->is_decl)
                                                : s->linkage == PTX_LINK_EXTERN;
        if (old->kind != s->kind || (!old_decl && !new_decl)) {
            ptx_error_at(ps, s->loc.line, s->loc.col, "redefinition of '%s'", s->name);
            ptx_diag_add(ps->diags, PTX_SEV_NOTE, ps->path, old->loc.line, old->loc.col,
                         "previous definition of '%s' was here", old->name);
            return old;
        }
        if (old->kind == PTX_SYM_VAR && old_decl && !new_decl) {
            *old = *s;   /* the definition replaces the extern declaration */
        }
        return old;
    }
    ps->gsym[id] = s;
    if (s->kind != PTX_SYM_FUNC)
        *(struct ptx_symbol **)ptx_vec_push(&ps->globals) = s;
    return s;
}

/* ---- declarations -------------------------------------------------------- */

static enum ptx_space ptx_space_of_dir(enum ptx_dir d)
{
    switch (d) {
    case DIR_REG: return PTX_SPACE_REG;
    case DIR_SREG: return PTX_SPACE_SREG;
    case DIR_LOCAL: return PTX_SPACE_LOCAL;
    case DIR_SHARED: return PTX_SPACE_SHARED;
    case DIR_CONST: return PTX_SPACE_CONST;
    case DIR_GLOBAL: return PTX_SPACE_GLOBAL;
    case DIR_PARAM: return PTX_SPACE_PARAM;
    case DIR_TEX: return PTX_SPACE_TEX;
    default: return PTX_SPACE_NONE;
    }
}

static enum ptx_space ptx_space_of_mod(enum ptx_mod m)
{
    switch (m) {
    case PTX_MOD_GLOBAL: return PTX_SPACE_GLOBAL;
    case PTX_MOD_SHARED: case PTX_MOD_SHARED_CTA: return PTX_SPACE_SHARED;
    case PTX_MOD_SHARED_CLUSTER: return PTX_SPACE_SHARED_CLUSTER;
    case PTX_MOD_LOCAL: return PTX_SPACE_LOCAL;
    case PTX_MOD_CONST: return PTX_SPACE_CONST;
    case PTX_MOD_PARAM: case PTX_MOD_PARAM_ENTRY: case PTX_MOD_PARAM_FUNC: return PTX_SPACE_PARAM;
    default: return PTX_SPACE_NONE;
    }
}

/* Skips a balanced (...) or {...} group starting at the current token. */
static void ptx_skip_group(struct ptx_parser *ps)
{
    int open = ps->tok.kind, close = open == '(' ? ')' : '}';
    int depth = 0;
    do {
        if (ps->tok.kind == open)
            depth++;
        else if (ps->tok.kind == close)
            depth--;
        ptx_next(ps);
    } while (depth > 0 && ps->tok.kind != PTX_TK_EOF);
}

/* Declaration attributes before the name: .align N, .ptr, .vN, type, and the
 * space of a .ptr (.global/.shared/.const/.local). */
struct ptx_decl_attrs {
    enum ptx_type type;
    uint8_t vec;
    uint32_t align;
    bool is_ptr;
    enum ptx_space ptr_space;
    uint32_t ptr_align;
    struct ptx_loc type_loc;
};

static bool ptx_parse_decl_attrs(struct ptx_parser *ps, struct ptx_decl_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->vec = 1;
    while (ps->tok.kind == PTX_TK_DOTWORD) {
        const struct ptx_kw *k = ptx_kw_of(ps, ps->tok.id);
        if (k->type) {
            if (a->type) {
                ERR_TOK(ps, "more than one type in declaration");
                return false;
            }
            a->type = k->type;
            a->type_loc = ptx_tok_loc(ps);
            ptx_next(ps);
        } else if (k->dir == DIR_ALIGN) {
            ptx_next(ps);
            uint64_t v;
            uint32_t line = ps->tok.line, col = ps->tok.col;
            if (!ptx_parse_uint(ps, "alignment", &v))
                return false;
            if (v == 0 || (v & (v - 1)) || v > (1u << 20)) {
                ptx_error_at(ps, line, col, "alignment %llu is not a power of two",
                             (unsigned long long)v);
                return false;
            }
            if (a->is_ptr)
                a->ptr_align = (uint32_t)v;
            else
                a->align = (uint32_t)v;
        } else if (k->dir == DIR_PTR) {
            a->is_ptr = true;
            ptx_next(ps);
        } else if (k->dir == DIR_ATTRIBUTE) {
            ptx_next(ps);
            if (ps->tok.kind == '(')
                ptx_skip_group(ps);
        } else if (k->mod == PTX_MOD_V2 || k->mod == PTX_MOD_V4 || k->mod == PTX_MOD_V8) {
            a->vec = k->mod == PTX_MOD_V2 ? 2 : k->mod == PTX_MOD_V4 ? 4 : 8;
            ptx_next(ps);
        } else if (a->is_ptr && ptx_space_of_mod(k->mod) != PTX_SPACE_NONE) {
            a->ptr_space = ptx_space_of_mod(k->mod);
            ptx_next(ps);
        } else {
            char buf[64];
            ERR_TOK(ps, "unexpected '%s' in declaration", ptx_tok_desc(ps, buf, sizeof buf));
            return false;
        }
    }
    if (!a->type) {
        ptx_expected(ps, "type");
        return false;
    }
    return true;
}

/* Bits of a literal converted to element type t (initialisers). */
static uint64_t ptx_literal_bits(enum ptx_type t, int kind, uint64_t bits)
{
    double d;
    if (kind == PTX_TK_F32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, 4);
        d = f;
    } else if (kind == PTX_TK_F64) {
        memcpy(&d, &bits, 8);
    } else {
        if (t == PTX_T_F32) {
            float f = (float)(int64_t)bits;
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        }
        if (t == PTX_T_F64) {
            d = (double)(int64_t)bits;
            memcpy(&bits, &d, 8);
        }
        return bits;
    }
    if (t == PTX_T_F32) {
        if (kind == PTX_TK_F32)
            return bits;
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    if (t == PTX_T_F64) {
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    if (!ptx_type_is_float(t))
        return kind == PTX_TK_F32 ? (uint32_t)bits : bits;
    return bits;
}

/* One initialiser element: constant, sym[+off], generic(sym), mask(sym, m) or m(sym). */
static bool ptx_parse_init_elem(struct ptx_parser *ps, enum ptx_type t, struct ptx_vec *out)
{
    struct ptx_init *e = ptx_vec_push(out);
    int k = ps->tok.kind;
    bool neg = false;
    if (k == '-' && ps->lx.p < ps->lx.end) {
        /* A leading minus on a float literal flips its sign. */
        const char *q = ps->lx.p;
        while (q < ps->lx.end && (*q == ' ' || *q == '\t'))
            q++;
        if (q + 1 < ps->lx.end && q[0] == '0' && (q[1] == 'f' || q[1] == 'F' || q[1] == 'd' || q[1] == 'D')) {
            neg = true;
            ptx_next(ps);
            k = ps->tok.kind;
        }
    }
    if (k == PTX_TK_F32 || k == PTX_TK_F64) {
        uint64_t bits = ps->tok.ival;
        if (neg)
            bits ^= k == PTX_TK_F32 ? 0x80000000u : 0x8000000000000000ull;
        if (k == PTX_TK_F64 && ps->tok.decimal_float && ptx_accept(ps, PTX_TK_F64)) {
            e->kind = PTX_INIT_FLOAT;
            e->bits = ptx_literal_bits(t, PTX_TK_F64, bits);
            return true;
        }
        e->kind = PTX_INIT_FLOAT;
        e->bits = ptx_literal_bits(t, k, bits);
        ptx_next(ps);
        return true;
    }
    if (k == PTX_TK_IDENT) {
        uint32_t id = ps->tok.id;
        const char *name = ptx_name(ps, id);
        bool is_generic = strcmp(name, "generic") == 0, is_mask = strcmp(name, "mask") == 0;
        if ((is_generic || is_mask)) {
            ptx_next(ps);
            if (!ptx_expect(ps, '(', "'('"))
                return false;
            if (ps->tok.kind != PTX_TK_IDENT) {
                ptx_expected(ps, "symbol name");
                return false;
            }
            id = ps->tok.id;
            e->generic = is_generic;
        }
        ptx_grow_ids(ps);
        struct ptx_symbol *s = ps->gsym[id];
        if (!s) {
            ERR_TOK(ps, "use of undeclared identifier '%s'", ptx_name(ps, id));
            return false;
        }
        ptx_next(ps);
        e->kind = PTX_INIT_SYM;
        e->sym = s;
        if (ps->tok.kind == '+' || ps->tok.kind == '-') {
            int sign = ps->tok.kind;
            ptx_next(ps);
            int64_t off;
            if (!ptx_cexpr_primary(ps, &off))
                return false;
            e->offset = sign == '-' ? -off : off;
        }
        if (is_mask) {
            uint64_t mask;
            if (!ptx_expect(ps, ',', "','") || !ptx_parse_uint(ps, "mask", &mask))
                return false;
            e->mask = mask;
        }
        if (is_generic || is_mask) {
            if (!ptx_expect(ps, ')', "')'"))
                return false;
            /* generic(sym)+8: an offset after the closing parenthesis */
            if (ps->tok.kind == '+' || ps->tok.kind == '-') {
                int sign = ps->tok.kind;
                ptx_next(ps);
                int64_t off;
                if (!ptx_cexpr_primary(ps, &off))
                    return false;
                e->offset += sign == '-' ? -off : off;
            }
        }
        return true;
    }
    int64_t v;
    if (!ptx_cexpr(ps, 0, &v))
        return false;
    if (ps->tok.kind == '(') {
        /* m(sym) / m(generic(sym)): the bytes of an address selected by mask m. */
        ptx_next(ps);
        bool gen = false;
        if (ps->tok.kind == PTX_TK_IDENT && strcmp(ptx_name(ps, ps->tok.id), "generic") == 0) {
            gen = true;
            ptx_next(ps);
            if (!ptx_expect(ps, '(', "'('"))
                return false;
        }
        if (ps->tok.kind != PTX_TK_IDENT || !ps->gsym[ps->tok.id]) {
            ptx_expected(ps, "declared symbol");
            return false;
        }
        e->kind = PTX_INIT_SYM;
        e->sym = ps->gsym[ps->tok.id];
        e->generic = gen;
        e->mask = (uint64_t)v;
        ptx_next(ps);
        if (gen && !ptx_expect(ps, ')', "')'"))
            return false;
        if (!ptx_expect(ps, ')', "')'"))
            return false;
    } else {
        e->kind = PTX_INIT_INT;
        e->bits = ptx_literal_bits(t, PTX_TK_INT, (uint64_t)v);
    }
    if (e->mask) {
        uint64_t mk = e->mask;
        while (!(mk & 1) && e->mask_shift < 63) {
            mk >>= 1;
            e->mask_shift++;
        }
    }
    return true;
}

/* Initialiser list with nested braces, flattened in row-major order. */
static bool ptx_parse_init_list(struct ptx_parser *ps, enum ptx_type t, struct ptx_vec *out)
{
    if (ps->tok.kind != '{')
        return ptx_parse_init_elem(ps, t, out);
    ptx_next(ps);
    if (ps->tok.kind == '}') {
        ptx_next(ps);
        return true;
    }
    for (;;) {
        if (!ptx_parse_init_list(ps, t, out))
            return false;
        if (ps->tok.kind == ',') {
            ptx_next(ps);
            continue;
        }
        return ptx_expect(ps, '}', "'}' or ','");
    }
}

/* Parses "name[<N>][dims][= init]" items after attributes for one declaration
 * statement. Registers go to the current function; other variables become
 * symbols (out_syms receives them). Returns false after a reported error. */
static bool ptx_parse_declarators(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
                                  const struct ptx_decl_attrs *a, bool single, struct ptx_vec *out_syms)
{
    for (;;) {
        if (ps->tok.kind != PTX_TK_IDENT) {
            ptx_expected(ps, "identifier");
            return false;
        }
        uint32_t id = ps->tok.id;
        struct ptx_loc loc = ptx_tok_loc(ps);
        ptx_next(ps);
        if (space == PTX_SPACE_REG && ps->fn) {
            uint64_t count = 0;
            bool range = false;
            if (ps->tok.kind == '<') {
                ptx_next(ps);
                if (!ptx_parse_uint(ps, "register count", &count) || !ptx_expect(ps, '>', "'>'"))
                    return false;
                if (count > (1u << 22)) {
                    ptx_error_at(ps, loc.line, loc.col, "too many registers in '%s<%llu>'",
                                 ptx_name(ps, id), (unsigned long long)count);
                    return false;
                }
                range = true;
            }
            const char *base = ptx_name(ps, id);
            size_t blen = ptx_interner_len(ps->names, id);
            for (uint64_t i = 0; i < (range ? count : 1); i++) {
                uint32_t rid = id;
                if (range) {
                    char buf[256];
                    int n = snprintf(buf, sizeof buf, "%.*s%llu", (int)(blen > 200 ? 200 : blen), base,
                                     (unsigned long long)i);
                    rid = ptx_intern(ps->names, buf, (size_t)n);
                }
                struct ptx_reg *r = ptx_vec_push(&ps->regs);
                r->name = ptx_name(ps, rid);
                r->type = a->type;
                r->vec = a->vec;
                r->decl_line = loc.line;
                if (!ptx_bind_name(ps, rid, (int32_t)ps->regs.n, NULL)) {
                    ptx_error_at(ps, loc.line, loc.col, "redefinition of '%s'", r->name);
                    ps->regs.n--;
                }
            }
        } else {
            struct ptx_symbol *s = ptx_new_symbol(ps, id, space == PTX_SPACE_PARAM && single
                                                              ? PTX_SYM_PARAM : PTX_SYM_VAR);
            s->loc = loc;
            s->space = space;
            s->type = a->type;
            s->linkage = link;
            s->align = a->align;
            s->vec = a->vec;
            s->is_ptr = a->is_ptr;
            s->ptr_space = a->ptr_space;
            s->ptr_align = a->ptr_align;
            bool unsized = false;
            while (ps->tok.kind == '[') {
                ptx_next(ps);
                uint64_t dim = 0;
                if (ps->tok.kind == ']') {
                    unsized = true;
                } else if (!ptx_parse_uint(ps, "array size", &dim)) {
                    return false;
                }
                if (!ptx_expect(ps, ']', "']'"))
                    return false;
                if (s->ndims == 4) {
                    ptx_error_at(ps, loc.line, loc.col, "too many array dimensions for '%s'", s->name);
                    return false;
                }
                s->dims[s->ndims++] = dim;
            }
            if (ps->tok.kind == '=') {
                ptx_next(ps);
                if (a->type == PTX_T_SAMPLERREF || a->type == PTX_T_TEXREF || a->type == PTX_T_SURFREF) {
                    if (ps->tok.kind == '{')
                        ptx_skip_group(ps);
                } else {
                    struct ptx_vec init = { .elsize = sizeof(struct ptx_init) };
                    bool ok = ptx_parse_init_list(ps, a->type, &init);
                    s->ninit = (uint32_t)init.n;
                    s->init = ptx_vec_to_arena(ps, &init);
                    ptx_vec_free(&init);
                    if (!ok)
                        return false;
                    if (unsized && s->ndims && s->dims[0] == 0) {
                        uint64_t inner = 1;
                        for (uint32_t d = 1; d < s->ndims; d++)
                            inner *= s->dims[d] ? s->dims[d] : 1;
                        s->dims[0] = (s->ninit / s->vec + inner - 1) / inner;
                    }
                }
            }
            uint64_t n = 1;
            for (uint32_t d = 0; d < s->ndims; d++)
                n *= s->dims[d];
            unsigned esz = ptx_type_size(a->type);
            if (a->type == PTX_T_PRED)
                esz = 1;
            s->size = n * esz * a->vec;
            uint64_t cap = s->ndims ? n * a->vec : a->vec;
            if (s->ninit > cap && !(s->ndims && s->dims[0] == 0)) {
                ptx_error_at(ps, loc.line, loc.col, "too many initializers for '%s' (%u, room for %llu)",
                             s->name, s->ninit, (unsigned long long)cap);
            }
            if (out_syms)
                *(struct ptx_symbol **)ptx_vec_push(out_syms) = s;
        }
        if (single || ps->tok.kind != ',')
            return true;
        ptx_next(ps);
    }
}

/* ---- operands ------------------------------------------------------------ */

/* A label named in the current scope: the visible one, or a new pending one
 * (defined later). With `define`, a label visible only from an enclosing scope
 * is shadowed by a new one. */
static int32_t ptx_label_ref(struct ptx_parser *ps, uint32_t id, struct ptx_loc loc, bool define)
{
    struct ptx_bind *b = ptx_binding(ps, id);
    if (b->label && (!define || b->ldepth == ps->depth))
        return b->label - 1;
    struct ptx_undo *u = ptx_vec_push(&ps->undo);
    u->id = id;
    u->old = *b;
    struct ptx_label *l = ptx_vec_push(&ps->labels);
    l->name = ptx_name(ps, id);
    l->instr = UINT32_MAX;
    l->loc = loc;
    *(struct ptx_loc *)ptx_vec_push(&ps->label_first_use) = loc;
    *(bool *)ptx_vec_push(&ps->label_in_branch) = ps->in_branch;
    *(int32_t *)ptx_vec_push(&ps->label_redirect) = -1;
    b->label = (int32_t)ps->labels.n;
    b->ldepth = ps->depth;
    *(uint32_t *)ptx_vec_push(&ps->touched) = id;
    return (int32_t)ps->labels.n - 1;
}

static bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_operand *op);

/* Pushes operands separated by ',' until `close` onto the scratch stack and
 * moves them into the arena as op's elems. */
static bool ptx_parse_elem_list(struct ptx_parser *ps, int close, struct ptx_operand *op)
{
    size_t base = ps->opstack.n;
    bool ok = true;
    if (ps->tok.kind != close) {
        for (;;) {
            struct ptx_operand tmp;
            if (!ptx_parse_operand(ps, &tmp)) {
                ok = false;
                break;
            }
            *(struct ptx_operand *)ptx_vec_push(&ps->opstack) = tmp;
            if (ps->tok.kind != ',')
                break;
            ptx_next(ps);
        }
    }
    if (ok)
        ok = ptx_expect(ps, close, close == '}' ? "'}' or ','" : close == ')' ? "')' or ','" : "']'");
    size_t n = ps->opstack.n - base;
    if (n > UINT16_MAX) {
        ptx_error_at(ps, op->loc.line, op->loc.col, "too many elements");
        ok = false;
        n = 0;
    }
    op->nelems = (uint16_t)n;
    op->elems = n ? ptx_arena_dup(ps->arena, &VEC_AT(ps->opstack, struct ptx_operand, base),
                                  n * sizeof(struct ptx_operand))
                  : NULL;
    ps->opstack.n = base;
    return ok;
}

/* An identifier operand: special register, register (with .x component),
 * variable/function symbol, or label (possibly defined later). */
static bool ptx_resolve_ident(struct ptx_parser *ps, struct ptx_operand *op)
{
    uint32_t id = ps->tok.id;
    const char *name = ptx_name(ps, id);
    size_t len = ptx_interner_len(ps->names, id);
    if (len == 1 && name[0] == '_') {
        op->kind = PTX_OPND_SINK;
        ptx_next(ps);
        return true;
    }
    struct ptx_bind *b = ptx_binding(ps, id);
    if (b->reg) {
        op->kind = PTX_OPND_REG;
        op->reg = b->reg - 1;
        ptx_next(ps);
        return true;
    }
    if (name[0] == '%') {
        const struct ptx_kw *k = ptx_kw_of(ps, id);
        if (k->sreg) {
            op->kind = PTX_OPND_SREG;
            op->sreg = (enum ptx_sreg)k->sreg;
            ptx_next(ps);
            return true;
        }
        const char *dot = memchr(name, '.', len);
        if (dot) {
            uint32_t bid = ptx_interner_find(ps->names, name, (size_t)(dot - name));
            struct ptx_bind *bb = bid ? ptx_binding(ps, bid) : NULL;
            if (bb && bb->reg) {
                static const char comps[] = "xyzw";
                const char *c = strchr(comps, dot[1]);
                op->kind = PTX_OPND_REG;
                op->reg = bb->reg - 1;
                if (dot[1] == 'b' && dot[2])
                    op->vec_comp = (uint8_t)(5 + dot[2] - '0');
                else if (dot[1] == 'h' && dot[2])
                    op->vec_comp = (uint8_t)(9 + dot[2] - '0');
                else if (c)
                    op->vec_comp = (uint8_t)(1 + (c - comps));
                else
                    op->vec_comp = (uint8_t)(1 + (strchr("rgba", dot[1]) - "rgba"));
                ptx_next(ps);
                return true;
            }
        }
        ERR_TOK(ps, "use of undeclared register '%s'", name);
        ptx_next(ps);
        return false;
    }
    struct ptx_symbol *s = b->sym;
    if (!s && id < ps->bindcap)
        s = ps->gsym[id];
    if (s) {
        op->kind = PTX_OPND_SYM;
        op->sym = s;
        ptx_next(ps);
        if (ps->tok.kind == '+' || ps->tok.kind == '-') {
            int sign = ps->tok.kind;
            ptx_next(ps);
            int64_t off;
            if (!ptx_cexpr_primary(ps, &off))
                return false;
            op->ival = sign == '-' ? -off : off;
        }
        return true;
    }
    if (ps->fn && !ps->no_labels) {
        op->kind = PTX_OPND_LABEL;
        op->label = ptx_label_ref(ps, id, op->loc, false);
        ptx_next(ps);
        return true;
    }
    ERR_TOK(ps, "use of undeclared identifier '%s'", name);
    ptx_next(ps);
    return false;
}

/* [base], [base+imm], [base-imm], [imm], [base+imm, extra, {coords}] */
static bool ptx_parse_address(struct ptx_parser *ps, struct ptx_operand *op)
{
    ptx_next(ps);
    op->kind = PTX_OPND_ADDR;
    op->reg = -1;
    if (ps->tok.kind == PTX_TK_IDENT) {
        struct ptx_operand base = { .loc = ptx_tok_loc(ps) };
        ps->no_labels = true;
        bool ok = ptx_resolve_ident(ps, &base);
        ps->no_labels = false;
        if (!ok)
            return false;
        if (base.kind == PTX_OPND_REG) {
            op->reg = base.reg;
        } else if (base.kind == PTX_OPND_SYM) {
            op->sym = base.sym;
            op->ival = base.ival;
        } else if (base.kind == PTX_OPND_LABEL) {
            ptx_error_at(ps, base.loc.line, base.loc.col, "use of undeclared identifier '%s'",
                         VEC_AT(ps->labels, struct ptx_label, base.label).name);
            return false;
        } else {
            ptx_error_at(ps, base.loc.line, base.loc.col, "invalid address base");
            return false;
        }
        if (ps->tok.kind == '+' || ps->tok.kind == '-') {
            int sign = ps->tok.kind;
            ptx_next(ps);
            if (ps->tok.kind == PTX_TK_IDENT) {
                ERR_TOK(ps, "address offset must be a constant");
                return false;
            }
            int64_t off;
            if (!ptx_cexpr(ps, 5, &off))
                return false;
            op->ival += sign == '-' ? -off : off;
        }
    } else if (ps->tok.kind != ']') {
        int64_t v;
        if (!ptx_cexpr(ps, 0, &v))
            return false;
        op->ival = v;
    } else {
        ptx_expected(ps, "address");
        return false;
    }
    if (ps->tok.kind == ',') {
        ptx_next(ps);
        return ptx_parse_elem_list(ps, ']', op);
    }
    return ptx_expect(ps, ']', "']'");
}

static bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_operand *op)
{
    memset(op, 0, sizeof *op);
    op->loc = ptx_tok_loc(ps);
    op->reg = -1;
    op->label = -1;
    switch (ps->tok.kind) {
    case '!':
        ptx_next(ps);
        if (!ptx_parse_operand(ps, op))
            return false;
        op->neg = true;
        return true;
    case PTX_TK_IDENT:
        return ptx_resolve_ident(ps, op);
    case '[':
        return ptx_parse_address(ps, op);
    case '{':
        ptx_next(ps);
        op->kind = PTX_OPND_VEC;
        return ptx_parse_elem_list(ps, '}', op);
    case PTX_TK_F32:
        op->kind = PTX_OPND_IMM_F32;
        op->fbits = ps->tok.ival;
        ptx_next(ps);
        return true;
    case PTX_TK_F64:
        op->kind = PTX_OPND_IMM_F64;
        op->fbits = ps->tok.ival;
        ptx_next(ps);
        return true;
    case '-': {
        /* -0f..., -1.5: negate a float literal by its sign bit. */
        ptx_next(ps);
        if (ps->tok.kind == PTX_TK_F32 || ps->tok.kind == PTX_TK_F64) {
            op->kind = ps->tok.kind == PTX_TK_F32 ? PTX_OPND_IMM_F32 : PTX_OPND_IMM_F64;
            op->fbits = ps->tok.ival ^ (ps->tok.kind == PTX_TK_F32 ? 0x80000000u : 0x8000000000000000ull);
            ptx_next(ps);
            return true;
        }
        int64_t v;
        if (!ptx_cexpr_primary(ps, &v))
            return false;
        op->kind = PTX_OPND_IMM_INT;
        op->ival = (int64_t)(0 - (uint64_t)v);
        return true;
    }
    case PTX_TK_INT:
    case '(':
    case '~': {
        int64_t v;
        if (!ptx_cexpr(ps, 0, &v))
            return false;
        op->kind = PTX_OPND_IMM_INT;
        op->ival = v;
        return true;
    }
    default:
        ptx_expected(ps, "operand");
        return false;
    }
}

/* ---- instructions -------------------------------------------------------- */

static uint32_t ptx_iflag_of(enum ptx_mod m)
{
    switch (m) {
    case PTX_MOD_FTZ: return PTX_IF_FTZ;
    case PTX_MOD_SAT: return PTX_IF_SAT;
    case PTX_MOD_APPROX: return PTX_IF_APPROX;
    case PTX_MOD_FULL: return PTX_IF_FULL;
    case PTX_MOD_CC: return PTX_IF_CC;
    case PTX_MOD_UNI: return PTX_IF_UNI;
    case PTX_MOD_VOLATILE: return PTX_IF_VOLATILE;
    case PTX_MOD_NC: return PTX_IF_NC;
    case PTX_MOD_SYNC: return PTX_IF_SYNC;
    case PTX_MOD_ALIGNED: return PTX_IF_ALIGNED;
    case PTX_MOD_RELU: return PTX_IF_RELU;
    case PTX_MOD_NANMOD: return PTX_IF_NAN;
    case PTX_MOD_XORSIGN: return PTX_IF_XORSIGN;
    case PTX_MOD_ABSMOD: return PTX_IF_ABS;
    case PTX_MOD_SHIFTAMT: return PTX_IF_SHIFTAMT;
    case PTX_MOD_CLAMP: return PTX_IF_CLAMP;
    case PTX_MOD_WRAP: return PTX_IF_WRAP;
    case PTX_MOD_TO: return PTX_IF_TO;
    case PTX_MOD_NOFTZ: return PTX_IF_NOFTZ;
    case PTX_MOD_OOB: return PTX_IF_OOB;
    case PTX_MOD_PACK: return PTX_IF_PACK;
    case PTX_MOD_SATFINITE: return PTX_IF_SATFINITE;
    default: return 0;
    }
}

static void ptx_set_subop(struct ptx_instr *in, enum ptx_mod m)
{
    if (!in->subop)
        in->subop = m;
    else if (!in->subop2)
        in->subop2 = m;
}

/* Files one suffix into the instruction by category, with the opcode-dependent
 * meanings: .hi/.lo select product halves of mul/mad/mul24/mad24; .and/.or/.xor
 * are the operation of atom/red/redux (subop) but combine predicates elsewhere. */
static void ptx_file_mod(struct ptx_instr *in, enum ptx_mod m)
{
    enum ptx_opcode op = in->op;
    switch (ptx_mod_category(m)) {
    case PTX_MC_ROUND:
        in->round = m;
        break;
    case PTX_MC_CMP:
        if ((m == PTX_MOD_HI || m == PTX_MOD_LO) &&
            (op == PTX_OP_MUL || op == PTX_OP_MAD || op == PTX_OP_MUL24 || op == PTX_OP_MAD24 ||
             op == PTX_OP_DP2A || op == PTX_OP_MADC))
            ptx_set_subop(in, m);
        else
            in->cmp = m;
        break;
    case PTX_MC_BOOL:
        if (op == PTX_OP_ATOM || op == PTX_OP_RED || op == PTX_OP_REDUX || op == PTX_OP_MULTIMEM ||
            op == PTX_OP_CP || op == PTX_OP_SURED || op == PTX_OP_WMMA || op == PTX_OP_MMA ||
            op == PTX_OP_VADD || op == PTX_OP_VSUB)
            ptx_set_subop(in, m);
        else
            in->boolop = m;
        break;
    case PTX_MC_SPACE:
        if (!in->space)
            in->space = ptx_space_of_mod(m);
        break;
    case PTX_MC_SEM:
        in->sem = m;
        break;
    case PTX_MC_SCOPE:
        in->scope = m;
        break;
    case PTX_MC_VEC:
        in->vec = m == PTX_MOD_V2 ? 2 : m == PTX_MOD_V4 ? 4 : 8;
        break;
    case PTX_MC_FLAG:
        if (m == PTX_MOD_UNI && op == PTX_OP_VOTE)
            ptx_set_subop(in, m);
        else
            in->flags |= ptx_iflag_of(m);
        break;
    case PTX_MC_SUBOP:
        ptx_set_subop(in, m);
        break;
    default:
        break;
    }
}

static void ptx_push_instr_op(struct ptx_parser *ps, const struct ptx_operand *op)
{
    *(struct ptx_operand *)ptx_vec_push(&ps->opstack) = *op;
}

/* call [(rets),] target [, (args)] [, proto-or-targets]: normalised to
 * ops = { LIST rets, target, LIST args [, LABEL] }. */
static bool ptx_parse_call(struct ptx_parser *ps)
{
    struct ptx_operand rets = { .kind = PTX_OPND_LIST, .loc = ptx_tok_loc(ps), .reg = -1, .label = -1 };
    if (ps->tok.kind == '(') {
        ptx_next(ps);
        if (!ptx_parse_elem_list(ps, ')', &rets))
            return false;
        if (!ptx_expect(ps, ',', "','"))
            return false;
    }
    ptx_push_instr_op(ps, &rets);
    struct ptx_operand target;
    if (ps->tok.kind != PTX_TK_IDENT) {
        ptx_expected(ps, "function name");
        return false;
    }
    uint32_t tid = ps->tok.id;
    struct ptx_loc tloc = ptx_tok_loc(ps);
    struct ptx_bind *b = ptx_binding(ps, tid);
    struct ptx_symbol *gs = ps->gsym[tid];
    if (!b->reg && !b->sym && !gs) {
        ERR_TOK(ps, "call to undeclared function '%s'", ptx_name(ps, tid));
        return false;
    }
    if (!ptx_parse_operand(ps, &target))
        return false;
    if (target.kind == PTX_OPND_SYM && target.sym->kind != PTX_SYM_FUNC && !b->sym) {
        ptx_error_at(ps, tloc.line, tloc.col, "called object '%s' is not a function", target.sym->name);
        return false;
    }
    ptx_push_instr_op(ps, &target);
    struct ptx_operand args = { .kind = PTX_OPND_LIST, .loc = ptx_tok_loc(ps), .reg = -1, .label = -1 };
    if (ps->tok.kind == ',') {
        ptx_next(ps);
        if (ps->tok.kind == '(') {
            ptx_next(ps);
            if (!ptx_parse_elem_list(ps, ')', &args))
                return false;
            ptx_push_instr_op(ps, &args);
            if (ps->tok.kind == ',') {
                ptx_next(ps);
                struct ptx_operand proto;
                if (!ptx_parse_operand(ps, &proto))
                    return false;
                ptx_push_instr_op(ps, &proto);
            }
            return true;
        }
        ptx_push_instr_op(ps, &args);
        struct ptx_operand proto;
        if (!ptx_parse_operand(ps, &proto))
            return false;
        ptx_push_instr_op(ps, &proto);
        return true;
    }
    ptx_push_instr_op(ps, &args);
    return true;
}

/* One instruction after an optional guard; the opcode token is current. */
static void ptx_parse_instr(struct ptx_parser *ps, int32_t guard, bool guard_neg)
{
    struct ptx_instr in;
    memset(&in, 0, sizeof in);
    in.guard_reg = guard;
    in.guard_neg = guard_neg;
    in.vec = 1;
    in.loc = ptx_tok_loc(ps);
    const struct ptx_kw *k = ptx_kw_of(ps, ps->tok.id);
    if (k->op >= PTX_OP_COUNT_) {
        ERR_TOK(ps, "unknown instruction '%s'", ptx_name(ps, ps->tok.id));
        ptx_skip_statement(ps);
        return;
    }
    in.op = (enum ptx_opcode)k->op;
    const char *opname = ptx_opcode_name(in.op);
    ptx_next(ps);
    bool bad = false;
    while (ps->tok.kind == PTX_TK_DOTWORD) {
        const struct ptx_kw *mk = ptx_kw_of(ps, ps->tok.id);
        if (mk->type) {
            if (in.ntypes == PTX_MAX_TYPES) {
                ERR_TOK(ps, "too many type suffixes for '%s'", opname);
                bad = true;
            } else {
                in.types[in.ntypes++] = (enum ptx_type)mk->type;
            }
        } else if (mk->mod) {
            if (in.nmods == PTX_MAX_MODS) {
                ERR_TOK(ps, "too many modifiers for '%s'", opname);
                bad = true;
            } else {
                in.mods[in.nmods++] = (enum ptx_mod)mk->mod;
                ptx_file_mod(&in, (enum ptx_mod)mk->mod);
            }
        } else {
            ERR_TOK(ps, "unknown modifier '%s' for '%s'", ptx_name(ps, ps->tok.id), opname);
            bad = true;
        }
        ptx_next(ps);
    }
    size_t base = ps->opstack.n;
    bool ok = true;
    if (in.op == PTX_OP_CALL) {
        ok = ptx_parse_call(ps);
    } else if (ps->tok.kind != ';') {
        ps->in_branch = in.op == PTX_OP_BRA || in.op == PTX_OP_BRX;
        for (;;) {
            struct ptx_operand op;
            if (!ptx_parse_operand(ps, &op)) {
                ok = false;
                break;
            }
            ptx_push_instr_op(ps, &op);
            if (ps->tok.kind == '|') {
                ptx_next(ps);
                if (!ptx_parse_operand(ps, &op)) {
                    ok = false;
                    break;
                }
                ptx_push_instr_op(ps, &op);
            }
            if (ps->tok.kind != ',')
                break;
            ptx_next(ps);
        }
        ps->in_branch = false;
    }
    if (ok && ps->tok.kind != ';') {
        ptx_expected(ps, "';'");
        ok = false;
    }
    if (!ok) {
        ps->opstack.n = base;
        ptx_skip_statement(ps);
        return;
    }
    ptx_next(ps);
    size_t n = ps->opstack.n - base;
    if (n > 255) {
        ptx_error_at(ps, in.loc.line, in.loc.col, "too many operands for '%s'", opname);
        bad = true;
    }
    if (bad) {
        ps->opstack.n = base;
        return;
    }
    in.nops = (uint8_t)n;
    in.ops = n ? ptx_arena_dup(ps->arena, &VEC_AT(ps->opstack, struct ptx_operand, base),
                               n * sizeof(struct ptx_operand))
               : NULL;
    ps->opstack.n = base;
    *(struct ptx_instr *)ptx_vec_push(&ps->instrs) = in;
}

/* ---- debug and misc directives -------------------------------------------- */

/* .loc file line col [, function_name label [+ off]] [, inlined_at file line col] */
static void ptx_parse_loc(struct ptx_parser *ps)
{
    uint64_t f, l, c = 0;
    uint32_t line = ps->tok.line;
    ptx_next(ps);
    if (!ptx_parse_uint(ps, "file index", &f) || !ptx_parse_uint(ps, "line number", &l))
        goto skip;
    if (ps->tok.kind == PTX_TK_INT && !ptx_parse_uint(ps, "column", &c))
        goto skip;
    ps->cu_file = (uint16_t)f;
    ps->cu_line = (uint32_t)l;
    ps->cu_col = (uint32_t)c;
    while (ps->tok.kind == ',') {
        ptx_next(ps);
        if (ps->tok.kind != PTX_TK_IDENT) {
            ptx_expected(ps, "function_name or inlined_at");
            goto skip;
        }
        const char *kw = ptx_name(ps, ps->tok.id);
        ptx_next(ps);
        if (strcmp(kw, "function_name") == 0) {
            if (ps->tok.kind != PTX_TK_IDENT) {
                ptx_expected(ps, "label");
                goto skip;
            }
            ptx_next(ps);
            if (ps->tok.kind == '+') {
                ptx_next(ps);
                int64_t v;
                if (!ptx_cexpr_primary(ps, &v))
                    goto skip;
            }
        } else if (strcmp(kw, "inlined_at") == 0) {
            uint64_t a, b2, c2 = 0;
            if (!ptx_parse_uint(ps, "file index", &a) || !ptx_parse_uint(ps, "line number", &b2))
                goto skip;
            if (ps->tok.kind == PTX_TK_INT && !ptx_parse_uint(ps, "column", &c2))
                goto skip;
        } else {
            ptx_error_at(ps, ps->tok.line, ps->tok.col, "unknown .loc attribute '%s'", kw);
            goto skip;
        }
    }
    return;
skip:
    /* .loc has no terminator: resynchronise at the end of the line. */
    while (ps->tok.kind != PTX_TK_EOF && ps->tok.line == line && ps->tok.kind != ';' &&
           ps->tok.kind != '}')
        ptx_next(ps);
}

/* .file N "path" [, timestamp, size]   or   .file N "dir" "name" */
static void ptx_parse_file(struct ptx_parser *ps)
{
    uint64_t idx;
    ptx_next(ps);
    if (!ptx_parse_uint(ps, "file index", &idx))
        return;
    if (ps->tok.kind != PTX_TK_STRING) {
        ptx_expected(ps, "file name string");
        return;
    }
    struct ptx_file *f = ptx_vec_push(&ps->files);
    f->index = (uint32_t)idx;
    f->path = ptx_arena_strndup(ps->arena, ps->tok.p, ps->tok.len);
    ptx_next(ps);
    if (ps->tok.kind == PTX_TK_STRING) {
        /* LLVM's form: .file N "directory" "name" */
        size_t dlen = strlen(f->path);
        char *p = ptx_arena_alloc(ps->arena, dlen + 1 + ps->tok.len + 1);
        memcpy(p, f->path, dlen);
        p[dlen] = '/';
        memcpy(p + dlen + 1, ps->tok.p, ps->tok.len);
        f->path = p;
        ptx_next(ps);
    }
    while (ps->tok.kind == ',') {
        ptx_next(ps);
        uint64_t v;
        if (!ptx_parse_uint(ps, "integer", &v))
            return;
    }
}

/* .section .debug_xxx { ... }: accepted, contents skipped. */
static void ptx_parse_section(struct ptx_parser *ps)
{
    ptx_next(ps);
    if (ps->tok.kind != PTX_TK_DOTWORD && ps->tok.kind != PTX_TK_IDENT) {
        ptx_expected(ps, "section name");
        return;
    }
    ptx_next(ps);
    if (ps->tok.kind != '{') {
        ptx_expected(ps, "'{'");
        return;
    }
    struct ptx_token open = ps->tok;
    int depth = 0;
    do {
        if (ps->tok.kind == '{')
            depth++;
        else if (ps->tok.kind == '}')
            depth--;
        ptx_next(ps);
    } while (depth > 0 && ps->tok.kind != PTX_TK_EOF);
    if (depth > 0)
        ptx_error_at(ps, open.line, open.col, "unterminated .section");
}

static void ptx_parse_pragma(struct ptx_parser *ps)
{
    ptx_next(ps);
    while (ps->tok.kind == PTX_TK_STRING) {
        ptx_next(ps);
        if (!ptx_accept(ps, ','))
            break;
    }
    if (!ptx_expect(ps, ';', "';'"))
        ptx_skip_statement(ps);
}

/* Up to three comma-separated dimensions (.maxntid x[, y[, z]]). */
static void ptx_parse_dims3(struct ptx_parser *ps, uint32_t out[3])
{
    ptx_next(ps);
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        uint64_t v;
        if (!ptx_parse_uint(ps, "dimension", &v))
            return;
        out[i] = (uint32_t)v;
        if (!ptx_accept(ps, ','))
            return;
    }
}

/* Performance-tuning directives between a function header and its body. */
static bool ptx_parse_perf(struct ptx_parser *ps, struct ptx_func *f)
{
    if (ps->tok.kind != PTX_TK_DOTWORD)
        return false;
    uint64_t v = 0;
    switch (ptx_kw_of(ps, ps->tok.id)->dir) {
    case DIR_MAXNTID: ptx_parse_dims3(ps, f->perf.maxntid); return true;
    case DIR_REQNTID: ptx_parse_dims3(ps, f->perf.reqntid); return true;
    case DIR_REQNCTAPERCLUSTER: ptx_parse_dims3(ps, f->perf.reqnctapercluster); return true;
    case DIR_MINNCTAPERSM:
        ptx_next(ps);
        if (ptx_parse_uint(ps, "count", &v))
            f->perf.minnctapersm = (uint32_t)v;
        return true;
    case DIR_MAXNCTAPERSM:
        ptx_next(ps);
        if (ptx_parse_uint(ps, "count", &v))
            f->perf.maxnctapersm = (uint32_t)v;
        return true;
    case DIR_MAXNREG:
        ptx_next(ps);
        if (ptx_parse_uint(ps, "count", &v))
            f->perf.maxnreg = (uint32_t)v;
        return true;
    case DIR_MAXCLUSTERRANK:
        ptx_next(ps);
        if (ptx_parse_uint(ps, "count", &v))
            f->perf.maxclusterrank = (uint32_t)v;
        return true;
    case DIR_NORETURN: f->perf.noreturn = true; ptx_next(ps); return true;
    case DIR_EXPLICITCLUSTER: f->perf.explicitcluster = true; ptx_next(ps); return true;
    case DIR_BLOCKSAREC: ptx_next(ps); return true;
    case DIR_ABI_PRESERVE:
    case DIR_ABI_PRESERVE_CONTROL:
        ptx_next(ps);
        ptx_parse_uint(ps, "count", &v);
        return true;
    case DIR_PRAGMA: ptx_parse_pragma(ps); return true;
    default: return false;
    }
}

/* ---- functions ------------------------------------------------------------ */

/* ( .param/.reg decl, ... ) into out (struct ptx_symbol *). Params are bound in
 * the current (function) scope when bind is set. */
static bool ptx_parse_param_list(struct ptx_parser *ps, struct ptx_vec *out, bool bind)
{
    if (!ptx_expect(ps, '(', "'('"))
        return false;
    if (ptx_accept(ps, ')'))
        return true;
    for (;;) {
        enum ptx_dir d = ps->tok.kind == PTX_TK_DOTWORD ? ptx_kw_of(ps, ps->tok.id)->dir : DIR_NONE;
        if (d != DIR_PARAM && d != DIR_REG) {
            ptx_expected(ps, ".param or .reg");
            return false;
        }
        ptx_next(ps);
        struct ptx_decl_attrs a;
        if (!ptx_parse_decl_attrs(ps, &a))
            return false;
        if (ps->tok.kind != PTX_TK_IDENT) {
            ptx_expected(ps, "parameter name");
            return false;
        }
        uint32_t id = ps->tok.id;
        size_t before = out->n;
        if (!ptx_parse_declarators(ps, d == DIR_REG ? PTX_SPACE_REG : PTX_SPACE_PARAM, PTX_LINK_NONE, &a,
                                   true, out))
            return false;
        if (out->n == before) {
            /* A .reg parameter of a body-less parse: keep it as a symbol too. */
            struct ptx_symbol *s = ptx_new_symbol(ps, id, PTX_SYM_PARAM);
            s->space = PTX_SPACE_REG;
            s->type = a.type;
            s->size = ptx_type_size(a.type);
            *(struct ptx_symbol **)ptx_vec_push(out) = s;
        }
        struct ptx_symbol *s = VEC_AT(*out, struct ptx_symbol *, out->n - 1);
        s->kind = PTX_SYM_PARAM;
        if (bind && s->space != PTX_SPACE_REG && strcmp(s->name, "_") != 0 &&
            !ptx_bind_name(ps, id, 0, s))
            ptx_error_at(ps, s->loc.line, s->loc.col, "redefinition of parameter '%s'", s->name);
        if (ps->tok.kind == ')') {
            ptx_next(ps);
            return true;
        }
        if (!ptx_expect(ps, ',', "',' or ')'"))
            return false;
    }
}

/* label: .branchtargets / .calltargets / .callprototype */
static void ptx_parse_label_directive(struct ptx_parser *ps, int32_t li)
{
    enum ptx_dir d = ptx_kw_of(ps, ps->tok.id)->dir;
    ptx_next(ps);
    struct ptx_vec items = { .elsize = sizeof(uint32_t) };
    struct ptx_vec funcs = { .elsize = sizeof(struct ptx_symbol *) };
    if (d == DIR_BRANCHTARGETS || d == DIR_CALLTARGETS) {
        for (;;) {
            if (ps->tok.kind != PTX_TK_IDENT) {
                ptx_expected(ps, "identifier");
                goto fail;
            }
            if (d == DIR_BRANCHTARGETS) {
                *(uint32_t *)ptx_vec_push(&items) = (uint32_t)ptx_label_ref(ps, ps->tok.id, ptx_tok_loc(ps), false);
            } else {
                struct ptx_symbol *s = ps->gsym[ps->tok.id];
                if (!s || s->kind != PTX_SYM_FUNC) {
                    ERR_TOK(ps, "use of undeclared function '%s'", ptx_name(ps, ps->tok.id));
                    goto fail;
                }
                *(struct ptx_symbol **)ptx_vec_push(&funcs) = s;
            }
            ptx_next(ps);
            if (!ptx_accept(ps, ','))
                break;
        }
        if (!ptx_expect(ps, ';', "';'"))
            goto fail;
        struct ptx_label *l = &VEC_AT(ps->labels, struct ptx_label, li);
        l->kind = d == DIR_BRANCHTARGETS ? PTX_LABEL_BRANCHTARGETS : PTX_LABEL_CALLTARGETS;
        l->ntargets = (uint32_t)(items.n + funcs.n);
        l->targets = ptx_vec_to_arena(ps, &items);
        l->funcs = ptx_vec_to_arena(ps, &funcs);
        ptx_vec_free(&items);
        ptx_vec_free(&funcs);
        return;
    }
    /* .callprototype [(ret)] _ (params) [.noreturn]; */
    struct ptx_func *proto = ptx_arena_alloc(ps->arena, sizeof *proto);
    struct ptx_vec rets = { .elsize = sizeof(struct ptx_symbol *) };
    struct ptx_vec params = { .elsize = sizeof(struct ptx_symbol *) };
    proto->name = VEC_AT(ps->labels, struct ptx_label, li).name;
    proto->is_decl = true;
    proto->loc = ptx_tok_loc(ps);
    size_t mark;
    ptx_scope_open(ps, &mark);
    bool ok = true;
    if (ps->tok.kind == '(')
        ok = ptx_parse_param_list(ps, &rets, false);
    if (ok && !(ps->tok.kind == PTX_TK_IDENT && strcmp(ptx_name(ps, ps->tok.id), "_") == 0)) {
        ptx_expected(ps, "'_'");
        ok = false;
    }
    if (ok) {
        ptx_next(ps);
        if (ps->tok.kind == '(')
            ok = ptx_parse_param_list(ps, &params, false);
    }
    while (ok && ptx_parse_perf(ps, proto))
        ;
    ptx_scope_close(ps, mark);
    if (ok)
        ok = ptx_expect(ps, ';', "';'");
    proto->nrets = (uint32_t)rets.n;
    proto->rets = ptx_vec_to_arena(ps, &rets);
    proto->nparams = (uint32_t)params.n;
    proto->params = ptx_vec_to_arena(ps, &params);
    ptx_vec_free(&rets);
    ptx_vec_free(&params);
    struct ptx_label *l = &VEC_AT(ps->labels, struct ptx_label, li);
    l->kind = PTX_LABEL_PROTOTYPE;
    l->proto = proto;
    if (!ok)
        ptx_skip_statement(ps);
    return;
fail:
    ptx_vec_free(&items);
    ptx_vec_free(&funcs);
    ptx_skip_statement(ps);
}

/* Statements of a function body up to the closing '}' of the body. */
static void ptx_parse_body(struct ptx_parser *ps)
{
    size_t marks[64];
    int nmarks = 0;
    ptx_scope_open(ps, &marks[nmarks++]);
    ptx_next(ps); /* '{' */
    for (;;) {
        int k = ps->tok.kind;
        if (k == PTX_TK_EOF) {
            ERR_TOK(ps, "unexpected end of file in function body");
            break;
        }
        if (k == '}') {
            ptx_next(ps);
            ptx_scope_close(ps, marks[--nmarks]);
            if (nmarks == 0)
                return;
            continue;
        }
        if (k == '{') {
            if (nmarks == 64) {
                ERR_TOK(ps, "scopes nested too deeply");
                ptx_skip_group(ps);
                continue;
            }
            ptx_scope_open(ps, &marks[nmarks++]);
            ptx_next(ps);
            continue;
        }
        if (k == PTX_TK_DOTWORD) {
            enum ptx_dir d = ptx_kw_of(ps, ps->tok.id)->dir;
            enum ptx_space sp = ptx_space_of_dir(d);
            if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_SREG) {
                ptx_next(ps);
                struct ptx_decl_attrs a;
                if (!ptx_parse_decl_attrs(ps, &a)) {
                    ptx_skip_statement(ps);
                    continue;
                }
                size_t before = ps->locals.n;
                bool ok = ptx_parse_declarators(ps, sp, PTX_LINK_NONE, &a, false, &ps->locals);
                for (size_t i = before; i < ps->locals.n; i++) {
                    struct ptx_symbol *s = VEC_AT(ps->locals, struct ptx_symbol *, i);
                    uint32_t id = ptx_intern(ps->names, s->name, strlen(s->name));
                    if (!ptx_bind_name(ps, id, 0, s))
                        ptx_error_at(ps, s->loc.line, s->loc.col, "redefinition of '%s'", s->name);
                }
                if (!ok || !ptx_expect(ps, ';', "';'"))
                    ptx_skip_statement(ps);
                continue;
            }
            if (d == DIR_LOC) {
                ptx_parse_loc(ps);
                continue;
            }
            if (d == DIR_PRAGMA) {
                ptx_parse_pragma(ps);
                continue;
            }
            if (d == DIR_FILE) {
                ptx_parse_file(ps);
                continue;
            }
            ERR_TOK(ps, "unexpected directive '%s' in function body", ptx_name(ps, ps->tok.id));
            ptx_skip_statement(ps);
            continue;
        }
        if (k == '@') {
            ptx_next(ps);
            bool neg = ptx_accept(ps, '!');
            if (ps->tok.kind != PTX_TK_IDENT) {
                ptx_expected(ps, "predicate register");
                ptx_skip_statement(ps);
                continue;
            }
            struct ptx_bind *b = ptx_binding(ps, ps->tok.id);
            if (!b->reg) {
                ERR_TOK(ps, "use of undeclared register '%s'", ptx_name(ps, ps->tok.id));
                ptx_skip_statement(ps);
                continue;
            }
            int32_t g = b->reg - 1;
            ptx_next(ps);
            if (ps->tok.kind != PTX_TK_IDENT) {
                ptx_expected(ps, "instruction");
                ptx_skip_statement(ps);
                continue;
            }
            ptx_parse_instr(ps, g, neg);
            continue;
        }
        if (k == PTX_TK_IDENT) {
            struct ptx_token first = ps->tok;
            /* A label is an identifier followed by ':'; peek without consuming. */
            const char *q = ps->lx.p;
            while (q < ps->lx.end && (*q == ' ' || *q == '\t'))
                q++;
            if (q < ps->lx.end && *q == ':' && !(q + 1 < ps->lx.end && q[1] == ':')) {
                ptx_next(ps);
                ptx_next(ps);
                ptx_grow_ids(ps);
                struct ptx_loc lloc = { first.line, first.col, ps->cu_file, ps->cu_line, ps->cu_col };
                int32_t li = ptx_label_ref(ps, first.id, lloc, true);
                struct ptx_label *l = &VEC_AT(ps->labels, struct ptx_label, li);
                if (l->instr != UINT32_MAX) {
                    ptx_error_at(ps, first.line, first.col, "redefinition of label '%s'", l->name);
                } else {
                    l->instr = (uint32_t)ps->instrs.n;
                    l->loc = lloc;
                }
                if (ps->tok.kind == PTX_TK_DOTWORD) {
                    enum ptx_dir d = ptx_kw_of(ps, ps->tok.id)->dir;
                    if (d == DIR_BRANCHTARGETS || d == DIR_CALLTARGETS || d == DIR_CALLPROTOTYPE)
                        ptx_parse_label_directive(ps, li);
                }
                continue;
            }
            ptx_parse_instr(ps, -1, false);
            continue;
        }
        if (k == PTX_TK_ERROR) {
            ERR_TOK(ps, "%s", ps->tok.err);
            ptx_skip_statement(ps);
            continue;
        }
        ptx_expected(ps, "instruction or directive");
        ptx_skip_statement(ps);
    }
    while (nmarks > 0)
        ptx_scope_close(ps, marks[--nmarks]);
}

static int32_t ptx_label_canon(struct ptx_parser *ps, int32_t li)
{
    int32_t guard = (int32_t)ps->labels.n;
    while (li >= 0 && VEC_AT(ps->label_redirect, int32_t, li) >= 0 && guard-- > 0)
        li = VEC_AT(ps->label_redirect, int32_t, li);
    return li;
}

static void ptx_canon_operand(struct ptx_parser *ps, struct ptx_operand *op)
{
    if (op->kind == PTX_OPND_LABEL)
        op->label = ptx_label_canon(ps, op->label);
    for (unsigned i = 0; i < op->nelems; i++)
        ptx_canon_operand(ps, &op->elems[i]);
}

/* Points every reference to a merged label at the label it was merged into. */
static void ptx_resolve_label_merges(struct ptx_parser *ps)
{
    bool any = false;
    for (size_t i = 0; i < ps->labels.n && !any; i++)
        any = VEC_AT(ps->label_redirect, int32_t, i) >= 0;
    if (!any)
        return;
    for (size_t i = 0; i < ps->instrs.n; i++) {
        struct ptx_instr *in = &VEC_AT(ps->instrs, struct ptx_instr, i);
        for (unsigned k = 0; k < in->nops; k++)
            ptx_canon_operand(ps, &in->ops[k]);
    }
    for (size_t i = 0; i < ps->labels.n; i++) {
        struct ptx_label *l = &VEC_AT(ps->labels, struct ptx_label, i);
        if (l->kind == PTX_LABEL_BRANCHTARGETS)
            for (uint32_t t = 0; t < l->ntargets; t++)
                l->targets[t] = (uint32_t)ptx_label_canon(ps, (int32_t)l->targets[t]);
    }
}

/* Clears every function-scope binding made since the function began. */
static void ptx_reset_function_scope(struct ptx_parser *ps)
{
    for (size_t i = 0; i < ps->touched.n; i++) {
        uint32_t id = VEC_AT(ps->touched, uint32_t, i);
        memset(&ps->bind[id], 0, sizeof ps->bind[id]);
    }
    ps->touched.n = 0;
    ps->undo.n = 0;
    ps->depth = 0;
}

/* .entry/.func header, performance directives, then ';' or a body. */
static void ptx_parse_function(struct ptx_parser *ps, bool is_entry, enum ptx_linkage link)
{
    struct ptx_func *f = ptx_arena_alloc(ps->arena, sizeof *f);
    f->is_entry = is_entry;
    f->linkage = link;
    f->is_extern = link == PTX_LINK_EXTERN;
    f->loc = ptx_tok_loc(ps);
    ps->fn = f;
    ps->regs.n = ps->instrs.n = ps->labels.n = ps->locals.n = ps->label_first_use.n = 0;
    ps->label_in_branch.n = 0;
    ps->label_redirect.n = 0;
    ps->cu_file = 0;
    ps->cu_line = ps->cu_col = 0;
    ptx_next(ps);
    struct ptx_vec rets = { .elsize = sizeof(struct ptx_symbol *) };
    struct ptx_vec params = { .elsize = sizeof(struct ptx_symbol *) };
    size_t mark;
    ptx_scope_open(ps, &mark);
    bool ok = true;
    if (!is_entry && ps->tok.kind == '(')
        ok = ptx_parse_param_list(ps, &rets, true);
    uint32_t name_id = 0;
    struct ptx_loc name_loc = ptx_tok_loc(ps);
    if (ok && ps->tok.kind != PTX_TK_IDENT) {
        ptx_expected(ps, "function name");
        ok = false;
    }
    if (ok) {
        name_id = ps->tok.id;
        f->name = ptx_name(ps, name_id);
        f->loc = name_loc;
        ptx_next(ps);
        if (ps->tok.kind == '(')
            ok = ptx_parse_param_list(ps, &params, true);
    }
    while (ok && ptx_parse_perf(ps, f))
        ;
    f->nrets = (uint32_t)rets.n;
    f->rets = ptx_vec_to_arena(ps, &rets);
    f->nparams = (uint32_t)params.n;
    f->params = ptx_vec_to_arena(ps, &params);
    ptx_vec_free(&rets);
    ptx_vec_free(&params);
    if (!ok) {
        ptx_skip_statement(ps);
        if (ps->tok.kind == '{')
            ptx_skip_group(ps);
        ptx_reset_function_scope(ps);
        ps->fn = NULL;
        return;
    }
    /* Register the function before the body so that it can call itself. */
    struct ptx_symbol *sym = ptx_new_symbol(ps, name_id, PTX_SYM_FUNC);
    sym->loc = name_loc;
    sym->linkage = link;
    sym->func = f;
    bool has_body = ps->tok.kind == '{';
    f->is_decl = !has_body;
    struct ptx_symbol *got = ptx_declare_global(ps, name_id, sym);
    struct ptx_func *target = f;
    bool fresh = got == sym;
    if (!fresh && got->kind == PTX_SYM_FUNC && got->func) {
        /* A prototype followed by its definition: fill in the first object. */
        target = got->func;
        if (has_body) {
            struct ptx_func keep = *target;
            *target = *f;
            if (keep.linkage && !f->linkage)
                target->linkage = keep.linkage;
            got->loc = name_loc;
        }
    }
    if (fresh)
        *(struct ptx_func **)ptx_vec_push(&ps->funcs) = f;
    ps->fn = target;
    if (has_body) {
        ptx_parse_body(ps);
        ptx_resolve_label_merges(ps);
        /* Every referenced label must be defined somewhere in the body. */
        for (size_t i = 0; i < ps->labels.n; i++) {
            struct ptx_label *l = &VEC_AT(ps->labels, struct ptx_label, i);
            if (VEC_AT(ps->label_redirect, int32_t, i) >= 0) {
                l->instr = 0;
                continue;
            }
            if (l->instr == UINT32_MAX) {
                struct ptx_loc u = VEC_AT(ps->label_first_use, struct ptx_loc, i);
                if (VEC_AT(ps->label_in_branch, bool, i))
                    ptx_error_at(ps, u.line, u.col, "use of undeclared label '%s'", l->name);
                else
                    ptx_error_at(ps, u.line, u.col, "use of undeclared identifier '%s'", l->name);
                l->instr = 0;
            }
        }
        target->nregs = (uint32_t)ps->regs.n;
        target->regs = ptx_vec_to_arena(ps, &ps->regs);
        target->ninstrs = (uint32_t)ps->instrs.n;
        target->instrs = ptx_vec_to_arena(ps, &ps->instrs);
        target->nlabels = (uint32_t)ps->labels.n;
        target->labels = ptx_vec_to_arena(ps, &ps->labels);
        target->nlocals = (uint32_t)ps->locals.n;
        target->locals = ptx_vec_to_arena(ps, &ps->locals);
    } else if (!ptx_expect(ps, ';', "';' or '{'")) {
        ptx_skip_statement(ps);
    }
    ptx_scope_close(ps, mark);
    ptx_reset_function_scope(ps);
    ps->fn = NULL;
}

/* ---- module --------------------------------------------------------------- */

static void ptx_parse_version(struct ptx_parser *ps)
{
    ptx_next(ps);
    const struct ptx_token *t = &ps->tok;
    if (t->kind != PTX_TK_F64 || !t->decimal_float) {
        ptx_expected(ps, "version number (major.minor)");
        ptx_skip_statement(ps);
        return;
    }
    unsigned maj = 0, min = 0;
    size_t i = 0;
    while (i < t->len && t->p[i] != '.')
        maj = maj * 10 + (unsigned)(t->p[i++] - '0');
    for (i++; i < t->len && t->p[i] >= '0' && t->p[i] <= '9'; i++)
        min = min * 10 + (unsigned)(t->p[i] - '0');
    ps->m->version_major = maj;
    ps->m->version_minor = min;
    ptx_next(ps);
}

/* .target sm_XX[a|f] | compute_XX, texmode_unified|texmode_independent, debug, map_f64_to_f32 */
static void ptx_parse_target(struct ptx_parser *ps)
{
    ptx_next(ps);
    for (;;) {
        if (ps->tok.kind != PTX_TK_IDENT) {
            ptx_expected(ps, "target name");
            ptx_skip_statement(ps);
            return;
        }
        const char *s = ptx_name(ps, ps->tok.id);
        const char *digits = NULL;
        if (strncmp(s, "sm_", 3) == 0)
            digits = s + 3;
        else if (strncmp(s, "compute_", 8) == 0)
            digits = s + 8;
        if (digits && *digits >= '0' && *digits <= '9') {
            unsigned sm = 0;
            const char *q = digits;
            while (*q >= '0' && *q <= '9')
                sm = sm * 10 + (unsigned)(*q++ - '0');
            if (*q && !((*q == 'a' || *q == 'f') && !q[1])) {
                ERR_TOK(ps, "unknown target '%s'", s);
            } else {
                ps->m->sm = sm;
                snprintf(ps->m->target, sizeof ps->m->target, "%s", s);
            }
        } else if (strcmp(s, "texmode_independent") == 0) {
            ps->m->target_texmode_independent = true;
        } else if (strcmp(s, "texmode_unified") == 0) {
            ps->m->target_texmode_independent = false;
        } else if (strcmp(s, "debug") == 0) {
            ps->m->target_debug = true;
        } else if (strcmp(s, "map_f64_to_f32") == 0) {
            ps->m->target_map_f64_to_f32 = true;
        } else {
            ERR_TOK(ps, "unknown target '%s'", s);
        }
        ptx_next(ps);
        if (!ptx_accept(ps, ','))
            return;
    }
}

/* .alias alias, aliasee; */
static void ptx_parse_alias(struct ptx_parser *ps)
{
    ptx_next(ps);
    if (ps->tok.kind != PTX_TK_IDENT) {
        ptx_expected(ps, "alias name");
        ptx_skip_statement(ps);
        return;
    }
    uint32_t a = ps->tok.id;
    struct ptx_loc aloc = ptx_tok_loc(ps);
    ptx_next(ps);
    if (!ptx_expect(ps, ',', "','") || ps->tok.kind != PTX_TK_IDENT) {
        if (ps->tok.kind != PTX_TK_IDENT)
            ptx_expected(ps, "function name");
        ptx_skip_statement(ps);
        return;
    }
    ptx_grow_ids(ps);
    struct ptx_symbol *target = ps->gsym[ps->tok.id];
    if (!target || target->kind != PTX_SYM_FUNC) {
        ERR_TOK(ps, "use of undeclared function '%s'", ptx_name(ps, ps->tok.id));
        ptx_skip_statement(ps);
        return;
    }
    ptx_next(ps);
    struct ptx_symbol *old = ps->gsym[a];
    if (old && old->kind == PTX_SYM_FUNC && old->func && old->func->is_decl) {
        old->func = target->func;
    } else if (old) {
        ptx_error_at(ps, aloc.line, aloc.col, "redefinition of '%s'", old->name);
    } else {
        struct ptx_symbol *s = ptx_arena_alloc(ps->arena, sizeof *s);
        *s = *target;
        s->name = ptx_name(ps, a);
        s->loc = aloc;
        ps->gsym[a] = s;
    }
    if (!ptx_expect(ps, ';', "';'"))
        ptx_skip_statement(ps);
}

/* Module-scope variable: [linkage] space attrs declarators ; */
static void ptx_parse_global_var(struct ptx_parser *ps, enum ptx_space sp, enum ptx_linkage link)
{
    ptx_next(ps);
    struct ptx_decl_attrs a;
    if (sp == PTX_SPACE_TEX) {
        /* .tex .u32 name: the old spelling of .global .texref */
        if (!ptx_parse_decl_attrs(ps, &a)) {
            ptx_skip_statement(ps);
            return;
        }
        a.type = PTX_T_TEXREF;
        sp = PTX_SPACE_GLOBAL;
    } else if (!ptx_parse_decl_attrs(ps, &a)) {
        ptx_skip_statement(ps);
        return;
    }
    if (sp == PTX_SPACE_REG || sp == PTX_SPACE_PARAM) {
        ERR_TOK(ps, "%s variables are not allowed at module scope", ptx_space_name(sp));
        ptx_skip_statement(ps);
        return;
    }
    struct ptx_vec syms = { .elsize = sizeof(struct ptx_symbol *) };
    bool ok = ptx_parse_declarators(ps, sp, link, &a, false, &syms);
    for (size_t i = 0; i < syms.n; i++) {
        struct ptx_symbol *s = VEC_AT(syms, struct ptx_symbol *, i);
        ptx_declare_global(ps, ptx_intern(ps->names, s->name, strlen(s->name)), s);
    }
    ptx_vec_free(&syms);
    if (!ok || !ptx_expect(ps, ';', "';'"))
        ptx_skip_statement(ps);
}

static void ptx_parse_module(struct ptx_parser *ps)
{
    ptx_next(ps);
    while (ps->tok.kind != PTX_TK_EOF) {
        if (ps->tok.kind == PTX_TK_ERROR) {
            ERR_TOK(ps, "%s", ps->tok.err);
            ptx_next(ps);
            continue;
        }
        if (ps->tok.kind != PTX_TK_DOTWORD) {
            char buf[64];
            ERR_TOK(ps, "expected directive at module scope before '%s'", ptx_tok_desc(ps, buf, sizeof buf));
            ptx_skip_statement(ps);
            if (ps->tok.kind == '}')
                ptx_next(ps);
            continue;
        }
        enum ptx_linkage link = PTX_LINK_NONE;
        enum ptx_dir d = ptx_kw_of(ps, ps->tok.id)->dir;
        while (d == DIR_EXTERN || d == DIR_VISIBLE || d == DIR_WEAK || d == DIR_COMMON) {
            link = d == DIR_EXTERN ? PTX_LINK_EXTERN : d == DIR_VISIBLE ? PTX_LINK_VISIBLE
                 : d == DIR_WEAK ? PTX_LINK_WEAK : PTX_LINK_COMMON;
            ptx_next(ps);
            d = ps->tok.kind == PTX_TK_DOTWORD ? ptx_kw_of(ps, ps->tok.id)->dir : DIR_NONE;
        }
        switch (d) {
        case DIR_VERSION: ptx_parse_version(ps); break;
        case DIR_TARGET: ptx_parse_target(ps); break;
        case DIR_ADDRESS_SIZE: {
            ptx_next(ps);
            uint64_t v;
            uint32_t line = ps->tok.line, col = ps->tok.col;
            if (ptx_parse_uint(ps, "address size", &v)) {
                if (v != 32 && v != 64)
                    ptx_error_at(ps, line, col, "address size must be 32 or 64");
                ps->m->address_size = (uint32_t)v;
            }
            break;
        }
        case DIR_ENTRY: ptx_parse_function(ps, true, link); break;
        case DIR_FUNC: ptx_parse_function(ps, false, link); break;
        case DIR_GLOBAL: case DIR_CONST: case DIR_SHARED: case DIR_LOCAL: case DIR_TEX:
        case DIR_REG: case DIR_PARAM:
            ptx_parse_global_var(ps, ptx_space_of_dir(d), link);
            break;
        case DIR_FILE: ptx_parse_file(ps); break;
        case DIR_LOC: ptx_parse_loc(ps); break;
        case DIR_SECTION: ptx_parse_section(ps); break;
        case DIR_PRAGMA: ptx_parse_pragma(ps); break;
        case DIR_ALIAS: ptx_parse_alias(ps); break;
        default:
            if (ps->tok.kind == PTX_TK_DOTWORD)
                ERR_TOK(ps, "unknown directive '%s'", ptx_name(ps, ps->tok.id));
            else
                ptx_expected(ps, "declaration");
            ptx_skip_statement(ps);
            if (ps->tok.kind == '}')
                ptx_next(ps);
            break;
        }
    }
}

struct ptx_module *ptx_parse(const char *text, size_t len, const char *path, struct ptx_diags *diags)
{
    struct ptx_parser ps;
    memset(&ps, 0, sizeof ps);
    struct ptx_arena *arena = ptx_arena_new();
    struct ptx_module *m = ptx_arena_alloc(arena, sizeof *m);
    m->arena = arena;
    m->names = ptx_interner_new(arena);
    m->path = ptx_arena_strndup(arena, path ? path : "<input>", strlen(path ? path : "<input>"));
    ps.m = m;
    ps.arena = arena;
    ps.names = m->names;
    ps.diags = diags;
    ps.path = m->path;
    ps.errors_at_start = diags->nerrors;
    ps.undo.elsize = sizeof(struct ptx_undo);
    ps.touched.elsize = sizeof(uint32_t);
    ps.funcs.elsize = sizeof(struct ptx_func *);
    ps.globals.elsize = sizeof(struct ptx_symbol *);
    ps.files.elsize = sizeof(struct ptx_file);
    ps.regs.elsize = sizeof(struct ptx_reg);
    ps.instrs.elsize = sizeof(struct ptx_instr);
    ps.labels.elsize = sizeof(struct ptx_label);
    ps.locals.elsize = sizeof(struct ptx_symbol *);
    ps.label_first_use.elsize = sizeof(struct ptx_loc);
    ps.label_in_branch.elsize = sizeof(bool);
    ps.label_redirect.elsize = sizeof(int32_t);
    ps.hoist.elsize = sizeof(uint32_t);
    ps.opstack.elsize = sizeof(struct ptx_operand);
    ptx_lex_init(&ps.lx, text ? text : "", text ? len : 0, m->names);
    ptx_grow_ids(&ps);

    ptx_parse_module(&ps);

    m->nfuncs = (uint32_t)ps.funcs.n;
    m->funcs = ptx_vec_to_arena(&ps, &ps.funcs);
    m->nglobals = (uint32_t)ps.globals.n;
    m->globals = ptx_vec_to_arena(&ps, &ps.globals);
    m->nfiles = (uint32_t)ps.files.n;
    m->files = ptx_vec_to_arena(&ps, &ps.files);

    ptx_vec_free(&ps.undo);
    ptx_vec_free(&ps.touched);
    ptx_vec_free(&ps.funcs);
    ptx_vec_free(&ps.globals);
    ptx_vec_free(&ps.files);
    ptx_vec_free(&ps.regs);
    ptx_vec_free(&ps.instrs);
    ptx_vec_free(&ps.labels);
    ptx_vec_free(&ps.locals);
    ptx_vec_free(&ps.label_first_use);
    ptx_vec_free(&ps.label_in_branch);
    ptx_vec_free(&ps.label_redirect);
    ptx_vec_free(&ps.hoist);
    ptx_vec_free(&ps.opstack);
    free(ps.kw);
    free(ps.gsym);
    free(ps.bind);
    if (diags->nerrors > ps.errors_at_start) {
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

void ptx_module_free(struct ptx_module *m)
{
    if (!m)
        return;
    ptx_interner_free(m->names);
    ptx_arena_free(m->arena);
}

struct ptx_func *ptx_find_func(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->name && strcmp(m->funcs[i]->name, name) == 0)
            return m->funcs[i];
    return NULL;
}

struct ptx_symbol *ptx_find_global(const struct ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (strcmp(m->globals[i]->name, name) == 0)
            return m->globals[i];
    return NULL;
}
