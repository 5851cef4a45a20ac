/* check_ptx_access.c -- unit tests of the parameter access analysis (ptx/ptx_access.c): the
 * exact finding for every kernel of tests/unit/access/kernels.cu (nvcc's PTX), hand-written
 * PTX for what nvcc rarely emits (calls through pointers, recursion, taken addresses, bulk
 * copies, multimem, many parameters), refusals, and every committed PTX file of the tree
 * analysed without a crash or an error. */
#define _XOPEN_SOURCE 700   /* nftw */
#include "config.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx/ptx_access.h"
#include "ptx/ptx_ir.h"

Suite *ptx_access_suite(void);

#define KERNELS_PTX LOOM_SRCDIR "/tests/unit/access/kernels.ptx"

/* Parses and checks text; NULL (diagnostics printed) when it does not load. */
static struct ptx_module *load_text(const char *text, size_t len, const char *path, bool quiet)
{
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = ptx_parse(text, len, path, &d);
    bool ok = m && ptx_check(m, &d);
    if (!ok && !quiet) ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    if (!ok) {
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

static char *read_all(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    bool too_big = false;
    char *text = ptx_read_stream(f, out_len, &too_big);
    fclose(f);
    return text;
}

/* The analysis of kernel `name` of m as `loom check --verbose` describes it. */
static void describe(const struct ptx_module *m, const char *name, char *out, size_t size)
{
    const struct ptx_func *f = ptx_find_func(m, name);
    ck_assert_msg(f != NULL, "no kernel %s", name);
    struct ptx_kernel_access a;
    char err[160];
    ck_assert_msg(ptx_access_analyze(m, f, &a, err, sizeof err) == 0, "%s: %s", name, err);
    ck_assert_uint_eq(a.nparams, f->nparams);
    ptx_access_describe(f, &a, out, size);
    ptx_access_free(&a);
}

/* Every kernel of kernels.cu and what it does through each parameter. */
static const struct { const char *kernel, *expect; } fixtures[] = {
    { "copy", "param_0 read, param_1 write, param_2 (value)" },
    { "scale_inplace", "param_0 read-write, param_1 (value), param_2 (value)" },
    { "fill", "param_0 write, param_1 (value), param_2 (value)" },
    { "histogram", "param_0 read, param_1 read-write, param_2 (value)" },
    { "restrict_load", "param_0 read, param_1 write, param_2 (value)" },
    { "walk", "param_0 read, param_1 write, param_2 (value)" },
    { "pick", "param_0 write, param_1 write, param_2 (value)" },
    { "via_calls", "param_0 read, param_1 write" },
    { "leak", "param_0 escapes, param_1 write; globals write" },
    { "leak_via_call", "param_0 escapes; globals write" },
    { "chase", "param_0 read, param_1 write; other read" },
    { "use_globals", "param_0 write; globals read-write" },
    { "by_value", "param_0 (value); other read-write" },
    { "value_only", "param_0 (value), param_1 (value), param_2 (value), param_3 write" },
    { "staged", "param_0 read, param_1 write" },
    { "async_copy", "param_0 read, param_1 write" },
    { "say", "param_0 read; globals read" },
    { "tex_read", "param_0 (value), param_1 write; other read" },
    { "surf_write", "param_0 (value), param_1 (value); other write" },
    { "through_shared", "param_0 escapes; other write" },
    { "ptr_to_ptr", "param_0 read, param_1 (value); other write" },
    { "int_round_trip", "param_0 write" },
    { "publish", "param_0 read-write, param_1 escapes" },
    { "copy_bytes", "param_0 write, param_1 read, param_2 (value)" },
    { "streaming", "param_0 read, param_1 write" },
    { "two_ptrs", "param_0 (value); other read-write" },
};

START_TEST(test_fixture)
{
    size_t len = 0;
    char *text = read_all(KERNELS_PTX, &len);
    ck_assert_msg(text != NULL, "cannot read %s", KERNELS_PTX);
    struct ptx_module *m = load_text(text, len, KERNELS_PTX, false);
    ck_assert_ptr_nonnull(m);
    char got[1024];
    describe(m, fixtures[_i].kernel, got, sizeof got);
    ck_assert_msg(strcmp(got, fixtures[_i].expect) == 0, "%s: got '%s', want '%s'", fixtures[_i].kernel, got,
                  fixtures[_i].expect);
    ptx_module_free(m);
    free(text);
}
END_TEST

/* Every .entry of the fixture is in the table (a kernel added to kernels.cu gets a row). */
START_TEST(test_fixture_complete)
{
    size_t len = 0;
    char *text = read_all(KERNELS_PTX, &len);
    struct ptx_module *m = text ? load_text(text, len, KERNELS_PTX, false) : NULL;
    ck_assert_ptr_nonnull(m);
    unsigned entries = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) entries += m->funcs[i]->is_entry;
    ck_assert_uint_eq(entries, sizeof fixtures / sizeof fixtures[0]);
    ptx_module_free(m);
    free(text);
}
END_TEST

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Hand-written kernels, each named k, and the expected description. */
static const struct { const char *what, *src, *expect; } cases[] = {
    { "a register reassigned from two parameters on a loop's back edge",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b64 %rd<4>;\n.reg .pred %p;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nmov.u64 %rd3, %rd1;\n"
      "L:\nst.global.u32 [%rd3], 1;\nmov.u64 %rd3, %rd2;\nsetp.eq.u64 %p, %rd3, 0;\n@%p bra L;\nret;\n}\n",
      "a write, b write" },
    { "a predicated move and selp",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 w)\n{\n"
      ".reg .b64 %rd<6>;\n.reg .b32 %r1;\n.reg .pred %p;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [c];\nld.param.u32 %r1, [w];\n"
      "setp.eq.u32 %p, %r1, 0;\nselp.b64 %rd4, %rd1, %rd2, %p;\nld.u32 %r1, [%rd4];\n"
      "mov.u64 %rd5, 0;\n@%p mov.u64 %rd5, %rd3;\nst.u32 [%rd5+4], %r1;\nret;\n}\n",
      "a read, b read, c write, w (value)" },
    { "a 32-bit parameter used as an address",
      HEAD ".visible .entry k(.param .u32 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd1;\n"
      "ld.param.u32 %r1, [p];\ncvt.u64.u32 %rd1, %r1;\nld.global.u32 %r2, [%rd1];\nret;\n}\n",
      "p (value); other read" },
    { "an absolute address",
      HEAD ".visible .entry k()\n{\n.reg .b32 %r1;\nld.u32 %r1, [4096];\nret;\n}\n",
      "no parameters; other read" },
    { "shared and local windows through generic addresses, and shared/const/param spaces",
      HEAD ".const .u32 c;\n.visible .entry k(.param .u64 a)\n{\n.shared .u32 s[32];\n.local .u32 l[4];\n"
      ".reg .b64 %rd<5>;\n.reg .b32 %r1;\n"
      "mov.u64 %rd1, s;\ncvta.shared.u64 %rd2, %rd1;\nst.u32 [%rd2], 1;\nmov.u64 %rd3, l;\ncvta.local.u64 %rd4, %rd3;\n"
      "ld.u32 %r1, [%rd4];\nld.shared.u32 %r1, [s];\nld.const.u32 %r1, [c];\nld.param.u64 %rd1, [a];\n"
      "cvta.to.shared.u64 %rd2, %rd1;\nst.shared.u32 [%rd2], %r1;\nret;\n}\n",
      "a (value); globals read" },
    { "loaded pointers: the loaded value is not the parameter's",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<4>;\n"
      "ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd2, %rd1;\nld.global.u64 %rd3, [%rd2];\n"
      "st.global.u32 [%rd3+8], 0;\nret;\n}\n",
      "a read; other write" },
    { "a pointer loaded and added to a parameter keeps both",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<4>;\n"
      "ld.param.u64 %rd1, [a];\nld.global.u64 %rd2, [%rd1];\nadd.s64 %rd3, %rd1, %rd2;\n"
      "st.global.u32 [%rd3], 0;\nret;\n}\n",
      "a read-write; other write" },
    { "a parameter split into halves and put together again",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
      "ld.param.u64 %rd1, [a];\nmov.b64 {%r1, %r2}, %rd1;\nmov.b64 %rd2, {%r1, %r2};\n"
      "red.global.add.u32 [%rd2], 1;\nret;\n}\n",
      "a read-write" },
    { "a parameter's value given to an atomic exchange escapes",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b64 %rd<4>;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\natom.global.exch.b64 %rd3, [%rd2], %rd1;\nret;\n}\n",
      "a escapes, b read-write" },
    { "a parameter stored to shared memory escapes",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.shared .u64 s;\n.reg .b64 %rd1;\n"
      "ld.param.u64 %rd1, [a];\nst.shared.u64 [s], %rd1;\nret;\n}\n",
      "a escapes" },
    { "a parameter whose address is taken escapes",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<4>;\n"
      "mov.u64 %rd1, a;\ncvta.param.u64 %rd2, %rd1;\nld.u64 %rd3, [%rd2];\nst.u32 [%rd3], 0;\nret;\n}\n",
      "a escapes; other write" },
    { "a by-value structure's pointer field",
      HEAD ".visible .entry k(.param .align 8 .b8 s[16])\n{\n.reg .b64 %rd1;\n.reg .b32 %r1;\n"
      "ld.param.u64 %rd1, [s];\nld.param.u32 %r1, [s+8];\nst.global.u32 [%rd1], %r1;\nret;\n}\n",
      "s (value); other write" },
    { "module variables by symbol, through mov and cvta",
      HEAD ".global .u32 g[4];\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r1;\n"
      "ld.global.u32 %r1, [g+4];\nmov.u64 %rd1, g;\ncvta.global.u64 %rd2, %rd1;\nst.u32 [%rd2], %r1;\nret;\n}\n",
      "no parameters; globals read-write" },
    { "a call followed with the arguments mapped, a pointer returned",
      HEAD ".func (.param .b64 r) f(.param .b64 p, .param .b64 q)\n{\n.reg .b64 %rd<3>;\n"
      "ld.param.b64 %rd1, [p];\nld.param.b64 %rd2, [q];\nst.u32 [%rd1], 0;\nst.param.b64 [r], %rd2;\nret;\n}\n"
      ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r1;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\n"
      "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b64 r0;\nst.param.b64 [p0], %rd1;\nst.param.b64 [p1], %rd2;\n"
      "call (r0), f, (p0, p1);\nld.param.b64 %rd3, [r0];\n}\nld.u32 %r1, [%rd3];\nret;\n}\n",
      "a write, b read" },
    { "recursion with the same origins: covered by the frame being analysed",
      HEAD ".func f(.param .b64 p)\n{\n.reg .b64 %rd<3>;\nld.param.b64 %rd1, [p];\nst.u32 [%rd1], 0;\n"
      "add.s64 %rd2, %rd1, 4;\n{\n.param .b64 p0;\nst.param.b64 [p0], %rd2;\ncall f, (p0);\n}\nret;\n}\n"
      ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd1;\nld.param.u64 %rd1, [a];\n"
      "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall f, (p0);\n}\nret;\n}\n",
      "a write" },
    { "recursion returning a pointer: the return value reaches its fixed point",
      HEAD ".func (.param .b64 r) f(.param .b64 p, .param .b64 q)\n{\n.reg .b64 %rd<4>;\n.reg .pred %c;\n"
      "ld.param.b64 %rd1, [p];\nld.param.b64 %rd2, [q];\nsetp.eq.u64 %c, %rd1, 0;\n@%c bra D;\n"
      "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b64 r0;\nst.param.b64 [p0], 0;\nst.param.b64 [p1], %rd2;\n"
      "call (r0), f, (p0, p1);\nld.param.b64 %rd3, [r0];\n}\nst.param.b64 [r], %rd3;\nret;\n"
      "D:\nst.param.b64 [r], %rd2;\nret;\n}\n"
      ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [a];\n"
      "ld.param.u64 %rd2, [b];\n{\n.param .b64 p0;\n.param .b64 p1;\n.param .b64 r0;\nst.param.b64 [p0], %rd1;\n"
      "st.param.b64 [p1], %rd2;\ncall (r0), f, (p0, p1);\nld.param.b64 %rd3, [r0];\n}\nst.u32 [%rd3], 0;\nret;\n}\n",
      "a (value), b write" },
    { "recursion bringing new origins is not followed: anything may happen",
      HEAD ".func f(.param .b64 p, .param .b64 q)\n{\n.reg .b64 %rd<3>;\nld.param.b64 %rd1, [p];\n"
      "ld.param.b64 %rd2, [q];\nst.u32 [%rd1], 0;\n"
      "{\n.param .b64 p0;\n.param .b64 p1;\nst.param.b64 [p0], %rd2;\nst.param.b64 [p1], %rd1;\ncall f, (p0, p1);\n}\n"
      "ret;\n}\n"
      ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [a];\n"
      "ld.param.u64 %rd2, [b];\n{\n.param .b64 p0;\n.param .b64 p1;\nst.param.b64 [p0], %rd1;\n"
      "st.param.b64 [p1], %rd2;\ncall f, (p0, p1);\n}\nret;\n}\n",
      "a write escapes, b escapes; globals read-write; other read-write" },
    { "a call through a pointer from memory, no function's address taken: anything",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 t)\n{\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [a];\n"
      "ld.param.u64 %rd3, [t];\nld.global.u64 %rd2, [%rd3];\n"
      "P: .callprototype _ (.param .b64 _);\n"
      "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall %rd2, (p0), P;\n}\nret;\n}\n",
      "a escapes, t read; globals read-write; other read-write" },
    { "a call through a pointer: each function whose address is taken, by arity",
      HEAD ".func f(.param .b64 p)\n{\n.reg .b64 %rd1;\nld.param.b64 %rd1, [p];\nst.u32 [%rd1], 0;\nret;\n}\n"
      ".func g(.param .b64 p, .param .b64 q)\n{\n.reg .b64 %rd1;\n.reg .b32 %r1;\nld.param.b64 %rd1, [p];\nld.u32 %r1, [%rd1];\nret;\n}\n"
      ".global .u64 tab[2] = {f, g};\n"
      ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [a];\nld.global.u64 %rd2, [tab];\n"
      "P: .callprototype _ (.param .b64 _);\n"
      "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall %rd2, (p0), P;\n}\nret;\n}\n",
      "a write; globals read" },
    { "a call through a pointer with .calltargets: each followed",
      HEAD ".func f(.param .b64 p)\n{\n.reg .b64 %rd1;\nld.param.b64 %rd1, [p];\nst.u32 [%rd1], 0;\nret;\n}\n"
      ".func g(.param .b64 p)\n{\n.reg .b64 %rd1;\n.reg .b32 %r1;\nld.param.b64 %rd1, [p];\nld.u32 %r1, [%rd1];\nret;\n}\n"
      ".visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [a];\nmov.u64 %rd2, f;\n"
      "T: .calltargets f, g;\n"
      "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall %rd2, (p0), T;\n}\nret;\n}\n",
      "a read-write" },
    { "an external function is not followed",
      HEAD ".extern .func ext(.param .b64 p);\n"
      ".visible .entry k(.param .u64 a, .param .u32 n)\n{\n.reg .b64 %rd1;\nld.param.u64 %rd1, [a];\n"
      "{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\ncall ext, (p0);\n}\nret;\n}\n",
      "a escapes, n (value); globals read-write; other read-write" },
    { "malloc's memory is other",
      HEAD ".extern .func (.param .b64 r) malloc(.param .b64 n);\n"
      ".visible .entry k()\n{\n.reg .b64 %rd1;\n"
      "{\n.param .b64 p0;\n.param .b64 r0;\nst.param.b64 [p0], 64;\ncall (r0), malloc, (p0);\nld.param.b64 %rd1, [r0];\n}\n"
      "st.u32 [%rd1], 0;\nret;\n}\n",
      "no parameters; other write" },
    { "cp.async, bulk copies both ways, a bulk reduction",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c)\n{\n.shared .align 16 .b8 s[256];\n"
      ".shared .b64 bar;\n.reg .b64 %rd<4>;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [c];\n"
      "cp.async.ca.shared.global [s], [%rd1], 16;\ncp.async.commit_group;\ncp.async.wait_all;\n"
      "cp.async.bulk.global.shared::cta.bulk_group [%rd2], [s], 256;\n"
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [s], 256;\n"
      "cp.async.bulk.prefetch.L2.global [%rd2], 256;\nret;\n}\n",
      "a read, b write, c read-write" },
    { "a tensor copy: the tensor map's memory is other",
      HEAD ".visible .entry k(.param .u64 t)\n{\n.shared .align 128 .b8 s[1024];\n.shared .b64 bar;\n"
      ".reg .b64 %rd1;\n.reg .b32 %r1;\nld.param.u64 %rd1, [t];\nmov.u32 %r1, 0;\n"
      "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [s], [%rd1, {%r1}], [bar];\n"
      "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%rd1, {%r1}], [s];\nret;\n}\n",
      "t read; other read-write" },
    { "multimem loads, stores and reductions",
      HEAD ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r1;\n"
      "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [c];\n"
      "multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];\nmultimem.st.relaxed.sys.global.u32 [%rd2], %r1;\n"
      "multimem.red.relaxed.sys.global.add.u32 [%rd3], %r1;\nret;\n}\n",
      "a read, b write, c read-write" },
    { "distributed shared memory: mapa, st.async and ld.shared::cluster are not global memory",
      HEAD ".visible .entry k(.param .u64 a)\n{\n.shared .u32 s;\n.shared .b64 bar;\n.reg .b32 %r<4>;\n.reg .b64 %rd1;\n"
      "ld.param.u64 %rd1, [a];\nmov.u32 %r1, s;\nmapa.shared::cluster.u32 %r2, %r1, 1;\n"
      "ld.shared::cluster.u32 %r3, [%r2];\nmov.u32 %r1, bar;\n"
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r2], %r3, [%r1];\n"
      "st.global.u32 [%rd1], %r3;\nret;\n}\n",
      "a write" },
};

START_TEST(test_case)
{
    struct ptx_module *m = load_text(cases[_i].src, strlen(cases[_i].src), "t.ptx", false);
    ck_assert_msg(m != NULL, "%s: the test's PTX does not load", cases[_i].what);
    char got[1024];
    describe(m, "k", got, sizeof got);
    ck_assert_msg(strcmp(got, cases[_i].expect) == 0, "%s: got '%s', want '%s'", cases[_i].what, got,
                  cases[_i].expect);
    ptx_module_free(m);
}
END_TEST

/* More parameters than one 64-bit word of origins holds: the last ones are told apart. */
START_TEST(test_many_params)
{
    char src[16384];
    size_t n = (size_t)snprintf(src, sizeof src, HEAD ".visible .entry k(");
    for (int p = 0; p < 100; p++) n += (size_t)snprintf(src + n, sizeof src - n, "%s.param .u64 p%d", p ? ", " : "", p);
    n += (size_t)snprintf(src + n, sizeof src - n,
                          ")\n{\n.reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [p70];\nld.param.u64 %%rd2, [p99];\n"
                          "ld.global.u64 %%rd3, [%%rd1];\nst.global.u64 [%%rd2], %%rd3;\nret;\n}\n");
    struct ptx_module *m = load_text(src, n, "t.ptx", false);
    ck_assert_ptr_nonnull(m);
    struct ptx_kernel_access a;
    char err[160];
    ck_assert_int_eq(ptx_access_analyze(m, ptx_find_func(m, "k"), &a, err, sizeof err), 0);
    ck_assert_uint_eq(a.nparams, 100);
    for (unsigned p = 0; p < 100; p++) {
        ck_assert_uint_eq(a.params[p].mode, p == 70 ? PTX_ACCESS_READ : p == 99 ? PTX_ACCESS_WRITE : 0);
        ck_assert(!a.params[p].escapes);
    }
    ck_assert_uint_eq(a.other, 0);   /* the loaded value is stored, not dereferenced */
    ptx_access_free(&a);
    ptx_module_free(m);
}
END_TEST

/* What is not a kernel with a body is refused with a reason; the result stays empty. */
START_TEST(test_refusals)
{
    static const char src[] = HEAD ".func f(.param .b64 p)\n{\nret;\n}\n"
                              ".visible .entry k(.param .u64 a)\n{\nret;\n}\n";
    struct ptx_module *m = load_text(src, strlen(src), "t.ptx", false);
    ck_assert_ptr_nonnull(m);
    struct ptx_kernel_access a;
    char err[160] = "";
    ck_assert_int_eq(ptx_access_analyze(m, ptx_find_func(m, "f"), &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not a kernel") != NULL, "%s", err);
    ck_assert_ptr_null(a.params);
    ck_assert_int_eq(ptx_access_analyze(m, NULL, &a, err, sizeof err), -1);
    ck_assert_int_eq(ptx_access_analyze(NULL, ptx_find_func(m, "k"), &a, err, sizeof err), -1);
    ck_assert_int_eq(ptx_access_analyze(m, ptx_find_func(m, "k"), &a, err, sizeof err), 0);
    ck_assert_uint_eq(a.params[0].mode, 0);
    ptx_access_free(&a);
    ptx_access_free(&a);   /* twice is harmless */
    ptx_access_free(NULL);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_names)
{
    ck_assert_str_eq(ptx_access_mode_name(0), "none");
    ck_assert_str_eq(ptx_access_mode_name(PTX_ACCESS_READ), "read");
    ck_assert_str_eq(ptx_access_mode_name(PTX_ACCESS_WRITE), "write");
    ck_assert_str_eq(ptx_access_mode_name(PTX_ACCESS_READ | PTX_ACCESS_WRITE), "read-write");
    struct ptx_param_access p = { PTX_ACCESS_READ, false };
    ck_assert_uint_eq(ptx_access_param_mode(&p), PTX_ACCESS_READ);
    p.escapes = true;
    ck_assert_uint_eq(ptx_access_param_mode(&p), PTX_ACCESS_RW);
    /* A description longer than its buffer is cut, NUL-terminated. */
    static const char src[] = HEAD ".visible .entry k(.param .u64 a, .param .u64 b)\n{\nret;\n}\n";
    struct ptx_module *m = load_text(src, strlen(src), "t.ptx", false);
    char small[6];
    describe(m, "k", small, sizeof small);
    ck_assert_str_eq(small, "a (va");
    ptx_module_free(m);
}
END_TEST

/* Over every committed PTX file: no crash, no error on a module that passes ptx_check; the
 * totals over those. */
static struct {
    unsigned files, loaded, kernels, params, pointers, escapes, globals, other, errors;
    double ns;
    char worst[512];
} corpus;

static int corpus_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)ftw;
    size_t n = strlen(path);
    if (flag != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx") != 0) return 0;
    corpus.files++;
    size_t len = 0;
    char *text = read_all(path, &len);
    /* Modules that parse but fail the checks (tests/ptx/bad) are analysed too: no crash. */
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = text ? ptx_parse(text, len, path, &d) : NULL;
    bool valid = m && ptx_check(m, &d);
    ptx_diags_free(&d);
    corpus.loaded += valid;
    for (uint32_t i = 0; m && i < m->nfuncs; i++) {
        const struct ptx_func *f = m->funcs[i];
        if (!f->is_entry || f->is_decl) continue;
        struct ptx_kernel_access a;
        char err[160];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = ptx_access_analyze(m, f, &a, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        corpus.ns += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        if (rc != 0 && valid) {
            corpus.errors++;
            snprintf(corpus.worst, sizeof corpus.worst, "%s: %s: %s", path, f->name, err);
            continue;
        }
        if (rc != 0 || !valid) {
            ptx_access_free(&a);
            continue;
        }
        corpus.kernels++;
        corpus.params += a.nparams;
        for (unsigned k = 0; k < a.nparams; k++) {
            corpus.pointers += a.params[k].mode != 0;
            corpus.escapes += a.params[k].escapes;
        }
        corpus.globals += a.globals != 0;
        corpus.other += a.other != 0;
        ptx_access_free(&a);
    }
    ptx_module_free(m);
    free(text);
    return 0;
}

START_TEST(test_corpus)
{
    static const char *const dirs[] = { "tests", "bench", "examples" };
    memset(&corpus, 0, sizeof corpus);
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char root[1024];
        snprintf(root, sizeof root, "%s/%s", LOOM_SRCDIR, dirs[d]);
        nftw(root, corpus_file, 16, FTW_PHYS);
    }
    fprintf(stderr,
            "ptx_access: %u PTX files (%u load), %u kernels, %u parameters: %u accessed, %u escape; "
            "%u kernels reach module variables, %u other memory; %.0f ns per kernel\n",
            corpus.files, corpus.loaded, corpus.kernels, corpus.params, corpus.pointers, corpus.escapes, corpus.globals, corpus.other,
            corpus.kernels ? corpus.ns / corpus.kernels : 0.0);
    ck_assert_msg(corpus.errors == 0, "%u errors, e.g. %s", corpus.errors, corpus.worst);
    ck_assert_uint_gt(corpus.files, 100);
    ck_assert_uint_gt(corpus.kernels, 100);
}
END_TEST

Suite *ptx_access_suite(void)
{
    Suite *s = suite_create("ptx_access");
    TCase *tc = tcase_create("fixtures");
    tcase_add_loop_test(tc, test_fixture, 0, (int)(sizeof fixtures / sizeof fixtures[0]));
    tcase_add_test(tc, test_fixture_complete);
    suite_add_tcase(s, tc);
    tc = tcase_create("rules");
    tcase_add_loop_test(tc, test_case, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_many_params);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("corpus");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_corpus);
    suite_add_tcase(s, tc);
    return s;
}
