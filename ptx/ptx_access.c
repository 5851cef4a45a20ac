/* ptx_access.c -- which parameters of a kernel it reads or writes global memory through
 * (ptx_access.h): a flow-insensitive value-origin analysis over the PTX of an entry.
 *
 * Every register carries the set of origins its value may derive from: a 64-bit kernel
 * parameter k, the address of a module-scope .global/.const variable (GLOBALS), an address
 * of a space that is not global memory (SPACE: .shared, .local, .param windows), or a value
 * loaded from memory that may be a pointer (OTHER: loads of 8 bytes or more). An instruction
 * that computes a register from operands gives it the union of their origins (mov, add,
 * mad, shl, selp, cvt, shfl, the halves of mov.b64 {lo, hi} ...), so a register written in
 * several places or along a loop's back edge holds all of them; the sets only grow, and
 * the instructions are visited until none changes (a fixed point; flow-insensitive, so
 * predicated and phi-like writes need nothing special).
 *
 * An access classifies its address's set: each parameter in it gets the mode, GLOBALS goes
 * to `globals`, OTHER -- or a set of no origin at all (an absolute address, a value built
 * from indices only) -- goes to `other`; SPACE alone in a generic access is not global
 * memory. Accesses in .shared/.local/.param spaces are not global memory; .const ones read
 * module variables. A value stored to memory, an atomic's operand, a parameter whose
 * address is taken or an argument of a callee that cannot be followed escapes.
 *
 * Calls to a .func with a body are followed with the arguments' sets as the callee's
 * parameters (through the .param symbols of the call sequence), once per distinct set of
 * arguments (memoised), its return values flowing back. A call through a pointer follows
 * its .calltargets, else every function whose address the module takes with its arity.
 * Recursion that brings no new origin is covered by the frame analysing it; other
 * recursion, chains deeper than ACC_MAX_DEPTH and external functions other than vprintf,
 * __assertfail and malloc count as anything (arguments escape, other and globals
 * read-write). docs/INTERNALS.md ("Parameter access") lists what it does not see. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_access.h"
#include "ptx/ptx_parse_internal.h"

/* Origin bits of a set; parameter k is bit ACC_PARAM0 + k. */
enum { ACC_OTHER = 0, ACC_GLOBALS = 1, ACC_SPACE = 2, ACC_PARAM0 = 3 };

/* Calls followed deep at most, and instruction visits at most per kernel, before the
 * analysis gives the conservative answer (everything escapes, all memory read-write). */
#define ACC_MAX_DEPTH 32
#define ACC_MAX_VISITS ((size_t)8 << 20)

typedef uint64_t acc_word;

/* A callee analysed for one set of arguments: its return values' sets. */
struct acc_memo {
    const struct ptx_func *fn;
    acc_word *args, *rets;
    struct acc_memo *next;
};

/* The analysis of one kernel. */
struct acc_ctx {
    const struct ptx_module *m;
    const struct ptx_func *entry;
    unsigned words;                 /* acc_words per set */
    struct ptx_kernel_access *out;
    const struct ptx_func *stack[ACC_MAX_DEPTH];   /* the calls being followed */
    const acc_word *stack_args[ACC_MAX_DEPTH];     /* and their parameters' sets */
    struct acc_frame *frames[ACC_MAX_DEPTH];       /* and their frames */
    unsigned depth;
    size_t visits;
    bool gave_up, oom;
    struct acc_memo *memo;
    /* The functions whose address the module takes (an operand other than a call's target,
     * an initialiser), found at the first call through a pointer without .calltargets. */
    bool taken_known, taken_decl;   /* taken_decl: a function without a body among them */
    const struct ptx_func **taken;
    uint32_t ntaken;
};

/* One function being analysed: a set per register and per .param symbol it names (its
 * parameters, return values and the call sequences' argument buffers), found by address. */
struct acc_slot {
    const struct ptx_symbol *sym;
    uint32_t index;
};

struct acc_frame {
    const struct ptx_func *fn;
    acc_word *regs;                  /* nregs sets */
    acc_word *slots;                 /* nslots sets */
    struct acc_slot *slot_of;        /* sorted by sym */
    uint32_t nslots;
    acc_word *tmp;                   /* a scratch set */
    bool changed;
};

static void set_bit(acc_word *s, unsigned b) { s[b / 64] |= (acc_word)1 << (b % 64); }
static bool has_bit(const acc_word *s, unsigned b) { return (s[b / 64] >> (b % 64)) & 1u; }

/* d |= s; true when d grew. */
static bool set_or(acc_word *d, const acc_word *s, unsigned words)
{
    acc_word grew = 0;
    for (unsigned w = 0; w < words; w++) {
        grew |= s[w] & ~d[w];
        d[w] |= s[w];
    }
    return grew != 0;
}

static bool set_empty(const acc_word *s, unsigned words)
{
    for (unsigned w = 0; w < words; w++)
        if (s[w]) return false;
    return true;
}

static int slot_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct acc_slot *)a)->sym, y = (uintptr_t)((const struct acc_slot *)b)->sym;
    return x < y ? -1 : x > y;
}

/* The set of the .param symbol sym in the frame, or NULL when it names none of the function's. */
static acc_word *slot_set(const struct acc_ctx *c, const struct acc_frame *f, const struct ptx_symbol *sym,
                          uint32_t *out_index)
{
    struct acc_slot key = { sym, 0 };
    const struct acc_slot *s = f->nslots ? bsearch(&key, f->slot_of, f->nslots, sizeof key, slot_cmp) : NULL;
    if (!s) return NULL;
    if (out_index) *out_index = s->index;
    return &f->slots[(size_t)s->index * c->words];
}

/* The index of sym among the entry's parameters, or -1. */
static int entry_param(const struct acc_ctx *c, const struct ptx_symbol *sym)
{
    for (uint32_t k = 0; k < c->entry->nparams; k++)
        if (c->entry->params[k] == sym) return (int)k;
    return -1;
}

/* Marks the parameters in s as escaping. */
static void escape_set(struct acc_ctx *c, const acc_word *s)
{
    for (unsigned k = 0; k < c->out->nparams; k++)
        if (has_bit(s, ACC_PARAM0 + k)) c->out->params[k].escapes = true;
}

/* Records an access of `mode` through an address of origins s in state space sp. */
static void access_set(struct acc_ctx *c, const acc_word *s, enum ptx_space sp, unsigned mode)
{
    if (sp == PTX_SPACE_SHARED || sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_LOCAL ||
        sp == PTX_SPACE_PARAM || sp == PTX_SPACE_REG || sp == PTX_SPACE_SREG)
        return;
    if (sp == PTX_SPACE_CONST) {   /* the module's constant variables, whatever the address */
        c->out->globals |= mode;
        return;
    }
    bool placed = false;
    for (unsigned k = 0; k < c->out->nparams; k++)
        if (has_bit(s, ACC_PARAM0 + k)) {
            c->out->params[k].mode |= mode;
            placed = true;
        }
    if (has_bit(s, ACC_GLOBALS)) {
        c->out->globals |= mode;
        placed = true;
    }
    if (has_bit(s, ACC_OTHER) || (!placed && !(has_bit(s, ACC_SPACE) && sp != PTX_SPACE_GLOBAL)))
        c->out->other |= mode;
}

/* The origin of a variable's or function's address used as a value. Taking the address of
 * a kernel parameter lets it be read by any load: the parameter escapes. */
static void sym_origin(struct acc_ctx *c, const struct acc_frame *f, const struct ptx_symbol *sym, acc_word *s)
{
    if (!sym) return;
    if (sym->kind == PTX_SYM_FUNC || sym->kind == PTX_SYM_LABEL) return;
    switch (sym->space) {
    case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST:
        set_bit(s, ACC_GLOBALS);
        return;
    case PTX_SPACE_PARAM: {
        int k = entry_param(c, sym);
        if (k >= 0 && f->fn == c->entry) c->out->params[k].escapes = true;
        acc_word *slot = slot_set(c, f, sym, NULL);
        if (slot) escape_set(c, slot);   /* an argument buffer read through a pointer */
        set_bit(s, ACC_SPACE);
        return;
    }
    default:
        set_bit(s, ACC_SPACE);
        return;
    }
}

/* s |= the origins of operand op read as a value. */
static void operand_origin(struct acc_ctx *c, const struct acc_frame *f, const struct ptx_operand *op, acc_word *s)
{
    switch (op->kind) {
    case PTX_OPND_REG:
        if (op->reg >= 0 && (uint32_t)op->reg < f->fn->nregs) set_or(s, &f->regs[(size_t)op->reg * c->words], c->words);
        return;
    case PTX_OPND_SYM:
        sym_origin(c, f, op->sym, s);
        return;
    case PTX_OPND_ADDR:
        if (op->reg >= 0 && (uint32_t)op->reg < f->fn->nregs) set_or(s, &f->regs[(size_t)op->reg * c->words], c->words);
        else if (op->sym) sym_origin(c, f, op->sym, s);
        return;
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        for (uint32_t e = 0; e < op->nelems; e++) operand_origin(c, f, &op->elems[e], s);
        return;
    default:   /* immediates, special registers, labels, sinks: no origin */
        return;
    }
}

/* The origins of an address operand: its base register or variable (none: absolute). */
static void address_origin(struct acc_ctx *c, const struct acc_frame *f, const struct ptx_operand *op, acc_word *s)
{
    memset(s, 0, c->words * sizeof *s);
    if (op->kind == PTX_OPND_ADDR && op->reg < 0 && op->sym) {
        if (op->sym->space == PTX_SPACE_GLOBAL || op->sym->space == PTX_SPACE_CONST) set_bit(s, ACC_GLOBALS);
        else if (op->sym->kind == PTX_SYM_VAR || op->sym->kind == PTX_SYM_PARAM) set_bit(s, ACC_SPACE);
        return;
    }
    operand_origin(c, f, op, s);
}

/* An access of `mode` through operand ops[k] of pi (nothing when pi has no such operand). */
static void access_op(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi, uint32_t k,
                      enum ptx_space sp, unsigned mode)
{
    if (k >= pi->nops) {
        c->out->other |= mode;   /* a malformed form: say more, not less */
        return;
    }
    address_origin(c, f, &pi->ops[k], f->tmp);
    access_set(c, f->tmp, sp, mode);
}

/* The value operands of pi from index `from` on (not addresses) escape. */
static void escape_values(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi, uint32_t from)
{
    for (uint32_t k = from; k < pi->nops; k++) {
        if (pi->ops[k].kind == PTX_OPND_ADDR) continue;
        memset(f->tmp, 0, c->words * sizeof *f->tmp);
        operand_origin(c, f, &pi->ops[k], f->tmp);
        escape_set(c, f->tmp);
    }
}

/* dest |= s for a destination operand (a register or a vector of them). Predicates hold
 * no address: they stay empty, so selp's and setp's conditions add no origin. */
static void write_dest(struct acc_ctx *c, struct acc_frame *f, const struct ptx_operand *op, const acc_word *s)
{
    if (op->kind == PTX_OPND_REG && op->reg >= 0 && (uint32_t)op->reg < f->fn->nregs &&
        f->fn->regs[op->reg].type != PTX_T_PRED)
        f->changed |= set_or(&f->regs[(size_t)op->reg * c->words], s, c->words);
    else if (op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST)
        for (uint32_t e = 0; e < op->nelems; e++) write_dest(c, f, &op->elems[e], s);
}

/* ops[0] |= the union of the origins of ops[1..], plus the origin bit `extra` when >= 0. */
static void flow(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi, int extra)
{
    if (!pi->nops) return;
    memset(f->tmp, 0, c->words * sizeof *f->tmp);
    for (uint32_t k = 1; k < pi->nops; k++) operand_origin(c, f, &pi->ops[k], f->tmp);
    if (extra >= 0) set_bit(f->tmp, (unsigned)extra);
    write_dest(c, f, &pi->ops[0], f->tmp);
}

/* The size of one element of a load's result (8 or more: it may be a pointer). */
static unsigned element_size(const struct ptx_instr *pi)
{
    return pi->ntypes ? ptx_type_size(pi->types[pi->ntypes - 1]) : 8;
}

/* Whether a loaded element may be a pointer: 8 bytes or wider and not floating point (a
 * pointer loaded as .f64 and added to a parameter's would be missed; nvcc never does it). */
static bool may_be_pointer(const struct ptx_instr *pi)
{
    return element_size(pi) >= 8 && !(pi->ntypes && ptx_type_is_float(pi->types[pi->ntypes - 1]));
}

/* A value loaded from memory: of unknown origin (OTHER) when it may be a pointer. */
static void load_result(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi, uint32_t dest)
{
    if (dest >= pi->nops) return;
    memset(f->tmp, 0, c->words * sizeof *f->tmp);
    if (may_be_pointer(pi)) set_bit(f->tmp, ACC_OTHER);
    write_dest(c, f, &pi->ops[dest], f->tmp);
}

/* ld.param: the value of a kernel parameter (its own origin when it is a 64-bit scalar; a
 * by-value array or structure gives values of unknown origin), of a .func's parameter (what
 * its callers passed) or of a call's return buffer. */
static void load_param(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    if (pi->nops < 2) return;
    const struct ptx_operand *a = &pi->ops[1];
    acc_word *s = f->tmp;
    memset(s, 0, c->words * sizeof *s);
    uint32_t index = 0;
    acc_word *slot = a->kind == PTX_OPND_ADDR && a->reg < 0 ? slot_set(c, f, a->sym, &index) : NULL;
    if (!slot) {
        set_bit(s, ACC_OTHER);
    } else if (f->fn == c->entry && index < c->entry->nparams) {
        const struct ptx_symbol *p = c->entry->params[index];
        if (!p->ndims && p->vec <= 1 && ptx_type_size(p->type) == 8)
            set_bit(s, ACC_PARAM0 + index);
        else if (may_be_pointer(pi))
            set_bit(s, ACC_OTHER);
    } else {
        set_or(s, slot, c->words);
    }
    write_dest(c, f, &pi->ops[0], s);
}

/* st.param: into a call's argument buffer or the function's return value. */
static void store_param(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    if (pi->nops < 2) return;
    const struct ptx_operand *a = &pi->ops[0];
    memset(f->tmp, 0, c->words * sizeof *f->tmp);
    for (uint32_t k = 1; k < pi->nops; k++) operand_origin(c, f, &pi->ops[k], f->tmp);
    uint32_t index = 0;
    acc_word *slot = a->kind == PTX_OPND_ADDR && a->reg < 0 ? slot_set(c, f, a->sym, &index) : NULL;
    if (slot && !(f->fn == c->entry && index < c->entry->nparams))
        f->changed |= set_or(slot, f->tmp, c->words);
    else
        escape_set(c, f->tmp);
}

/* Anything may happen: every argument escapes, all memory is read and written. */
static void unknown_effects(struct acc_ctx *c, const acc_word *args, uint32_t nargs)
{
    for (uint32_t k = 0; k < nargs; k++) escape_set(c, &args[(size_t)k * c->words]);
    c->out->other |= PTX_ACCESS_RW;
    c->out->globals |= PTX_ACCESS_RW;
}

static bool analyse_func(struct acc_ctx *c, const struct ptx_func *fn, const acc_word *args, acc_word *rets);

/* The return sets of fn called with args (nargs sets), analysing it when this set of
 * arguments is new; NULL when memory runs out. */
static const acc_word *follow_call(struct acc_ctx *c, const struct ptx_func *fn, const acc_word *args)
{
    size_t an = (size_t)fn->nparams * c->words, rn = (size_t)fn->nrets * c->words;
    for (struct acc_memo *e = c->memo; e; e = e->next)
        if (e->fn == fn && (!an || memcmp(e->args, args, an * sizeof *args) == 0)) return e->rets;
    struct acc_memo *e = calloc(1, sizeof *e);
    acc_word *buf = calloc(an + rn + 1, sizeof *buf);
    if (!e || !buf) {
        free(e); free(buf);
        c->oom = true;
        return NULL;
    }
    e->fn = fn;
    e->args = buf;
    e->rets = buf + an;
    memcpy(e->args, args, an * sizeof *args);
    c->stack_args[c->depth] = e->args;
    c->frames[c->depth] = NULL;
    c->stack[c->depth++] = fn;
    bool ok = analyse_func(c, fn, e->args, e->rets);
    c->depth--;
    e->next = c->memo;
    c->memo = e;
    return ok ? e->rets : NULL;
}

/* vprintf and __assertfail read the strings and argument buffers they are given (a null one
 * reads nothing); malloc returns memory of its own. */
static bool known_external(struct acc_ctx *c, const char *name, const acc_word *args, uint32_t nargs, acc_word *rets,
                           uint32_t nrets)
{
    if (!strcmp(name, "vprintf") || !strcmp(name, "__assertfail")) {
        for (uint32_t k = 0; k < nargs; k++) {
            const acc_word *s = &args[(size_t)k * c->words];
            if (!set_empty(s, c->words)) access_set(c, s, PTX_SPACE_NONE, PTX_ACCESS_READ);
        }
        return true;
    }
    if (!strcmp(name, "malloc")) {
        for (uint32_t k = 0; k < nrets; k++) set_bit(&rets[(size_t)k * c->words], ACC_OTHER);
        return true;
    }
    return false;
}

/* The function a call's target symbol names, its body if the module defines one. */
static const struct ptx_func *callee_of(const struct acc_ctx *c, const struct ptx_symbol *sym)
{
    if (!sym || sym->kind != PTX_SYM_FUNC || !sym->func) return NULL;
    const struct ptx_func *fn = sym->func;
    if (fn->is_decl) {
        const struct ptx_func *def = ptx_find_func(c->m, fn->name);
        if (def && !def->is_decl) fn = def;
    }
    return fn;
}

/* A call of fn from inside its own analysis, at depth d of the stack. When each argument's
 * origins are among those of the same parameter in that frame, everything the call can do
 * through them is being recorded by the frame already. A direct recursion returns what the
 * frame's return values hold so far: the frame visits its instructions again whenever they
 * grow, so the fixed point covers every depth. A longer cycle returns anything its
 * arguments, memory or module variables may give. False when an argument brings a new
 * origin (the caller then assumes anything). */
static bool recursive_call(struct acc_ctx *c, unsigned d, const struct ptx_func *fn, const acc_word *args,
                           uint32_t nargs, acc_word *rets, uint32_t nrets)
{
    const acc_word *active = c->stack_args[d];
    if (nargs != fn->nparams || nrets > fn->nrets) return false;
    for (size_t w = 0; w < (size_t)nargs * c->words; w++)
        if (args[w] & ~active[w]) return false;
    const struct acc_frame *f = d + 1 == c->depth ? c->frames[d] : NULL;
    for (uint32_t r = 0; r < nrets; r++) {
        acc_word *s = &rets[(size_t)r * c->words];
        if (f) {
            set_or(s, &f->slots[(size_t)(fn->nparams + r) * c->words], c->words);
            continue;
        }
        for (uint32_t k = 0; k < nargs; k++) set_or(s, &active[(size_t)k * c->words], c->words);
        set_bit(s, ACC_OTHER);
        set_bit(s, ACC_GLOBALS);
    }
    return true;
}

/* One target of a call: rets |= what it returns, its accesses recorded. */
static void call_target(struct acc_ctx *c, const struct ptx_func *fn, const acc_word *args, uint32_t nargs,
                        acc_word *rets, uint32_t nrets)
{
    int on_stack = -1;
    for (unsigned d = 0; fn && d < c->depth; d++)
        if (c->stack[d] == fn) on_stack = (int)d;
    if (fn && fn->is_decl && known_external(c, fn->name, args, nargs, rets, nrets)) return;
    if (on_stack >= 0 && recursive_call(c, (unsigned)on_stack, fn, args, nargs, rets, nrets)) return;
    if (!fn || fn->is_decl || fn->is_entry || on_stack >= 0 || c->depth >= ACC_MAX_DEPTH) {
        unknown_effects(c, args, nargs);
        for (uint32_t k = 0; k < nrets; k++) set_bit(&rets[(size_t)k * c->words], ACC_OTHER);
        return;
    }
    /* The callee's view: its parameters in order; arguments beyond them escape. */
    acc_word *own = calloc((size_t)fn->nparams * c->words + 1, sizeof *own);
    if (!own) { c->oom = true; return; }
    for (uint32_t k = 0; k < fn->nparams && k < nargs; k++)
        memcpy(&own[(size_t)k * c->words], &args[(size_t)k * c->words], c->words * sizeof *own);
    for (uint32_t k = fn->nparams; k < nargs; k++) escape_set(c, &args[(size_t)k * c->words]);
    const acc_word *r = follow_call(c, fn, own);
    free(own);
    for (uint32_t k = 0; r && k < nrets && k < fn->nrets; k++)
        set_or(&rets[(size_t)k * c->words], &r[(size_t)k * c->words], c->words);
    for (uint32_t k = fn->nrets; k < nrets; k++) set_bit(&rets[(size_t)k * c->words], ACC_OTHER);
}

/* Adds fn (by its symbol) to the functions whose address is taken, once. */
static void take(struct acc_ctx *c, const struct ptx_symbol *sym)
{
    const struct ptx_func *fn = callee_of(c, sym);
    if (!fn) return;
    if (fn->is_decl || fn->is_entry) {
        c->taken_decl = true;
        return;
    }
    for (uint32_t k = 0; k < c->ntaken; k++)
        if (c->taken[k] == fn) return;
    const struct ptx_func **t = realloc(c->taken, (c->ntaken + 1) * sizeof *t);
    if (!t) { c->oom = true; return; }
    c->taken = t;
    c->taken[c->ntaken++] = fn;
}

static void take_operand(struct acc_ctx *c, const struct ptx_operand *op)
{
    if (op->kind == PTX_OPND_SYM) take(c, op->sym);
    for (uint32_t e = 0; e < op->nelems && op->elems; e++) take_operand(c, &op->elems[e]);
}

/* Finds the functions whose address the module takes: a function pointer can hold only
 * those (a module cannot name another module's functions). */
static void find_taken(struct acc_ctx *c)
{
    c->taken_known = true;
    for (uint32_t i = 0; i < c->m->nglobals; i++) {
        const struct ptx_symbol *g = c->m->globals[i];
        for (uint32_t k = 0; k < g->ninit; k++)
            if (g->init[k].kind == PTX_INIT_SYM) take(c, g->init[k].sym);
    }
    for (uint32_t f = 0; f < c->m->nfuncs; f++) {
        const struct ptx_func *fn = c->m->funcs[f];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const struct ptx_instr *pi = &fn->instrs[i];
            for (uint32_t k = 0; k < pi->nops; k++)
                if (!(pi->op == PTX_OP_CALL && k == 1)) take_operand(c, &pi->ops[k]);
        }
    }
}

/* A call through a pointer: the .calltargets list when given, else every function whose
 * address is taken with as many parameters and return values (and anything when one of
 * them has no body here, or none fits). */
static void call_indirect(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi, const acc_word *args,
                          uint32_t nargs, acc_word *rets, uint32_t nrets)
{
    const struct ptx_label *l = pi->nops > 3 && pi->ops[3].kind == PTX_OPND_LABEL && pi->ops[3].label >= 0 &&
                                (uint32_t)pi->ops[3].label < f->fn->nlabels ? &f->fn->labels[pi->ops[3].label] : NULL;
    if (l && l->kind == PTX_LABEL_CALLTARGETS && l->ntargets) {
        for (uint32_t k = 0; k < l->ntargets; k++) call_target(c, callee_of(c, l->funcs[k]), args, nargs, rets, nrets);
        return;
    }
    if (!c->taken_known) find_taken(c);
    bool any = false;
    for (uint32_t k = 0; k < c->ntaken; k++)
        if (c->taken[k]->nparams == nargs && c->taken[k]->nrets == nrets) {
            call_target(c, c->taken[k], args, nargs, rets, nrets);
            any = true;
        }
    if (!any || c->taken_decl) call_target(c, NULL, args, nargs, rets, nrets);
}

/* call (rets), target, (args) [, targets]: ops[0] and ops[2] are lists of .param symbols
 * (the call sequence's buffers) or registers. */
static void do_call(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    if (pi->nops < 3 || pi->ops[0].kind != PTX_OPND_LIST || pi->ops[2].kind != PTX_OPND_LIST) {
        unknown_effects(c, NULL, 0);
        return;
    }
    const struct ptx_operand *rl = &pi->ops[0], *al = &pi->ops[2], *t = &pi->ops[1];
    uint32_t nargs = al->nelems, nrets = rl->nelems;
    acc_word *args = calloc((size_t)(nargs + nrets) * c->words + 1, sizeof *args);
    if (!args) { c->oom = true; return; }
    acc_word *rets = args + (size_t)nargs * c->words;
    for (uint32_t k = 0; k < nargs; k++) {
        const struct ptx_operand *a = &al->elems[k];
        acc_word *slot = a->kind == PTX_OPND_SYM ? slot_set(c, f, a->sym, NULL) : NULL;
        if (slot) set_or(&args[(size_t)k * c->words], slot, c->words);
        else operand_origin(c, f, a, &args[(size_t)k * c->words]);
    }
    if (t->kind == PTX_OPND_SYM && t->sym && t->sym->kind == PTX_SYM_FUNC) {
        call_target(c, callee_of(c, t->sym), args, nargs, rets, nrets);
    } else {
        call_indirect(c, f, pi, args, nargs, rets, nrets);
    }
    for (uint32_t k = 0; k < nrets; k++) {
        const struct ptx_operand *r = &rl->elems[k];
        acc_word *slot = r->kind == PTX_OPND_SYM ? slot_set(c, f, r->sym, NULL) : NULL;
        if (slot) f->changed |= set_or(slot, &rets[(size_t)k * c->words], c->words);
        else write_dest(c, f, r, &rets[(size_t)k * c->words]);
    }
    free(args);
}

/* The state spaces pi names, in order (cp.async.bulk.global.shared::cta: global, shared). */
static unsigned spaces_of(const struct ptx_instr *pi, enum ptx_space *out, unsigned max)
{
    unsigned n = 0;
    for (uint32_t k = 0; k < pi->nmods && n < max; k++)
        if (ptx_mod_category(pi->mods[k]) == PTX_MC_SPACE) out[n++] = ptx_space_of_mod(pi->mods[k]);
    return n;
}

static bool has_mod(const struct ptx_instr *pi, enum ptx_mod m)
{
    for (uint32_t k = 0; k < pi->nmods; k++)
        if (pi->mods[k] == m) return true;
    return false;
}

static bool global_or_generic(enum ptx_space sp)
{
    return sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_NONE || sp == PTX_SPACE_GENERIC;
}

/* cp.async (global -> shared), cp.async.bulk in either direction, cp.reduce.async.bulk, and
 * their .tensor forms, whose global side a tensor map describes (other). The commit and
 * wait forms touch no memory; the .prefetch forms only hint. */
static void do_cp(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    if (has_mod(pi, PTX_MOD_COMMIT_GROUP) || has_mod(pi, PTX_MOD_WAIT_GROUP) || has_mod(pi, PTX_MOD_WAIT_ALL) ||
        has_mod(pi, PTX_MOD_PREFETCH) || has_mod(pi, PTX_MOD_MBARRIER))
        return;
    enum ptx_space sp[2];
    unsigned n = spaces_of(pi, sp, 2);
    if (n != 2 || pi->nops < 2) {
        c->out->other |= PTX_ACCESS_RW;
        return;
    }
    unsigned dmode = has_mod(pi, PTX_MOD_REDUCE) ? PTX_ACCESS_RW : PTX_ACCESS_WRITE;
    if (has_mod(pi, PTX_MOD_TENSOR)) {
        /* [dst], [tmap, {coords}] or [tmap, {coords}], [src]: the tensor map is read. */
        if (global_or_generic(sp[0])) {
            c->out->other |= dmode;
            access_op(c, f, pi, 0, PTX_SPACE_NONE, PTX_ACCESS_READ);
        }
        if (global_or_generic(sp[1])) {
            c->out->other |= PTX_ACCESS_READ;
            access_op(c, f, pi, 1, PTX_SPACE_NONE, PTX_ACCESS_READ);
        }
        return;
    }
    if (global_or_generic(sp[0])) access_op(c, f, pi, 0, PTX_SPACE_GLOBAL, dmode);
    if (global_or_generic(sp[1])) access_op(c, f, pi, 1, PTX_SPACE_GLOBAL, PTX_ACCESS_READ);
}

/* multimem.ld_reduce d, [a]; multimem.st [a], b; multimem.red [a], b. */
static void do_multimem(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    if (has_mod(pi, PTX_MOD_LD_REDUCE)) {
        access_op(c, f, pi, 1, PTX_SPACE_GLOBAL, PTX_ACCESS_READ);
        load_result(c, f, pi, 0);
    } else if (has_mod(pi, PTX_MOD_ST) || has_mod(pi, PTX_MOD_RED)) {
        access_op(c, f, pi, 0, PTX_SPACE_GLOBAL, has_mod(pi, PTX_MOD_ST) ? PTX_ACCESS_WRITE : PTX_ACCESS_RW);
        escape_values(c, f, pi, 1);
    } else {
        c->out->other |= PTX_ACCESS_RW;
        escape_values(c, f, pi, 0);
    }
}

/* One instruction's effect on the frame and the result. */
static void visit(struct acc_ctx *c, struct acc_frame *f, const struct ptx_instr *pi)
{
    switch (pi->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        if (pi->space == PTX_SPACE_PARAM) {
            load_param(c, f, pi);
        } else {
            access_op(c, f, pi, 1, pi->space, PTX_ACCESS_READ);
            load_result(c, f, pi, 0);
        }
        return;
    case PTX_OP_ST:
        if (pi->space == PTX_SPACE_PARAM) {
            store_param(c, f, pi);
        } else {
            access_op(c, f, pi, 0, pi->space, PTX_ACCESS_WRITE);
            escape_values(c, f, pi, 1);
        }
        return;
    case PTX_OP_ATOM:
        access_op(c, f, pi, 1, pi->space, PTX_ACCESS_RW);
        escape_values(c, f, pi, 2);
        load_result(c, f, pi, 0);
        return;
    case PTX_OP_RED:
        access_op(c, f, pi, 0, pi->space, PTX_ACCESS_RW);
        escape_values(c, f, pi, 1);
        return;
    case PTX_OP_DISCARD:   /* the line's contents become undefined: a write */
        access_op(c, f, pi, 0, pi->space, PTX_ACCESS_WRITE);
        return;
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_APPLYPRIORITY:   /* hints only */
        return;
    case PTX_OP_CVTA:
        if (pi->nops < 2) return;
        if (pi->space == PTX_SPACE_GLOBAL || pi->space == PTX_SPACE_CONST || pi->space == PTX_SPACE_NONE) {
            flow(c, f, pi, -1);
        } else {
            memset(f->tmp, 0, c->words * sizeof *f->tmp);
            set_bit(f->tmp, ACC_SPACE);
            write_dest(c, f, &pi->ops[0], f->tmp);
        }
        return;
    case PTX_OP_MAPA:
        if (pi->space == PTX_SPACE_SHARED_CLUSTER || pi->space == PTX_SPACE_SHARED) {
            memset(f->tmp, 0, c->words * sizeof *f->tmp);
            set_bit(f->tmp, ACC_SPACE);
            if (pi->nops) write_dest(c, f, &pi->ops[0], f->tmp);
        } else {
            flow(c, f, pi, -1);
        }
        return;
    case PTX_OP_ALLOCA: case PTX_OP_STACKSAVE:
        flow(c, f, pi, ACC_SPACE);
        return;
    case PTX_OP_CALL:
        do_call(c, f, pi);
        return;
    case PTX_OP_CP:
        do_cp(c, f, pi);
        return;
    case PTX_OP_MULTIMEM:
        do_multimem(c, f, pi);
        return;
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD:   /* memory the handle names: unknown */
        c->out->other |= PTX_ACCESS_READ;
        return;
    case PTX_OP_SUST:
        c->out->other |= PTX_ACCESS_WRITE;
        escape_values(c, f, pi, 1);
        return;
    case PTX_OP_SURED:
        c->out->other |= PTX_ACCESS_RW;
        escape_values(c, f, pi, 1);
        return;
    case PTX_OP_WMMA:
        if (pi->subop == PTX_MOD_LOAD) {
            access_op(c, f, pi, 1, pi->space, PTX_ACCESS_READ);
        } else if (pi->subop == PTX_MOD_STORE) {
            access_op(c, f, pi, 0, pi->space, PTX_ACCESS_WRITE);
            escape_values(c, f, pi, 1);
        } else if (pi->subop != PTX_MOD_MMA) {
            c->out->other |= PTX_ACCESS_RW;
        }
        return;
    case PTX_OP_TENSORMAP:   /* .replace [tmap], value; .cp_fenceproxy.global.shared [dst], [src], size */
        access_op(c, f, pi, 0, pi->space, PTX_ACCESS_RW);
        escape_values(c, f, pi, 1);
        return;
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MBARRIER:   /* shared memory only */
        return;
    case PTX_OP_MMA: case PTX_OP_MOVMATRIX: case PTX_OP_WGMMA:          /* registers and shared */
        return;
    default:
        break;
    }
    uint32_t fl = ptx_opcode_flags(pi->op);
    if (fl & PTX_OPF_MEMORY) {
        /* A memory instruction this analysis does not model (tcgen05, clusterlaunchcontrol,
         * fences, barriers ...): only membar and fence are known to touch nothing. */
        if (pi->op != PTX_OP_MEMBAR && pi->op != PTX_OP_FENCE) {
            c->out->other |= PTX_ACCESS_RW;
            escape_values(c, f, pi, (fl & PTX_OPF_WRITES) ? 1 : 0);
            if (fl & PTX_OPF_WRITES) flow(c, f, pi, ACC_OTHER);
        }
        return;
    }
    if (fl & PTX_OPF_WRITES) flow(c, f, pi, -1);
}

/* Builds the frame's .param slots: parameters, return values, then the body's .param symbols. */
static bool frame_slots(struct acc_ctx *c, struct acc_frame *f)
{
    const struct ptx_func *fn = f->fn;
    uint32_t n = fn->nparams + fn->nrets;
    for (uint32_t i = 0; i < fn->nlocals; i++) n += fn->locals[i]->space == PTX_SPACE_PARAM;
    f->slot_of = malloc(((size_t)n + 1) * sizeof *f->slot_of);
    f->slots = calloc((size_t)n * c->words + 1, sizeof *f->slots);
    if (!f->slot_of || !f->slots) return false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < fn->nparams; i++) f->slot_of[k] = (struct acc_slot){ fn->params[i], k }, k++;
    for (uint32_t i = 0; i < fn->nrets; i++) f->slot_of[k] = (struct acc_slot){ fn->rets[i], k }, k++;
    for (uint32_t i = 0; i < fn->nlocals; i++)
        if (fn->locals[i]->space == PTX_SPACE_PARAM) f->slot_of[k] = (struct acc_slot){ fn->locals[i], k }, k++;
    f->nslots = n;
    qsort(f->slot_of, n, sizeof *f->slot_of, slot_cmp);
    return true;
}

/* Analyses fn with its parameters' sets args (NULL for the entry) to a fixed point;
 * rets |= its return values' sets. False when memory runs out. */
static bool analyse_func(struct acc_ctx *c, const struct ptx_func *fn, const acc_word *args, acc_word *rets)
{
    struct acc_frame f = { .fn = fn };
    f.regs = calloc((size_t)fn->nregs * c->words + 1, sizeof *f.regs);
    f.tmp = calloc(c->words, sizeof *f.tmp);
    bool ok = f.regs && f.tmp && frame_slots(c, &f);
    if (ok && args) memcpy(f.slots, args, (size_t)fn->nparams * c->words * sizeof *args);
    if (args && c->depth) c->frames[c->depth - 1] = &f;
    for (f.changed = ok; f.changed && !c->oom && !c->gave_up;) {
        f.changed = false;
        if (c->visits > ACC_MAX_VISITS - fn->ninstrs) {
            c->gave_up = true;
            break;
        }
        c->visits += fn->ninstrs;
        for (uint32_t i = 0; i < fn->ninstrs && !c->oom; i++) visit(c, &f, &fn->instrs[i]);
    }
    if (ok && rets)
        for (uint32_t k = 0; k < fn->nrets; k++)
            set_or(&rets[(size_t)k * c->words], &f.slots[(size_t)(fn->nparams + k) * c->words], c->words);
    if (args && c->depth) c->frames[c->depth - 1] = NULL;
    free(f.regs); free(f.tmp); free(f.slots); free(f.slot_of);
    if (!ok) c->oom = true;
    return ok && !c->oom;
}

int ptx_access_analyze(const struct ptx_module *m, const struct ptx_func *entry, struct ptx_kernel_access *out,
                       char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!m || !entry) {
        snprintf(err, errlen, "no module or kernel to analyse");
        return -1;
    }
    if (!entry->is_entry || entry->is_decl) {
        snprintf(err, errlen, "'%s' is %s, not a kernel with a body", entry->name,
                 entry->is_entry ? "a declaration only" : "a .func");
        return -1;
    }
    out->nparams = entry->nparams;
    out->params = entry->nparams ? calloc(entry->nparams, sizeof *out->params) : NULL;
    struct acc_ctx c = { .m = m, .entry = entry, .out = out };
    c.words = (ACC_PARAM0 + entry->nparams + 63) / 64;
    bool ok = (!entry->nparams || out->params) && analyse_func(&c, entry, NULL, NULL);
    free(c.taken);
    for (struct acc_memo *e = c.memo, *next; e; e = next) {
        next = e->next;
        free(e->args);
        free(e);
    }
    if (!ok && !c.gave_up) {
        ptx_access_free(out);
        snprintf(err, errlen, "out of memory analysing '%s'", entry->name);
        return -1;
    }
    if (c.gave_up) {   /* too much to follow: assume the worst */
        for (unsigned k = 0; k < out->nparams; k++) out->params[k].escapes = true;
        out->globals = out->other = PTX_ACCESS_RW;
    }
    return 0;
}

void ptx_access_free(struct ptx_kernel_access *a)
{
    if (!a) return;
    free(a->params);
    memset(a, 0, sizeof *a);
}

const char *ptx_access_mode_name(unsigned mode)
{
    static const char *const names[4] = { "none", "read", "write", "read-write" };
    return names[mode & PTX_ACCESS_RW];
}

unsigned ptx_access_param_mode(const struct ptx_param_access *p)
{
    return p->escapes ? PTX_ACCESS_RW : p->mode;
}

/* Appends text to out at *used, truncating at size. */
static void describe_add(char *out, size_t size, size_t *used, const char *text)
{
    size_t n = strlen(text);
    if (*used + 1 >= size) return;
    if (n > size - 1 - *used) n = size - 1 - *used;
    memcpy(out + *used, text, n);
    *used += n;
    out[*used] = 0;
}

void ptx_access_describe(const struct ptx_func *entry, const struct ptx_kernel_access *a, char *out, size_t size)
{
    size_t used = 0, flen = strlen(entry->name);
    if (!size) return;
    out[0] = 0;
    for (unsigned k = 0; k < a->nparams && k < entry->nparams; k++) {
        const char *name = entry->params[k]->name;
        if (!strncmp(name, entry->name, flen) && name[flen] == '_' && name[flen + 1]) name += flen + 1;
        const struct ptx_param_access *p = &a->params[k];
        describe_add(out, size, &used, k ? ", " : "");
        describe_add(out, size, &used, name);
        if (p->mode) {
            describe_add(out, size, &used, " ");
            describe_add(out, size, &used, ptx_access_mode_name(p->mode));
        }
        describe_add(out, size, &used, p->escapes ? " escapes" : p->mode ? "" : " (value)");
    }
    if (!a->nparams) describe_add(out, size, &used, "no parameters");
    if (a->globals) {
        describe_add(out, size, &used, "; globals ");
        describe_add(out, size, &used, ptx_access_mode_name(a->globals));
    }
    if (a->other) {
        describe_add(out, size, &used, "; other ");
        describe_add(out, size, &used, ptx_access_mode_name(a->other));
    }
}
