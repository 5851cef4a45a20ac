/* ptx_uniform.c -- which registers of a kernel hold one value across a warp.
 *
 * A register is uniform when every lane of a warp that has not exited holds
 * the same value in it, wherever it is read. The decoder uses this to pick a
 * scalar twin of a handler (one lane computed, the row filled with it) for an
 * instruction whose sources are all uniform (emu/emu_decode.c), and
 * `loom check --verbose` lists uniform registers and branches.
 *
 * The analysis is the classic divergence analysis over the CFG (ptx_cfg.c):
 * a register is divergent when some instruction that may write it
 *   - computes something other than a pure function of its operands (a load
 *     other than a kernel parameter, an atomic, a shuffle, a vote, a call ...),
 *   - reads a divergent register or a special register that differs between
 *     lanes (%tid, %laneid, %lanemask_*, clocks ...),
 *   - is guarded by a divergent predicate, or
 *   - lies in the region of a divergent branch: the blocks reachable from the
 *     branch's successors before its immediate post-dominator, where the
 *     warp's lanes are split and each side writes only its own lanes;
 * and a branch is divergent when its predicate (or brx.idx index) is. Both
 * grow together until nothing changes. Lanes that exit never come back, so
 * exits make no region: the lanes left still agree.
 *
 * Why the invariant holds: a warp splits only at a branch whose predicate
 * differs between its active lanes, so (by induction) only at a divergent
 * branch, and until it reconverges it runs only blocks of that branch's
 * region. Every write of a uniform register therefore happens with all
 * non-exited lanes active (or none, under a uniform guard) and from equal
 * sources. Only entry functions are analysed: a .func may be called with any
 * subset of lanes, and its registers are kept across calls. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

/* Special registers whose value is the same in every lane of a warp. */
bool ptx_sreg_uniform(enum ptx_sreg s)
{
    switch (s) {
    case PTX_SREG_NTID_X: case PTX_SREG_NTID_Y: case PTX_SREG_NTID_Z:
    case PTX_SREG_CTAID_X: case PTX_SREG_CTAID_Y: case PTX_SREG_CTAID_Z:
    case PTX_SREG_NCTAID_X: case PTX_SREG_NCTAID_Y: case PTX_SREG_NCTAID_Z:
    case PTX_SREG_NSMID: case PTX_SREG_GRIDID:
    case PTX_SREG_TOTAL_SMEM_SIZE: case PTX_SREG_DYNAMIC_SMEM_SIZE:
        return true;
    default:
        return false;
    }
}

/* Opcodes whose results are a pure function of their operands (the same
 * operands give the same bits in every lane). Carry consumers (addc, subc,
 * madc) read the per-lane carry flag and are not. */
static bool kernel_param(const struct ptx_func *fn, const struct ptx_symbol *sym)
{
    for (uint32_t k = 0; fn->is_entry && sym && k < fn->nparams; k++)
        if (fn->params[k] == sym) return true;
    return false;
}

static bool op_pure(const struct ptx_func *fn, const struct ptx_instr *pi)
{
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV: case PTX_OP_BFE:
    case PTX_OP_BFI: case PTX_OP_BMSK: case PTX_OP_SZEXT: case PTX_OP_FMA: case PTX_OP_COPYSIGN:
    case PTX_OP_TESTP: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT:
    case PTX_OP_SET: case PTX_OP_SETP: case PTX_OP_SELP: case PTX_OP_SLCT: case PTX_OP_AND: case PTX_OP_OR:
    case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_SHL:
    case PTX_OP_SHR: case PTX_OP_MOV: case PTX_OP_PRMT: case PTX_OP_CVT:
        return true;
    case PTX_OP_CVTA:   /* a local window's generic address differs per thread */
        return pi->space != PTX_SPACE_LOCAL;
    case PTX_OP_LD:     /* a kernel's parameters are the same for every thread (a call's are not) */
        return pi->space == PTX_SPACE_PARAM && pi->nops == 2 && pi->ops[1].kind == PTX_OPND_ADDR &&
               pi->ops[1].reg < 0 && kernel_param(fn, pi->ops[1].sym);
    default:
        return false;
    }
}

/* Whether operand op, read, has the same value in every lane. */
static bool operand_uniform(const struct ptx_func *fn, const struct ptx_operand *op, const bool *div)
{
    switch (op->kind) {
    case PTX_OPND_REG:
        return !div[op->reg];
    case PTX_OPND_SREG:
        return ptx_sreg_uniform(op->sreg);
    case PTX_OPND_SYM:   /* addresses of thread-private variables differ per lane */
    case PTX_OPND_ADDR:
        if (op->kind == PTX_OPND_ADDR && op->reg >= 0 && div[op->reg]) return false;
        if (op->sym && (op->sym->space == PTX_SPACE_LOCAL ||
                        (op->sym->space == PTX_SPACE_PARAM && !kernel_param(fn, op->sym))))
            return false;
        for (uint32_t e = 0; e < op->nelems; e++)
            if (!operand_uniform(fn, &op->elems[e], div)) return false;
        return true;
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        for (uint32_t e = 0; e < op->nelems; e++)
            if (!operand_uniform(fn, &op->elems[e], div)) return false;
        return true;
    default:             /* immediates, labels, sinks */
        return true;
    }
}

/* Marks every register of operand op divergent; true if one changed. */
static bool mark_operand(const struct ptx_operand *op, bool *div)
{
    bool changed = false;
    if (op->kind == PTX_OPND_REG && !div[op->reg]) div[op->reg] = changed = true;
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST)
        for (uint32_t e = 0; e < op->nelems; e++) changed |= mark_operand(&op->elems[e], div);
    return changed;
}

/* Marks the region of the branch ending block b: blocks reachable from its
 * successors without passing its immediate post-dominator. */
static bool mark_region(const struct ptx_func *fn, uint32_t b, bool *in_region, uint32_t *stack)
{
    int32_t stop = fn->blocks[b].ipdom;
    uint32_t sp = 0;
    bool changed = false;
    const struct ptx_block *blk = &fn->blocks[b];
    for (uint32_t k = 0; k < blk->nsucc; k++) stack[sp++] = k < 2 ? blk->succ[k] : blk->succ_ext[k - 2];
    while (sp) {
        uint32_t s = stack[--sp];
        if ((int32_t)s == stop || s >= fn->nblocks || in_region[s]) continue;
        in_region[s] = changed = true;
        const struct ptx_block *sb = &fn->blocks[s];
        for (uint32_t k = 0; k < sb->nsucc; k++) {
            uint32_t t = k < 2 ? sb->succ[k] : sb->succ_ext[k - 2];
            if ((int32_t)t != stop && t < fn->nblocks && !in_region[t]) stack[sp++] = t;
        }
    }
    return changed;
}

/* The register operand a block's closing branch depends on, or NULL when the
 * block ends otherwise (or unconditionally). */
static const struct ptx_operand *branch_condition(const struct ptx_func *fn, const struct ptx_block *blk,
                                                  struct ptx_operand *guard)
{
    const struct ptx_instr *pi = &fn->instrs[blk->last];
    if (blk->nsucc < 2) return NULL;
    if (pi->op == PTX_OP_BRX && pi->nops >= 1) return &pi->ops[0];
    if (pi->guard_reg >= 0) {
        memset(guard, 0, sizeof *guard);
        guard->kind = PTX_OPND_REG;
        guard->reg = pi->guard_reg;
        return guard;
    }
    return NULL;
}

bool *ptx_uniform_regs(const struct ptx_func *fn)
{
    if (!fn->is_entry || fn->is_decl || !fn->blocks || !fn->block_of || !fn->nblocks) return NULL;
    bool *div = calloc(fn->nregs + 1, sizeof *div);
    bool *in_region = calloc(fn->nblocks, sizeof *in_region);
    bool *split = calloc(fn->nblocks, sizeof *split);
    /* A block is pushed at most once per region walk, but may be pushed by
     * every predecessor before it is visited: bound by the edge count. */
    size_t nedges = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++) nedges += fn->blocks[b].nsucc;
    uint32_t *stack = malloc((nedges + fn->nblocks + 1) * sizeof *stack);
    if (!div || !in_region || !split || !stack) {
        free(div); free(in_region); free(split); free(stack);
        return NULL;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < fn->nblocks; b++) {
            struct ptx_operand g;
            const struct ptx_operand *c = branch_condition(fn, &fn->blocks[b], &g);
            if (split[b] || !c || operand_uniform(fn, c, div)) continue;
            split[b] = true;
            changed |= mark_region(fn, b, in_region, stack);
        }
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const struct ptx_instr *pi = &fn->instrs[i];
            bool writes = pi->op == PTX_OP_CALL || (ptx_opcode_flags(pi->op) & PTX_OPF_WRITES);
            if (!writes || pi->nops == 0) continue;
            bool d = !op_pure(fn, pi) || in_region[fn->block_of[i]] ||
                     (pi->guard_reg >= 0 && div[pi->guard_reg]);
            for (uint32_t k = 1; !d && k < pi->nops; k++) d = !operand_uniform(fn, &pi->ops[k], div);
            if (!d) continue;
            changed |= mark_operand(&pi->ops[0], div);
            /* The second destination of a p|q pair (setp, shfl, match ...): a
             * predicate source in that place is marked too, which only costs
             * a twin. */
            if (pi->nops > 1 && pi->ops[1].kind == PTX_OPND_REG && fn->regs[pi->ops[1].reg].type == PTX_T_PRED)
                changed |= mark_operand(&pi->ops[1], div);
        }
    }
    free(in_region); free(split); free(stack);
    for (uint32_t r = 0; r < fn->nregs; r++) div[r] = !div[r];   /* now: uniform */
    return div;
}

