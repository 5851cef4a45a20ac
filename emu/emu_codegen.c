/* emu_codegen.c -- what NVIDIA's code generator does to PTX that changes results, reproduced at
 * decode time: contraction of mul + add/sub into one fma, the operand order of f64 operations, and
 * mad.hi.sat.s32 computed with a mul.lo of the same operands. */
#include <stdint.h>
#include <stdlib.h>

#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* Per-function facts, computed once per function and cached in the decoder:
 * how often each register is written and read and where it is first read; for
 * each instruction the lowest and highest index of a branch targeting it, and
 * for each register source the closest instruction before it (in program
 * order) that writes that register, which in straight-line code is the
 * definition that reaches it. */
struct emu_codegen {
    const struct ptx_func *fn;
    uint32_t *defs, *uses, *first_use;
    uint32_t *tgt_lo, *tgt_hi;
    uint32_t *src_def;       /* [4 * i + k]: last write before i of register operand k (1..3) */
};

void emu_codegen_free(struct emu_codegen *cg)
{
    if (!cg)
        return;
    free(cg->defs);
    free(cg->uses);
    free(cg->first_use);
    free(cg->tgt_lo);
    free(cg->tgt_hi);
    free(cg->src_def);
    free(cg);
}

/* Whether ins writes general register reg (its destination, vector or call
 * results; the predicate second destinations such as setp's q never matter here). */
static bool writes_reg(const struct ptx_instr *ins, int32_t reg)
{
    if (ins->nops == 0)
        return false;
    const struct ptx_operand *d = &ins->ops[0];
    bool dst = (ptx_opcode_flags(ins->op) & PTX_OPF_WRITES) || ins->op == PTX_OP_CALL;
    if (!dst)
        return false;
    if (d->kind == PTX_OPND_REG)
        return d->reg == reg;
    if (d->kind == PTX_OPND_VEC || d->kind == PTX_OPND_LIST)
        for (unsigned k = 0; k < d->nelems; k++)
            if (d->elems[k].kind == PTX_OPND_REG && d->elems[k].reg == reg)
                return true;
    return false;
}

/* Counts the reads of registers in operand op of instruction idx (vector, list
 * and address parts included) and notes the first instruction reading each. */
static void count_reads(struct emu_codegen *cg, const struct ptx_operand *op, uint32_t idx)
{
    if ((op->kind == PTX_OPND_REG || op->kind == PTX_OPND_ADDR) && op->reg >= 0 && (uint32_t)op->reg < cg->fn->nregs) {
        cg->uses[op->reg]++;
        if (idx < cg->first_use[op->reg])
            cg->first_use[op->reg] = idx;
    }
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST || op->kind == PTX_OPND_ADDR)
        for (unsigned k = 0; k < op->nelems; k++)
            count_reads(cg, &op->elems[k], idx);
}

static void mark_target(struct emu_codegen *cg, uint32_t target, uint32_t from)
{
    if (target >= cg->fn->ninstrs)
        return;
    if (from < cg->tgt_lo[target])
        cg->tgt_lo[target] = from;
    if (from > cg->tgt_hi[target])
        cg->tgt_hi[target] = from;
}

static struct emu_codegen *codegen_of(struct emu_decoder *dc)
{
    const struct ptx_func *fn = dc->fn;
    if (dc->codegen && dc->codegen->fn == fn)
        return dc->codegen;
    emu_codegen_free(dc->codegen);
    struct emu_codegen *cg = calloc(1, sizeof *cg);
    dc->codegen = cg;
    if (!cg)
        return NULL;
    cg->fn = fn;
    cg->defs = calloc(fn->nregs + 1, sizeof *cg->defs);
    cg->uses = calloc(fn->nregs + 1, sizeof *cg->uses);
    cg->first_use = malloc((fn->nregs + 1) * sizeof *cg->first_use);
    cg->tgt_lo = malloc((fn->ninstrs + 1) * sizeof *cg->tgt_lo);
    cg->tgt_hi = calloc(fn->ninstrs + 1, sizeof *cg->tgt_hi);
    cg->src_def = malloc((4 * (size_t)fn->ninstrs + 1) * sizeof *cg->src_def);
    uint32_t *last = malloc((fn->nregs + 1) * sizeof *last);
    if (!cg->defs || !cg->uses || !cg->first_use || !cg->tgt_lo || !cg->tgt_hi || !cg->src_def || !last) {
        free(last);
        emu_codegen_free(cg);
        dc->codegen = NULL;
        return NULL;
    }
    for (uint32_t i = 0; i <= fn->ninstrs; i++)
        cg->tgt_lo[i] = UINT32_MAX;
    for (uint32_t r = 0; r <= fn->nregs; r++)
        cg->first_use[r] = last[r] = UINT32_MAX;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const struct ptx_instr *ins = &fn->instrs[i];
        bool dst = (ptx_opcode_flags(ins->op) & PTX_OPF_WRITES) || ins->op == PTX_OP_CALL;
        for (unsigned k = 0; k < 4; k++) {
            const struct ptx_operand *op = k < ins->nops ? &ins->ops[k] : NULL;
            bool reg = op && op->kind == PTX_OPND_REG && op->reg >= 0 && (uint32_t)op->reg < fn->nregs;
            cg->src_def[4 * i + k] = reg ? last[op->reg] : UINT32_MAX;
        }
        for (unsigned k = 0; k < ins->nops; k++) {
            const struct ptx_operand *op = &ins->ops[k];
            if (k == 0 && dst) {
                if (op->kind == PTX_OPND_REG && op->reg >= 0) {
                    cg->defs[op->reg]++;
                    last[op->reg] = i;
                }
                for (unsigned e = 0; (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST) && e < op->nelems; e++)
                    if (op->elems[e].kind == PTX_OPND_REG && op->elems[e].reg >= 0) {
                        cg->defs[op->elems[e].reg]++;
                        last[op->elems[e].reg] = i;
                    }
                continue;
            }
            count_reads(cg, op, i);
            if (op->kind == PTX_OPND_LABEL && op->label >= 0 && (uint32_t)op->label < fn->nlabels) {
                const struct ptx_label *l = &fn->labels[op->label];
                if (l->kind == PTX_LABEL_CODE)
                    mark_target(cg, l->instr, i);
                for (uint32_t t = 0; l->kind == PTX_LABEL_BRANCHTARGETS && t < l->ntargets; t++)
                    mark_target(cg, fn->labels[l->targets[t]].instr, i);
            }
        }
    }
    free(last);
    return cg;
}

/* Index of the closest instruction before instruction `at` (in program order)
 * that writes the register of its source operand op, or -1. */
static int64_t def_before(const struct emu_codegen *cg, const struct ptx_operand *op, uint32_t at)
{
    const struct ptx_instr *ins = &cg->fn->instrs[at];
    if (op < ins->ops || op >= ins->ops + ins->nops || op - ins->ops >= 4)
        return -1;
    uint32_t d = cg->src_def[4 * at + (uint32_t)(op - ins->ops)];
    return d == UINT32_MAX ? -1 : (int64_t)d;
}

/* Whether ins reads general register reg. */
static bool reads_op(const struct ptx_operand *op, int32_t reg)
{
    if ((op->kind == PTX_OPND_REG || op->kind == PTX_OPND_ADDR) && op->reg == reg)
        return true;
    if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST || op->kind == PTX_OPND_ADDR)
        for (unsigned k = 0; k < op->nelems; k++)
            if (reads_op(&op->elems[k], reg))
                return true;
    return false;
}
static bool reads_reg(const struct ptx_instr *ins, int32_t reg)
{
    bool dst = (ptx_opcode_flags(ins->op) & PTX_OPF_WRITES) || ins->op == PTX_OP_CALL;
    for (unsigned k = dst ? 1 : 0; k < ins->nops; k++)
        if (reads_op(&ins->ops[k], reg))
            return true;
    return false;
}

/* Whether the value that instruction j writes into reg is read by instruction i
 * and by no other: a walk over the control flow from j that stops where reg is
 * written again. In SSA-like code (reg written once) the counts decide. */
static bool single_use(const struct emu_codegen *cg, int32_t reg, uint32_t j, uint32_t i)
{
    const struct ptx_func *fn = cg->fn;
    if (cg->defs[reg] == 1)
        return cg->uses[reg] == 1;
    uint32_t n = fn->ninstrs;
    uint8_t *seen = calloc(n + 1, 1);
    uint32_t *stack = malloc((n + 1) * sizeof *stack);
    bool ok = seen && stack;
    uint32_t sp = 0;
#define PUSH(k) do { uint32_t k_ = (k); if (ok && k_ < n && !seen[k_]) { seen[k_] = 1; stack[sp++] = k_; } } while (0)
    PUSH(j + 1);
    while (ok && sp) {
        uint32_t k = stack[--sp];
        const struct ptx_instr *ins = &fn->instrs[k];
        if (k != i && reads_reg(ins, reg)) {
            ok = false;
            break;
        }
        if (writes_reg(ins, reg) && ins->guard_reg < 0)
            continue;
        bool falls = !((ins->op == PTX_OP_RET || ins->op == PTX_OP_EXIT) && ins->guard_reg < 0);
        for (unsigned o = 0; ins->op != PTX_OP_CALL && o < ins->nops; o++) {
            const struct ptx_operand *op = &ins->ops[o];
            if (op->kind != PTX_OPND_LABEL || op->label < 0 || (uint32_t)op->label >= fn->nlabels)
                continue;
            const struct ptx_label *l = &fn->labels[op->label];
            if (l->kind == PTX_LABEL_CODE)
                PUSH(l->instr);
            for (uint32_t t = 0; l->kind == PTX_LABEL_BRANCHTARGETS && t < l->ntargets; t++)
                PUSH(fn->labels[l->targets[t]].instr);
            if (ins->guard_reg < 0 && (ins->op == PTX_OP_BRA || ins->op == PTX_OP_BRX))
                falls = false;
        }
        if (falls)
            PUSH(k + 1);
    }
#undef PUSH
    free(seen);
    free(stack);
    return ok;
}

/* ---- Operand order ------------------------------------------------------------
 * Which NaN an f64 add/sub/mul/min/max/fma returns when two operands are NaN
 * depends on the order in which ptxas hands them to the unit: an H100 returns
 * the operand whose value was defined later in the program, whatever its
 * position in the PTX instruction or its register number (tests/edge/codegen,
 * nan_*; emu_float.c's rules, b before a, are those of a b defined after a). */
bool emu_dec_defined_later(struct emu_decoder *dc, const struct ptx_instr *at, const struct ptx_operand *x,
                           const struct ptx_operand *y)
{
    if (x->kind != PTX_OPND_REG || y->kind != PTX_OPND_REG || x->reg == y->reg)
        return false;
    struct emu_codegen *cg = codegen_of(dc);
    uint32_t idx = (uint32_t)(at - dc->fn->instrs);
    return cg && def_before(cg, x, idx) > def_before(cg, y, idx);
}

/* ---- Contraction ----------------------------------------------------------------
 * mul and add/sub without a rounding modifier "may be optimized aggressively by
 * the code generator" (PTX ISA "add", "mul"); ptxas fuses them into one fma
 * with a single rounding. What an H100 does (tests/edge/codegen, contract_*),
 * for f32, f64, f16, f16x2, bf16, bf16x2 alike:
 *  - the product register is written once and read only by the add (a product
 *    also stored, or added to itself, stays rounded);
 *  - neither instruction has a rounding modifier or a guard, the mul has no
 *    .sat, both or neither have .ftz; the add's .sat applies to the fma;
 *  - mov and neg between them pass the product on (neg negates it);
 *  - the add may lie in another block than the mul;
 *  - with two products (a*b + c*d) the first operand's is fused.
 * ptxas works on SSA form, so it also fuses when a source of the mul is
 * written between the two: Loom then computes the fma at the mul, when the
 * addend is already there and the product is passed on directly, and keeps
 * both roundings otherwise (a case not recorded). */

/* Whether every path to instruction i passes through j first: no branch from
 * outside [j, i) enters (j, i]. Then the last write before i in program order
 * is the one that reaches i. */
static bool enclosed(const struct emu_codegen *cg, uint32_t j, uint32_t i)
{
    for (uint32_t k = j + 1; k <= i; k++)
        if (cg->tgt_lo[k] != UINT32_MAX && (cg->tgt_lo[k] < j || cg->tgt_hi[k] >= i))
            return false;
    return true;
}

/* The product operand of pi (an add/sub at index i): follows mov/neg back to a
 * contractible mul; returns the mul's index or -1, and flips *neg per neg. */
static int64_t product_source(struct emu_codegen *cg, const struct ptx_instr *pi, uint32_t i,
                              const struct ptx_operand *op, bool *neg, int *out_hops)
{
    const struct ptx_func *fn = cg->fn;
    enum ptx_type t = pi->types[0];
    uint32_t ftz = pi->flags & PTX_IF_FTZ;
    for (int hops = 0; hops < 4; hops++) {
        if (op->kind != PTX_OPND_REG || op->vec_comp || op->reg < 0 || (uint32_t)op->reg >= fn->nregs)
            return -1;
        int64_t j = def_before(cg, op, i);
        if (j < 0)
            return -1;
        const struct ptx_instr *d = &fn->instrs[j];
        if (d->guard_reg >= 0 || d->ntypes != 1 || d->nops < 2 || d->ops[0].kind != PTX_OPND_REG ||
            (d->op != PTX_OP_MOV && d->op != PTX_OP_NEG && d->op != PTX_OP_MUL) ||
            !single_use(cg, op->reg, (uint32_t)j, i) || !enclosed(cg, (uint32_t)j, i))
            return -1;
        if (d->op == PTX_OP_MOV && ptx_type_size(d->types[0]) == ptx_type_size(t) && d->flags == 0) {
            op = &d->ops[1];
            i = (uint32_t)j;
            continue;
        }
        if (d->op == PTX_OP_NEG && d->types[0] == t && (d->flags & ~(uint32_t)PTX_IF_FTZ) == 0 &&
            (d->flags & PTX_IF_FTZ) == ftz) {
            *neg = !*neg;
            op = &d->ops[1];
            i = (uint32_t)j;
            continue;
        }
        if (d->op == PTX_OP_MUL && d->types[0] == t && d->nops == 3 && d->round == PTX_MOD_NONE_ &&
            d->subop == PTX_MOD_NONE_ && (d->flags & ~(uint32_t)PTX_IF_FTZ) == 0 && (d->flags & PTX_IF_FTZ) == ftz) {
            *out_hops = hops;
            return j;
        }
        return -1;
    }
    return -1;
}

/* Whether the register sources of the mul at index j keep their values up to
 * the add at index i (the add then reads what the mul read). */
static bool sources_hold(const struct emu_codegen *cg, uint32_t j, uint32_t i)
{
    const struct ptx_func *fn = cg->fn;
    const struct ptx_instr *mul = &fn->instrs[j];
    for (uint32_t k = j + 1; k < i; k++)
        for (unsigned s = 1; s < 3; s++)
            if (mul->ops[s].kind == PTX_OPND_REG && writes_reg(&fn->instrs[k], mul->ops[s].reg))
                return false;
    return enclosed(cg, j, i);
}

/* Whether operand op (the addend) holds at instruction i the value it had at j. */
static bool value_holds(const struct emu_codegen *cg, const struct ptx_operand *op, uint32_t j, uint32_t i)
{
    if (op->kind != PTX_OPND_REG)
        return op->kind != PTX_OPND_VEC && op->kind != PTX_OPND_ADDR;
    for (uint32_t k = j; k < i; k++)
        if (writes_reg(&cg->fn->instrs[k], op->reg))
            return false;
    return true;
}

/* What ptxas makes of the add/sub pi at index i: false, or the fma in *out.
 * When the mul's sources change before the add but the addend does not, the
 * fma is computed where the mul is (the mul's register is read by the add
 * alone) and the add becomes a copy: out->at_mul. */
static bool analyse(struct emu_codegen *cg, const struct ptx_instr *pi, uint32_t i, struct emu_contract *out)
{
    if ((pi->op != PTX_OP_ADD && pi->op != PTX_OP_SUB) || pi->round != PTX_MOD_NONE_ || pi->guard_reg >= 0 ||
        pi->ntypes != 1 || pi->nops != 3 || (pi->flags & ~(uint32_t)(PTX_IF_FTZ | PTX_IF_SAT)) != 0)
        return false;
    for (unsigned k = 1; k <= 2; k++) {
        bool neg = false;
        int hops = 0;
        int64_t j = product_source(cg, pi, i, &pi->ops[k], &neg, &hops);
        if (j < 0)
            continue;
        bool at_add = sources_hold(cg, (uint32_t)j, i);
        if (!at_add && (hops != 0 || !value_holds(cg, &pi->ops[3 - k], (uint32_t)j + 1, i)))
            continue;
        const struct ptx_instr *mul = &cg->fn->instrs[j];
        out->mul = mul;
        out->add = pi;
        out->a = &mul->ops[1];
        out->b = &mul->ops[2];
        out->c = &pi->ops[3 - k];
        out->neg_ab = neg ^ (pi->op == PTX_OP_SUB && k == 2);   /* c - a*b */
        out->neg_c = pi->op == PTX_OP_SUB && k == 1;            /* a*b - c */
        out->at_mul = !at_add;
        return true;
    }
    return false;
}

bool emu_dec_contract(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_contract *out)
{
    if (pi->round != PTX_MOD_NONE_ || pi->guard_reg >= 0 || pi->nops != 3 || pi->ntypes != 1)
        return false;
    struct emu_codegen *cg = codegen_of(dc);
    if (!cg)
        return false;
    uint32_t i = (uint32_t)(pi - cg->fn->instrs);
    if (pi->op != PTX_OP_MUL)
        return analyse(cg, pi, i, out);
    /* A mul: is it the one whose add takes the fma from here? */
    const struct ptx_operand *d = &pi->ops[0];
    if (d->kind != PTX_OPND_REG || d->reg < 0 || (uint32_t)d->reg >= cg->fn->nregs || cg->uses[d->reg] == 0)
        return false;
    bool ssa = cg->defs[d->reg] == 1;       /* then its one reader is known */
    if (ssa && cg->uses[d->reg] != 1)
        return false;
    uint32_t from = ssa ? cg->first_use[d->reg] : i + 1;
    uint32_t to = ssa ? from + 1 : cg->fn->ninstrs;
    /* Otherwise up to the next write of the register: an add beyond it would
     * take its operand from that write (def_before), not from this mul. */
    for (uint32_t k = from; k < to && k < cg->fn->ninstrs; k++) {
        const struct ptx_instr *add = &cg->fn->instrs[k];
        if (k > i && (add->op == PTX_OP_ADD || add->op == PTX_OP_SUB) && reads_reg(add, d->reg) &&
            analyse(cg, add, k, out) && out->mul == pi && out->at_mul)
            return true;
        if (writes_reg(add, d->reg))
            break;
    }
    return false;
}

/* ---- mad.hi.sat.s32 paired with a mul.lo ---------------------------------------
 * ptxas computes a mul.lo.u32/.s32 together with another product of the same
 * two values that needs the high half, as one 64-bit IMAD.WIDE; paired with a
 * mad.hi.sat.s32 that is a*b + (c << 32), and the saturation is lost: an H100
 * returns what mad.hi.s32 would (found by the corpus kernel int_asm32; ptxas
 * 13.0's SASS for sm_90 shows it). Which products pair was recorded on an H100
 * (tests/edge/codegen, madsat_mul*, madsat_probe_*), and every recording fits
 * this model: in program order, a high-half product (mul.hi, mad.hi with or
 * without .sat, mad.wide; not mul.wide, mad.lo, mul24/mad24) pairs with a
 * mul.lo not yet paired if one came before it; a mul.lo pairs with the latest
 * high-half product not yet paired. Products of other operands, guards and
 * blocks between them do not matter. A mul.lo whose result is never read is
 * taken as removed by ptxas (not recorded). */

/* Whether operand x of instruction i and y of instruction j hold the same
 * value: the same register, written once in the function, or read from the
 * same write with no branch entering between. */
static bool same_value(const struct emu_codegen *cg, const struct ptx_operand *x, uint32_t i,
                       const struct ptx_operand *y, uint32_t j)
{
    if (x->kind != PTX_OPND_REG || y->kind != PTX_OPND_REG || x->vec_comp || y->vec_comp || x->reg != y->reg ||
        x->reg < 0 || (uint32_t)x->reg >= cg->fn->nregs)
        return false;
    if (cg->defs[x->reg] <= 1)
        return true;
    uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
    return def_before(cg, x, i) == def_before(cg, y, j) && value_holds(cg, x, lo, hi) && enclosed(cg, lo, hi);
}

enum pair_role { ROLE_NONE, ROLE_LO, ROLE_HI };

/* What instruction j (m) is to the pairing of the product a*b read by
 * instruction i. */
static enum pair_role pair_role(const struct emu_codegen *cg, const struct ptx_instr *m, uint32_t j,
                                const struct ptx_operand *a, const struct ptx_operand *b, uint32_t i)
{
    if ((m->op != PTX_OP_MUL && m->op != PTX_OP_MAD) || m->ntypes != 1 ||
        (m->types[0] != PTX_T_U32 && m->types[0] != PTX_T_S32) || m->nops < 3)
        return ROLE_NONE;
    bool lo = false, hi = false, wide = false;
    for (unsigned k = 0; k < m->nmods; k++) {
        lo |= m->mods[k] == PTX_MOD_LO;
        hi |= m->mods[k] == PTX_MOD_HI;
        wide |= m->mods[k] == PTX_MOD_WIDE;
    }
    enum pair_role role = m->op == PTX_OP_MUL ? (lo ? ROLE_LO : hi ? ROLE_HI : ROLE_NONE)
                                              : (hi || wide ? ROLE_HI : ROLE_NONE);
    if (role == ROLE_NONE)
        return role;
    if (role == ROLE_LO && (m->ops[0].kind != PTX_OPND_REG || m->ops[0].reg < 0 ||
                            (uint32_t)m->ops[0].reg >= cg->fn->nregs || cg->uses[m->ops[0].reg] == 0))
        return ROLE_NONE;
    if ((same_value(cg, a, i, &m->ops[1], j) && same_value(cg, b, i, &m->ops[2], j)) ||
        (same_value(cg, a, i, &m->ops[2], j) && same_value(cg, b, i, &m->ops[1], j)))
        return role;
    return ROLE_NONE;
}

bool emu_dec_madhisat_unsaturated(struct emu_decoder *dc, const struct ptx_instr *pi)
{
    if (pi->op != PTX_OP_MAD || pi->nops != 4 || !(pi->flags & PTX_IF_SAT))
        return false;
    struct emu_codegen *cg = codegen_of(dc);
    if (!cg)
        return false;
    const struct ptx_func *fn = cg->fn;
    uint32_t i = (uint32_t)(pi - fn->instrs), los = 0, nhi = 0;
    uint32_t *hi = malloc((fn->ninstrs + 1) * sizeof *hi);   /* high-half products not yet paired */
    if (!hi)
        return false;
    bool paired = false;
    for (uint32_t j = 0; j < fn->ninstrs && !paired; j++) {
        enum pair_role role = pair_role(cg, &fn->instrs[j], j, &pi->ops[1], &pi->ops[2], i);
        if (role == ROLE_HI && los) {
            los--;
            paired = j == i;
        } else if (role == ROLE_HI) {
            hi[nhi++] = j;
        } else if (role == ROLE_LO && nhi) {
            paired = hi[--nhi] == i;
        } else if (role == ROLE_LO) {
            los++;
        }
    }
    free(hi);
    return paired;
}

/* ---- Negated operands ------------------------------------------------------------
 * The sign flip of an fma operand that ptxas folds into the instruction: it
 * leaves NaN as it is (an H100's fused c - a*b returns a NaN a with its sign). */
static int h_neg_f32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    const uint32_t *a = w->r32[in->a];
    uint32_t k = (uint32_t)in->imm;
    EMU_EACH(l) EMU_PUT32(d, m, l, a[l] ^ k);
    return EMU_CONTINUE;
}
static int h_neg_f64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d];
    const uint64_t *a = w->r64[in->a];
    EMU_EACH(l) {
        uint64_t x = a[l];
        uint64_t nan = (x & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
        EMU_PUT64(d, m, l, nan ? x : x ^ 0x8000000000000000ull);
    }
    return EMU_CONTINUE;
}

uint16_t emu_dec_negate(struct emu_decoder *dc, uint16_t row, enum ptx_type t)
{
    struct emu_inst *p = emu_dec_pre(dc);
    if (t == PTX_T_F64) {
        p->fn = h_neg_f64;
        p->d = emu_dec_scratch64(dc);
    } else {
        /* f32: the sign bit; f16/bf16: bit 15; packed pairs: both halves. NaN
         * results of these types are canonical, so the NaN sign does not show. */
        p->fn = h_neg_f32;
        p->d = emu_dec_scratch32(dc);
        p->imm = t == PTX_T_F32 ? 0x80000000 : (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? 0x80008000 : 0x8000;
    }
    p->a = row;
    return p->d;
}

/* The add/sub whose fma was computed at the mul: a copy of the mul's register. */
static int h_copy32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    const uint32_t *a = w->r32[in->a];
    EMU_EACH(l) EMU_PUT32(d, m, l, a[l]);
    return EMU_CONTINUE;
}
static int h_copy64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d];
    const uint64_t *a = w->r64[in->a];
    EMU_EACH(l) EMU_PUT64(d, m, l, a[l]);
    return EMU_CONTINUE;
}

bool emu_dec_contracted(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                        enum ptx_type t, const emu_fn fma[2])
{
    struct emu_contract k;
    if (!emu_dec_contract(dc, pi, &k))
        return false;
    bool wide = t == PTX_T_F64;
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    if (pi->op != PTX_OP_MUL && k.at_mul) {
        out->fn = wide ? h_copy64 : h_copy32;
        out->a = emu_dec_src(dc, &pi->ops[k.c == &pi->ops[1] ? 2 : 1], t);
        return true;
    }
    /* f64: the multiplicand defined later goes second, where the fma looks for a NaN first. */
    bool swap = wide && emu_dec_defined_later(dc, k.mul, k.a, k.b);
    out->fn = fma[(k.add->flags & PTX_IF_SAT) != 0];
    out->a = emu_dec_src(dc, swap ? k.b : k.a, t);
    out->b = emu_dec_src(dc, swap ? k.a : k.b, t);
    out->c = emu_dec_src(dc, k.c, t);
    if (k.neg_ab)
        out->a = emu_dec_negate(dc, out->a, t);
    if (k.neg_c)
        out->c = emu_dec_negate(dc, out->c, t);
    return true;
}
