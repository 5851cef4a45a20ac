/* ptx_cfg.c -- per-function analysis: basic blocks, successors, immediate
 * post-dominators (reconvergence points), register counts, memory layout. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"

/* v rounded up to a multiple of a; UINT64_MAX when that does not fit. */
uint64_t ptx_align_up(uint64_t v, uint64_t a)
{
    if (a <= 1)
        return v;
    uint64_t r = v % a;
    return r == 0 ? v : v > UINT64_MAX - (a - r) ? UINT64_MAX : v + (a - r);
}

/* Alignment of a variable: the declared one, else its element size. */
uint64_t ptx_sym_align(const struct ptx_symbol *s)
{
    if (s->align)
        return s->align;
    uint64_t a = ptx_type_size(s->type) * (s->vec ? s->vec : 1);
    return a ? a : 1;
}

/* The size of a space after s is placed at the next aligned offset of one of *size
 * bytes; UINT64_MAX (and no wrap-around) when that does not fit 64 bits. */
uint64_t ptx_place_after(uint64_t size, const struct ptx_symbol *s)
{
    uint64_t at = ptx_align_up(size, ptx_sym_align(s));
    return at > UINT64_MAX - s->size ? UINT64_MAX : at + s->size;
}

/* Places s at the next aligned offset of a space whose size is *size. */
static void ptx_place(struct ptx_symbol *s, uint64_t *size)
{
    s->offset = ptx_align_up(*size, ptx_sym_align(s));
    *size = ptx_place_after(*size, s);
}

/* Does instruction `in` end its block, and can control fall through it? */
static bool ptx_ends_block(const struct ptx_instr *in, bool *out_falls)
{
    switch (in->op) {
    case PTX_OP_BRA:
    case PTX_OP_BRX:
    case PTX_OP_RET:
    case PTX_OP_EXIT:
    case PTX_OP_TRAP:
        *out_falls = in->guard_reg >= 0;
        return true;
    default:
        *out_falls = true;
        return false;
    }
}

/* Successor lists while building: a small growable array per block. */
struct ptx_succ_tmp {
    uint32_t *v;
    uint32_t n, cap;
    bool exits;              /* has an edge to the virtual exit */
};

static void ptx_succ_add(struct ptx_succ_tmp *s, uint32_t b)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == b)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n++] = b;
}

/* Adds the block that instruction index `target` starts (or an exit edge when
 * it lies past the end of the function). */
static void ptx_edge_to(struct ptx_succ_tmp *s, const struct ptx_func *f, uint32_t target)
{
    if (target >= f->ninstrs)
        s->exits = true;
    else
        ptx_succ_add(s, f->block_of[target]);
}

/* Computes blocks and successor lists of f into f->blocks (arena a). */
static void ptx_build_blocks(struct ptx_func *f, struct ptx_arena *a, struct ptx_succ_tmp **out_succ)
{
    uint32_t n = f->ninstrs;
    bool *leader = calloc(n + 1, sizeof *leader);
    if (!leader)
        abort();
    if (n)
        leader[0] = true;
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (f->labels[i].kind == PTX_LABEL_CODE && f->labels[i].instr < n)
            leader[f->labels[i].instr] = true;
    for (uint32_t i = 0; i < n; i++) {
        bool falls;
        if (ptx_ends_block(&f->instrs[i], &falls) && i + 1 < n)
            leader[i + 1] = true;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    f->nblocks = nb;
    f->blocks = ptx_arena_alloc(a, (nb ? nb : 1) * sizeof *f->blocks);
    f->block_of = ptx_arena_alloc(a, (n ? n : 1) * sizeof *f->block_of);
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i] && i > 0)
            b++;
        if (leader[i])
            f->blocks[b].first = i;
        f->blocks[b].last = i;
        f->block_of[i] = b;
    }
    free(leader);

    struct ptx_succ_tmp *succ = calloc(nb ? nb : 1, sizeof *succ);
    if (!succ)
        abort();
    for (b = 0; b < nb; b++) {
        const struct ptx_instr *in = &f->instrs[f->blocks[b].last];
        bool falls;
        ptx_ends_block(in, &falls);
        if (in->op == PTX_OP_BRA && in->nops >= 1 && in->ops[0].kind == PTX_OPND_LABEL) {
            ptx_edge_to(&succ[b], f, f->labels[in->ops[0].label].instr);
        } else if (in->op == PTX_OP_BRX && in->nops >= 2 && in->ops[1].kind == PTX_OPND_LABEL) {
            const struct ptx_label *l = &f->labels[in->ops[1].label];
            for (uint32_t t = 0; l->kind == PTX_LABEL_BRANCHTARGETS && t < l->ntargets; t++)
                ptx_edge_to(&succ[b], f, f->labels[l->targets[t]].instr);
        } else if (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP) {
            succ[b].exits = true;
        }
        if (falls)
            ptx_edge_to(&succ[b], f, f->blocks[b].last + 1);
    }
    for (b = 0; b < nb; b++) {
        struct ptx_block *blk = &f->blocks[b];
        blk->nsucc = succ[b].n;
        for (uint32_t i = 0; i < succ[b].n && i < 2; i++)
            blk->succ[i] = succ[b].v[i];
        if (succ[b].n > 2)
            blk->succ_ext = ptx_arena_dup(a, succ[b].v + 2, (succ[b].n - 2) * sizeof(uint32_t));
    }
    *out_succ = succ;
}

/* Reverse-CFG depth-first search from the virtual exit X = nb, following
 * edges backwards (from a block to its predecessors). Appends to post[] in
 * postorder; iterative so that no input can exhaust the C stack. */
static void ptx_rdfs(uint32_t root, uint32_t nb, const uint32_t *pred_start, const uint32_t *preds,
                     const uint32_t *exit_blocks, uint32_t nexit, bool *seen, uint32_t *stack,
                     uint32_t *iter, uint32_t *post, uint32_t *npost)
{
    uint32_t sp = 0;
    stack[sp] = root;
    iter[sp] = 0;
    sp++;
    seen[root] = true;
    while (sp) {
        uint32_t v = stack[sp - 1];
        uint32_t k = iter[sp - 1]++;
        uint32_t deg = v == nb ? nexit : pred_start[v + 1] - pred_start[v];
        if (k < deg) {
            uint32_t w = v == nb ? exit_blocks[k] : preds[pred_start[v] + k];
            if (!seen[w]) {
                seen[w] = true;
                stack[sp] = w;
                iter[sp] = 0;
                sp++;
            }
            continue;
        }
        post[(*npost)++] = v;
        sp--;
    }
}

/* Immediate post-dominators by the Cooper-Harvey-Kennedy iterative algorithm
 * ("A Simple, Fast Dominance Algorithm") on the reverse CFG rooted at a virtual
 * exit. Blocks that cannot reach an exit (infinite loops) get a virtual exit
 * edge first, so every block is post-dominated at least by the exit. */
static void ptx_postdominators(struct ptx_func *f, struct ptx_succ_tmp *succ)
{
    uint32_t nb = f->nblocks, X = nb;
    if (!nb)
        return;
    /* Predecessor lists (CSR). */
    uint32_t *pred_start = calloc(nb + 2, sizeof *pred_start);
    uint32_t nedges = 0;
    for (uint32_t b = 0; b < nb; b++)
        nedges += succ[b].n;
    uint32_t *preds = malloc((nedges ? nedges : 1) * sizeof *preds);
    uint32_t *fill = calloc(nb + 1, sizeof *fill);
    uint32_t *exit_blocks = malloc(nb * sizeof *exit_blocks);
    bool *seen = calloc(nb + 1, sizeof *seen);
    uint32_t *stack = malloc((nb + 1) * sizeof *stack);
    uint32_t *iter = malloc((nb + 1) * sizeof *iter);
    uint32_t *post = malloc((nb + 1) * sizeof *post);
    uint32_t *po = malloc((nb + 1) * sizeof *po);
    uint32_t *idom = malloc((nb + 1) * sizeof *idom);
    if (!pred_start || !preds || !fill || !exit_blocks || !seen || !stack || !iter || !post || !po || !idom)
        abort();
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = 0; i < succ[b].n; i++)
            pred_start[succ[b].v[i] + 1]++;
    for (uint32_t b = 0; b < nb; b++)
        pred_start[b + 1] += pred_start[b];
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = 0; i < succ[b].n; i++) {
            uint32_t s = succ[b].v[i];
            preds[pred_start[s] + fill[s]++] = b;
        }

    /* Exit edges, plus virtual ones for regions that never reach an exit:
     * scanning blocks from the last, each still unreached block gets an edge. */
    uint32_t nexit = 0, npost = 0;
    for (uint32_t b = 0; b < nb; b++)
        if (succ[b].exits)
            exit_blocks[nexit++] = b;
    ptx_rdfs(X, nb, pred_start, preds, exit_blocks, nexit, seen, stack, iter, post, &npost);
    for (uint32_t b = nb; b-- > 0;) {
        if (seen[b])
            continue;
        exit_blocks[nexit++] = b;
        succ[b].exits = true;
        uint32_t dummy = 0;
        ptx_rdfs(b, nb, pred_start, preds, exit_blocks, 0, seen, stack, iter, post, &dummy);
    }
    /* Final postorder over the completed graph. */
    memset(seen, 0, (nb + 1) * sizeof *seen);
    npost = 0;
    ptx_rdfs(X, nb, pred_start, preds, exit_blocks, nexit, seen, stack, iter, post, &npost);
    for (uint32_t i = 0; i < npost; i++)
        po[post[i]] = i;

    const uint32_t UNDEF = UINT32_MAX;
    for (uint32_t v = 0; v <= nb; v++)
        idom[v] = UNDEF;
    idom[X] = X;
    bool changed = true;
    while (changed) {
        changed = false;
        /* Reverse postorder, skipping the root (last in postorder). */
        for (uint32_t i = npost - 1; i-- > 0;) {
            uint32_t b = post[i];
            uint32_t nd = UNDEF;
            /* Predecessors in the reverse graph = successors in the CFG (+ X). */
            uint32_t cnt = succ[b].n + (succ[b].exits ? 1 : 0);
            for (uint32_t k = 0; k < cnt; k++) {
                uint32_t p = k < succ[b].n ? succ[b].v[k] : X;
                if (idom[p] == UNDEF)
                    continue;
                if (nd == UNDEF) {
                    nd = p;
                    continue;
                }
                uint32_t f1 = p, f2 = nd;
                while (f1 != f2) {
                    while (po[f1] < po[f2])
                        f1 = idom[f1];
                    while (po[f2] < po[f1])
                        f2 = idom[f2];
                }
                nd = f1;
            }
            if (nd != UNDEF && idom[b] != nd) {
                idom[b] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        f->blocks[b].ipdom = (idom[b] == X || idom[b] == UNDEF) ? -1 : (int32_t)idom[b];

    free(pred_start);
    free(preds);
    free(fill);
    free(exit_blocks);
    free(seen);
    free(stack);
    free(iter);
    free(post);
    free(po);
    free(idom);
}

/* Parameter layout: each at its alignment, in declaration order. */
static uint64_t ptx_layout_params(struct ptx_symbol **ps, uint32_t n)
{
    uint64_t size = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ps[i]->space == PTX_SPACE_REG)
            continue;
        ptx_place(ps[i], &size);
    }
    return size;
}

bool ptx_analyze(struct ptx_module *m, struct ptx_diags *diags)
{
    /* Module-scope layout per space; .shared variables come first in every CTA. */
    uint64_t space_size[PTX_SPACE_COUNT_] = { 0 };
    for (uint32_t i = 0; i < m->nglobals; i++) {
        struct ptx_symbol *s = m->globals[i];
        if (s->linkage == PTX_LINK_EXTERN && s->size == 0) {
            s->offset = 0;
            continue;
        }
        if ((unsigned)s->space < PTX_SPACE_COUNT_)
            ptx_place(s, &space_size[s->space]);
    }
    uint64_t module_shared = space_size[PTX_SPACE_SHARED];
    /* Dynamic shared memory (extern .shared with no size) starts after all static shared. */
    for (uint32_t i = 0; i < m->nglobals; i++) {
        struct ptx_symbol *s = m->globals[i];
        if (s->space == PTX_SPACE_SHARED && s->linkage == PTX_LINK_EXTERN && s->size == 0)
            s->offset = ptx_align_up(module_shared, ptx_sym_align(s));
    }

    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        struct ptx_func *f = m->funcs[fi];
        memset(f->reg_count, 0, sizeof f->reg_count);
        for (uint32_t r = 0; r < f->nregs; r++)
            if ((unsigned)f->regs[r].type < PTX_T_COUNT_)
                f->reg_count[f->regs[r].type]++;
        f->param_bytes = ptx_layout_params(f->params, f->nparams);
        ptx_layout_params(f->rets, f->nrets);
        uint64_t shared = module_shared, local = 0, param = 0;
        for (uint32_t i = 0; i < f->nlocals; i++) {
            struct ptx_symbol *s = f->locals[i];
            if (s->space == PTX_SPACE_SHARED)
                ptx_place(s, &shared);
            else if (s->space == PTX_SPACE_LOCAL)
                ptx_place(s, &local);
            else if (s->space == PTX_SPACE_PARAM)
                ptx_place(s, &param);
        }
        f->shared_bytes = shared;
        f->local_bytes = local;
        if (f->is_decl)
            continue;
        struct ptx_succ_tmp *succ = NULL;
        ptx_build_blocks(f, m->arena, &succ);
        ptx_postdominators(f, succ);
        for (uint32_t b = 0; b < f->nblocks; b++)
            free(succ[b].v);
        free(succ);
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        m->funcs[fi]->est_regs = ptx_estimate_regs(m->funcs[fi], m->target_debug);
        m->funcs[fi]->barriers = ptx_barriers_used(m->funcs[fi]);
    }
    return ptx_check_limits(m, diags);
}
