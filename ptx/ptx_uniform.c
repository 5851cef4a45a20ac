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

/* The lane stride of a special register that counts across a warp: %laneid
 * always, %tid.x where the launch makes it (emu_warp.tid_affine); else 0. */
int32_t ptx_sreg_lane_stride(enum ptx_sreg s)
{
    return s == PTX_SREG_TID_X || s == PTX_SREG_LANEID;
}

/* Whether sym is a parameter of the entry fn. */
static bool kernel_param(const struct ptx_func *fn, const struct ptx_symbol *sym)
{
    for (uint32_t k = 0; fn->is_entry && sym && k < fn->nparams; k++)
        if (fn->params[k] == sym) return true;
    return false;
}

/* Whether instruction pi computes a pure function of its operands: the opcodes
 * marked P in ptx_ops.def, a cvta other than of a local window (whose generic
 * address differs per thread), and an ld of a kernel parameter (the same for every
 * thread; a call's parameters are not). */
static bool op_pure(const struct ptx_func *fn, const struct ptx_instr *pi)
{
    if (ptx_opcode_flags(pi->op) & PTX_OPF_PURE)
        return true;
    if (pi->op == PTX_OP_CVTA)
        return pi->space != PTX_SPACE_LOCAL;
    return pi->op == PTX_OP_LD && pi->space == PTX_SPACE_PARAM && pi->nops == 2 &&
           pi->ops[1].kind == PTX_OPND_ADDR && pi->ops[1].reg < 0 && kernel_param(fn, pi->ops[1].sym);
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

/* Marks every register of operand op as not lane-affine. */
static void mark_operand_none(const struct ptx_operand *op, int32_t *st)
{
    if (op->kind == PTX_OPND_REG) st[op->reg] = 0;
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST)
        for (uint32_t e = 0; e < op->nelems; e++) mark_operand_none(&op->elems[e], st);
}

/* The divergence analysis: div[r] (true = divergent) over the registers and
 * in_region[b] (true = inside a divergent branch's region) over the blocks,
 * both zeroed by the caller. False when memory runs out. */
static bool divergence(const struct ptx_func *fn, bool *div, bool *in_region)
{
    bool *split = calloc(fn->nblocks, sizeof *split);
    /* A block is pushed at most once per region walk, but may be pushed by
     * every predecessor before it is visited: bound by the edge count. */
    size_t nedges = 0;
    for (uint32_t b = 0; b < fn->nblocks; b++) nedges += fn->blocks[b].nsucc;
    uint32_t *stack = malloc((nedges + fn->nblocks + 1) * sizeof *stack);
    if (!split || !stack) {
        free(split); free(stack);
        return false;
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
    free(split); free(stack);
    return true;
}

/* ---- Lane-affine registers ------------------------------------------------------
 * A divergent 32-bit register is lane-affine with stride s when, wherever it is
 * read, lane l of a warp holds base + s * l (mod 2^32) for one base, given that
 * %tid.x does (stride 1: a block whose x extent is a multiple of 32, or a
 * one-dimensional block; the warp checks that at run time, emu_warp.tid_affine).
 * i = blockIdx.x * blockDim.x + threadIdx.x is one, and so are the byte
 * offsets it scales to. The lattice per register: not yet known (TOP), one
 * stride, or none (BOTTOM); every write must give the same stride from
 * uniform and affine operands, with every live lane active (no divergent
 * region, no divergent guard: as for uniform registers). Registers only ever
 * written from themselves stay TOP and end as none. */
#define AFF_TOP INT32_MIN
#define AFF_NONE 0
#define AFF_MAX (1 << 20)

/* Stride of a source operand: 0 for uniform values, AFF_TOP, a stride, or -1
 * through *ok = false for anything else. */
static int32_t src_stride(const struct ptx_func *fn, const struct ptx_operand *op, const bool *div,
                          const int32_t *st, bool *ok)
{
    switch (op->kind) {
    case PTX_OPND_REG:
        if (op->vec_comp || op->neg || op->arith_neg || op->sel) break;
        if (!div[op->reg]) return 0;
        if (st[op->reg] == AFF_TOP) return AFF_TOP;
        if (st[op->reg] != AFF_NONE) return st[op->reg];
        break;
    case PTX_OPND_SREG:
        if (ptx_sreg_uniform(op->sreg)) return 0;
        if (ptx_sreg_lane_stride(op->sreg)) return ptx_sreg_lane_stride(op->sreg);
        break;
    case PTX_OPND_IMM_INT:
        return 0;
    case PTX_OPND_SYM:   /* the address of a shared or global variable */
        if (operand_uniform(fn, op, div)) return 0;
        break;
    default:
        break;
    }
    *ok = false;
    return AFF_NONE;
}

static bool int32_type(enum ptx_type t)
{
    return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32;
}

/* The stride an instruction writes to its destination (AFF_TOP while a source
 * is unknown, AFF_NONE when it is not affine). */
static int32_t def_stride(const struct ptx_func *fn, const struct ptx_instr *pi, const bool *div, const int32_t *st)
{
    if (pi->ntypes != 1 || !int32_type(pi->types[0]) || (pi->flags & (PTX_IF_SAT | PTX_IF_CC)) || pi->nops < 2)
        return AFF_NONE;
    bool ok = true;
    int32_t s[3] = { 0, 0, 0 };
    bool imm[3] = { false, false, false };
    for (unsigned k = 1; k < pi->nops && k <= 3; k++) {
        s[k - 1] = src_stride(fn, &pi->ops[k], div, st, &ok);
        imm[k - 1] = pi->ops[k].kind == PTX_OPND_IMM_INT;
    }
    if (!ok) return AFF_NONE;
    for (unsigned k = 0; k + 1 < pi->nops && k < 3; k++)
        if (s[k] == AFF_TOP) return AFF_TOP;
    int64_t r;
    switch (pi->op) {
    case PTX_OP_MOV:
        if (pi->nops != 2) return AFF_NONE;
        r = s[0];
        break;
    case PTX_OP_ADD:
        if (pi->nops != 3 || pi->nmods) return AFF_NONE;
        r = (int64_t)s[0] + s[1];
        break;
    case PTX_OP_SUB:
        if (pi->nops != 3 || pi->nmods) return AFF_NONE;
        r = (int64_t)s[0] - s[1];
        break;
    case PTX_OP_MUL: case PTX_OP_MAD: {
        /* the low half: a uniform product plus an affine addend, or an affine
         * factor times an immediate */
        bool mad = pi->op == PTX_OP_MAD;
        if (pi->nops != (mad ? 4u : 3u) || pi->nmods != 1 || pi->mods[0] != PTX_MOD_LO) return AFF_NONE;
        int64_t add = mad ? s[2] : 0;
        if (s[0] == 0 && s[1] == 0) r = add;
        else if (s[0] && imm[1]) r = (int64_t)s[0] * (int32_t)pi->ops[2].ival + add;
        else if (s[1] && imm[0]) r = (int64_t)s[1] * (int32_t)pi->ops[1].ival + add;
        else return AFF_NONE;
        break;
    }
    case PTX_OP_SHL:
        if (pi->nops != 3 || !imm[1] || pi->ops[2].ival < 0 || pi->ops[2].ival > 20) return AFF_NONE;
        r = (int64_t)s[0] * ((int64_t)1 << pi->ops[2].ival);
        break;
    default:
        return AFF_NONE;
    }
    return r == 0 || r > AFF_MAX || r < -AFF_MAX ? AFF_NONE : (int32_t)r;
}

int32_t *ptx_lane_strides(const struct ptx_func *fn, bool **uniform)
{
    *uniform = NULL;
    if (!fn->is_entry || fn->is_decl || !fn->blocks || !fn->block_of || !fn->nblocks) return NULL;
    bool *div = calloc(fn->nregs + 1, sizeof *div);
    bool *in_region = calloc(fn->nblocks, sizeof *in_region);
    int32_t *st = malloc((fn->nregs + 1) * sizeof *st);
    if (!div || !in_region || !st || !divergence(fn, div, in_region)) {
        free(div); free(in_region); free(st);
        return NULL;
    }
    for (uint32_t r = 0; r <= fn->nregs; r++)
        st[r] = r < fn->nregs && div[r] && fn->regs[r].vec == 1 && int32_type(fn->regs[r].type) ? AFF_TOP : AFF_NONE;
    /* A register written where not every live lane may be active (a divergent
     * region or guard), or as part of a vector or list, is none; what other
     * writes give is def_stride's. */
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        bool writes = pi->op == PTX_OP_CALL || (ptx_opcode_flags(pi->op) & PTX_OPF_WRITES);
        if (!writes || pi->nops == 0) continue;
        const struct ptx_operand *d = &pi->ops[0];
        if (in_region[fn->block_of[i]] || (pi->guard_reg >= 0 && div[pi->guard_reg]) || d->kind != PTX_OPND_REG ||
            d->vec_comp)
            mark_operand_none(d, st);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const struct ptx_instr *pi = &fn->instrs[i];
            bool writes = pi->op == PTX_OP_CALL || (ptx_opcode_flags(pi->op) & PTX_OPF_WRITES);
            if (!writes || pi->nops == 0 || pi->ops[0].kind != PTX_OPND_REG) continue;
            int32_t r = pi->ops[0].reg, cur = st[r];
            if (cur == AFF_NONE) continue;
            int32_t s = def_stride(fn, pi, div, st);
            if (s == AFF_TOP) continue;
            int32_t nv = cur == AFF_TOP ? s : cur == s ? cur : AFF_NONE;
            if (nv != cur) { st[r] = nv; changed = true; }
        }
    }
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (st[r] == AFF_TOP) st[r] = AFF_NONE;
    free(in_region);
    for (uint32_t r = 0; r < fn->nregs; r++) div[r] = !div[r];   /* now: uniform */
    *uniform = div;
    return st;
}
