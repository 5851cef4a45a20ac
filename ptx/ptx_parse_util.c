/* ptx_parse_util.c -- parser plumbing: token helpers, error reporting, keyword table,
 * scoped bindings, constant expressions and module-scope symbols. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_parse_internal.h"

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

/* ---- small utilities ---------------------------------------------------- */

void *ptx_vec_push(struct ptx_vec *v)
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

void ptx_vec_free(struct ptx_vec *v)
{
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

/* Copies a scratch vector's contents into the arena. */
void *ptx_vec_to_arena(struct ptx_parser *ps, const struct ptx_vec *v)
{
    return ptx_arena_dup(ps->arena, v->v, v->n * v->elsize);
}

void ptx_error_at(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(ps->diags, PTX_SEV_ERROR, ps->path, line, col, fmt, ap);
    va_end(ap);
}

/* Text of the current token for messages, clipped. */
const char *ptx_tok_desc(struct ptx_parser *ps, char *buf, size_t size)
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

void ptx_expected(struct ptx_parser *ps, const char *what)
{
    char buf[64];
    if (ps->tok.kind == PTX_TK_ERROR) {
        ERR_TOK(ps, "%s", ps->tok.err);
        return;
    }
    ERR_TOK(ps, "expected %s before '%s'", what, ptx_tok_desc(ps, buf, sizeof buf));
}

bool ptx_expect(struct ptx_parser *ps, int kind, const char *what)
{
    if (ptx_accept(ps, kind))
        return true;
    ptx_expected(ps, what);
    return false;
}

/* Error recovery: skip to the end of the statement (past ';'), stopping before a
 * '}' that closes an enclosing scope. */
void ptx_skip_statement(struct ptx_parser *ps)
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

/* Error recovery inside a bracketed list ({...}, [...], (...)): skips past the close of
 * the innermost open bracket, over nested ones; stops before a ';' or at end of file. */
void ptx_skip_to_close(struct ptx_parser *ps)
{
    int depth = 0;
    for (;;) {
        int k = ps->tok.kind;
        if (k == PTX_TK_EOF || k == ';')
            return;
        if (k == '{' || k == '[' || k == '(') {
            depth++;
        } else if (k == '}' || k == ']' || k == ')') {
            if (depth-- == 0) {
                ptx_next(ps);
                return;
            }
        }
        ptx_next(ps);
    }
}

void ptx_grow_ids(struct ptx_parser *ps)
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

/* Slow path of ptx_kw_of: what a word means as a keyword, computed once per distinct word. */
const struct ptx_kw *ptx_kw_compute(struct ptx_parser *ps, uint32_t id)
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

/* ---- scopes and bindings ------------------------------------------------- */

/* Binds a name in the current scope; false when already bound in this scope. */
bool ptx_bind_name(struct ptx_parser *ps, uint32_t id, int32_t reg, struct ptx_symbol *sym)
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

void ptx_scope_open(struct ptx_parser *ps, size_t *out_mark)
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
void ptx_scope_close(struct ptx_parser *ps, size_t mark)
{
    ps->hoist.n = 0;
    for (size_t i = mark; i < ps->undo.n; i++) {
        uint32_t id = VEC_AT(ps->undo, struct ptx_undo, i).id;
        struct ptx_bind *b = &ps->bind[id];
        /* A redirect of -2 marks a label already collected (each is collected once). */
        if (b->ldepth == ps->depth && ptx_label_pending(ps, b->label) &&
            VEC_AT(ps->label_redirect, int32_t, b->label - 1) == -1) {
            VEC_AT(ps->label_redirect, int32_t, b->label - 1) = -2;
            *(uint32_t *)ptx_vec_push(&ps->hoist) = id;
        }
    }
    size_t nh = ps->hoist.n;
    int32_t *moved = nh ? malloc(nh * sizeof *moved) : NULL;
    for (size_t j = 0; j < nh; j++) {
        moved[j] = ps->bind[VEC_AT(ps->hoist, uint32_t, j)].label;
        VEC_AT(ps->label_redirect, int32_t, moved[j] - 1) = -1;
    }
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

/* Enters one more level of a recursive construct (`what` names it in the error); false,
 * after an error at the current token, past PTX_MAX_NESTING. A true return is paired
 * with ps->nesting-- when the level is left. */
bool ptx_nest_enter(struct ptx_parser *ps, const char *what)
{
    if (ps->nesting >= PTX_MAX_NESTING) {
        ERR_TOK(ps, "%s nested too deeply (limit %d)", what, PTX_MAX_NESTING);
        return false;
    }
    ps->nesting++;
    return true;
}

/* Whether the current token is an integer identifier that the PTX ISA predefines
 * ("Predefined Identifiers"): WARP_SZ, the threads of a warp (CUDA's warpSize), 32. */
bool ptx_predefined_int(struct ptx_parser *ps, int64_t *out)
{
    if (ps->tok.kind != PTX_TK_IDENT || strcmp(ptx_name(ps, ps->tok.id), "WARP_SZ") != 0)
        return false;
    *out = 32;
    return true;
}

/* ptx_cexpr_primary inside its level of nesting. */
static bool ptx_cexpr_term(struct ptx_parser *ps, int64_t *out)
{
    int k = ps->tok.kind;
    if (k == PTX_TK_INT || ptx_predefined_int(ps, out)) {
        if (k == PTX_TK_INT)
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

/* An integer, a unary operator and its operand, or a parenthesised expression: each
 * unary operator and parenthesis is one level of PTX_MAX_NESTING. */
bool ptx_cexpr_primary(struct ptx_parser *ps, int64_t *out)
{
    if (!ptx_nest_enter(ps, "constant expression"))
        return false;
    bool ok = ptx_cexpr_term(ps, out);
    ps->nesting--;
    return ok;
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
bool ptx_cexpr(struct ptx_parser *ps, int prec, int64_t *out)
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

bool ptx_parse_uint(struct ptx_parser *ps, const char *what, uint64_t *out)
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

struct ptx_symbol *ptx_new_symbol(struct ptx_parser *ps, uint32_t id, enum ptx_sym_kind kind)
{
    struct ptx_symbol *s = ptx_arena_alloc(ps->arena, sizeof *s);
    s->name = ptx_name(ps, id);
    s->kind = kind;
    s->loc = ptx_tok_loc(ps);
    return s;
}

/* Registers a module-scope symbol; reports a redefinition unless one of the two
 * is only a declaration (.extern variable, function prototype). */
struct ptx_symbol *ptx_declare_global(struct ptx_parser *ps, uint32_t id, struct ptx_symbol *s)
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
