/* ptx_regalloc.c -- how many registers ptxas would allocate to a function: a register
 * allocator's estimate from live ranges over the CFG, per width, with ptxas's overheads.
 *
 * The CUDA runtime reports a kernel's registers (cudaFuncGetAttributes numRegs) and the
 * occupancy calculator divides the register file by them; both must read what ptxas
 * allocates, not how many virtual registers the PTX declares (nvcc declares one per
 * value, hundreds in a large kernel). The model:
 *  - a value lives from its definition to its last use; liveness is the classic backward
 *    dataflow over the basic blocks of ptx_cfg.c, so a value read around a loop stays
 *    live across the back edge; a guarded write does not end the old value's life;
 *  - widths: a 64-bit value takes an aligned pair of 32-bit registers, 128 bits four,
 *    8- and 16-bit values one; predicates live in the P registers and cost nothing;
 *  - values ptxas keeps out of the vector registers cost nothing: warp-uniform values
 *    (ptx_uniform.c: a kernel's parameters, constants, what is computed from %ctaid ...),
 *    which sm_75 and later hold in the uniform registers; so do values computed in one
 *    cheap instruction from one register, which ptxas folds into addresses or recomputes
 *    where used (fold_values): their source lives to their uses instead;
 *  - the pressure is the most 32-bit registers live at one point; ptxas adds the fixed
 *    registers of its ABI as it reports (measured: see ptx_estimate_regs); debug code
 *    (nvcc -G), which ptxas does not optimise, keeps every value and has overheads of
 *    its own;
 *  - .maxnreg caps the count, and so do .maxntid/.reqntid with .minnctapersm (ptxas
 *    keeps that many CTAs of that many threads within the register file), and 255.
 * Measured against `ptxas -arch=sm_90 -v` and an H100 over the repository's PTX
 * (tests/occupancy/, docs/INTERNALS.md "Registers and occupancy"). ptxas's scheduler,
 * which spends registers on independent work (up to 32 freely, sometimes 40 to 64), is
 * not modelled: optimised kernels are mostly underestimated, harmlessly below 32. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

#define PTX_ABI_CALL_REGS 24u   /* the least a function making ABI calls gets */

#define SET_HAS(s, r) (((s)[(r) >> 6] >> ((r) & 63)) & 1u)
#define SET_ADD(s, r) ((s)[(r) >> 6] |= (uint64_t)1 << ((r) & 63))
#define SET_DEL(s, r) ((s)[(r) >> 6] &= ~((uint64_t)1 << ((r) & 63)))

/* The analysis of one function: per register its cost in 32-bit registers and the
 * register it stands for (alias: see fold_values). */
struct ra {
    const struct ptx_func *fn;
    uint32_t *units;
    int32_t *alias;
    uint32_t nwords;
};

/* 32-bit registers one PTX register occupies. */
static uint32_t reg_units(const struct ptx_reg *r)
{
    if (r->type == PTX_T_PRED) return 0;
    unsigned bytes = ptx_type_size(r->type) * (r->vec ? r->vec : 1);
    return bytes <= 4 ? 1 : (bytes + 3) / 4;
}

/* Whether instruction pi writes its first operand (call: its return list). */
static bool writes_first(const struct ptx_instr *pi)
{
    return pi->nops > 0 && (pi->op == PTX_OP_CALL || (ptx_opcode_flags(pi->op) & PTX_OPF_WRITES));
}

/* Adds (add) or removes the registers operand op names to or from set s. */
static void set_operand(const struct ra *ra, const struct ptx_operand *op, uint64_t *s, bool add)
{
    if ((op->kind == PTX_OPND_REG || op->kind == PTX_OPND_ADDR) && op->reg >= 0) {
        uint32_t r = (uint32_t)ra->alias[op->reg];
        if (add) SET_ADD(s, r);
        else SET_DEL(s, r);
    }
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST || op->kind == PTX_OPND_ADDR)
        for (uint32_t e = 0; e < op->nelems; e++) set_operand(ra, &op->elems[e], s, add);
}

/* live := (live - kills(pi)) | uses(pi): one instruction, backwards. Only a write of the
 * whole register with no guard ends a life; a second destination (setp's p|q) is a
 * predicate, which costs nothing, so it is left as a use. */
static void step_back(const struct ra *ra, const struct ptx_instr *pi, uint64_t *live)
{
    bool writes = writes_first(pi);
    bool kills = writes && pi->guard_reg < 0 && pi->ops[0].vec_comp == 0;
    if (kills) set_operand(ra, &pi->ops[0], live, false);
    if (pi->guard_reg >= 0) SET_ADD(live, (uint32_t)pi->guard_reg);
    for (unsigned k = writes ? 1 : 0; k < pi->nops; k++) set_operand(ra, &pi->ops[k], live, true);
    if (writes && !kills && pi->op != PTX_OP_CALL) set_operand(ra, &pi->ops[0], live, true);
}

static uint32_t set_cost(const struct ra *ra, const uint64_t *s)
{
    uint32_t sum = 0;
    for (uint32_t k = 0; k < ra->nwords; k++)
        for (uint64_t m = s[k]; m; m &= m - 1) sum += ra->units[k * 64 + (uint32_t)__builtin_ctzll(m)];
    return sum;
}

/* Whether pi computes its destination from one register and immediates in one cheap
 * instruction (an add or shift of a constant, a product with one, a conversion). */
static bool remat_op(const struct ptx_instr *pi)
{
    if (pi->guard_reg >= 0 || (pi->flags & (PTX_IF_CC | PTX_IF_SAT)) || pi->nops < 2
        || pi->ops[0].kind != PTX_OPND_REG || pi->ops[1].kind != PTX_OPND_REG || pi->ops[1].vec_comp)
        return false;
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_SHL: case PTX_OP_MUL:
        return pi->nops == 3 && pi->ops[2].kind == PTX_OPND_IMM_INT;
    case PTX_OP_CVT:
        return pi->nops == 2;
    default:
        return false;
    }
}

/* Values ptxas does not keep: r written once, by remat_op from a register b written at
 * most once, is folded into the addresses that use it ([r+8] becomes [b+off+8]) or
 * recomputed from b next to each use, so b lives to r's uses instead and r costs
 * nothing. alias[r] = b (through chains), else r. */
static void fold_values(struct ra *ra)
{
    const struct ptx_func *fn = ra->fn;
    uint8_t *defs = calloc(fn->nregs + 1, 1);
    uint64_t *mark = calloc(ra->nwords, sizeof *mark);
    for (uint32_t i = 0; defs && mark && i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        if (!writes_first(pi)) continue;
        memset(mark, 0, ra->nwords * sizeof *mark);
        set_operand(ra, &pi->ops[0], mark, true);
        for (uint32_t w = 0; w < ra->nwords; w++)
            for (uint64_t m = mark[w]; m; m &= m - 1) {
                uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(m);
                if (defs[r] < 2) defs[r]++;
            }
    }
    for (uint32_t i = 0; defs && mark && i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        if (!remat_op(pi)) continue;
        int32_t r = pi->ops[0].reg, b = pi->ops[1].reg;
        if (defs[r] == 1 && defs[b] <= 1 && r != b) ra->alias[r] = b;
    }
    for (uint32_t r = 0; r < fn->nregs; r++)
        for (unsigned hop = 0; hop < 16 && ra->alias[ra->alias[r]] != ra->alias[r]; hop++)
            ra->alias[r] = ra->alias[ra->alias[r]];
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (ra->alias[r] != (int32_t)r) ra->units[r] = 0;
    free(mark);
    free(defs);
}

/* Registers that cost nothing beyond predicates: warp-uniform values (sm_75 and later
 * keep them in the uniform registers), a kernel's parameters among them. */
static void free_uniform(struct ra *ra)
{
    bool *uni = NULL;
    int32_t *stride = ptx_lane_strides(ra->fn, &uni);
    for (uint32_t r = 0; uni && r < ra->fn->nregs; r++)
        if (uni[r]) ra->units[r] = 0;
    free(uni);
    free(stride);
}

/* The union of the live-in sets of block blk's successors. */
static void live_out(const struct ra *ra, const struct ptx_block *blk, const uint64_t *in, uint64_t *live)
{
    memset(live, 0, ra->nwords * sizeof *live);
    for (uint32_t k = 0; k < blk->nsucc; k++) {
        uint32_t s = k < 2 ? blk->succ[k] : blk->succ_ext[k - 2];
        if (s >= ra->fn->nblocks) continue;
        for (uint32_t w = 0; w < ra->nwords; w++) live[w] |= in[(size_t)s * ra->nwords + w];
    }
}

/* The registers one instruction names (after aliasing), each once; was[k]: whether
 * reg[k] lives after the instruction. Grown as needed. */
struct touched {
    uint32_t *reg;
    bool *was;
    uint32_t n, cap;
};

static bool touch_reg(struct touched *t, uint32_t r, uint64_t *seen)
{
    if (SET_HAS(seen, r)) return true;
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 16;
        uint32_t *reg = realloc(t->reg, cap * sizeof *reg);
        if (reg) t->reg = reg;
        bool *was = reg ? realloc(t->was, cap * sizeof *was) : NULL;
        if (was) t->was = was;
        if (!reg || !was) return false;
        t->cap = cap;
    }
    SET_ADD(seen, r);
    t->reg[t->n++] = r;
    return true;
}

static bool touch_operand(const struct ra *ra, const struct ptx_operand *op, struct touched *t, uint64_t *seen)
{
    if ((op->kind == PTX_OPND_REG || op->kind == PTX_OPND_ADDR) && op->reg >= 0
        && !touch_reg(t, (uint32_t)ra->alias[op->reg], seen))
        return false;
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST || op->kind == PTX_OPND_ADDR)
        for (uint32_t e = 0; e < op->nelems; e++)
            if (!touch_operand(ra, &op->elems[e], t, seen)) return false;
    return true;
}

/* Collects the registers pi names into t; seen (all clear) is cleared again. False when
 * memory runs out. */
static bool touch_instr(const struct ra *ra, const struct ptx_instr *pi, struct touched *t, uint64_t *seen)
{
    bool ok = pi->guard_reg < 0 || touch_reg(t, (uint32_t)pi->guard_reg, seen);
    for (unsigned k = 0; ok && k < pi->nops; k++) ok = touch_operand(ra, &pi->ops[k], t, seen);
    for (uint32_t k = 0; k < t->n; k++) SET_DEL(seen, t->reg[k]);
    return ok;
}

/* The most 32-bit registers live at one point of the function: the live-in sets of the
 * blocks to a fixed point (last block first), then one backward walk per block; at each
 * instruction what lives after it plus what it writes, and what lives before it, the
 * cost kept up to date from the registers the instruction names. *out_across: the most
 * registers that live across a call (live after it, its results aside). */
static uint32_t max_pressure(struct ra *ra, uint32_t *out_across)
{
    *out_across = 0;
    const struct ptx_func *fn = ra->fn;
    uint32_t nw = ra->nwords;
    uint64_t *in = calloc((size_t)fn->nblocks * nw, sizeof *in);
    uint64_t *live = calloc(nw, sizeof *live);
    uint64_t *after = calloc(nw, sizeof *after);
    uint32_t most = 0;
    for (bool changed = in && live && after; changed;) {
        changed = false;
        for (uint32_t b = fn->nblocks; b-- > 0;) {
            const struct ptx_block *blk = &fn->blocks[b];
            live_out(ra, blk, in, live);
            for (uint32_t i = blk->last + 1; i-- > blk->first;) step_back(ra, &fn->instrs[i], live);
            uint64_t *bin = &in[(size_t)b * nw];
            if (memcmp(bin, live, nw * sizeof *live)) {
                memcpy(bin, live, nw * sizeof *live);
                changed = true;
            }
        }
    }
    struct touched t = { NULL, NULL, 0, 0 };
    for (uint32_t b = 0; in && live && after && b < fn->nblocks; b++) {
        const struct ptx_block *blk = &fn->blocks[b];
        live_out(ra, blk, in, live);
        uint32_t cost = set_cost(ra, live);
        if (cost > most) most = cost;
        for (uint32_t i = blk->last + 1; i-- > blk->first;) {
            const struct ptx_instr *pi = &fn->instrs[i];
            /* what pi names, each once (after, all clear, marks them for a moment) */
            t.n = 0;
            if (!touch_instr(ra, pi, &t, after)) { most = UINT32_MAX; break; }
            uint32_t with_defs = cost;
            if (writes_first(pi)) {
                uint32_t kept = 0;   /* results that live on after pi */
                set_operand(ra, &pi->ops[0], after, true);
                for (uint32_t k = 0; k < t.n; k++) {
                    if (!SET_HAS(after, t.reg[k])) continue;
                    if (SET_HAS(live, t.reg[k])) kept += ra->units[t.reg[k]];
                    else with_defs += ra->units[t.reg[k]];
                }
                set_operand(ra, &pi->ops[0], after, false);
                if (pi->op == PTX_OP_CALL && cost - kept > *out_across) *out_across = cost - kept;
            }
            if (with_defs > most) most = with_defs;
            for (uint32_t k = 0; k < t.n; k++) t.was[k] = SET_HAS(live, t.reg[k]);
            step_back(ra, pi, live);
            for (uint32_t k = 0; k < t.n; k++) {
                bool now = SET_HAS(live, t.reg[k]);
                if (now && !t.was[k]) cost += ra->units[t.reg[k]];
                else if (!now && t.was[k]) cost -= ra->units[t.reg[k]];
            }
            if (cost > most) most = cost;
        }
    }
    free(t.reg);
    free(t.was);
    if (most == UINT32_MAX) most = 0;
    free(in); free(live); free(after);
    return most;
}

/* The registers ptxas may use under fn's performance directives: .maxnreg, and the
 * share of the register file that .minnctapersm CTAs of .maxntid (.reqntid) threads
 * leave each thread, in whole allocation units of 8; never more than 255. */
static uint32_t reg_cap(const struct ptx_func *fn)
{
    uint32_t cap = PTX_MAX_REGS;
    const struct ptx_perf *p = &fn->perf;
    if (p->maxnreg && p->maxnreg < cap) cap = p->maxnreg;
    const uint32_t *nt = p->reqntid[0] ? p->reqntid : p->maxntid;
    if (p->minnctapersm && nt[0]) {
        uint64_t threads = (uint64_t)nt[0] * (nt[1] ? nt[1] : 1) * (nt[2] ? nt[2] : 1);
        uint64_t per_thread = 65536 / ((uint64_t)p->minnctapersm * ((threads + 31) / 32 * 32)) / 8 * 8;
        if (per_thread < cap) cap = per_thread < PTX_MIN_REGS ? PTX_MIN_REGS : (uint32_t)per_thread;
    }
    return cap;
}

/* Whether fn calls a function (ptxas then follows the ABI: values live across a call
 * are kept in callee-saved registers). With abi_only, only the calls ptxas cannot inline:
 * through a pointer, to a function defined elsewhere (vprintf, malloc ...), or to one that
 * calls in turn (recursion among others). */
static bool has_calls(const struct ptx_func *fn, bool abi_only)
{
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        if (pi->op != PTX_OP_CALL) continue;
        if (!abi_only) return true;
        const struct ptx_symbol *callee = pi->nops > 1 && pi->ops[1].kind == PTX_OPND_SYM ? pi->ops[1].sym : NULL;
        const struct ptx_func *cf = callee ? callee->func : NULL;
        if (!cf || cf->is_decl || (cf != fn && has_calls(cf, false)) || cf == fn) return true;
    }
    return false;
}

/* The pressure, and in *out_across the most registers live across a call. */
static uint32_t pressure(const struct ptx_func *fn, bool debug, uint32_t *out_across)
{
    *out_across = 0;
    if (fn->is_decl || !fn->nblocks || !fn->blocks) return 0;
    struct ra ra = { fn, malloc((fn->nregs + 1) * sizeof *ra.units), malloc((fn->nregs + 1) * sizeof *ra.alias),
                     (fn->nregs + 64) / 64 };
    uint32_t p = 0;
    if (ra.units && ra.alias) {
        for (uint32_t r = 0; r < fn->nregs; r++) {
            ra.units[r] = reg_units(&fn->regs[r]);
            ra.alias[r] = (int32_t)r;
        }
        /* Without optimisation ptxas keeps every value where PTX puts it. */
        if (!debug) {
            free_uniform(&ra);
            fold_values(&ra);
        }
        p = max_pressure(&ra, out_across);
    }
    free(ra.units);
    free(ra.alias);
    return p;
}

uint32_t ptx_reg_pressure(const struct ptx_func *fn, bool debug)
{
    uint32_t across;
    return pressure(fn, debug, &across);
}

/* From the pressure to what ptxas reports (fitted over the corpus, tests/occupancy/):
 * optimised code takes 2 more (ptxas's reserved registers) and at least 8, 24 when it
 * makes ABI calls (to vprintf, malloc, a recursive function ...: the callee-saved
 * registers and the argument registers are reserved); debug code
 * (.target ..., debug: nvcc -G, which ptxas compiles without optimisation) adds its
 * temporaries, the stack pointer and the global-memory descriptor, about 10, and with
 * calls the registers live across a call again (they move to callee-saved registers)
 * plus 12. Then the caps. */
uint32_t ptx_estimate_regs(const struct ptx_func *fn, bool debug)
{
    if (fn->is_decl || !fn->nblocks || !fn->blocks) return 0;
    uint32_t across, p = pressure(fn, debug, &across);
    uint32_t regs = !debug ? p + 2 : has_calls(fn, false) ? p + across + 12 : p + 10;
    uint32_t least = !debug && has_calls(fn, true) ? PTX_ABI_CALL_REGS : PTX_MIN_REGS;
    if (regs < least) regs = least;
    uint32_t cap = reg_cap(fn);
    return regs < cap ? regs : cap;
}

uint32_t ptx_barriers_used(const struct ptx_func *fn)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        if ((pi->op != PTX_OP_BAR && pi->op != PTX_OP_BARRIER) || pi->nops == 0 || pi->subop == PTX_MOD_WARP
            || pi->scope == PTX_MOD_CLUSTER)
            continue;
        /* bar.red writes its result first: the barrier comes second */
        const struct ptx_operand *id = &pi->ops[pi->subop == PTX_MOD_RED && pi->nops > 1 ? 1 : 0];
        uint32_t need = id->kind == PTX_OPND_IMM_INT && id->ival >= 0 && id->ival < 16 ? (uint32_t)id->ival + 1 : 16;
        if (need > n) n = need;
    }
    return n;
}
