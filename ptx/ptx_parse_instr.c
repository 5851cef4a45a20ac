/* ptx_parse_instr.c -- instruction statements: opcode, suffixes filed by category,
 * operands (registers, constants, addresses, vectors, call lists). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_parse_internal.h"

/* ---- operands ------------------------------------------------------------ */

/* A label named in the current scope: the visible one, or a new pending one
 * (defined later). With `define`, a label visible only from an enclosing scope
 * is shadowed by a new one. */
int32_t ptx_label_ref(struct ptx_parser *ps, uint32_t id, struct ptx_loc loc, bool define)
{
    struct ptx_bind *b = ptx_binding(ps, id);
    if (b->label && (!define || b->ldepth == ps->depth))
        return b->label - 1;
    struct ptx_undo *u = ptx_vec_push(&ps->undo);
    u->id = id;
    u->old = *b;
    struct ptx_label *l = ptx_vec_push(&ps->labels);
    l->name = ptx_name(ps, id);
    l->instr = UINT32_MAX;
    l->loc = loc;
    *(struct ptx_loc *)ptx_vec_push(&ps->label_first_use) = loc;
    *(bool *)ptx_vec_push(&ps->label_in_branch) = ps->in_branch;
    *(int32_t *)ptx_vec_push(&ps->label_redirect) = -1;
    b->label = (int32_t)ps->labels.n;
    b->ldepth = ps->depth;
    *(uint32_t *)ptx_vec_push(&ps->touched) = id;
    return (int32_t)ps->labels.n - 1;
}

static bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_operand *op);

/* Pushes operands separated by ',' until `close` onto the scratch stack and
 * moves them into the arena as op's elems. After an error it skips past `close`. */
static bool ptx_parse_elem_list(struct ptx_parser *ps, int close, struct ptx_operand *op)
{
    size_t base = ps->opstack.n;
    bool ok = true;
    if (ps->tok.kind != close) {
        for (;;) {
            struct ptx_operand tmp;
            if (!ptx_parse_operand(ps, &tmp)) {
                ok = false;
                break;
            }
            *(struct ptx_operand *)ptx_vec_push(&ps->opstack) = tmp;
            if (ps->tok.kind != ',')
                break;
            ptx_next(ps);
        }
    }
    if (ok)
        ok = ptx_expect(ps, close, close == '}' ? "'}' or ','" : close == ')' ? "')' or ','" : "']'");
    if (!ok)
        ptx_skip_to_close(ps);
    size_t n = ps->opstack.n - base;
    if (n > UINT16_MAX) {
        ptx_error_at(ps, op->loc.line, op->loc.col, "too many elements");
        ok = false;
        n = 0;
    }
    op->nelems = (uint16_t)n;
    op->elems = n ? ptx_arena_dup(ps->arena, &VEC_AT(ps->opstack, struct ptx_operand, base),
                                  n * sizeof(struct ptx_operand))
                  : NULL;
    ps->opstack.n = base;
    return ok;
}

/* An identifier operand: special register, register (with .x component),
 * variable/function symbol, or label (possibly defined later). */
static bool ptx_resolve_ident(struct ptx_parser *ps, struct ptx_operand *op)
{
    uint32_t id = ps->tok.id;
    const char *name = ptx_name(ps, id);
    size_t len = ptx_interner_len(ps->names, id);
    if (len == 1 && name[0] == '_') {
        op->kind = PTX_OPND_SINK;
        ptx_next(ps);
        return true;
    }
    struct ptx_bind *b = ptx_binding(ps, id);
    if (b->reg) {
        op->kind = PTX_OPND_REG;
        op->reg = b->reg - 1;
        ptx_next(ps);
        return true;
    }
    if (name[0] == '%') {
        const struct ptx_kw *k = ptx_kw_of(ps, id);
        if (k->sreg) {
            op->kind = PTX_OPND_SREG;
            op->sreg = (enum ptx_sreg)k->sreg;
            ptx_next(ps);
            return true;
        }
        const char *dot = memchr(name, '.', len);
        if (dot) {
            uint32_t bid = ptx_interner_find(ps->names, name, (size_t)(dot - name));
            struct ptx_bind *bb = bid ? ptx_binding(ps, bid) : NULL;
            if (bb && bb->reg) {
                static const char comps[] = "xyzw";
                const char *c = strchr(comps, dot[1]);
                op->kind = PTX_OPND_REG;
                op->reg = bb->reg - 1;
                if ((dot[1] == 'b' || dot[1] == 'h') && dot[2]) {
                    /* video selector: digit k counted from the last written */
                    size_t nd = len - (size_t)(dot - name) - 2;
                    unsigned d0 = (unsigned)(dot[2] - '0');
                    op->sel = (uint16_t)(nd << 12);
                    for (size_t dk = 0; dk < nd; dk++)
                        op->sel |= (uint16_t)((dot[1 + nd - dk] - '0') << (3 * dk));
                    if (nd > 1)
                        op->vec_comp = dot[1] == 'b' ? PTX_VCOMP_BSEL : PTX_VCOMP_HSEL;
                    else if (dot[1] == 'b' && d0 <= 3)
                        op->vec_comp = (uint8_t)(5 + d0);
                    else if (dot[1] == 'h' && d0 <= 1)
                        op->vec_comp = (uint8_t)(9 + d0);
                    else {
                        ERR_TOK(ps, "invalid video selector '%s'", dot);
                        ptx_next(ps);
                        return false;
                    }
                } else if (c)
                    op->vec_comp = (uint8_t)(1 + (c - comps));
                else
                    op->vec_comp = (uint8_t)(1 + (strchr("rgba", dot[1]) - "rgba"));
                ptx_next(ps);
                return true;
            }
        }
        ERR_TOK(ps, "use of undeclared register '%s'", name);
        ptx_next(ps);
        return false;
    }
    struct ptx_symbol *s = b->sym;
    if (!s && id < ps->bindcap)
        s = ps->gsym[id];
    if (s) {
        op->kind = PTX_OPND_SYM;
        op->sym = s;
        ptx_next(ps);
        if (ps->tok.kind == '+' || ps->tok.kind == '-') {
            int sign = ps->tok.kind;
            ptx_next(ps);
            int64_t off;
            if (!ptx_cexpr_primary(ps, &off))
                return false;
            op->ival = sign == '-' ? -off : off;
        }
        return true;
    }
    int64_t v;
    if (ptx_predefined_int(ps, &v)) {   /* WARP_SZ, alone or in a constant expression */
        if (!ptx_cexpr(ps, 0, &v))
            return false;
        op->kind = PTX_OPND_IMM_INT;
        op->ival = v;
        return true;
    }
    if (ps->fn && !ps->no_labels) {
        op->kind = PTX_OPND_LABEL;
        op->label = ptx_label_ref(ps, id, op->loc, false);
        ptx_next(ps);
        return true;
    }
    ERR_TOK(ps, "use of undeclared identifier '%s'", name);
    ptx_next(ps);
    return false;
}

/* [base], [base+imm], [base-imm], [imm], [base+imm, extra, {coords}] */
static bool ptx_parse_address(struct ptx_parser *ps, struct ptx_operand *op)
{
    ptx_next(ps);
    op->kind = PTX_OPND_ADDR;
    op->reg = -1;
    if (ps->tok.kind == PTX_TK_IDENT) {
        struct ptx_operand base = { .loc = ptx_tok_loc(ps) };
        ps->no_labels = true;
        bool ok = ptx_resolve_ident(ps, &base);
        ps->no_labels = false;
        if (!ok)
            return false;
        if (base.kind == PTX_OPND_REG) {
            op->reg = base.reg;
        } else if (base.kind == PTX_OPND_SYM) {
            op->sym = base.sym;
            op->ival = base.ival;
        } else if (base.kind == PTX_OPND_LABEL) {
            ptx_error_at(ps, base.loc.line, base.loc.col, "use of undeclared identifier '%s'",
                         VEC_AT(ps->labels, struct ptx_label, base.label).name);
            return false;
        } else {
            ptx_error_at(ps, base.loc.line, base.loc.col, "invalid address base");
            return false;
        }
        if (ps->tok.kind == '+' || ps->tok.kind == '-') {
            int sign = ps->tok.kind;
            ptx_next(ps);
            if (ps->tok.kind == PTX_TK_IDENT) {
                ERR_TOK(ps, "address offset must be a constant");
                return false;
            }
            int64_t off;
            if (!ptx_cexpr(ps, 5, &off))
                return false;
            op->ival += sign == '-' ? -off : off;
        }
    } else if (ps->tok.kind != ']') {
        int64_t v;
        if (!ptx_cexpr(ps, 0, &v))
            return false;
        op->ival = v;
    } else {
        ptx_expected(ps, "address");
        return false;
    }
    if (ps->tok.kind == ',') {
        ptx_next(ps);
        return ptx_parse_elem_list(ps, ']', op);
    }
    return ptx_expect(ps, ']', "']'");
}

/* ptx_parse_operand inside its level of nesting. */
static bool ptx_parse_operand_at(struct ptx_parser *ps, struct ptx_operand *op)
{
    switch (ps->tok.kind) {
    case '!':
        ptx_next(ps);
        if (!ptx_parse_operand(ps, op))
            return false;
        op->neg = true;
        return true;
    case PTX_TK_IDENT:
        return ptx_resolve_ident(ps, op);
    case '[':
        return ptx_parse_address(ps, op);
    case '{':
        ptx_next(ps);
        op->kind = PTX_OPND_VEC;
        return ptx_parse_elem_list(ps, '}', op);
    case PTX_TK_F32:
        op->kind = PTX_OPND_IMM_F32;
        op->fbits = ps->tok.ival;
        ptx_next(ps);
        return true;
    case PTX_TK_F64:
        op->kind = PTX_OPND_IMM_F64;
        op->fbits = ps->tok.ival;
        ptx_next(ps);
        return true;
    case '-': {
        /* -0f..., -1.5: negate a float literal by its sign bit. */
        ptx_next(ps);
        if (ps->tok.kind == PTX_TK_IDENT &&
            (ptx_binding(ps, ps->tok.id)->reg || ptx_name(ps, ps->tok.id)[0] == '%')) {
            /* -%r: a negated register source (vmad; the checker limits it) */
            struct ptx_loc at = op->loc;
            if (!ptx_resolve_ident(ps, op))
                return false;
            if (op->kind != PTX_OPND_REG) {
                ptx_error_at(ps, at.line, at.col, "only a register can be negated with '-'");
                return false;
            }
            op->loc = at;
            op->arith_neg = true;
            return true;
        }
        if (ps->tok.kind == PTX_TK_F32 || ps->tok.kind == PTX_TK_F64) {
            op->kind = ps->tok.kind == PTX_TK_F32 ? PTX_OPND_IMM_F32 : PTX_OPND_IMM_F64;
            op->fbits = ps->tok.ival ^ (ps->tok.kind == PTX_TK_F32 ? 0x80000000u : 0x8000000000000000ull);
            ptx_next(ps);
            return true;
        }
        int64_t v;
        if (!ptx_cexpr_primary(ps, &v))
            return false;
        op->kind = PTX_OPND_IMM_INT;
        op->ival = (int64_t)(0 - (uint64_t)v);
        return true;
    }
    case PTX_TK_INT:
    case '(':
    case '~': {
        int64_t v;
        if (!ptx_cexpr(ps, 0, &v))
            return false;
        op->kind = PTX_OPND_IMM_INT;
        op->ival = v;
        return true;
    }
    default:
        ptx_expected(ps, "operand");
        return false;
    }
}

/* One operand. '!' and the braces of vectors and address lists recurse, a level of
 * PTX_MAX_NESTING each; so does every pass that later walks an operand's elements. */
static bool ptx_parse_operand(struct ptx_parser *ps, struct ptx_operand *op)
{
    memset(op, 0, sizeof *op);
    op->loc = ptx_tok_loc(ps);
    op->reg = -1;
    op->label = -1;
    if (!ptx_nest_enter(ps, "operand"))
        return false;
    bool ok = ptx_parse_operand_at(ps, op);
    ps->nesting--;
    return ok;
}

/* ---- instructions -------------------------------------------------------- */

static uint32_t ptx_iflag_of(enum ptx_mod m)
{
    switch (m) {
    case PTX_MOD_FTZ: return PTX_IF_FTZ;
    case PTX_MOD_SAT: return PTX_IF_SAT;
    case PTX_MOD_APPROX: return PTX_IF_APPROX;
    case PTX_MOD_FULL: return PTX_IF_FULL;
    case PTX_MOD_CC: return PTX_IF_CC;
    case PTX_MOD_UNI: return PTX_IF_UNI;
    case PTX_MOD_VOLATILE: return PTX_IF_VOLATILE;
    case PTX_MOD_NC: return PTX_IF_NC;
    case PTX_MOD_SYNC: return PTX_IF_SYNC;
    case PTX_MOD_ALIGNED: return PTX_IF_ALIGNED;
    case PTX_MOD_RELU: return PTX_IF_RELU;
    case PTX_MOD_NANMOD: return PTX_IF_NAN;
    case PTX_MOD_XORSIGN: return PTX_IF_XORSIGN;
    case PTX_MOD_ABSMOD: return PTX_IF_ABS;
    case PTX_MOD_SHIFTAMT: return PTX_IF_SHIFTAMT;
    case PTX_MOD_CLAMP: return PTX_IF_CLAMP;
    case PTX_MOD_WRAP: return PTX_IF_WRAP;
    case PTX_MOD_TO: return PTX_IF_TO;
    case PTX_MOD_NOFTZ: return PTX_IF_NOFTZ;
    case PTX_MOD_OOB: return PTX_IF_OOB;
    case PTX_MOD_PACK: return PTX_IF_PACK;
    case PTX_MOD_SATFINITE: return PTX_IF_SATFINITE;
    default: return 0;
    }
}

static void ptx_set_subop(struct ptx_instr *in, enum ptx_mod m)
{
    if (!in->subop)
        in->subop = m;
    else if (!in->subop2)
        in->subop2 = m;
}

/* Files one suffix into the instruction by category, with the opcode-dependent
 * meanings: .hi/.lo select product halves of mul/mad/mul24/mad24; .and/.or/.xor
 * are the operation of atom/red/redux (subop) but combine predicates elsewhere. */
static void ptx_file_mod(struct ptx_instr *in, enum ptx_mod m)
{
    enum ptx_opcode op = in->op;
    switch (ptx_mod_category(m)) {
    case PTX_MC_ROUND:
        in->round = m;
        break;
    case PTX_MC_CMP:
        if ((m == PTX_MOD_HI || m == PTX_MOD_LO) &&
            (op == PTX_OP_MUL || op == PTX_OP_MAD || op == PTX_OP_MUL24 || op == PTX_OP_MAD24 ||
             op == PTX_OP_DP2A || op == PTX_OP_MADC))
            ptx_set_subop(in, m);
        else
            in->cmp = m;
        break;
    case PTX_MC_BOOL:
        if (op == PTX_OP_ATOM || op == PTX_OP_RED || op == PTX_OP_REDUX || op == PTX_OP_MULTIMEM ||
            op == PTX_OP_CP || op == PTX_OP_SURED || op == PTX_OP_WMMA || op == PTX_OP_MMA ||
            op == PTX_OP_VADD || op == PTX_OP_VSUB)
            ptx_set_subop(in, m);
        else
            in->boolop = m;
        break;
    case PTX_MC_SPACE:
        if (!in->space)
            in->space = ptx_space_of_mod(m);
        break;
    case PTX_MC_SEM:
        in->sem = m;
        break;
    case PTX_MC_SCOPE:
        in->scope = m;
        break;
    case PTX_MC_VEC:
        in->vec = m == PTX_MOD_V2 ? 2 : m == PTX_MOD_V4 ? 4 : 8;
        break;
    case PTX_MC_FLAG:
        if (m == PTX_MOD_UNI && op == PTX_OP_VOTE)
            ptx_set_subop(in, m);
        else
            in->flags |= ptx_iflag_of(m);
        break;
    case PTX_MC_SUBOP:
        ptx_set_subop(in, m);
        break;
    default:
        break;
    }
}

static void ptx_push_instr_op(struct ptx_parser *ps, const struct ptx_operand *op)
{
    *(struct ptx_operand *)ptx_vec_push(&ps->opstack) = *op;
}

/* call [(rets),] target [, (args)] [, proto-or-targets]: normalised to
 * ops = { LIST rets, target, LIST args [, LABEL] }. */
static bool ptx_parse_call(struct ptx_parser *ps)
{
    struct ptx_operand rets = { .kind = PTX_OPND_LIST, .loc = ptx_tok_loc(ps), .reg = -1, .label = -1 };
    if (ps->tok.kind == '(') {
        ptx_next(ps);
        if (!ptx_parse_elem_list(ps, ')', &rets))
            return false;
        if (!ptx_expect(ps, ',', "','"))
            return false;
    }
    ptx_push_instr_op(ps, &rets);
    struct ptx_operand target;
    if (ps->tok.kind != PTX_TK_IDENT) {
        ptx_expected(ps, "function name");
        return false;
    }
    uint32_t tid = ps->tok.id;
    struct ptx_loc tloc = ptx_tok_loc(ps);
    struct ptx_bind *b = ptx_binding(ps, tid);
    struct ptx_symbol *gs = ps->gsym[tid];
    if (!b->reg && !b->sym && !gs) {
        ERR_TOK(ps, "call to undeclared function '%s'", ptx_name(ps, tid));
        return false;
    }
    if (!ptx_parse_operand(ps, &target))
        return false;
    if (target.kind == PTX_OPND_SYM && target.sym->kind != PTX_SYM_FUNC && !b->sym) {
        ptx_error_at(ps, tloc.line, tloc.col, "called object '%s' is not a function", target.sym->name);
        return false;
    }
    ptx_push_instr_op(ps, &target);
    struct ptx_operand args = { .kind = PTX_OPND_LIST, .loc = ptx_tok_loc(ps), .reg = -1, .label = -1 };
    if (ps->tok.kind == ',') {
        ptx_next(ps);
        if (ps->tok.kind == '(') {
            ptx_next(ps);
            if (!ptx_parse_elem_list(ps, ')', &args))
                return false;
            ptx_push_instr_op(ps, &args);
            if (ps->tok.kind == ',') {
                ptx_next(ps);
                struct ptx_operand proto;
                if (!ptx_parse_operand(ps, &proto))
                    return false;
                ptx_push_instr_op(ps, &proto);
            }
            return true;
        }
        ptx_push_instr_op(ps, &args);
        struct ptx_operand proto;
        if (!ptx_parse_operand(ps, &proto))
            return false;
        ptx_push_instr_op(ps, &proto);
        return true;
    }
    ptx_push_instr_op(ps, &args);
    return true;
}

/* One instruction after an optional guard; the opcode token is current. */
void ptx_parse_instr(struct ptx_parser *ps, int32_t guard, bool guard_neg)
{
    struct ptx_instr in;
    memset(&in, 0, sizeof in);
    in.guard_reg = guard;
    in.guard_neg = guard_neg;
    in.vec = 1;
    in.loc = ptx_tok_loc(ps);
    const struct ptx_kw *k = ptx_kw_of(ps, ps->tok.id);
    if (k->op >= PTX_OP_COUNT_) {
        ERR_TOK(ps, "unknown instruction '%s'", ptx_name(ps, ps->tok.id));
        ptx_skip_statement(ps);
        return;
    }
    in.op = (enum ptx_opcode)k->op;
    const char *opname = ptx_opcode_name(in.op);
    ptx_next(ps);
    bool bad = false;
    while (ps->tok.kind == PTX_TK_DOTWORD) {
        const struct ptx_kw *mk = ptx_kw_of(ps, ps->tok.id);
        if (mk->type) {
            if (in.ntypes == PTX_MAX_TYPES) {
                ERR_TOK(ps, "too many type suffixes for '%s'", opname);
                bad = true;
            } else {
                in.types[in.ntypes++] = (enum ptx_type)mk->type;
            }
        } else if (mk->mod) {
            if (in.nmods == PTX_MAX_MODS) {
                ERR_TOK(ps, "too many modifiers for '%s'", opname);
                bad = true;
            } else {
                in.mods[in.nmods++] = (enum ptx_mod)mk->mod;
                ptx_file_mod(&in, (enum ptx_mod)mk->mod);
            }
        } else {
            ERR_TOK(ps, "unknown modifier '%s' for '%s'", ptx_name(ps, ps->tok.id), opname);
            bad = true;
        }
        ptx_next(ps);
    }
    size_t base = ps->opstack.n;
    bool ok = true;
    if (in.op == PTX_OP_CALL) {
        ok = ptx_parse_call(ps);
    } else if (ps->tok.kind != ';') {
        ps->in_branch = in.op == PTX_OP_BRA || in.op == PTX_OP_BRX;
        for (;;) {
            struct ptx_operand op;
            if (!ptx_parse_operand(ps, &op)) {
                ok = false;
                break;
            }
            ptx_push_instr_op(ps, &op);
            if (ps->tok.kind == '|') {
                ptx_next(ps);
                if (!ptx_parse_operand(ps, &op)) {
                    ok = false;
                    break;
                }
                ptx_push_instr_op(ps, &op);
            }
            if (ps->tok.kind != ',')
                break;
            ptx_next(ps);
        }
        ps->in_branch = false;
    }
    if (ok && ps->tok.kind != ';') {
        ptx_expected(ps, "';'");
        ok = false;
    }
    if (!ok) {
        ps->opstack.n = base;
        ptx_skip_statement(ps);
        return;
    }
    ptx_next(ps);
    size_t n = ps->opstack.n - base;
    if (n > 255) {
        ptx_error_at(ps, in.loc.line, in.loc.col, "too many operands for '%s'", opname);
        bad = true;
    }
    if (bad) {
        ps->opstack.n = base;
        return;
    }
    in.nops = (uint8_t)n;
    in.ops = n ? ptx_arena_dup(ps->arena, &VEC_AT(ps->opstack, struct ptx_operand, base),
                               n * sizeof(struct ptx_operand))
               : NULL;
    ps->opstack.n = base;
    *(struct ptx_instr *)ptx_vec_push(&ps->instrs) = in;
}
