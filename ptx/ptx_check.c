/* ptx_check.c -- semantic checks on a parsed module: module directives, operand
 * counts, operand types against the instruction type, state spaces, calls, labels. */
#include <stdarg.h>
#include <string.h>

#include "ptx/ptx_ir.h"

struct ptx_checker {
    struct ptx_module *m;
    struct ptx_diags *diags;
    const struct ptx_func *f;
    const struct ptx_instr *in;
    char name[128];          /* full name of the instruction being checked */
};

static void ptx_cerr(struct ptx_checker *c, struct ptx_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void ptx_cerr(struct ptx_checker *c, struct ptx_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(c->diags, PTX_SEV_ERROR, c->m->path, loc.line, loc.col, fmt, ap);
    va_end(ap);
}

/* Operand shape of an instruction, from the shape column of ptx_ops.def (PTX ISA
 * chapter 9, each instruction's "Syntax"): operand count range, number of type suffixes
 * required, and one letter per operand position for type checking:
 *   T  instruction type (types[0])      S  second type (types[1])
 *   D  twice the width of types[0]      U  32-bit integer (shift amounts, masks, bit positions)
 *   P  predicate                        A  address
 *   L  data of ld/st/atom: may be wider than the type
 *   C  cvt source: may be wider than types[1]    .  not checked
 * The last letter repeats for extra operands. */
struct ptx_shape {
    uint8_t min, max, ntypes;
    char spec[12];
};

/* Reads a shape as ptx_ops.def spells it ("1TTT[T": one type, three operands and an
 * optional fourth); false for NULL (irregular). */
static bool ptx_shape_read(const char *text, struct ptx_shape *out)
{
    if (!text)
        return false;
    memset(out, 0, sizeof *out);
    out->ntypes = (uint8_t)(*text++ - '0');
    bool optional = false;
    for (; *text && out->max + 1 < (int)sizeof out->spec; text++) {
        if (*text == '[') {
            optional = true;
            continue;
        }
        out->spec[out->max++] = *text;
        if (!optional)
            out->min++;
    }
    return true;
}

/* The shape of in: its opcode's row, but for the modifiers that change it (.wide
 * products, cvt.pack, st.async/st.bulk, red.async, bar/barrier other than .sync);
 * false when the form is irregular. */
static bool ptx_shape_of(const struct ptx_instr *in, struct ptx_shape *out)
{
    const char *text = ptx_opcode_shape(in->op);
    switch (in->op) {
    case PTX_OP_MUL:
        if (in->subop == PTX_MOD_WIDE) text = "1DTT";
        break;
    case PTX_OP_MAD: case PTX_OP_MADC:
        if (in->subop == PTX_MOD_WIDE) text = "1DTTD";
        break;
    case PTX_OP_CVT:
        if (in->flags & PTX_IF_PACK) text = NULL;
        break;
    case PTX_OP_ST:
        if (in->subop) text = NULL;
        break;
    case PTX_OP_RED:
        if (in->subop == PTX_MOD_ASYNC) text = NULL;
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (in->subop != PTX_MOD_NONE_) text = NULL;
        break;
    default:
        break;
    }
    return ptx_shape_read(text, out);
}

/* Kind of a type for compatibility: bit-size types match everything of their size. */
enum ptx_tkind { TK_BITS, TK_INT, TK_FLOAT, TK_PRED, TK_OTHER };

static enum ptx_tkind ptx_tkind(enum ptx_type t)
{
    switch (t) {
    case PTX_T_PRED: return TK_PRED;
    case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64: case PTX_T_B128: return TK_BITS;
    case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64:
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: return TK_INT;
    case PTX_T_F16: case PTX_T_BF16: case PTX_T_F32: case PTX_T_F64: return TK_FLOAT;
    default: return TK_OTHER;
    }
}

/* Register of type r used where the instruction expects type t (PTX ISA
 * "Operand Type Information" and "Operand Size Exceeding Instruction-Type
 * Size"): sizes must match, or may exceed it where `wider` (ld/st/cvt). */
static bool ptx_reg_fits(enum ptx_type r, enum ptx_type t, bool wider)
{
    enum ptx_tkind rk = ptx_tkind(r), tk = ptx_tkind(t);
    if (rk == TK_PRED || tk == TK_PRED)
        return rk == tk;
    unsigned rs = ptx_type_size(r), ts = ptx_type_size(t);
    if (rs != ts && !(wider && rs > ts))
        return false;
    if (rk == TK_BITS || tk == TK_BITS || rk == TK_OTHER || tk == TK_OTHER)
        return true;
    return rk == tk;
}

/* Unsigned type of twice the width (mul.wide destination). */
static enum ptx_type ptx_wide(enum ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    case PTX_T_B16: return PTX_T_B32;
    case PTX_T_B32: return PTX_T_B64;
    default: return PTX_T_NONE;
    }
}

/* Checks one operand (or each element of a vector) against the expected type. */
static void ptx_check_value(struct ptx_checker *c, unsigned pos, const struct ptx_operand *op,
                            enum ptx_type want, bool wider)
{
    if (want == PTX_T_NONE)
        return;
    if (op->kind == PTX_OPND_VEC) {
        for (unsigned i = 0; i < op->nelems; i++)
            ptx_check_value(c, pos, &op->elems[i], want, wider);
        return;
    }
    if (op->kind == PTX_OPND_REG && op->reg >= 0 && (uint32_t)op->reg < c->f->nregs) {
        const struct ptx_reg *r = &c->f->regs[op->reg];
        if (op->vec_comp)
            return;
        if (!ptx_reg_fits(r->type, want, wider))
            ptx_cerr(c, op->loc, "operand %u of '%s': register '%s' of type %s does not match %s", pos,
                     c->name, r->name, ptx_type_name(r->type), ptx_type_name(want));
        return;
    }
    enum ptx_tkind k = ptx_tkind(want);
    if ((op->kind == PTX_OPND_IMM_F32 || op->kind == PTX_OPND_IMM_F64) && (k == TK_INT || k == TK_PRED))
        ptx_cerr(c, op->loc, "operand %u of '%s': floating-point constant where %s is expected", pos, c->name,
                 ptx_type_name(want));
    else if (op->kind == PTX_OPND_IMM_INT && k == TK_FLOAT && want != PTX_T_F16 && want != PTX_T_BF16)
        ptx_cerr(c, op->loc, "operand %u of '%s': integer constant where %s is expected", pos, c->name,
                 ptx_type_name(want));
}

static bool ptx_is_value_kind(enum ptx_operand_kind k)
{
    return k == PTX_OPND_REG || k == PTX_OPND_SREG || k == PTX_OPND_IMM_INT || k == PTX_OPND_IMM_F32 ||
           k == PTX_OPND_IMM_F64 || k == PTX_OPND_VEC || k == PTX_OPND_SYM || k == PTX_OPND_SINK;
}

/* setp: p[|q], a, b[, c] */
static void ptx_check_setp(struct ptx_checker *c)
{
    const struct ptx_instr *in = c->in;
    unsigned n = in->nops, i;
    bool has_c = in->boolop != PTX_MOD_NONE_;
    bool has_q = n == (has_c ? 5u : 4u);
    if (n != (has_c ? 4u : 3u) + has_q) {
        ptx_cerr(c, in->loc, "'%s' expects %u operands, got %u", c->name, (has_c ? 4u : 3u) + has_q, n);
        return;
    }
    ptx_check_value(c, 1, &in->ops[0], PTX_T_PRED, false);
    i = 1;
    if (has_q) {
        ptx_check_value(c, 2, &in->ops[1], PTX_T_PRED, false);
        i = 2;
    }
    ptx_check_value(c, i + 1, &in->ops[i], in->types[0], false);
    ptx_check_value(c, i + 2, &in->ops[i + 1], in->types[0], false);
    if (has_c)
        ptx_check_value(c, i + 3, &in->ops[i + 2], PTX_T_PRED, false);
}

/* State space of the access matches the space of a named variable. */
static void ptx_check_space(struct ptx_checker *c, const struct ptx_operand *op)
{
    const struct ptx_instr *in = c->in;
    const struct ptx_symbol *s = op->sym;
    if (!s || in->space == PTX_SPACE_NONE || s->kind == PTX_SYM_FUNC || s->kind == PTX_SYM_LABEL)
        return;
    enum ptx_space want = in->space, have = s->space;
    if (want == PTX_SPACE_SHARED_CLUSTER && have == PTX_SPACE_SHARED)
        return;
    if (have == PTX_SPACE_REG)
        return;
    if (want != have)
        ptx_cerr(c, op->loc, "state space mismatch: '%s' accesses %s variable '%s'", c->name,
                 ptx_space_name(have), s->name);
}

/* Number of space suffixes: instructions with two (cp.async) are not checked. */
static unsigned ptx_nspaces(const struct ptx_instr *in)
{
    unsigned n = 0;
    for (unsigned i = 0; i < in->nmods; i++)
        if (ptx_mod_category(in->mods[i]) == PTX_MC_SPACE)
            n++;
    return n;
}

static void ptx_check_call(struct ptx_checker *c)
{
    const struct ptx_instr *in = c->in;
    if (in->nops < 3)
        return;
    const struct ptx_operand *rets = &in->ops[0], *tgt = &in->ops[1], *args = &in->ops[2];
    if (tgt->kind == PTX_OPND_SYM && tgt->sym->kind == PTX_SYM_FUNC && tgt->sym->func) {
        const struct ptx_func *callee = tgt->sym->func;
        if (args->nelems != callee->nparams)
            ptx_cerr(c, tgt->loc, "call to '%s' with %u argument%s, expected %u", callee->name, args->nelems,
                     args->nelems == 1 ? "" : "s", callee->nparams);
        if (rets->nelems > callee->nrets)
            ptx_cerr(c, rets->loc, "call to '%s' expects %u return value%s, function returns %u",
                     callee->name, rets->nelems, rets->nelems == 1 ? "" : "s", callee->nrets);
        if (in->nops > 3)
            ptx_cerr(c, in->ops[3].loc, "direct call to '%s' takes no prototype", callee->name);
    } else if (tgt->kind == PTX_OPND_REG) {
        if (in->nops < 4 || in->ops[3].kind != PTX_OPND_LABEL) {
            ptx_cerr(c, tgt->loc, "indirect call needs a .callprototype or .calltargets label");
            return;
        }
        const struct ptx_label *l = &c->f->labels[in->ops[3].label];
        if (l->kind != PTX_LABEL_PROTOTYPE && l->kind != PTX_LABEL_CALLTARGETS)
            ptx_cerr(c, in->ops[3].loc, "'%s' is not a .callprototype or .calltargets label", l->name);
        else if (l->kind == PTX_LABEL_PROTOTYPE && args->nelems != l->proto->nparams)
            ptx_cerr(c, tgt->loc, "indirect call with %u argument%s, prototype '%s' has %u", args->nelems,
                     args->nelems == 1 ? "" : "s", l->name, l->proto->nparams);
    } else if (tgt->kind == PTX_OPND_SYM) {
        ptx_cerr(c, tgt->loc, "called object '%s' is not a function", tgt->sym->name);
    }
    for (unsigned i = 0; i < args->nelems; i++) {
        const struct ptx_operand *a = &args->elems[i];
        if (a->kind == PTX_OPND_SYM && a->sym->space != PTX_SPACE_PARAM && a->sym->space != PTX_SPACE_REG)
            ptx_cerr(c, a->loc, "call argument '%s' is not a .param variable", a->sym->name);
    }
}

static void ptx_check_instr(struct ptx_checker *c)
{
    const struct ptx_instr *in = c->in;
    const struct ptx_func *f = c->f;
    ptx_instr_name(in, c->name, sizeof c->name);

    if (in->guard_reg >= 0 && (uint32_t)in->guard_reg < f->nregs && f->regs[in->guard_reg].type != PTX_T_PRED)
        ptx_cerr(c, in->loc, "guard '%s' of '%s' is not a .pred register", f->regs[in->guard_reg].name,
                 c->name);

    if (in->op == PTX_OP_CALL) {
        ptx_check_call(c);
        return;
    }
    if (in->op == PTX_OP_BRA && in->nops == 1) {
        const struct ptx_operand *t = &in->ops[0];
        if (t->kind != PTX_OPND_LABEL)
            ptx_cerr(c, t->loc, "branch target of '%s' must be a label", c->name);
        else if (f->labels[t->label].kind != PTX_LABEL_CODE)
            ptx_cerr(c, t->loc, "branch target '%s' is not a code label", f->labels[t->label].name);
    }
    if (in->op == PTX_OP_BRX && in->nops == 2) {
        const struct ptx_operand *t = &in->ops[1];
        if (t->kind != PTX_OPND_LABEL || f->labels[t->label].kind != PTX_LABEL_BRANCHTARGETS)
            ptx_cerr(c, t->loc, "second operand of '%s' must name a .branchtargets list", c->name);
    }

    /* Operand forms of the video instructions: -%r (vmad only) and byte or
     * half-word selectors (video instructions only). */
    for (unsigned i = 0; i < in->nops; i++) {
        const struct ptx_operand *op = &in->ops[i];
        if (op->arith_neg && in->op != PTX_OP_VMAD)
            ptx_cerr(c, op->loc, "operand %u of '%s': only vmad negates register operands", i + 1, c->name);
        if (op->kind == PTX_OPND_REG && op->vec_comp >= 5 && !(ptx_opcode_flags(in->op) & PTX_OPF_VIDEO))
            ptx_cerr(c, op->loc, "operand %u of '%s': byte/half-word selectors are for video instructions",
                     i + 1, c->name);
    }

    uint64_t types = ptx_opcode_types(in->op);
    if (in->ntypes && types != PTX_TY_ANY && (unsigned)in->types[0] < 64 && !(types >> in->types[0] & 1)) {
        ptx_cerr(c, in->loc, "'%s': %s is not a type of %s", c->name, ptx_type_name(in->types[0]),
                 ptx_opcode_name(in->op));
        return;
    }
    struct ptx_shape shape;
    const struct ptx_shape *sh = ptx_shape_of(in, &shape) ? &shape : NULL;
    if (sh) {
        if (in->ntypes < sh->ntypes) {
            ptx_cerr(c, in->loc, "missing type suffix for '%s'", c->name);
            return;
        }
        if (in->op == PTX_OP_SETP) {
            ptx_check_setp(c);
        } else if (in->nops < sh->min || in->nops > sh->max) {
            if (sh->min == sh->max)
                ptx_cerr(c, in->loc, "'%s' expects %u operand%s, got %u", c->name, sh->min,
                         sh->min == 1 ? "" : "s", in->nops);
            else
                ptx_cerr(c, in->loc, "'%s' expects %u to %u operands, got %u", c->name, sh->min, sh->max,
                         in->nops);
            return;
        } else {
            size_t speclen = strlen(sh->spec);
            for (unsigned i = 0; i < in->nops && speclen; i++) {
                char k = sh->spec[i < speclen ? i : speclen - 1];
                const struct ptx_operand *op = &in->ops[i];
                enum ptx_type t0 = in->ntypes > 0 ? in->types[0] : PTX_T_NONE;
                enum ptx_type t1 = in->ntypes > 1 ? in->types[1] : t0;
                if (k == 'A') {
                    if (op->kind != PTX_OPND_ADDR)
                        ptx_cerr(c, op->loc, "operand %u of '%s' must be an address", i + 1, c->name);
                    continue;
                }
                if (k == '.')
                    continue;
                if (!ptx_is_value_kind(op->kind)) {
                    ptx_cerr(c, op->loc, "operand %u of '%s' must be a register or constant", i + 1, c->name);
                    continue;
                }
                if (i == 0 && (ptx_opcode_flags(in->op) & PTX_OPF_WRITES) && op->kind != PTX_OPND_REG &&
                    op->kind != PTX_OPND_VEC && op->kind != PTX_OPND_SINK) {
                    ptx_cerr(c, op->loc, "destination of '%s' must be a register", c->name);
                    continue;
                }
                if (op->kind == PTX_OPND_SYM && (in->op == PTX_OP_MOV || in->op == PTX_OP_CVTA))
                    continue;
                if (in->op == PTX_OP_MOV && (op->kind == PTX_OPND_VEC || in->ops[0].kind == PTX_OPND_VEC))
                    continue;
                switch (k) {
                case 'T': ptx_check_value(c, i + 1, op, t0, false); break;
                case 'S': ptx_check_value(c, i + 1, op, t1, false); break;
                case 'D': ptx_check_value(c, i + 1, op, ptx_wide(t0), false); break;
                case 'U': ptx_check_value(c, i + 1, op, PTX_T_B32, false); break;
                case 'P': ptx_check_value(c, i + 1, op, PTX_T_PRED, false); break;
                case 'L': ptx_check_value(c, i + 1, op, t0, true); break;
                case 'C': ptx_check_value(c, i + 1, op, t1, true); break;
                default: break;
                }
            }
        }
    }

    /* ld/st .vN move exactly N values. */
    if ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_ST) && in->vec > 1 && in->nops >= 2) {
        const struct ptx_operand *data = &in->ops[in->op == PTX_OP_ST ? 1 : 0];
        if (data->kind != PTX_OPND_VEC)
            ptx_cerr(c, data->loc, "'%s' needs a vector operand of %u elements", c->name, in->vec);
        else if (data->nelems != in->vec)
            ptx_cerr(c, data->loc, "vector operand of '%s' has %u elements, expected %u", c->name,
                     data->nelems, in->vec);
    }

    /* State spaces of named variables used as addresses. */
    if ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU || in->op == PTX_OP_ST || in->op == PTX_OP_ATOM ||
         in->op == PTX_OP_RED || in->op == PTX_OP_PREFETCH || in->op == PTX_OP_CVTA) &&
        ptx_nspaces(in) == 1) {
        for (unsigned i = 0; i < in->nops; i++) {
            const struct ptx_operand *op = &in->ops[i];
            if (op->kind == PTX_OPND_ADDR || (in->op == PTX_OP_CVTA && op->kind == PTX_OPND_SYM))
                ptx_check_space(c, op);
        }
    }
}

bool ptx_check(struct ptx_module *m, struct ptx_diags *diags)
{
    size_t before = diags->nerrors;
    struct ptx_checker c = { .m = m, .diags = diags };
    struct ptx_loc top = { 1, 1, 0, 0, 0 };
    if (m->version_major == 0)
        ptx_cerr(&c, top, "missing .version directive");
    if (m->target[0] == 0)
        ptx_cerr(&c, top, "missing .target directive");
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        c.f = m->funcs[fi];
        for (uint32_t i = 0; i < c.f->ninstrs; i++) {
            c.in = &c.f->instrs[i];
            ptx_check_instr(&c);
        }
    }
    return diags->nerrors == before;
}
