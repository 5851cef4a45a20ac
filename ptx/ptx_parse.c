/* ptx_parse.c -- recursive-descent parser from PTX text to the module IR
 * (PTX ISA chapters "Syntax", "State Spaces, Types, and Variables", "Directives"). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_parse_internal.h"

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

/* The most threads a block (CTA) may have on any GPU since Fermi: the bound on the product
 * of .maxntid and of .reqntid (PTX ISA "Performance-Tuning Directives"). */
#define PTX_MAX_BLOCK_THREADS 1024u

/* Whether a directive's value is at least 1 and fits 32 bits; reports it when not. */
static bool ptx_count_ok(struct ptx_parser *ps, const char *dir, const char *what, uint64_t v, uint32_t line,
                         uint32_t col)
{
    if (v == 0)
        ptx_error_at(ps, line, col, "'%s' %s must be at least 1", dir, what);
    else if (v > UINT32_MAX)
        ptx_error_at(ps, line, col, "'%s' %s %llu does not fit 32 bits", dir, what, (unsigned long long)v);
    return v && v <= UINT32_MAX;
}

/* Up to three comma-separated dimensions (.maxntid x[, y[, z]]), each at least 1 and, when
 * max_product is not 0, with a product of at most max_product. out is left alone after an
 * error. The directive's token is current. */
static void ptx_parse_dims3(struct ptx_parser *ps, uint32_t out[3], uint64_t max_product)
{
    const char *dir = ptx_name(ps, ps->tok.id);
    uint32_t line = ps->tok.line, col = ps->tok.col;
    ptx_next(ps);
    uint64_t v[3] = { 1, 1, 1 }, product = 1;
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        uint32_t vline = ps->tok.line, vcol = ps->tok.col;
        if (!ptx_parse_uint(ps, "dimension", &v[i]))
            return;
        if (!ptx_count_ok(ps, dir, "dimension", v[i], vline, vcol))
            ok = false;
        product = v[i] && product > UINT64_MAX / v[i] ? UINT64_MAX : product * v[i];
        if (!ptx_accept(ps, ','))
            break;
    }
    if (ok && max_product && product > max_product) {
        ptx_error_at(ps, line, col, "'%s %llu, %llu, %llu' is %llu threads, more than the %llu a block may have",
                     dir, (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
                     (unsigned long long)product, (unsigned long long)max_product);
        ok = false;
    }
    for (int i = 0; ok && i < 3; i++)
        out[i] = (uint32_t)v[i];
}

/* A directive's single count (.maxnreg n, .minnctapersm n, ...): at least 1, and 32 bits.
 * *out is left alone after an error. The directive's token is current. */
static void ptx_parse_count(struct ptx_parser *ps, uint32_t *out)
{
    const char *dir = ptx_name(ps, ps->tok.id);
    ptx_next(ps);
    uint32_t line = ps->tok.line, col = ps->tok.col;
    uint64_t v;
    if (!ptx_parse_uint(ps, "count", &v))
        return;
    if (ptx_count_ok(ps, dir, "value", v, line, col))
        *out = (uint32_t)v;
}

/* Performance-tuning directives between a function header and its body. */
static bool ptx_parse_perf(struct ptx_parser *ps, struct ptx_func *f)
{
    if (ps->tok.kind != PTX_TK_DOTWORD)
        return false;
    uint64_t v = 0;
    switch (ptx_kw_of(ps, ps->tok.id)->dir) {
    case DIR_MAXNTID: ptx_parse_dims3(ps, f->perf.maxntid, PTX_MAX_BLOCK_THREADS); return true;
    case DIR_REQNTID: ptx_parse_dims3(ps, f->perf.reqntid, PTX_MAX_BLOCK_THREADS); return true;
    case DIR_REQNCTAPERCLUSTER: ptx_parse_dims3(ps, f->perf.reqnctapercluster, 0); return true;
    case DIR_MINNCTAPERSM: ptx_parse_count(ps, &f->perf.minnctapersm); return true;
    case DIR_MAXNCTAPERSM: ptx_parse_count(ps, &f->perf.maxnctapersm); return true;
    case DIR_MAXNREG: ptx_parse_count(ps, &f->perf.maxnreg); return true;
    case DIR_MAXCLUSTERRANK: ptx_parse_count(ps, &f->perf.maxclusterrank); return true;
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

/* How deep `{ }` scopes may nest in a function body (the body's own braces included). */
#define PTX_MAX_SCOPES 64

/* Statements of a function body up to the closing '}' of the body. */
static void ptx_parse_body(struct ptx_parser *ps)
{
    size_t marks[PTX_MAX_SCOPES];
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
            if (nmarks == PTX_MAX_SCOPES) {
                ERR_TOK(ps, "scopes nested too deeply (limit %d)", PTX_MAX_SCOPES);
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
