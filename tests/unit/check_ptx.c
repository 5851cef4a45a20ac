/* check_ptx.c -- unit tests of the PTX front end: tables, lexer, parser IR,
 * diagnostics, checks, CFG and post-dominators, and robustness on broken input. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lex.h"

Suite *ptx_suite(void);

/* ---- Helpers -------------------------------------------------------------------------- */

#define HDR ".version 8.7\n.target sm_80\n.address_size 64\n"

struct parsed {
    struct ptx_diags d;
    struct ptx_module *m;
    char *text;              /* the diagnostics, one per line */
};

/* Parses (and when it parsed, checks and analyses) src; diagnostics as text. */
static void parse_src(struct parsed *p, const char *src)
{
    ptx_diags_init(&p->d);
    p->m = ptx_parse(src, strlen(src), "t.ptx", &p->d);
    if (p->m) {
        ptx_check(p->m, &p->d);
        ptx_analyze(p->m, &p->d);
    }
    size_t len = 0;
    FILE *f = open_memstream(&p->text, &len);
    ck_assert_ptr_nonnull(f);
    ptx_diags_print(&p->d, f);
    fclose(f);
}

static void parsed_free(struct parsed *p)
{
    ptx_module_free(p->m);
    ptx_diags_free(&p->d);
    free(p->text);
}

static struct ptx_func *func(struct parsed *p, const char *name)
{
    ck_assert_ptr_nonnull(p->m);
    struct ptx_func *f = ptx_find_func(p->m, name);
    ck_assert_ptr_nonnull(f);
    return f;
}

/* Index of the first instruction with opcode op at or after `from`. */
static uint32_t find_op(const struct ptx_func *f, enum ptx_opcode op, uint32_t from)
{
    for (uint32_t i = from; i < f->ninstrs; i++)
        if (f->instrs[i].op == op)
            return i;
    ck_abort_msg("opcode %s not found", ptx_opcode_name(op));
    return 0;
}

/* ---- Tables --------------------------------------------------------------------------- */

START_TEST(test_tables_roundtrip)
{
    for (int op = 0; op < PTX_OP_COUNT_; op++) {
        const char *n = ptx_opcode_name((enum ptx_opcode)op);
        ck_assert_int_eq(ptx_opcode_lookup(n, strlen(n)), op);
    }
    for (int m = 1; m < PTX_MOD_COUNT_; m++) {
        const char *n = ptx_mod_name((enum ptx_mod)m);
        ck_assert_msg(n[0] == '.', "suffix %s lacks its dot", n);
        ck_assert_int_eq(ptx_mod_lookup(n, strlen(n)), m);
        ck_assert_int_eq(ptx_type_lookup(n, strlen(n)), PTX_T_NONE);
    }
    for (int t = 1; t < PTX_T_COUNT_; t++) {
        const char *n = ptx_type_name((enum ptx_type)t);
        ck_assert_int_eq(ptx_type_lookup(n, strlen(n)), t);
    }
    for (int s = 1; s < PTX_SREG_COUNT_; s++) {
        const char *n = ptx_sreg_name((enum ptx_sreg)s);
        ck_assert_int_eq(ptx_sreg_lookup(n, strlen(n)), s);
    }
    ck_assert_int_eq(ptx_opcode_lookup("frobnicate", 10), PTX_OP_COUNT_);
    ck_assert_int_eq(ptx_mod_lookup(".foo", 4), PTX_MOD_NONE_);
}
END_TEST

START_TEST(test_tables_props)
{
    ck_assert_uint_eq(ptx_type_size(PTX_T_B32), 4);
    ck_assert_uint_eq(ptx_type_size(PTX_T_F64), 8);
    ck_assert_uint_eq(ptx_type_size(PTX_T_F16X2), 4);
    ck_assert_uint_eq(ptx_type_size(PTX_T_PRED), 0);
    ck_assert(ptx_type_is_float(PTX_T_BF16));
    ck_assert(!ptx_type_is_float(PTX_T_U32));
    ck_assert(ptx_type_is_signed(PTX_T_S64));
    ck_assert(!ptx_type_is_signed(PTX_T_U8));
    ck_assert_int_eq(ptx_mod_category(PTX_MOD_RN), PTX_MC_ROUND);
    ck_assert_int_eq(ptx_mod_category(PTX_MOD_SHARED_CTA), PTX_MC_SPACE);
    ck_assert_int_eq(ptx_mod_category(PTX_MOD_L2_CACHE_HINT), PTX_MC_CACHE);
    ck_assert_int_eq(ptx_mod_category(PTX_MOD_M16N8K16), PTX_MC_SHAPE);
    ck_assert(ptx_opcode_flags(PTX_OP_BRA) & PTX_OPF_BRANCH);
    ck_assert(ptx_opcode_flags(PTX_OP_LD) & PTX_OPF_MEMORY);
    ck_assert_str_eq(ptx_space_name(PTX_SPACE_SHARED), ".shared");
    ck_assert_str_eq(ptx_sreg_name(PTX_SREG_TID_X), "%tid.x");
}
END_TEST

/* ---- Arena and interner --------------------------------------------------------------- */

START_TEST(test_interner)
{
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_interner *in = ptx_interner_new(a);
    char buf[32];
    uint32_t ids[5000];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "%%r%d", i);
        ids[i] = ptx_intern(in, buf, (size_t)n);
        ck_assert_uint_ne(ids[i], 0);
    }
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "%%r%d", i);
        ck_assert_uint_eq(ptx_intern(in, buf, (size_t)n), ids[i]);
        ck_assert_str_eq(ptx_interner_str(in, ids[i]), buf);
    }
    ck_assert_uint_eq(ptx_interner_find(in, "nope", 4), 0);
    void *big = ptx_arena_alloc(a, 1 << 20);
    ck_assert_ptr_nonnull(big);
    ck_assert_uint_eq(((uintptr_t)ptx_arena_alloc(a, 3)) % 16, 0);
    ptx_interner_free(in);
    ptx_arena_free(a);
}
END_TEST

/* ---- Lexer ---------------------------------------------------------------------------- */

static const struct {
    const char *text;
    int kind;
    uint64_t value;
} lex_cases[] = {
    { "42", PTX_TK_INT, 42 },
    { "0x1F", PTX_TK_INT, 31 },
    { "0X1f", PTX_TK_INT, 31 },
    { "017", PTX_TK_INT, 15 },
    { "0b1011", PTX_TK_INT, 11 },
    { "4294967295U", PTX_TK_INT, 4294967295u },
    { "0xffffffffffffffff", PTX_TK_INT, UINT64_MAX },
    { "0", PTX_TK_INT, 0 },
    { "0f3F800000", PTX_TK_F32, 0x3F800000 },
    { "0F40490FDB", PTX_TK_F32, 0x40490FDB },
    { "0d3FF0000000000000", PTX_TK_F64, 0x3FF0000000000000ull },
    { "1.5", PTX_TK_F64, 0x3FF8000000000000ull },
    { "2e3", PTX_TK_F64, 0x409F400000000000ull },
    { "0f3F80", PTX_TK_ERROR, 0 },
    { "019", PTX_TK_ERROR, 0 },
    { "12abc", PTX_TK_ERROR, 0 },
    { "99999999999999999999", PTX_TK_ERROR, 0 },
};

START_TEST(test_lex_numbers)
{
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_interner *in = ptx_interner_new(a);
    struct ptx_lexer lx;
    struct ptx_token t;
    const char *s = lex_cases[_i].text;
    ptx_lex_init(&lx, s, strlen(s), in);
    ptx_lex_next(&lx, &t);
    ck_assert_msg(t.kind == lex_cases[_i].kind, "%s: kind %d, want %d", s, t.kind, lex_cases[_i].kind);
    if (t.kind != PTX_TK_ERROR)
        ck_assert_msg(t.ival == lex_cases[_i].value, "%s: value %llx", s, (unsigned long long)t.ival);
    ptx_interner_free(in);
    ptx_arena_free(a);
}
END_TEST

START_TEST(test_lex_tokens)
{
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_interner *in = ptx_interner_new(a);
    const char *s = "// c\n  ld.shared::cta.L2::cache_hint.v4 {%r1,%tid.x}, [$L__x+-4]; /* b\n */ @!%p1 \"s\\\"t\" <<";
    static const int want[] = { PTX_TK_IDENT, PTX_TK_DOTWORD, PTX_TK_DOTWORD, PTX_TK_DOTWORD, '{',
                                PTX_TK_IDENT, ',', PTX_TK_IDENT, '}', ',', '[', PTX_TK_IDENT, '+', '-',
                                PTX_TK_INT, ']', ';', '@', '!', PTX_TK_IDENT, PTX_TK_STRING, PTX_TK_SHL,
                                PTX_TK_EOF };
    struct ptx_lexer lx;
    struct ptx_token t;
    ptx_lex_init(&lx, s, strlen(s), in);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ptx_lex_next(&lx, &t);
        ck_assert_msg(t.kind == want[i], "token %zu: kind %d, want %d", i, t.kind, want[i]);
        if (i == 0)
            ck_assert_uint_eq(t.line, 2);
        if (i == 0)
            ck_assert_uint_eq(t.col, 3);
        if (i == 2)
            ck_assert_str_eq(ptx_interner_str(in, t.id), ".L2::cache_hint");
        if (i == 7)
            ck_assert_str_eq(ptx_interner_str(in, t.id), "%tid.x");
        if (i == 17)
            ck_assert_uint_eq(t.line, 3);
    }
    ptx_interner_free(in);
    ptx_arena_free(a);
}
END_TEST

/* Video selectors lex as part of the register name: .b with 1-4 digits 0-7, .h
 * with 1-2 digits 0-3; anything longer or other digits is a separate word. */
START_TEST(test_lex_video_selectors)
{
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_interner *in = ptx_interner_new(a);
    const char *s = "%r1.b3210 %r1.h10 %r1.b7 %r1.b01234 %r1.h4";
    static const char *want[] = { "%r1.b3210", "%r1.h10", "%r1.b7", "%r1", ".b01234", "%r1", ".h4" };
    struct ptx_lexer lx;
    struct ptx_token t;
    ptx_lex_init(&lx, s, strlen(s), in);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ptx_lex_next(&lx, &t);
        ck_assert_int_eq(t.kind, want[i][0] == '%' ? PTX_TK_IDENT : PTX_TK_DOTWORD);
        ck_assert_str_eq(ptx_interner_str(in, t.id), want[i]);
    }
    ptx_lex_next(&lx, &t);
    ck_assert_int_eq(t.kind, PTX_TK_EOF);
    ptx_interner_free(in);
    ptx_arena_free(a);
}
END_TEST

/* ---- Parser --------------------------------------------------------------------------- */

static const char *basic_src = HDR
    ".global .align 4 .u32 tab[4] = {1, 0x2, 03, 0b100};\n"
    ".global .align 8 .u64 ptrs[3] = {generic(tab), tab+8, generic(tab)+4};\n"
    ".global .u8 bytes[2] = {0xFF00(tab), mask(tab, 0xff)};\n"
    ".const .f32 cst[2] = {1.5, 0f40000000};\n"
    ".global .u32 arr2[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 blob[16])\n"
    ".maxntid 256, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .loc 1 17 3\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.and.s32 %p1|%p2, %r1, -5, %p0;\n"
    "  @!%p1 bra DONE;\n"
    "  ld.global.v4.u32 {%r2, %r3, _, %r4}, [%rd1+-8];\n"
    "  ld.global.u32 %r5, [tab+4];\n"
    "  ld.global.u32 %r6, [64];\n"
    "  mul.hi.u32 %r7, %r6, (3 << 2) + 1;\n"
    "  atom.global.and.b32 %r8, [%rd1], 7;\n"
    "  { .reg .b32 %r1; add.s32 %r1, %r2, 1; }\n"
    "  add.s32 %r9, %r1, 1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

START_TEST(test_parse_basic)
{
    struct parsed p;
    parse_src(&p, basic_src);
    ck_assert_msg(p.m != NULL && p.d.nerrors == 0, "diagnostics:\n%s", p.text);
    ck_assert_uint_eq(p.m->version_major, 8);
    ck_assert_uint_eq(p.m->version_minor, 7);
    ck_assert_uint_eq(p.m->sm, 80);
    ck_assert_uint_eq(p.m->address_size, 64);

    struct ptx_symbol *tab = ptx_find_global(p.m, "tab");
    ck_assert_ptr_nonnull(tab);
    ck_assert_uint_eq(tab->ninit, 4);
    ck_assert_uint_eq(tab->init[2].bits, 3);
    ck_assert_uint_eq(tab->init[3].bits, 4);
    ck_assert_uint_eq(tab->size, 16);
    struct ptx_symbol *ptrs = ptx_find_global(p.m, "ptrs");
    ck_assert_int_eq(ptrs->init[0].kind, PTX_INIT_SYM);
    ck_assert(ptrs->init[0].generic);
    ck_assert_ptr_eq(ptrs->init[1].sym, tab);
    ck_assert_int_eq(ptrs->init[1].offset, 8);
    ck_assert_int_eq(ptrs->init[2].offset, 4);
    struct ptx_symbol *bytes = ptx_find_global(p.m, "bytes");
    ck_assert_uint_eq(bytes->init[0].mask, 0xFF00);
    ck_assert_uint_eq(bytes->init[0].mask_shift, 8);
    ck_assert_uint_eq(bytes->init[1].mask, 0xFF);
    struct ptx_symbol *cst = ptx_find_global(p.m, "cst");
    ck_assert_uint_eq(cst->init[0].bits, 0x3FC00000);
    ck_assert_uint_eq(cst->init[1].bits, 0x40000000);
    struct ptx_symbol *arr2 = ptx_find_global(p.m, "arr2");
    ck_assert_uint_eq(arr2->ndims, 2);
    ck_assert_uint_eq(arr2->ninit, 6);
    ck_assert_uint_eq(arr2->size, 24);
    struct ptx_symbol *dyn = ptx_find_global(p.m, "dyn");
    ck_assert_int_eq(dyn->linkage, PTX_LINK_EXTERN);
    ck_assert_uint_eq(dyn->size, 0);

    struct ptx_func *f = func(&p, "k");
    ck_assert(f->is_entry);
    ck_assert_uint_eq(f->perf.maxntid[0], 256);
    ck_assert_uint_eq(f->perf.minnctapersm, 2);
    ck_assert_uint_eq(f->nparams, 2);
    ck_assert(f->params[0]->is_ptr);
    ck_assert_int_eq(f->params[0]->ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(f->params[0]->ptr_align, 16);
    ck_assert_uint_eq(f->params[1]->size, 16);
    ck_assert_uint_eq(f->params[1]->offset, 8);
    ck_assert_uint_eq(f->param_bytes, 24);
    ck_assert_uint_eq(f->nregs, 3 + 10 + 4 + 1);
    ck_assert_uint_eq(f->reg_count[PTX_T_B32], 11);

    const struct ptx_instr *in = &f->instrs[0];
    ck_assert_int_eq(in->op, PTX_OP_LD);
    ck_assert_int_eq(in->space, PTX_SPACE_PARAM);
    ck_assert_uint_eq(in->loc.line, 18);
    ck_assert_uint_eq(in->loc.col, 3);
    ck_assert_uint_eq(in->loc.cu_file, 1);
    ck_assert_uint_eq(in->loc.cu_line, 17);
    ck_assert_int_eq(in->ops[1].kind, PTX_OPND_ADDR);
    ck_assert_ptr_eq(in->ops[1].sym, f->params[0]);

    in = &f->instrs[1];
    ck_assert_int_eq(in->ops[1].kind, PTX_OPND_SREG);
    ck_assert_int_eq(in->ops[1].sreg, PTX_SREG_TID_X);

    in = &f->instrs[find_op(f, PTX_OP_SETP, 0)];
    ck_assert_uint_eq(in->nops, 5);
    ck_assert_int_eq(in->cmp, PTX_MOD_LT);
    ck_assert_int_eq(in->boolop, PTX_MOD_AND);
    ck_assert_int_eq(in->ops[3].kind, PTX_OPND_IMM_INT);
    ck_assert_int_eq(in->ops[3].ival, -5);

    in = &f->instrs[find_op(f, PTX_OP_BRA, 0)];
    ck_assert_int_ge(in->guard_reg, 0);
    ck_assert(in->guard_neg);
    ck_assert_int_eq(in->ops[0].kind, PTX_OPND_LABEL);
    ck_assert_str_eq(f->labels[in->ops[0].label].name, "DONE");
    ck_assert_uint_eq(f->labels[in->ops[0].label].instr, f->ninstrs - 1);

    uint32_t li = find_op(f, PTX_OP_LD, 1);
    in = &f->instrs[li];
    ck_assert_uint_eq(in->vec, 4);
    ck_assert_int_eq(in->ops[0].kind, PTX_OPND_VEC);
    ck_assert_uint_eq(in->ops[0].nelems, 4);
    ck_assert_int_eq(in->ops[0].elems[2].kind, PTX_OPND_SINK);
    ck_assert_int_eq(in->ops[1].ival, -8);
    ck_assert_int_ge(in->ops[1].reg, 0);
    in = &f->instrs[li + 1];
    ck_assert_ptr_eq(in->ops[1].sym, tab);
    ck_assert_int_eq(in->ops[1].ival, 4);
    in = &f->instrs[li + 2];
    ck_assert_int_eq(in->ops[1].reg, -1);
    ck_assert_ptr_null(in->ops[1].sym);
    ck_assert_int_eq(in->ops[1].ival, 64);

    in = &f->instrs[find_op(f, PTX_OP_MUL, 0)];
    ck_assert_int_eq(in->subop, PTX_MOD_HI);
    ck_assert_int_eq(in->cmp, PTX_MOD_NONE_);
    ck_assert_int_eq(in->ops[2].ival, 13);
    in = &f->instrs[find_op(f, PTX_OP_ATOM, 0)];
    ck_assert_int_eq(in->subop, PTX_MOD_AND);
    ck_assert_int_eq(in->boolop, PTX_MOD_NONE_);

    /* The block's %r1 shadows the outer one only inside the braces. */
    uint32_t a1 = find_op(f, PTX_OP_ADD, 0), a2 = find_op(f, PTX_OP_ADD, a1 + 1);
    ck_assert_int_ne(f->instrs[a1].ops[0].reg, f->instrs[a2].ops[1].reg);
    ck_assert_str_eq(f->regs[f->instrs[a1].ops[0].reg].name, "%r1");
    ck_assert_str_eq(f->regs[f->instrs[a2].ops[1].reg].name, "%r1");
    parsed_free(&p);
}
END_TEST

static const char *call_src = HDR
    ".extern .func (.param .b32 r) vprintf (.param .b64 fmt, .param .b64 args);\n"
    ".func (.param .b32 ret) twice (.param .b32 x);\n"
    ".visible .entry k(.param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u32 %r1, [n];\n"
    "  {\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0], %r1;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), twice, (param0);\n"
    "  ld.param.b32 %r2, [retval0];\n"
    "  }\n"
    "  mov.u64 %rd1, twice;\n"
    "  {\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0], %r2;\n"
    "  .param .b32 retval0;\n"
    "  proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (retval0), %rd1, (param0), proto;\n"
    "  }\n"
    "  ts: .branchtargets L0, L1;\n"
    "  brx.idx %r2, ts;\n"
    "L0:\n"
    "  call.uni twice;\n"
    "L1:\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 ret) twice (.param .b32 x)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  ld.param.b32 %r1, [x];\n"
    "  add.s32 %r1, %r1, %r1;\n"
    "  st.param.b32 [ret], %r1;\n"
    "  ret;\n"
    "}\n";

START_TEST(test_parse_calls)
{
    struct parsed p;
    parse_src(&p, call_src);
    ck_assert_ptr_nonnull(p.m);
    /* "call.uni twice;" has too few arguments: reported by the checks only. */
    ck_assert_str_eq(p.text, "t.ptx:29:12: error: call to 'twice' with 0 arguments, expected 1\n");
    ck_assert_uint_eq(p.m->nfuncs, 3);
    struct ptx_func *tw = func(&p, "twice");
    ck_assert(!tw->is_decl);
    ck_assert_uint_eq(tw->ninstrs, 4);
    ck_assert(func(&p, "vprintf")->is_decl);

    struct ptx_func *f = func(&p, "k");
    uint32_t c1 = find_op(f, PTX_OP_CALL, 0);
    const struct ptx_instr *in = &f->instrs[c1];
    ck_assert(in->flags & PTX_IF_UNI);
    ck_assert_uint_eq(in->nops, 3);
    ck_assert_int_eq(in->ops[0].kind, PTX_OPND_LIST);
    ck_assert_uint_eq(in->ops[0].nelems, 1);
    ck_assert_str_eq(in->ops[0].elems[0].sym->name, "retval0");
    ck_assert_int_eq(in->ops[1].kind, PTX_OPND_SYM);
    ck_assert_ptr_eq(in->ops[1].sym->func, tw);
    ck_assert_uint_eq(in->ops[2].nelems, 1);

    uint32_t c2 = find_op(f, PTX_OP_CALL, c1 + 1);
    in = &f->instrs[c2];
    ck_assert_uint_eq(in->nops, 4);
    ck_assert_int_eq(in->ops[1].kind, PTX_OPND_REG);
    ck_assert_int_eq(in->ops[3].kind, PTX_OPND_LABEL);
    const struct ptx_label *pl = &f->labels[in->ops[3].label];
    ck_assert_int_eq(pl->kind, PTX_LABEL_PROTOTYPE);
    ck_assert_uint_eq(pl->proto->nparams, 1);
    ck_assert_uint_eq(pl->proto->nrets, 1);
    /* The two blocks declare their own param0: different symbols. */
    ck_assert_ptr_ne(f->instrs[c1].ops[2].elems[0].sym, in->ops[2].elems[0].sym);

    in = &f->instrs[find_op(f, PTX_OP_BRX, 0)];
    const struct ptx_label *ts = &f->labels[in->ops[1].label];
    ck_assert_int_eq(ts->kind, PTX_LABEL_BRANCHTARGETS);
    ck_assert_uint_eq(ts->ntargets, 2);
    ck_assert_str_eq(f->labels[ts->targets[1]].name, "L1");

    in = &f->instrs[find_op(f, PTX_OP_CALL, c2 + 1)];
    ck_assert_uint_eq(in->ops[0].nelems, 0);
    ck_assert_uint_eq(in->ops[2].nelems, 0);
    parsed_free(&p);
}
END_TEST

/* Inline asm blocks repeat label names: labels are scoped by braces. */
START_TEST(test_parse_scoped_labels)
{
    struct parsed p;
    parse_src(&p, HDR ".entry k() {\n .reg .b32 %r<3>;\n"
                      " { bra.uni L; L: add.s32 %r1, %r1, 1; }\n"
                      " { bra.uni L; L: add.s32 %r2, %r2, 1; }\n"
                      " { bra.uni OUT; }\n"
                      " bra.uni OUT;\n"
                      "OUT:\n ret;\n}\n");
    ck_assert_msg(p.m && p.d.nerrors == 0, "%s", p.text);
    struct ptx_func *f = func(&p, "k");
    ck_assert_uint_eq(f->labels[f->instrs[0].ops[0].label].instr, 1);
    ck_assert_uint_eq(f->labels[f->instrs[2].ops[0].label].instr, 3);
    ck_assert_int_eq(f->instrs[4].ops[0].label, f->instrs[5].ops[0].label);
    ck_assert_uint_eq(f->labels[f->instrs[4].ops[0].label].instr, 6);
    parsed_free(&p);
}
END_TEST

/* Video operands: selectors and masks of one to four digits (digit 0 is the last
 * written) and registers negated with '-' (vmad). */
START_TEST(test_parse_video_operands)
{
    struct parsed p;
    parse_src(&p, HDR ".entry k() {\n .reg .b32 %r<5>;\n"
                      " vadd2.u32.u32.u32 %r1.h10, %r2.h32, %r3.h01, %r4;\n"
                      " vmax4.s32.s32.s32.sat %r1.b31, %r2.b7250, %r3, %r4;\n"
                      " vmad.s32.s32.u32 %r1, -%r2.b2, %r3.h1, -%r4;\n"
                      " ret;\n}\n");
    ck_assert_msg(p.m && p.d.nerrors == 0, "%s", p.text);
    struct ptx_func *f = func(&p, "k");
    const struct ptx_operand *o = f->instrs[0].ops;
    ck_assert_uint_eq(o[0].vec_comp, PTX_VCOMP_HSEL);
    ck_assert_uint_eq(ptx_sel_ndigits(o[0].sel), 2);
    ck_assert_uint_eq(ptx_sel_digit(o[0].sel, 0), 0);
    ck_assert_uint_eq(ptx_sel_digit(o[0].sel, 1), 1);
    ck_assert_uint_eq(ptx_sel_digit(o[1].sel, 0), 2);
    ck_assert_uint_eq(ptx_sel_digit(o[1].sel, 1), 3);
    ck_assert_uint_eq(ptx_sel_digit(o[2].sel, 0), 1);
    ck_assert_uint_eq(ptx_sel_digit(o[2].sel, 1), 0);
    ck_assert_uint_eq(o[3].vec_comp, 0);
    ck_assert_uint_eq(o[3].sel, 0);
    ck_assert_int_eq(o[1].reg, o[2].reg - 1);
    o = f->instrs[1].ops;
    ck_assert_uint_eq(o[0].vec_comp, PTX_VCOMP_BSEL);
    ck_assert_uint_eq(ptx_sel_ndigits(o[0].sel), 2);
    ck_assert_uint_eq(ptx_sel_digit(o[0].sel, 0), 1);
    ck_assert_uint_eq(ptx_sel_digit(o[0].sel, 1), 3);
    ck_assert_uint_eq(ptx_sel_ndigits(o[1].sel), 4);
    static const unsigned b7250[4] = { 0, 5, 2, 7 };
    for (unsigned k = 0; k < 4; k++)
        ck_assert_uint_eq(ptx_sel_digit(o[1].sel, k), b7250[k]);
    o = f->instrs[2].ops;
    ck_assert(!o[0].arith_neg && o[1].arith_neg && !o[2].arith_neg && o[3].arith_neg);
    ck_assert_uint_eq(o[1].vec_comp, 5 + 2);
    ck_assert_uint_eq(ptx_sel_ndigits(o[1].sel), 1);
    ck_assert_uint_eq(ptx_sel_digit(o[1].sel, 0), 2);
    ck_assert_uint_eq(o[2].vec_comp, 9 + 1);
    ck_assert_uint_eq(o[1].loc.col, 24);
    parsed_free(&p);
}
END_TEST

START_TEST(test_parse_debug_directives)
{
    struct parsed p;
    parse_src(&p, ".version 9.0\n.target sm_90a, debug\n.address_size 64\n"
                  ".file 1 \"/tmp/a.cu\", 1700000000, 1234\n"
                  ".file 2 \"/tmp/b.h\"\n"
                  ".entry k() {\n"
                  " .loc 1 5 1\n"
                  "$L__func_begin0:\n"
                  " .loc 2 7 3, function_name $L__info_string0, inlined_at 1 5 1\n"
                  " ret;\n"
                  "}\n"
                  ".section .debug_info\n{\n.b32 0x42\n.b8 1, 2 // x\n.b64 $L__func_begin0\n}\n"
                  ".section .debug_str { $L__info_string0: .b8 95,0 }\n");
    ck_assert_msg(p.m && p.d.nerrors == 0, "%s", p.text);
    ck_assert(p.m->target_debug);
    ck_assert_str_eq(p.m->target, "sm_90a");
    ck_assert_uint_eq(p.m->nfiles, 2);
    ck_assert_str_eq(p.m->files[1].path, "/tmp/b.h");
    const struct ptx_instr *in = &func(&p, "k")->instrs[0];
    ck_assert_uint_eq(in->loc.cu_file, 2);
    ck_assert_uint_eq(in->loc.cu_line, 7);
    ck_assert_uint_eq(in->loc.cu_col, 3);
    parsed_free(&p);
}
END_TEST

static const struct {
    const char *body;
    const char *diag;
} diag_cases[] = {
    { "foo.s32 %r1, %r1, 1;", "t.ptx:8:1: error: unknown instruction 'foo'\n" },
    { "add.foo.s32 %r1, %r1, 1;", "t.ptx:8:4: error: unknown modifier '.foo' for 'add'\n" },
    { "add.s32 %r1, %r9, 1;", "t.ptx:8:14: error: use of undeclared register '%r9'\n" },
    { "bra NOWHERE;", "t.ptx:8:5: error: use of undeclared label 'NOWHERE'\n" },
    { "add.s32 %r1, %r1 1;", "t.ptx:8:18: error: expected ';' before '1'\n" },
    { "add.s32 %r1, %r1, 0f3F80;", "t.ptx:8:19: error: malformed float literal: 0f needs 8 hex digits\n" },
    { "add.s32 %r1, %r1;", "t.ptx:8:1: error: 'add.s32' expects 3 operands, got 2\n" },
    { "add.s32 %r1, %f1, 1;", "t.ptx:8:14: error: operand 2 of 'add.s32': register '%f1' of type .f32 does not match .s32\n" },
    { "add.s32 %r1, %r1, 1.5;", "t.ptx:8:19: error: operand 3 of 'add.s32': floating-point constant where .s32 is expected\n" },
    { "ld.shared.u32 %r1, [g];", "t.ptx:8:20: error: state space mismatch: 'ld.shared.u32' accesses .global variable 'g'\n" },
    { "@%r1 ret;", "t.ptx:8:6: error: guard '%r1' of 'ret' is not a .pred register\n" },
    { "add %r1, %r1, 1;", "t.ptx:8:1: error: missing type suffix for 'add'\n" },
    { ".reg .b32 %r1;", "t.ptx:8:11: error: redefinition of '%r1'\n" },
    { "mul.wide.s32 %r1, %r1, 2;", "t.ptx:8:14: error: operand 1 of 'mul.wide.s32': register '%r1' of type .b32 does not match .s64\n" },
    { "X: X: ret;", "t.ptx:8:4: error: redefinition of label 'X'\n" },
    { "vadd.u32.u32.u32 %r1, %r1.b5, %r1;", "t.ptx:8:23: error: invalid video selector '.b5'\n" },
    { "add.s32 %r1, -%r1, 1;", "t.ptx:8:14: error: operand 2 of 'add.s32': only vmad negates register operands\n" },
    { "add.s32 %r1, %r1.b0, 1;",
      "t.ptx:8:14: error: operand 2 of 'add.s32': byte/half-word selectors are for video instructions\n" },
};

START_TEST(test_diagnostics)
{
    char src[1024];
    snprintf(src, sizeof src, HDR ".global .u32 g;\n.entry k() {\n.reg .b32 %%r<3>;\n.reg .f32 %%f1;\n%s\nret;\n}\n",
             diag_cases[_i].body);
    struct parsed p;
    parse_src(&p, src);
    ck_assert_str_eq(p.text, diag_cases[_i].diag);
    parsed_free(&p);
}
END_TEST

START_TEST(test_missing_version)
{
    struct parsed p;
    parse_src(&p, ".entry k() { ret; }\n");
    ck_assert_str_eq(p.text, "t.ptx:1:1: error: missing .version directive\n"
                             "t.ptx:1:1: error: missing .target directive\n");
    parsed_free(&p);
}
END_TEST

/* ---- CFG and post-dominators ---------------------------------------------------------- */

START_TEST(test_cfg_diamond_loop)
{
    struct parsed p;
    parse_src(&p, HDR ".entry k() {\n .reg .pred %p1;\n .reg .b32 %r<3>;\n"
                      " setp.eq.s32 %p1, %r1, 0;\n"    /* B0: 0-1 */
                      " @%p1 bra ELSE;\n"
                      " add.s32 %r1, %r1, 1;\n"        /* B1: 2-3 */
                      " bra.uni JOIN;\n"
                      "ELSE:\n add.s32 %r1, %r1, 2;\n" /* B2: 4 */
                      "JOIN:\n add.s32 %r2, %r2, 1;\n" /* B3: 5-7 loop */
                      " setp.lt.s32 %p1, %r2, 10;\n"
                      " @%p1 bra JOIN;\n"
                      " ret;\n"                        /* B4: 8 */
                      "}\n");
    ck_assert_msg(p.m && p.d.nerrors == 0, "%s", p.text);
    struct ptx_func *f = func(&p, "k");
    ck_assert_uint_eq(f->nblocks, 5);
    ck_assert_uint_eq(f->blocks[0].nsucc, 2);
    ck_assert_int_eq(f->blocks[0].ipdom, 3);
    ck_assert_int_eq(f->blocks[1].ipdom, 3);
    ck_assert_int_eq(f->blocks[2].ipdom, 3);
    ck_assert_int_eq(f->blocks[3].ipdom, 4);
    ck_assert_int_eq(f->blocks[4].ipdom, -1);
    ck_assert_uint_eq(f->blocks[4].nsucc, 0);
    ck_assert_uint_eq(f->block_of[6], 3);
    parsed_free(&p);
}
END_TEST

START_TEST(test_cfg_infinite_loop_and_brx)
{
    struct parsed p;
    parse_src(&p, HDR ".entry k() {\n .reg .pred %p1;\n .reg .b32 %r<3>;\n"
                      " @%p1 bra SPIN;\n"                 /* B0 */
                      " ts: .branchtargets A, B, C;\n"
                      " brx.idx %r1, ts;\n"               /* B1 */
                      "A: bra.uni END;\n"                 /* B2 */
                      "B: bra.uni END;\n"                 /* B3 */
                      "C: bra.uni END;\n"                 /* B4 */
                      "SPIN: bra.uni SPIN;\n"             /* B5: never exits */
                      "END: exit;\n"                      /* B6 */
                      "}\n");
    ck_assert_msg(p.m && p.d.nerrors == 0, "%s", p.text);
    struct ptx_func *f = func(&p, "k");
    ck_assert_uint_eq(f->nblocks, 7);
    ck_assert_uint_eq(f->blocks[1].nsucc, 3);
    ck_assert_ptr_nonnull(f->blocks[1].succ_ext);
    ck_assert_int_eq(f->blocks[1].ipdom, 6);
    ck_assert_int_eq(f->blocks[5].ipdom, -1);
    ck_assert_int_eq(f->blocks[0].ipdom, -1);
    parsed_free(&p);
}
END_TEST

/* ---- Robustness ----------------------------------------------------------------------- */

/* Every prefix and many one-byte corruptions of valid input parse without a
 * crash, and either succeed or report at least one error. */
START_TEST(test_robust_prefixes)
{
    const char *srcs[] = { basic_src, call_src };
    for (size_t s = 0; s < 2; s++) {
        size_t n = strlen(srcs[s]);
        char *buf = malloc(n + 1);
        for (size_t len = 0; len <= n; len += 3) {
            struct ptx_diags d;
            ptx_diags_init(&d);
            memcpy(buf, srcs[s], len);
            struct ptx_module *m = ptx_parse(buf, len, "t.ptx", &d);
            if (m) {
                ptx_check(m, &d);
                ptx_analyze(m, &d);
            } else {
                ck_assert_uint_gt(d.nerrors, 0);
            }
            ptx_module_free(m);
            ptx_diags_free(&d);
        }
        static const char junk[] = "{}[]();,.%@!|<>-+0fx\"_\n";
        for (size_t pos = 0; pos < n; pos += 7) {
            memcpy(buf, srcs[s], n);
            buf[pos] = junk[pos % (sizeof junk - 1)];
            struct ptx_diags d;
            ptx_diags_init(&d);
            struct ptx_module *m = ptx_parse(buf, n, "t.ptx", &d);
            if (m) {
                ptx_check(m, &d);
                ptx_analyze(m, &d);
            }
            ptx_module_free(m);
            ptx_diags_free(&d);
        }
        free(buf);
    }
}
END_TEST

/* Constructs that recurse, as prefix, repeated unit, middle and suffix of a statement. */
static const struct {
    const char *before, *open, *middle, *close, *after;
} nest_cases[] = {
    { ".global .u32 x = ", "(", "1", ")", ";\n.entry k() { ret; }\n" },
    { ".global .u32 x[1] = ", "{", "1", "}", ";\n.entry k() { ret; }\n" },
    { ".global .u32 x = ", "~", "1", "", ";\n.entry k() { ret; }\n" },
    { ".entry k() {\n.reg .pred %p<2>;\nnot.pred %p1, ", "!", "%p0", "", ";\nret;\n}\n" },
    { ".entry k() {\n.reg .b32 %r<2>;\nmov.b32 %r1, ", "{", "%r0", "}", ";\nret;\n}\n" },
    { ".entry k() {\n.reg .b32 %r<2>;\nadd.u32 %r1, %r0, ", "-", "1", "", ";\nret;\n}\n" },
};

/* Nesting up to PTX_MAX_NESTING (256) levels parses, and the passes that walk the result
 * recursively (checker, analysis) run over it; one level more is a "nested too deeply"
 * error, not a stack overflow. Each repeated unit is one level, and so is the innermost
 * constant or operand. */
START_TEST(test_nesting_limit)
{
    for (int depth = 254; depth <= 256; depth++) {
        size_t cap = strlen(HDR) + 4096;
        char *src = malloc(cap), *p = src;
        p += sprintf(p, "%s%s", HDR, nest_cases[_i].before);
        for (int i = 0; i < depth; i++)
            p += sprintf(p, "%s", nest_cases[_i].open);
        p += sprintf(p, "%s", nest_cases[_i].middle);
        for (int i = 0; i < depth; i++)
            p += sprintf(p, "%s", nest_cases[_i].close);
        sprintf(p, "%s", nest_cases[_i].after);
        struct parsed r;
        parse_src(&r, src);
        bool deep = strstr(r.text, "nested too deeply (limit 256)") != NULL;
        ck_assert_msg(deep == (depth + 1 > 256), "depth %d: %s", depth, r.text);
        parsed_free(&r);
        free(src);
    }
}
END_TEST

/* Every .ptx of the corpus (tests/corpus/ptx) parses, checks and analyses cleanly. */
START_TEST(test_corpus_clean)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls %s/tests/corpus/ptx/*.ptx %s/tests/ptx/good/*.ptx 2>/dev/null", LOOM_SRCDIR,
             LOOM_SRCDIR);
    FILE *ls = popen(cmd, "r");
    ck_assert_ptr_nonnull(ls);
    char path[1024];
    int files = 0;
    while (fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = 0;
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc((size_t)n + 1);
        size_t got = fread(buf, 1, (size_t)n, f);
        fclose(f);
        buf[got] = 0;
        struct parsed p;
        parse_src(&p, buf);
        ck_assert_msg(p.m && p.d.nerrors == 0, "%s:\n%s", path, p.text);
        parsed_free(&p);
        free(buf);
        files++;
    }
    pclose(ls);
    ck_assert_int_gt(files, 0);
}
END_TEST

Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_tables_roundtrip);
    tcase_add_test(tc, test_tables_props);
    tcase_add_test(tc, test_interner);
    suite_add_tcase(s, tc);

    tc = tcase_create("lexer");
    tcase_add_loop_test(tc, test_lex_numbers, 0, sizeof lex_cases / sizeof lex_cases[0]);
    tcase_add_test(tc, test_lex_tokens);
    tcase_add_test(tc, test_lex_video_selectors);
    suite_add_tcase(s, tc);

    tc = tcase_create("parser");
    tcase_add_test(tc, test_parse_basic);
    tcase_add_test(tc, test_parse_calls);
    tcase_add_test(tc, test_parse_scoped_labels);
    tcase_add_test(tc, test_parse_debug_directives);
    tcase_add_test(tc, test_parse_video_operands);
    suite_add_tcase(s, tc);

    tc = tcase_create("diagnostics");
    tcase_add_loop_test(tc, test_diagnostics, 0, sizeof diag_cases / sizeof diag_cases[0]);
    tcase_add_test(tc, test_missing_version);
    suite_add_tcase(s, tc);

    tc = tcase_create("cfg");
    tcase_add_test(tc, test_cfg_diamond_loop);
    tcase_add_test(tc, test_cfg_infinite_loop_and_brx);
    suite_add_tcase(s, tc);

    tc = tcase_create("robustness");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_robust_prefixes);
    tcase_add_loop_test(tc, test_nesting_limit, 0, sizeof nest_cases / sizeof nest_cases[0]);
    tcase_add_test(tc, test_corpus_clean);
    suite_add_tcase(s, tc);
    return s;
}
