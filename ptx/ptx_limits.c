/* ptx_limits.c -- the sizes of the state spaces against what a GPU allows: static shared
 * memory per kernel, the constant bank, local memory per thread, kernel parameters. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

/* A pointer's index in a table sorted by pointer (functions, module-scope variables). */
struct ptx_ptr_index {
    const void *p;
    uint32_t i;
};

static int ptx_ptr_cmp(const void *a, const void *b)
{
    const struct ptx_ptr_index *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

static int ptx_u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts a table filled with (pointer, index) pairs. */
static void ptx_index_sort(struct ptx_ptr_index *ix, uint32_t n)
{
    qsort(ix, n, sizeof *ix, ptx_ptr_cmp);
}

/* The index of p in the table, or -1. */
static int64_t ptx_index_find(const struct ptx_ptr_index *ix, uint32_t n, const void *p)
{
    struct ptx_ptr_index key = { p, 0 };
    const struct ptx_ptr_index *hit = bsearch(&key, ix, n, sizeof *ix, ptx_ptr_cmp);
    return hit ? (int64_t)hit->i : -1;
}

/* A growable array of indices. */
struct ptx_u32v {
    uint32_t *v;
    size_t n, cap;
};

static bool ptx_u32v_push(struct ptx_u32v *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t ncap = a->cap ? 2 * a->cap : 64;
        uint32_t *nv = realloc(a->v, ncap * sizeof *nv);
        if (!nv)
            return false;
        a->v = nv;
        a->cap = ncap;
    }
    a->v[a->n++] = x;
    return true;
}

/* The call graph with what each function names, built once (so that many kernels calling
 * one large function cost its size once), and the marks of the kernel being counted. */
struct ptx_limits {
    const struct ptx_module *m;
    struct ptx_diags *diags;
    struct ptx_ptr_index *funcs, *globals;
    uint32_t *callee_at, *named_at;  /* per function: where its lists start (nfuncs + 1) */
    struct ptx_u32v callees;         /* functions called or taken as pointers, per function */
    struct ptx_u32v named;           /* module-scope .shared variables named, per function */
    uint32_t *fmark, *gmark;         /* per function / variable: the last stamp that marked it */
    uint32_t stamp;
    struct ptx_u32v queue, vars;     /* one kernel's functions and variables */
    bool oom;
};

static void ptx_limit_error(struct ptx_limits *l, struct ptx_loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void ptx_limit_error(struct ptx_limits *l, struct ptx_loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(l->diags, PTX_SEV_ERROR, l->m->path, at.line, at.col, fmt, ap);
    va_end(ap);
}

/* Adds index i to list a unless this stamp marked it already. */
static void ptx_mark(struct ptx_limits *l, uint32_t *marks, int64_t i, struct ptx_u32v *a)
{
    if (i < 0 || marks[i] == l->stamp)
        return;
    marks[i] = l->stamp;
    l->oom |= !ptx_u32v_push(a, (uint32_t)i);
}

static int64_t ptx_func_index(struct ptx_limits *l, const struct ptx_func *f)
{
    return f ? ptx_index_find(l->funcs, l->m->nfuncs, f) : -1;
}

/* Notes what an operand names: a function (called, or taken as a pointer) or a
 * module-scope .shared variable. */
static void ptx_note_operand(struct ptx_limits *l, const struct ptx_operand *op)
{
    const struct ptx_symbol *s = op->sym;
    if (s && (op->kind == PTX_OPND_SYM || op->kind == PTX_OPND_ADDR)) {
        if (s->kind == PTX_SYM_FUNC)
            ptx_mark(l, l->fmark, ptx_func_index(l, s->func), &l->callees);
        else if (s->space == PTX_SPACE_SHARED)
            ptx_mark(l, l->gmark, ptx_index_find(l->globals, l->m->nglobals, s), &l->named);
    }
    for (uint32_t e = 0; e < op->nelems; e++)
        ptx_note_operand(l, &op->elems[e]);
}

/* The callees and named variables of every function, each once per function. */
static void ptx_build_call_graph(struct ptx_limits *l)
{
    const struct ptx_module *m = l->m;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct ptx_func *f = m->funcs[fi];
        l->stamp++;
        l->callee_at[fi] = (uint32_t)l->callees.n;
        l->named_at[fi] = (uint32_t)l->named.n;
        for (uint32_t i = 0; i < f->ninstrs; i++)
            for (uint32_t o = 0; o < f->instrs[i].nops; o++)
                ptx_note_operand(l, &f->instrs[i].ops[o]);
        for (uint32_t i = 0; i < f->nlabels; i++)
            for (uint32_t t = 0; f->labels[i].kind == PTX_LABEL_CALLTARGETS && t < f->labels[i].ntargets; t++)
                if (f->labels[i].funcs[t])
                    ptx_mark(l, l->fmark, ptx_func_index(l, f->labels[i].funcs[t]->func), &l->callees);
    }
    l->callee_at[m->nfuncs] = (uint32_t)l->callees.n;
    l->named_at[m->nfuncs] = (uint32_t)l->named.n;
}

/* Adds a .shared variable to a kernel's total; reports the variable that takes the total
 * past the limit. Variables already too large alone were reported on their own. */
static void ptx_add_shared(struct ptx_limits *l, const struct ptx_func *k, const struct ptx_symbol *s,
                           uint64_t *total)
{
    if (s->space != PTX_SPACE_SHARED || s->size > PTX_MAX_STATIC_SHARED ||
        (s->size == 0 && s->linkage == PTX_LINK_EXTERN))
        return;
    uint64_t before = *total;
    *total = ptx_place_after(*total, s);
    if (before <= PTX_MAX_STATIC_SHARED && *total > PTX_MAX_STATIC_SHARED)
        ptx_limit_error(l, s->loc, "'%s' takes the static shared memory of kernel '%s' to %llu bytes, "
                        "more than the %u (0x%x) a kernel may have", s->name, k->name,
                        (unsigned long long)*total, PTX_MAX_STATIC_SHARED, PTX_MAX_STATIC_SHARED);
}

/* The static shared memory of kernel number ki as ptxas counts it: the .shared variables
 * of the functions it reaches through calls and function pointers, and the module-scope
 * ones they name, each once, in declaration order. (Loom's own layout gives every kernel
 * all the module-scope ones.) */
static void ptx_kernel_shared(struct ptx_limits *l, uint32_t ki)
{
    const struct ptx_module *m = l->m;
    l->stamp++;
    l->queue.n = l->vars.n = 0;
    ptx_mark(l, l->fmark, ki, &l->queue);
    for (size_t q = 0; q < l->queue.n; q++) {
        uint32_t f = l->queue.v[q];
        for (uint32_t c = l->callee_at[f]; c < l->callee_at[f + 1]; c++)
            ptx_mark(l, l->fmark, l->callees.v[c], &l->queue);
        for (uint32_t g = l->named_at[f]; g < l->named_at[f + 1]; g++)
            ptx_mark(l, l->gmark, l->named.v[g], &l->vars);
    }
    if (l->oom)
        return;
    uint64_t total = 0;
    if (l->vars.n)
        qsort(l->vars.v, l->vars.n, sizeof *l->vars.v, ptx_u32_cmp);
    for (size_t i = 0; i < l->vars.n; i++)
        ptx_add_shared(l, m->funcs[ki], m->globals[l->vars.v[i]], &total);
    for (size_t q = 0; q < l->queue.n; q++) {
        const struct ptx_func *f = m->funcs[l->queue.v[q]];
        for (uint32_t i = 0; i < f->nlocals; i++)
            ptx_add_shared(l, m->funcs[ki], f->locals[i], &total);
    }
}

/* Limits on one variable alone, wherever it is declared. */
static void ptx_check_variable(struct ptx_limits *l, const struct ptx_symbol *s)
{
    if (s->space == PTX_SPACE_SHARED && s->size > PTX_MAX_STATIC_SHARED)
        ptx_limit_error(l, s->loc, "'.shared' variable '%s' is %llu bytes, more than the %u (0x%x) of static "
                        "shared memory a kernel may have", s->name, (unsigned long long)s->size,
                        PTX_MAX_STATIC_SHARED, PTX_MAX_STATIC_SHARED);
    if (s->space == PTX_SPACE_LOCAL && s->size > PTX_MAX_LOCAL)
        ptx_limit_error(l, s->loc, "'.local' variable '%s' is %llu bytes, more than the %u (512 KiB) of local "
                        "memory a thread may have", s->name, (unsigned long long)s->size, PTX_MAX_LOCAL);
}

/* Adds a variable to a running total of a space; true when it takes the total past `limit`
 * (and from within it: each overflow is reported once). */
static bool ptx_add_past(uint64_t *total, const struct ptx_symbol *s, uint64_t limit)
{
    uint64_t before = *total;
    *total = ptx_place_after(*total, s);
    return before <= limit && *total > limit;
}

static void ptx_local_error(struct ptx_limits *l, const struct ptx_symbol *s, const struct ptx_func *f,
                            uint64_t frame)
{
    ptx_limit_error(l, s->loc, "'%s' takes the local memory of '%s' to %llu bytes, more than the %u (512 KiB) "
                    "a thread may have", s->name, f->name, (unsigned long long)frame, PTX_MAX_LOCAL);
}

/* A function's own frame: its parameters and return values (a .func's), its .local
 * variables and the .param variables of the calls it makes, within a thread's local
 * memory; a kernel's parameters within PTX_MAX_KERNEL_PARAMS. */
static void ptx_check_frame(struct ptx_limits *l, const struct ptx_func *f)
{
    uint64_t frame = 0, params = 0;
    for (uint32_t i = 0; i < f->nparams + f->nrets; i++) {
        const struct ptx_symbol *s = i < f->nparams ? f->params[i] : f->rets[i - f->nparams];
        if (s->space == PTX_SPACE_REG)
            continue;
        if (f->is_entry && ptx_add_past(&params, s, PTX_MAX_KERNEL_PARAMS))
            ptx_limit_error(l, s->loc, "'%s' takes the parameters of kernel '%s' to %llu bytes, more than the %u "
                            "a kernel may have", s->name, f->name, (unsigned long long)params,
                            PTX_MAX_KERNEL_PARAMS);
        if (!f->is_entry && ptx_add_past(&frame, s, PTX_MAX_LOCAL))
            ptx_local_error(l, s, f, frame);
    }
    for (uint32_t i = 0; i < f->nlocals; i++) {
        const struct ptx_symbol *s = f->locals[i];
        ptx_check_variable(l, s);
        bool reported = s->space == PTX_SPACE_LOCAL && s->size > PTX_MAX_LOCAL;
        if ((s->space == PTX_SPACE_LOCAL || s->space == PTX_SPACE_PARAM) && !reported &&
            ptx_add_past(&frame, s, PTX_MAX_LOCAL))
            ptx_local_error(l, s, f, frame);
    }
}

/* Adds a variable to the module's totals: the .const variables (at module scope and in
 * functions) share one bank; the module-scope .global ones must fit 64-bit addresses. */
static void ptx_add_module_var(struct ptx_limits *l, const struct ptx_symbol *s, bool module_scope,
                               uint64_t *cbank, uint64_t *global)
{
    if (s->space == PTX_SPACE_CONST && ptx_add_past(cbank, s, PTX_MAX_CONST_BANK))
        ptx_limit_error(l, s->loc, "'%s' takes the module's .const variables to %llu bytes, more than the %u "
                        "(0x%x) of the constant bank", s->name, (unsigned long long)*cbank, PTX_MAX_CONST_BANK,
                        PTX_MAX_CONST_BANK);
    if (s->space == PTX_SPACE_GLOBAL && module_scope && ptx_add_past(global, s, UINT64_MAX - 1))
        ptx_limit_error(l, s->loc, "'%s' takes the module's .global variables past 2^64 bytes", s->name);
}

static void ptx_check_module_spaces(struct ptx_limits *l)
{
    const struct ptx_module *m = l->m;
    uint64_t cbank = 0, global = 0;
    for (uint32_t g = 0; g < m->nglobals; g++)
        ptx_add_module_var(l, m->globals[g], true, &cbank, &global);
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f]->nlocals; i++)
            ptx_add_module_var(l, m->funcs[f]->locals[i], false, &cbank, &global);
}

bool ptx_check_limits(const struct ptx_module *m, struct ptx_diags *diags)
{
    size_t before = diags->nerrors;
    struct ptx_limits l = { .m = m, .diags = diags };
    l.funcs = malloc((m->nfuncs + 1) * sizeof *l.funcs);
    l.globals = malloc((m->nglobals + 1) * sizeof *l.globals);
    l.callee_at = malloc((m->nfuncs + 1) * sizeof *l.callee_at);
    l.named_at = malloc((m->nfuncs + 1) * sizeof *l.named_at);
    l.fmark = calloc(m->nfuncs + 1, sizeof *l.fmark);
    l.gmark = calloc(m->nglobals + 1, sizeof *l.gmark);
    l.oom = !l.funcs || !l.globals || !l.callee_at || !l.named_at || !l.fmark || !l.gmark;
    if (!l.oom) {
        for (uint32_t f = 0; f < m->nfuncs; f++)
            l.funcs[f] = (struct ptx_ptr_index){ m->funcs[f], f };
        ptx_index_sort(l.funcs, m->nfuncs);
        for (uint32_t g = 0; g < m->nglobals; g++)
            l.globals[g] = (struct ptx_ptr_index){ m->globals[g], g };
        ptx_index_sort(l.globals, m->nglobals);
        for (uint32_t g = 0; g < m->nglobals; g++)
            ptx_check_variable(&l, m->globals[g]);
        ptx_check_module_spaces(&l);
        ptx_build_call_graph(&l);
        for (uint32_t f = 0; f < m->nfuncs && !l.oom; f++) {
            ptx_check_frame(&l, m->funcs[f]);
            if (m->funcs[f]->is_entry && !m->funcs[f]->is_decl)
                ptx_kernel_shared(&l, f);
        }
    }
    if (l.oom)
        ptx_diag_add(diags, PTX_SEV_ERROR, m->path, 1, 1, "out of memory checking the sizes of state spaces");
    free(l.funcs);
    free(l.globals);
    free(l.callee_at);
    free(l.named_at);
    free(l.fmark);
    free(l.gmark);
    free(l.callees.v);
    free(l.named.v);
    free(l.queue.v);
    free(l.vars.v);
    return diags->nerrors == before;
}
