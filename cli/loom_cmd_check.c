/* loom_cmd_check.c -- `loom check [--verbose] FILE.ptx...`: parse, check, analyse and decode
 * PTX files; print diagnostics, and with --verbose the resources and CFG per function and the
 * global memory access through each kernel parameter. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_cli.h"
#include "emu/emu_internal.h"
#include "ptx/ptx_access.h"
#include "ptx/ptx_ir.h"

/* Reads a whole file (or stdin for "-") of at most PTX_MAX_INPUT_BYTES; NULL after
 * printing why not. */
static char *loom_read_file(const char *path, size_t *out_len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "loom check: cannot read '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    bool too_big;
    errno = 0;
    char *buf = ptx_read_stream(f, out_len, &too_big);
    int err = errno;
    if (f != stdin)
        fclose(f);
    if (too_big)
        fprintf(stderr, "loom check: %s: larger than the %zu MiB limit on PTX input\n", path,
                PTX_MAX_INPUT_BYTES >> 20);
    else if (!buf)
        fprintf(stderr, "loom check: cannot read '%s': %s\n", path, err ? strerror(err) : "read error");
    return buf;
}

static void loom_print_params(const char *title, struct ptx_symbol **ps, uint32_t n)
{
    if (!n)
        return;
    printf("  %s:\n", title);
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_symbol *s = ps[i];
        char type[48];
        if (s->ndims)
            snprintf(type, sizeof type, "%s[%llu]", ptx_type_name(s->type), (unsigned long long)s->dims[0]);
        else
            snprintf(type, sizeof type, "%s%s", s->vec > 1 ? (s->vec == 2 ? ".v2" : ".v4") : "",
                     ptx_type_name(s->type));
        printf("    %-32s %-12s size %-4llu offset %-4llu", s->name, type, (unsigned long long)s->size,
               (unsigned long long)s->offset);
        if (s->is_ptr)
            printf(" .ptr%s", ptx_space_name(s->ptr_space));
        if (s->align)
            printf(" .align %u", s->align);
        printf("\n");
    }
}

/* Registers grouped by width (predicates, 8, 16, 32, 64, 128 bits), then by type. */
static void loom_print_regs(const struct ptx_func *f)
{
    uint32_t width[6] = { 0 };
    for (int t = 1; t < PTX_T_COUNT_; t++) {
        unsigned sz = ptx_type_size((enum ptx_type)t);
        int w = t == PTX_T_PRED ? 0 : sz == 1 ? 1 : sz == 2 ? 2 : sz == 4 ? 3 : sz == 8 ? 4 : 5;
        width[w] += f->reg_count[t];
    }
    printf("  registers: %u (pred %u, 8-bit %u, 16-bit %u, 32-bit %u, 64-bit %u, 128-bit %u)\n", f->nregs,
           width[0], width[1], width[2], width[3], width[4], width[5]);
    printf("    by type:");
    for (int t = 1; t < PTX_T_COUNT_; t++)
        if (f->reg_count[t])
            printf(" %s %u", ptx_type_name((enum ptx_type)t), f->reg_count[t]);
    printf("\n");
    printf("  registers per thread (estimated as ptxas would allocate): %u\n", f->est_regs);
}

static uint32_t loom_succ(const struct ptx_block *b, uint32_t i)
{
    return i < 2 ? b->succ[i] : b->succ_ext[i - 2];
}

/* Whether a block's closing conditional branch depends on a divergent value. */
static bool loom_branch_divergent(const struct ptx_func *f, const struct ptx_block *blk, const bool *uni)
{
    const struct ptx_instr *in = &f->instrs[blk->last];
    if (in->op == PTX_OP_BRX && in->nops >= 1 && in->ops[0].kind == PTX_OPND_REG) return !uni[in->ops[0].reg];
    return in->guard_reg >= 0 && !uni[in->guard_reg];
}

/* Marks the registers an operand names. */
static void loom_mark_used(const struct ptx_operand *op, bool *used)
{
    if ((op->kind == PTX_OPND_REG || op->kind == PTX_OPND_ADDR) && op->reg >= 0) used[op->reg] = true;
    for (uint32_t e = 0; e < op->nelems; e++) loom_mark_used(&op->elems[e], used);
}

static void loom_print_cfg(const struct ptx_func *f)
{
    bool *uni = NULL;
    int32_t *stride = ptx_lane_strides(f, &uni);
    printf("  basic blocks: %u\n", f->nblocks);
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const struct ptx_block *blk = &f->blocks[b];
        printf("    B%-4u instrs %u-%u  lines %u-%u  ->", b, blk->first, blk->last,
               f->instrs[blk->first].loc.line, f->instrs[blk->last].loc.line);
        if (!blk->nsucc)
            printf(" exit");
        for (uint32_t i = 0; i < blk->nsucc; i++)
            printf(" B%u", loom_succ(blk, i));
        printf("\n");
    }
    printf("  reconvergence points (immediate post-dominators of branches):\n");
    bool any = false;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const struct ptx_block *blk = &f->blocks[b];
        if (blk->nsucc < 2)
            continue;
        any = true;
        char name[96];
        const struct ptx_instr *in = &f->instrs[blk->last];
        ptx_instr_name(in, name, sizeof name);
        printf("    B%-4u %s at line %u -> ", b, name, in->loc.line);
        if (blk->ipdom < 0)
            printf("exit");
        else
            printf("B%d (line %u)", blk->ipdom, f->instrs[f->blocks[blk->ipdom].first].loc.line);
        printf("%s\n", !uni ? "" : loom_branch_divergent(f, blk, uni) ? "  (may diverge)" : "  (uniform)");
    }
    if (!any)
        printf("    none (no divergent branches)\n");
    bool *used = uni ? calloc(f->nregs + 1, sizeof *used) : NULL;
    if (used) {
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            const struct ptx_instr *in = &f->instrs[i];
            if (in->guard_reg >= 0) used[in->guard_reg] = true;
            for (uint32_t k = 0; k < in->nops; k++) loom_mark_used(&in->ops[k], used);
        }
        uint32_t n = 0, nused = 0;
        for (uint32_t r = 0; r < f->nregs; r++) { nused += used[r]; n += used[r] && uni[r]; }
        printf("  warp-uniform registers (one value across a warp): %u of the %u in use", n, nused);
        for (uint32_t r = 0, k = 0; r < f->nregs; r++)
            if (used[r] && uni[r]) printf("%s%s", k++ % 12 ? " " : "\n    ", f->regs[r].name);
        printf("\n");
        n = 0;
        for (uint32_t r = 0; stride && r < f->nregs; r++) n += used[r] && stride[r] != 0;
        printf("  lane-affine registers (lane l holds lane 0's value + stride * l when %%tid.x does): %u", n);
        for (uint32_t r = 0, k = 0; stride && r < f->nregs; r++)
            if (used[r] && stride[r]) printf("%s%s(%+d)", k++ % 8 ? " " : "\n    ", f->regs[r].name, stride[r]);
        printf("\n");
    }
    free(used);
    free(uni);
    free(stride);
}

static void loom_print_func(const struct ptx_func *f)
{
    printf("%s %s\n", f->is_entry ? ".entry" : ".func", f->name);
    if (f->is_decl) {
        printf("  declaration only\n");
        return;
    }
    loom_print_params("return values", f->rets, f->nrets);
    loom_print_params("parameters", f->params, f->nparams);
    printf("  parameter bytes: %llu\n", (unsigned long long)f->param_bytes);
    loom_print_regs(f);
    printf("  shared bytes: %llu (static)  local bytes: %llu\n", (unsigned long long)f->shared_bytes,
           (unsigned long long)f->local_bytes);
    const struct ptx_perf *p = &f->perf;
    if (p->maxntid[0] || p->reqntid[0] || p->minnctapersm || p->maxnreg) {
        printf("  performance:");
        if (p->maxntid[0])
            printf(" .maxntid %u,%u,%u", p->maxntid[0], p->maxntid[1], p->maxntid[2]);
        if (p->reqntid[0])
            printf(" .reqntid %u,%u,%u", p->reqntid[0], p->reqntid[1], p->reqntid[2]);
        if (p->minnctapersm)
            printf(" .minnctapersm %u", p->minnctapersm);
        if (p->maxnreg)
            printf(" .maxnreg %u", p->maxnreg);
        printf("\n");
    }
    printf("  instructions: %u\n", f->ninstrs);
    loom_print_cfg(f);
}

/* Per kernel, how it reaches global memory through each parameter (ptx/ptx_access.h). */
static void loom_print_access(const struct ptx_module *m)
{
    printf("global memory access through parameters (read, write, read-write; escapes: stored or\n"
           "passed where the analysis cannot follow; other: through pointers of unknown origin):\n");
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct ptx_func *f = m->funcs[i];
        if (!f->is_entry || f->is_decl)
            continue;
        struct ptx_kernel_access a;
        char err[160], line[4096];
        if (ptx_access_analyze(m, f, &a, err, sizeof err) != 0) {
            printf("  %s: %s\n", f->name, err);
            continue;
        }
        ptx_access_describe(f, &a, line, sizeof line);
        printf("  %s: %s\n", f->name, line);
        ptx_access_free(&a);
    }
}

/* Checks one file; returns true when it is valid. */
static bool loom_check_file(const char *path, bool verbose)
{
    size_t len = 0;
    char *text = loom_read_file(path, &len);
    if (!text)
        return false;
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = ptx_parse(text, len, path, &d);
    bool ok = m != NULL;
    if (m) {
        ok = ptx_check(m, &d);
        ok = ptx_analyze(m, &d) && ok;
        /* What the interpreter would refuse, from the decoder itself (one source of truth). */
        ok = ok && emu_program_check(m, &d);
    }
    ptx_diags_print(&d, stdout);
    if (m && verbose) {
        printf("%s: PTX %u.%u, target %s, address size %u\n", path, m->version_major, m->version_minor,
               m->target, m->address_size ? m->address_size : 32);
        for (uint32_t i = 0; i < m->nfuncs; i++)
            loom_print_func(m->funcs[i]);
        loom_print_access(m);
    }
    ptx_module_free(m);
    ptx_diags_free(&d);
    free(text);
    return ok;
}

int loom_cmd_check(int argc, char **argv)
{
    bool verbose = false;
    int nfiles = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) {
            verbose = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: loom check [--verbose] FILE.ptx...\n"
                   "Parses and checks PTX files; prints file:line:col diagnostics, instructions\n"
                   "that Loom does not run yet included.\n"
                   "  --verbose  per kernel and function: parameters, registers by width and\n"
                   "             per thread as ptxas would allocate them (an estimate),\n"
                   "             shared/local bytes, basic blocks, reconvergence points, and\n"
                   "             (kernels) which branches may diverge and which registers are\n"
                   "             warp-uniform; then per kernel, each parameter's access to\n"
                   "             global memory (read, write, read-write, escapes, (value)) and\n"
                   "             what it reaches through module variables or other pointers\n"
                   "Exit status: 0 when every file is valid, 1 otherwise, 2 on usage errors.\n");
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "loom check: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        nfiles++;
        if (!loom_check_file(argv[i], verbose))
            bad++;
    }
    if (!nfiles) {
        fprintf(stderr, "usage: loom check [--verbose] FILE.ptx...\n");
        return 2;
    }
    return bad ? 1 : 0;
}
