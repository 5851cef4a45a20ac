/* ptx_parse_internal.h -- shared state and helpers of the PTX parser, split over
 * ptx_parse.c (module, functions, bodies), ptx_parse_decl.c, ptx_parse_instr.c, ptx_parse_util.c. */
#ifndef LOOM_PTX_PARSE_INTERNAL_H
#define LOOM_PTX_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lex.h"

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
    uint32_t nesting;                /* recursion depth of expressions, operands, initialisers */
};

/* How deep constant expressions (parentheses and unary operators), operands ('!', vector
 * braces) and initialiser braces may nest, together: the parser recurses once per level,
 * and a hostile file must not run it out of stack. Real PTX nests a few levels. */
#define PTX_MAX_NESTING 256

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

#define VEC_AT(vec, type, i) (((type *)(vec).v)[i])

/* Hot helpers, inline: every token goes through them. */
static inline void ptx_next(struct ptx_parser *ps)
{
    ptx_lex_next(&ps->lx, &ps->tok);
}

static inline bool ptx_accept(struct ptx_parser *ps, int kind)
{
    if (ps->tok.kind != kind)
        return false;
    ptx_next(ps);
    return true;
}

static inline const char *ptx_name(struct ptx_parser *ps, uint32_t id)
{
    return ptx_interner_str(ps->names, id);
}

static inline struct ptx_loc ptx_tok_loc(struct ptx_parser *ps)
{
    struct ptx_loc l = { ps->tok.line, ps->tok.col, ps->cu_file, ps->cu_line, ps->cu_col };
    return l;
}

void ptx_grow_ids(struct ptx_parser *ps);

/* The scoped binding of a name id (grows the tables for new ids). */
static inline struct ptx_bind *ptx_binding(struct ptx_parser *ps, uint32_t id)
{
    if (id >= ps->bindcap)
        ptx_grow_ids(ps);
    return &ps->bind[id];
}

const struct ptx_kw *ptx_kw_compute(struct ptx_parser *ps, uint32_t id);

/* Keyword meaning of an interned word (opcode, suffix, type, directive, sreg). */
static inline const struct ptx_kw *ptx_kw_of(struct ptx_parser *ps, uint32_t id)
{
    if (id < ps->bindcap && ps->kw[id].done)
        return &ps->kw[id];
    return ptx_kw_compute(ps, id);
}
#define ERR_TOK(ps, ...) ptx_error_at((ps), (ps)->tok.line, (ps)->tok.col, __VA_ARGS__)

/* ptx_parse_util.c: tokens, errors, keywords, scopes, constant expressions, symbols */
void *ptx_vec_push(struct ptx_vec *v);
void ptx_vec_free(struct ptx_vec *v);
void *ptx_vec_to_arena(struct ptx_parser *ps, const struct ptx_vec *v);
void ptx_error_at(struct ptx_parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *ptx_tok_desc(struct ptx_parser *ps, char *buf, size_t size);
void ptx_expected(struct ptx_parser *ps, const char *what);
bool ptx_expect(struct ptx_parser *ps, int kind, const char *what);
void ptx_skip_statement(struct ptx_parser *ps);
void ptx_skip_to_close(struct ptx_parser *ps);
bool ptx_bind_name(struct ptx_parser *ps, uint32_t id, int32_t reg, struct ptx_symbol *sym);
void ptx_scope_open(struct ptx_parser *ps, size_t *out_mark);
void ptx_scope_close(struct ptx_parser *ps, size_t mark);
bool ptx_nest_enter(struct ptx_parser *ps, const char *what);
bool ptx_cexpr(struct ptx_parser *ps, int prec, int64_t *out);
bool ptx_cexpr_primary(struct ptx_parser *ps, int64_t *out);
/* WARP_SZ (32) at the current token, not consumed; false for any other token. */
bool ptx_predefined_int(struct ptx_parser *ps, int64_t *out);
bool ptx_parse_uint(struct ptx_parser *ps, const char *what, uint64_t *out);
struct ptx_symbol *ptx_new_symbol(struct ptx_parser *ps, uint32_t id, enum ptx_sym_kind kind);
struct ptx_symbol *ptx_declare_global(struct ptx_parser *ps, uint32_t id, struct ptx_symbol *s);
/* ptx_parse_decl.c: declarations and initialisers */
enum ptx_space ptx_space_of_dir(enum ptx_dir d);
enum ptx_space ptx_space_of_mod(enum ptx_mod m);
void ptx_skip_group(struct ptx_parser *ps);
bool ptx_parse_decl_attrs(struct ptx_parser *ps, struct ptx_decl_attrs *a);
bool ptx_parse_declarators(struct ptx_parser *ps, enum ptx_space space, enum ptx_linkage link,
                           const struct ptx_decl_attrs *a, bool single, struct ptx_vec *out_syms);
/* ptx_parse_instr.c: operands and instructions */
int32_t ptx_label_ref(struct ptx_parser *ps, uint32_t id, struct ptx_loc loc, bool define);
void ptx_parse_instr(struct ptx_parser *ps, int32_t guard, bool guard_neg);

#endif
