/* ptx_parse_decl.c -- declarations: attributes, declarators with <N> ranges and array
 * dimensions, initialisers (PTX ISA "Variable Declarations", "Initializers"). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_parse_internal.h"

/* ---- declarations -------------------------------------------------------- */

enum ptx_space ptx_space_of_dir(enum ptx_dir d)
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

enum ptx_space ptx_space_of_mod(enum ptx_mod m)
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
void ptx_skip_group(struct ptx_parser *ps)
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

bool ptx_parse_decl_attrs(struct ptx_parser *ps, struct ptx_decl_attrs *a)
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

static bool ptx_parse_init_list(struct ptx_parser *ps, enum ptx_type t, struct ptx_vec *out);

/* The elements of a braced list after its '{', up to and past its '}' (after an error
 * too, so that the enclosing lists and the statement stay in step). */
static bool ptx_parse_init_braces(struct ptx_parser *ps, enum ptx_type t, struct ptx_vec *out)
{
    if (ptx_accept(ps, '}'))
        return true;
    for (;;) {
        if (!ptx_parse_init_list(ps, t, out))
            break;
        if (ptx_accept(ps, ','))
            continue;
        if (ptx_accept(ps, '}'))
            return true;
        ptx_expected(ps, "'}' or ','");
        break;
    }
    ptx_skip_to_close(ps);
    return false;
}

/* Initialiser list with nested braces, flattened in row-major order; each brace is one
 * level of PTX_MAX_NESTING. */
static bool ptx_parse_init_list(struct ptx_parser *ps, enum ptx_type t, struct ptx_vec *out)
{
    if (ps->tok.kind != '{')
        return ptx_parse_init_elem(ps, t, out);
    if (!ptx_nest_enter(ps, "initializer"))
        return false;
    ptx_next(ps);
    bool ok = ptx_parse_init_braces(ps, t, out);
    ps->nesting--;
    return ok;
}

/* a * b, or UINT64_MAX when the product does not fit 64 bits (array sizes). */
static uint64_t ptx_mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Parses "name[<N>][dims][= init]" items after attributes for one declaration
 * statement. Registers go to the current function; other variables become
 * symbols (out_syms receives them). Returns false after a reported error. */
bool ptx_parse_declarators(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
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
                        uint64_t inner = 1, elems = s->ninit / s->vec;
                        for (uint32_t d = 1; d < s->ndims; d++)
                            inner = ptx_mul_sat(inner, s->dims[d] ? s->dims[d] : 1);
                        s->dims[0] = elems / inner + (elems % inner != 0);
                    }
                }
            }
            uint64_t n = 1;
            for (uint32_t d = 0; d < s->ndims; d++)
                n = ptx_mul_sat(n, s->dims[d]);
            unsigned esz = ptx_type_size(a->type);
            if (a->type == PTX_T_PRED)
                esz = 1;
            s->size = ptx_mul_sat(n, (uint64_t)esz * a->vec);
            if (s->size == UINT64_MAX)
                ptx_error_at(ps, loc.line, loc.col, "'%s' is too large: its size in bytes overflows 64 bits",
                             s->name);
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
