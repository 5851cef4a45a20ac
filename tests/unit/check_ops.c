/* check_ops.c -- the opcode table (ptx/ptx_ops.def) against the decoder: every (opcode,
 * type) the table allows is decoded to a handler or refused with a reason, never lost. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_internal.h"
#include "ptx/ptx_ir.h"

Suite *ops_suite(void);

/* The types walked for an opcode whose row allows any type. */
static const enum ptx_type walk_any[] = {
    PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_U16, PTX_T_U32, PTX_T_U64, PTX_T_S16, PTX_T_S32,
    PTX_T_S64, PTX_T_F16, PTX_T_F32, PTX_T_F64,
};

/* The modifiers a well-formed instruction of the opcode needs (test data, not a second
 * table: an opcode missing here is still walked, and must still decode or be refused). */
static const char *needed_mods(enum ptx_opcode op, enum ptx_type t)
{
    bool f = ptx_type_is_float(t) && t != PTX_T_F16 && t != PTX_T_BF16 && t != PTX_T_F16X2 && t != PTX_T_BF16X2;
    switch (op) {
    case PTX_OP_SETP: case PTX_OP_SET: return ".eq";
    case PTX_OP_MUL: case PTX_OP_MAD: return ptx_type_is_float(t) ? (op == PTX_OP_MAD ? ".rn" : "") : ".lo";
    case PTX_OP_MUL24: case PTX_OP_MAD24: return ".lo";
    case PTX_OP_FMA: return ".rn";
    case PTX_OP_DIV: return f ? ".rn" : "";
    case PTX_OP_RCP: case PTX_OP_SQRT: return ".rn";
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return ".approx";
    case PTX_OP_TESTP: return ".finite";
    case PTX_OP_SHF: return ".l.wrap";
    case PTX_OP_BMSK: case PTX_OP_SZEXT: return ".clamp";
    case PTX_OP_ATOM: case PTX_OP_RED: return ".global.add";
    case PTX_OP_REDUX: return ".sync.add";
    case PTX_OP_CVTA: return ".to.global";
    case PTX_OP_ISSPACEP: return ".global";
    case PTX_OP_CVT: return f ? ".rzi" : "";
    default: return "";
    }
}

/* Writes operand k (letter c of the shape) of an instruction of types t, t2. */
static int operand(char *buf, size_t n, char c, unsigned k)
{
    switch (c) {
    case 'P': return snprintf(buf, n, "%%p%u", k);
    case 'U': return snprintf(buf, n, "%%u%u", k);
    case 'A': return snprintf(buf, n, "[%%a%u]", k);
    case 'S': case 'C': return snprintf(buf, n, "%%s%u", k);
    default: return snprintf(buf, n, "%%t%u", k);
    }
}

/* The kernel holding one instruction of opcode op and type t, in its shape's required
 * operands; false when the shape is irregular. */
static bool make_kernel(enum ptx_opcode op, enum ptx_type t, char *buf, size_t n)
{
    const char *shape = ptx_opcode_shape(op);
    if (!shape)
        return false;
    unsigned ntypes = (unsigned)(shape[0] - '0');
    const char *tn = t == PTX_T_PRED ? ".pred" : ptx_type_name(t);
    int len = snprintf(buf, n,
                       ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                       "  .reg %s %%t<6>;\n  .reg %s %%s<6>;\n  .reg .b32 %%u<6>;\n  .reg .pred %%p<6>;\n"
                       "  .reg .b64 %%a<6>;\nL0:\n  %s%s",
                       tn, tn, ptx_opcode_name(op), needed_mods(op, t));
    for (unsigned i = 0; i < ntypes; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s", tn);
    if (op == PTX_OP_BRX)   /* brx.idx %u0, T with T: .branchtargets L0; */
        len += snprintf(buf + len, n - (size_t)len, ".idx %%u0, T;\nT: .branchtargets L0;\n  ret;\n}\n") - 0;
    if (op == PTX_OP_BRX)
        return true;
    const char *spec = shape + 1;
    unsigned k = 0;
    for (const char *c = spec; *c && *c != '['; c++, k++) {
        len += snprintf(buf + len, n - (size_t)len, "%s", k ? ", " : " ");
        char d = *c;
        if (d == '.') d = op == PTX_OP_BRA || op == PTX_OP_BRX ? 'L' : op == PTX_OP_ISSPACEP ? 'A' : op == PTX_OP_LOP3 && k == 4 ? 'I' : 'T';
        if (op == PTX_OP_SETP && k == 0) d = 'P';
        if (op == PTX_OP_ISSPACEP && k == 1) { len += snprintf(buf + len, n - (size_t)len, "%%a1"); continue; }
        if (d == 'L' && (op == PTX_OP_BRA || op == PTX_OP_BRX)) { len += snprintf(buf + len, n - (size_t)len, "L0"); continue; }
        if (d == 'I') { len += snprintf(buf + len, n - (size_t)len, "0x96"); continue; }
        len += operand(buf + len, n - (size_t)len, d, k);
    }
    snprintf(buf + len, n - (size_t)len, ";\n  ret;\n}\n");
    return true;
}

/* Every (opcode, type) that the table allows and the front end accepts in its shape's
 * form decodes, or is refused with its reason; never an internal error or a bare
 * refusal. Each regular opcode of a family with a selector reaches the decoder at
 * least once, so a broken test form cannot pass silently. */
START_TEST(test_walk_table)
{
    char text[2048], where[160];
    unsigned decoded = 0, refused = 0, front = 0, bad = 0;
    for (int op = 0; op < PTX_OP_COUNT_; op++) {
        uint64_t types = ptx_opcode_types((enum ptx_opcode)op);
        unsigned reached = 0, tried = 0;
        for (int t = 1; t < PTX_T_COUNT_; t++) {
            bool walk = types == PTX_TY_ANY ? false : (types >> t & 1);
            for (size_t i = 0; types == PTX_TY_ANY && i < sizeof walk_any / sizeof *walk_any; i++)
                walk |= walk_any[i] == (enum ptx_type)t;
            if (!walk || !make_kernel((enum ptx_opcode)op, (enum ptx_type)t, text, sizeof text))
                continue;
            tried++;
            struct ptx_diags d;
            ptx_diags_init(&d);
            struct ptx_module *m = ptx_parse(text, strlen(text), "walk.ptx", &d);
            bool ok = m && ptx_check(m, &d);
            ok = ok && ptx_analyze(m, &d);
            if (!ok) {
                front++;
            } else {
                reached++;
                if (emu_program_check(m, &d)) {
                    decoded++;
                } else {
                    refused++;
                    const char *msg = d.n ? d.v[0].msg : "";
                    snprintf(where, sizeof where, "%s%s", ptx_opcode_name((enum ptx_opcode)op),
                             ptx_type_name((enum ptx_type)t));
                    if (strstr(msg, "internal") || !strchr(msg, '(')) {
                        fprintf(stderr, "ops: %s: %s\n", where, msg);
                        bad++;
                    }
                }
            }
            ptx_module_free(m);
            ptx_diags_free(&d);
        }
        if (tried && !reached) {
            fprintf(stderr, "ops: no form of '%s' passes the front end: fix the walk's form\n",
                    ptx_opcode_name((enum ptx_opcode)op));
            bad++;
        }
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_gt(decoded, 200);
    fprintf(stderr, "ops: %u (opcode, type) pairs decoded, %u refused with a reason, %u refused by the front end\n",
            decoded, refused, front);
}
END_TEST

/* Opcodes of no family are refused by name, as "not supported yet", by loom check too. */
START_TEST(test_refused_not_supported)
{
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
        "  .reg .b64 %rd<4>;\n  createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;\n  ret;\n}\n";
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = ptx_parse(text, sizeof text - 1, "c.ptx", &d);
    ck_assert_ptr_nonnull(m);
    ck_assert(ptx_check(m, &d) && ptx_analyze(m, &d));
    ck_assert(!emu_program_check(m, &d));
    ck_assert_uint_eq(d.nerrors, 1);
    ck_assert_msg(strstr(d.v[0].msg, "createpolicy is not supported yet"), "%s", d.v[0].msg);
    ck_assert_uint_eq(d.v[0].line, 7);
    ptx_module_free(m);
    ptx_diags_free(&d);
}
END_TEST

Suite *ops_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("table");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_walk_table);
    tcase_add_test(tc, test_refused_not_supported);
    suite_add_tcase(s, tc);
    return s;
}
