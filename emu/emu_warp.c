/* emu_warp.c -- warp-level instructions: shfl, vote, match, redux, activemask, elect.
 * Each handler reads every source lane before it writes any destination. */
#include "emu/emu.h"
#include "emu/emu_internal.h"

#include "loom/loom.h"

/* Flags in inst.sub2 of every warp handler. */
enum {
    WARP_F_SYNC = 1u << 0,   /* .sync form: the member mask is row v[0] */
    WARP_F_NEG = 1u << 1,    /* vote: the source predicate is negated (!a) */
};

/* Shuffle modes (inst.sub of shfl). */
enum warp_shfl_mode { WARP_SHFL_UP, WARP_SHFL_DOWN, WARP_SHFL_BFLY, WARP_SHFL_IDX };

/* ---- Member masks ---------------------------------------------------------
 * A .sync instruction names, per lane, the lanes that take part with it. In
 * Loom's lockstep model the lanes of the member mask that exist and have not
 * exited must all be executing this instruction now (in m, guard applied);
 * otherwise it is reported as a fault naming the missing lanes. A GPU would
 * make them wait for each other instead: with the PDOM stack that matters for a
 * block reached along several divergent paths (the else block of `a && b`),
 * whose lanes arrive separately. Exited lanes and lanes past the end of a
 * partial warp are treated as absent (on the GPU, naming exited lanes is
 * undefined behaviour). The legacy forms (no .sync) take the executing lanes as
 * their member mask. warp_members() fills out_part[l] with the lanes that take
 * part with lane l, or returns EMU_STOP_FAULT. */
static int warp_members(struct emu_warp *w, const struct emu_inst *in, emu_mask m, const char *what,
                        emu_mask out_part[EMU_WARP_SIZE])
{
    if (!(in->sub2 & WARP_F_SYNC)) {
        EMU_LANES(l) out_part[l] = m;
        return EMU_CONTINUE;
    }
    const uint32_t *mm = EMU_R32(w, in->v[0]);
    memset(out_part, 0, EMU_WARP_SIZE * sizeof *out_part);
    emu_mask present = w->valid & ~w->exited;
    EMU_LANES(l) {
        if (!EMU_ON(m, l))
            continue;
        emu_mask missing = mm[l] & ~m & present;
        if (missing)
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "%s member mask 0x%08x names lanes 0x%08x that are not converged here (sm_70 and "
                             "later GPUs let them meet at another instruction: --simt its runs that)",
                             what, mm[l], missing);
        out_part[l] = mm[l] & m;
    }
    return EMU_CONTINUE;
}

/* Writes row d (when it exists) for the lanes of m. */
static void warp_put32(struct emu_warp *w, uint16_t d, emu_mask m, const uint32_t val[EMU_WARP_SIZE])
{
    if (d == EMU_NOREG)
        return;
    uint32_t *row = EMU_R32(w, d);
    EMU_LANES(l) row[l] = EMU_ON(m, l) ? val[l] : row[l];
}

/* Writes predicate p (when it exists) for the lanes of m. */
static void warp_putp(struct emu_warp *w, uint16_t p, emu_mask m, emu_mask val)
{
    if (p != EMU_NOREG)
        w->pred[p] = (w->pred[p] & ~m) | (val & m);
}

/* ---- shfl -----------------------------------------------------------------
 * PTX ISA, "Parallel Synchronization and Communication Instructions: shfl.sync":
 * b[4:0] is the lane or offset; c packs the clamp value c[4:0] and the segment
 * mask c[12:8] (c = ((32 - width) << 8) | clamp). Within its segment a lane
 * reads lane j; when j lies beyond the clamp (p false) it reads its own value. */
static int warp_shfl(struct emu_warp *w, const struct emu_inst *in, emu_mask m, enum warp_shfl_mode mode)
{
    emu_mask part[EMU_WARP_SIZE];
    if (warp_members(w, in, m, "shfl.sync", part) != EMU_CONTINUE)
        return EMU_STOP_FAULT;
    uint32_t src[EMU_WARP_SIZE], res[EMU_WARP_SIZE];
    memcpy(src, EMU_R32(w, in->a), sizeof src);
    emu_mask inrange = 0;
    EMU_LANES(l) {
        if (!EMU_ON(m, l))
            continue;
        int lane = (int)l;
        int b = (int)(EMU_R32(w, in->b)[l] & 31u);
        uint32_t c = EMU_R32(w, in->c)[l];
        int seg = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
        int max_lane = (lane & seg) | (clamp & ~seg);
        int min_lane = lane & seg;
        int j = lane;
        bool ok = false;
        switch (mode) {
        case WARP_SHFL_UP:   j = lane - b;                ok = j >= max_lane; break;
        case WARP_SHFL_DOWN: j = lane + b;                ok = j <= max_lane; break;
        case WARP_SHFL_BFLY: j = lane ^ b;                ok = j <= max_lane; break;
        case WARP_SHFL_IDX:  j = min_lane | (b & ~seg);   ok = j <= max_lane; break;
        }
        if (!ok)
            j = lane;
        res[l] = src[j];
        inrange |= (emu_mask)ok << l;
    }
    warp_put32(w, in->d, m, res);
    warp_putp(w, in->e, m, inrange);
    return EMU_CONTINUE;
}

#define WARP_SHFL_HANDLER(name, mode)                                              \
    static int emu_shfl_##name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                              \
        return warp_shfl(w, in, m, mode);                                          \
    }
WARP_SHFL_HANDLER(up, WARP_SHFL_UP)
WARP_SHFL_HANDLER(down, WARP_SHFL_DOWN)
WARP_SHFL_HANDLER(bfly, WARP_SHFL_BFLY)
WARP_SHFL_HANDLER(idx, WARP_SHFL_IDX)

/* ---- vote -----------------------------------------------------------------
 * PTX ISA, "vote.sync": .all/.any/.uni over the non-exited lanes of the member
 * mask; .ballot.b32 sets bit l for each taking-part lane l whose predicate holds. */
static emu_mask warp_vote_src(const struct emu_warp *w, const struct emu_inst *in)
{
    emu_mask a = w->pred[in->a];
    return (in->sub2 & WARP_F_NEG) ? ~a : a;
}

#define WARP_VOTE_PRED(name, TEST)                                                  \
    static int emu_vote_##name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                               \
        emu_mask part[EMU_WARP_SIZE];                                               \
        if (warp_members(w, in, m, "vote.sync", part) != EMU_CONTINUE)              \
            return EMU_STOP_FAULT;                                                  \
        emu_mask a = warp_vote_src(w, in), res = 0;                                 \
        EMU_LANES(l) {                                                              \
            emu_mask g = part[l], t = a & g;                                        \
            if (EMU_ON(m, l) && (TEST))                                             \
                res |= 1u << l;                                                     \
        }                                                                           \
        warp_putp(w, in->d, m, res);                                                \
        return EMU_CONTINUE;                                                        \
    }
WARP_VOTE_PRED(all, t == g)
WARP_VOTE_PRED(any, t != 0)
WARP_VOTE_PRED(uni, t == 0 || t == g)

static int emu_vote_ballot(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_mask part[EMU_WARP_SIZE];
    if (warp_members(w, in, m, "vote.sync", part) != EMU_CONTINUE)
        return EMU_STOP_FAULT;
    emu_mask a = warp_vote_src(w, in);
    uint32_t res[EMU_WARP_SIZE];
    EMU_LANES(l) res[l] = a & part[l];
    warp_put32(w, in->d, m, res);
    return EMU_CONTINUE;
}

/* ---- match ----------------------------------------------------------------
 * PTX ISA, "match.sync": .any gives each lane the taking-part lanes holding its
 * value; .all gives the whole taking-part mask (and p true) when all of them
 * hold the same value, else 0 (and p false). */
#define WARP_MATCH(bits, ROW)                                                       \
    static int emu_match_any_b##bits(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                               \
        emu_mask part[EMU_WARP_SIZE];                                               \
        if (warp_members(w, in, m, "match.sync", part) != EMU_CONTINUE)             \
            return EMU_STOP_FAULT;                                                  \
        uint##bits##_t src[EMU_WARP_SIZE];                                          \
        uint32_t res[EMU_WARP_SIZE];                                                \
        memcpy(src, ROW(w, in->a), sizeof src);                                     \
        EMU_LANES(l) {                                                              \
            res[l] = 0;                                                             \
            EMU_LANES(k) if (EMU_ON(part[l], k) && src[k] == src[l]) res[l] |= 1u << k; \
        }                                                                           \
        warp_put32(w, in->d, m, res);                                               \
        return EMU_CONTINUE;                                                        \
    }                                                                               \
    static int emu_match_all_b##bits(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                               \
        emu_mask part[EMU_WARP_SIZE], same = 0;                                     \
        if (warp_members(w, in, m, "match.sync", part) != EMU_CONTINUE)             \
            return EMU_STOP_FAULT;                                                  \
        uint##bits##_t src[EMU_WARP_SIZE];                                          \
        uint32_t res[EMU_WARP_SIZE];                                                \
        memcpy(src, ROW(w, in->a), sizeof src);                                     \
        EMU_LANES(l) {                                                              \
            bool all = true;                                                        \
            EMU_LANES(k) if (EMU_ON(part[l], k) && src[k] != src[l]) all = false;   \
            res[l] = all ? part[l] : 0;                                             \
            same |= (emu_mask)all << l;                                             \
        }                                                                           \
        warp_put32(w, in->d, m, res);                                               \
        warp_putp(w, in->e, m, same);                                               \
        return EMU_CONTINUE;                                                        \
    }
WARP_MATCH(32, EMU_R32)
WARP_MATCH(64, EMU_R64)

/* ---- redux ----------------------------------------------------------------
 * PTX ISA, "redux.sync": every taking-part lane receives the reduction of the
 * source over the taking-part lanes. .add wraps modulo 2^32. */
#define WARP_REDUX(name, T, INIT, STEP)                                             \
    static int emu_redux_##name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                               \
        emu_mask part[EMU_WARP_SIZE];                                               \
        if (warp_members(w, in, m, "redux.sync", part) != EMU_CONTINUE)             \
            return EMU_STOP_FAULT;                                                  \
        uint32_t src[EMU_WARP_SIZE], res[EMU_WARP_SIZE];                            \
        memcpy(src, EMU_R32(w, in->a), sizeof src);                                 \
        EMU_LANES(l) {                                                              \
            T acc = (INIT);                                                         \
            EMU_LANES(k) {                                                          \
                T x = (T)src[k];                                                    \
                if (EMU_ON(part[l], k))                                             \
                    acc = (STEP);                                                   \
            }                                                                       \
            res[l] = (uint32_t)acc;                                                 \
        }                                                                           \
        warp_put32(w, in->d, m, res);                                               \
        return EMU_CONTINUE;                                                        \
    }
WARP_REDUX(add, uint32_t, 0u, acc + x)
WARP_REDUX(min_u32, uint32_t, UINT32_MAX, x < acc ? x : acc)
WARP_REDUX(max_u32, uint32_t, 0u, x > acc ? x : acc)
WARP_REDUX(min_s32, int32_t, INT32_MAX, x < acc ? x : acc)
WARP_REDUX(max_s32, int32_t, INT32_MIN, x > acc ? x : acc)
WARP_REDUX(and, uint32_t, UINT32_MAX, acc & x)
WARP_REDUX(or, uint32_t, 0u, acc | x)
WARP_REDUX(xor, uint32_t, 0u, acc ^ x)

/* ---- Different instructions as one (the SIMT thread engine) ------------------
 * On sm_70 and later GPUs the lanes a .sync instruction's member mask names may
 * stand at different instructions of the same kind (the two sides of a branch each
 * calling __shfl_sync(0xffffffff, ...)): each lane contributes its own
 * instruction's operands and receives its own instruction's result. emu/simt/
 * steps.c runs such a set through the first instruction's handler: the other lanes'
 * slots of its operand rows hold their own instructions' operands meanwhile, and
 * their results move to their own destinations afterwards (every row is put back,
 * so rows that the instructions share come out right). shfl and vote only; they
 * must be the same operation (handler and flags). Returns EMU_CONTINUE, a stop code,
 * or -1 when the set cannot run as one. */
static bool joint_kind(emu_fn fn, bool *shfl)
{
    *shfl = fn == emu_shfl_up || fn == emu_shfl_down || fn == emu_shfl_bfly || fn == emu_shfl_idx;
    return *shfl || fn == emu_vote_all || fn == emu_vote_any || fn == emu_vote_uni || fn == emu_vote_ballot;
}

int emu_warp_joint(struct emu_warp *w, const struct emu_inst *const *ins, const emu_mask *masks, unsigned n)
{
    const struct emu_inst *in0 = ins[0];
    bool shfl, ballot = in0->fn == emu_vote_ballot;
    if (!joint_kind(in0->fn, &shfl) || !(in0->sub2 & WARP_F_SYNC)) return -1;
    emu_mask all = 0, others = 0;
    for (unsigned i = 0; i < n; i++) {
        if (ins[i]->fn != in0->fn || ins[i]->sub2 != in0->sub2) return -1;
        all |= masks[i];
        if (i) others |= masks[i];
    }
    /* The first instruction's rows as they were, in the other lanes. */
    uint16_t src32[4] = { shfl ? in0->a : EMU_NOREG, shfl ? in0->b : EMU_NOREG, shfl ? in0->c : EMU_NOREG, in0->v[0] };
    uint32_t keep32[4][EMU_WARP_SIZE], keepd[EMU_WARP_SIZE];
    for (unsigned r = 0; r < 4; r++)
        if (src32[r] != EMU_NOREG) memcpy(keep32[r], EMU_R32(w, src32[r]), sizeof keep32[r]);
    bool d32 = shfl || ballot;
    if (d32) memcpy(keepd, EMU_R32(w, in0->d), sizeof keepd);
    emu_mask keep_pa = shfl ? 0 : w->pred[in0->a];
    emu_mask keep_pd = d32 ? 0 : w->pred[in0->d];
    emu_mask keep_pe = shfl && in0->e != EMU_NOREG ? w->pred[in0->e] : 0;
    for (unsigned i = 1; i < n; i++) {
        const struct emu_inst *in = ins[i];
        uint16_t mine[4] = { shfl ? in->a : EMU_NOREG, shfl ? in->b : EMU_NOREG, shfl ? in->c : EMU_NOREG, in->v[0] };
        EMU_LANES(l) {
            if (!EMU_ON(masks[i], l)) continue;
            for (unsigned r = 0; r < 4; r++)
                if (src32[r] != EMU_NOREG) EMU_R32(w, src32[r])[l] = mine[r] != EMU_NOREG ? EMU_R32(w, mine[r])[l] : 0;
        }
        if (!shfl) w->pred[in0->a] = (w->pred[in0->a] & ~masks[i]) | (w->pred[in->a] & masks[i]);
    }
    int rc = in0->fn(w, in0, all);
    /* Results for the other lanes, then the first instruction's rows back, then the results in place. */
    uint32_t res32[EMU_WARP_SIZE];
    emu_mask resp = d32 ? 0 : w->pred[in0->d], rese = shfl && in0->e != EMU_NOREG ? w->pred[in0->e] : 0;
    if (d32) memcpy(res32, EMU_R32(w, in0->d), sizeof res32);
    for (unsigned r = 0; r < 4; r++)
        if (src32[r] != EMU_NOREG) {
            uint32_t *row = EMU_R32(w, src32[r]);
            EMU_LANES(l) if (EMU_ON(others, l)) row[l] = keep32[r][l];
        }
    if (!shfl) w->pred[in0->a] = (w->pred[in0->a] & ~others) | (keep_pa & others);
    if (rc != EMU_CONTINUE) return rc;
    if (d32) { uint32_t *row = EMU_R32(w, in0->d); EMU_LANES(l) if (EMU_ON(others, l)) row[l] = keepd[l]; }
    else w->pred[in0->d] = (w->pred[in0->d] & ~others) | (keep_pd & others);
    if (shfl && in0->e != EMU_NOREG) w->pred[in0->e] = (w->pred[in0->e] & ~others) | (keep_pe & others);
    for (unsigned i = 1; i < n; i++) {
        const struct emu_inst *in = ins[i];
        emu_mask m = masks[i];
        if (d32) { uint32_t *row = EMU_R32(w, in->d); EMU_LANES(l) if (EMU_ON(m, l)) row[l] = res32[l]; }
        else w->pred[in->d] = (w->pred[in->d] & ~m) | (resp & m);
        if (shfl && in->e != EMU_NOREG) w->pred[in->e] = (w->pred[in->e] & ~m) | (rese & m);
    }
    return EMU_CONTINUE;
}

/* ---- activemask, elect ----------------------------------------------------
 * activemask.b32: the predicated-on active lanes. elect.sync: the lowest
 * taking-part lane is the leader; d receives its lane id and p is true in it. */
static int emu_activemask(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t res[EMU_WARP_SIZE];
    EMU_LANES(l) res[l] = m;
    warp_put32(w, in->d, m, res);
    return EMU_CONTINUE;
}

static int emu_elect(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_mask part[EMU_WARP_SIZE], leader = 0;
    if (warp_members(w, in, m, "elect.sync", part) != EMU_CONTINUE)
        return EMU_STOP_FAULT;
    uint32_t res[EMU_WARP_SIZE];
    EMU_LANES(l) {
        res[l] = part[l] ? (uint32_t)__builtin_ctz(part[l]) : l;
        if (EMU_ON(m, l) && res[l] == l)
            leader |= 1u << l;
    }
    warp_put32(w, in->d, m, res);
    warp_putp(w, in->e, m, leader);
    return EMU_CONTINUE;
}

/* ---- Selection --------------------------------------------------------------
 * Operands as the parser gives them: a pair destination `d|p` arrives either as
 * two operands or as one two-element vector; `_` (a sink) means "not written". */
struct warp_ops {
    const struct ptx_operand *d, *p;   /* destinations; NULL when absent or `_` */
    const struct ptx_operand *src[4];  /* sources in order */
    unsigned nsrc;
};

static const struct ptx_operand *warp_not_sink(const struct ptx_operand *op)
{
    return op->kind == PTX_OPND_SINK ? NULL : op;
}

/* Splits pi's operands into destinations and sources; `pair` says whether the
 * instruction may have a `d|p` pair, `nsrc` how many sources it takes. */
static bool warp_split(const struct ptx_instr *pi, bool pair, unsigned nsrc, struct warp_ops *out)
{
    unsigned first;
    memset(out, 0, sizeof *out);
    if (pi->nops < 1)
        return false;
    if (pair && pi->ops[0].kind == PTX_OPND_VEC && pi->ops[0].nelems == 2) {
        out->d = warp_not_sink(&pi->ops[0].elems[0]);
        out->p = warp_not_sink(&pi->ops[0].elems[1]);
        first = 1;
    } else if (pair && pi->nops == nsrc + 2) {
        out->d = warp_not_sink(&pi->ops[0]);
        out->p = warp_not_sink(&pi->ops[1]);
        first = 2;
    } else {
        out->d = warp_not_sink(&pi->ops[0]);
        first = 1;
    }
    if (pi->nops != first + nsrc || nsrc > 4)
        return false;
    for (unsigned i = 0; i < nsrc; i++)
        out->src[i] = &pi->ops[first + i];
    out->nsrc = nsrc;
    return true;
}

/* Fills the common fields: no destinations yet, member mask when .sync. */
static void warp_init(struct emu_inst *out, emu_fn fn, uint8_t sub2)
{
    out->fn = fn;
    out->d = out->a = out->b = out->c = out->e = EMU_NOREG;
    out->sub = 0;
    out->sub2 = sub2;
    out->v[0] = EMU_NOREG;
    out->skind = (sub2 & WARP_F_SYNC) ? EMU_SK_WSYNC : EMU_SK_WARP;   /* (member mask row v[0]) */
}

static uint16_t warp_dst32(struct emu_decoder *dc, const struct ptx_operand *op)
{
    return op ? emu_dec_dst(dc, op, PTX_T_B32) : EMU_NOREG;
}

static uint16_t warp_dstp(struct emu_decoder *dc, const struct ptx_operand *op)
{
    return op ? emu_dec_pred(dc, op) : EMU_NOREG;
}

static enum emu_sel warp_sel_shfl(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool sync = pi->flags & PTX_IF_SYNC;
    struct warp_ops o;
    emu_fn fn;
    switch (pi->subop) {
    case PTX_MOD_UP: fn = emu_shfl_up; break;
    case PTX_MOD_DOWN: fn = emu_shfl_down; break;
    case PTX_MOD_BFLY: fn = emu_shfl_bfly; break;
    case PTX_MOD_IDX: fn = emu_shfl_idx; break;
    default: return emu_dec_unsupported(dc, "shfl needs one of .up .down .bfly .idx");
    }
    if (pi->ntypes != 1 || pi->types[0] != PTX_T_B32)
        return emu_dec_unsupported(dc, "shfl is defined for .b32 only");
    if (!warp_split(pi, true, sync ? 4 : 3, &o) || !o.d)
        return emu_dec_unsupported(dc, "shfl takes d[|p], a, b, c[, membermask]");
    warp_init(out, fn, sync ? WARP_F_SYNC : 0);
    out->a = emu_dec_src(dc, o.src[0], PTX_T_B32);
    out->b = emu_dec_src(dc, o.src[1], PTX_T_B32);
    out->c = emu_dec_src(dc, o.src[2], PTX_T_B32);
    if (sync)
        out->v[0] = emu_dec_src(dc, o.src[3], PTX_T_B32);
    out->d = warp_dst32(dc, o.d);
    out->e = warp_dstp(dc, o.p);
    return EMU_SEL_OK;
}

static enum emu_sel warp_sel_vote(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool sync = pi->flags & PTX_IF_SYNC, ballot = pi->subop == PTX_MOD_BALLOT;
    struct warp_ops o;
    emu_fn fn;
    if (ballot)
        fn = emu_vote_ballot;
    else if ((pi->flags & PTX_IF_UNI) || pi->subop == PTX_MOD_UNI)
        fn = emu_vote_uni;
    else if (pi->subop == PTX_MOD_ALL)
        fn = emu_vote_all;
    else if (pi->subop == PTX_MOD_ANY)
        fn = emu_vote_any;
    else
        return emu_dec_unsupported(dc, "vote needs one of .all .any .uni .ballot");
    if (pi->ntypes != 1 || pi->types[0] != (ballot ? PTX_T_B32 : PTX_T_PRED))
        return emu_dec_unsupported(dc, "vote.ballot is .b32, vote.all/.any/.uni are .pred");
    if (!warp_split(pi, false, sync ? 2 : 1, &o) || !o.d)
        return emu_dec_unsupported(dc, "vote takes d, {!}a[, membermask]");
    warp_init(out, fn, (uint8_t)((sync ? WARP_F_SYNC : 0) | (o.src[0]->neg ? WARP_F_NEG : 0)));
    out->a = emu_dec_pred(dc, o.src[0]);
    if (sync)
        out->v[0] = emu_dec_src(dc, o.src[1], PTX_T_B32);
    out->d = ballot ? warp_dst32(dc, o.d) : warp_dstp(dc, o.d);
    return EMU_SEL_OK;
}

static enum emu_sel warp_sel_match(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool all = pi->subop == PTX_MOD_ALL;
    struct warp_ops o;
    if (!(pi->flags & PTX_IF_SYNC))
        return emu_dec_unsupported(dc, "match needs .sync");
    if (!all && pi->subop != PTX_MOD_ANY)
        return emu_dec_unsupported(dc, "match needs .any or .all");
    if (pi->ntypes != 1 || (pi->types[0] != PTX_T_B32 && pi->types[0] != PTX_T_B64))
        return emu_dec_unsupported(dc, "match is defined for .b32 and .b64");
    bool b64 = pi->types[0] == PTX_T_B64;
    if (!warp_split(pi, all, 2, &o) || !o.d)
        return emu_dec_unsupported(dc, all ? "match.all takes d[|p], a, membermask"
                                           : "match.any takes d, a, membermask");
    if (all)
        warp_init(out, b64 ? emu_match_all_b64 : emu_match_all_b32, WARP_F_SYNC);
    else
        warp_init(out, b64 ? emu_match_any_b64 : emu_match_any_b32, WARP_F_SYNC);
    out->a = emu_dec_src(dc, o.src[0], pi->types[0]);
    out->v[0] = emu_dec_src(dc, o.src[1], PTX_T_B32);
    out->d = warp_dst32(dc, o.d);
    out->e = warp_dstp(dc, o.p);
    return EMU_SEL_OK;
}

static enum emu_sel warp_sel_redux(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    struct warp_ops o;
    emu_fn fn = NULL;
    enum ptx_type t = pi->ntypes == 1 ? pi->types[0] : PTX_T_NONE;
    if (!(pi->flags & PTX_IF_SYNC))
        return emu_dec_unsupported(dc, "redux needs .sync");
    if (t == PTX_T_F32)
        return emu_dec_unsupported(dc, "redux.sync .f32 forms (sm_100a) are not implemented");
    /* .and/.or/.xor arrive as the operation (subop) or as a boolean combiner (boolop). */
    enum ptx_mod bop = pi->boolop != PTX_MOD_NONE_ ? pi->boolop : pi->subop;
    if (bop == PTX_MOD_AND || bop == PTX_MOD_OR || bop == PTX_MOD_XOR) {
        if (t != PTX_T_B32)
            return emu_dec_unsupported(dc, "redux.sync .and/.or/.xor are defined for .b32 only");
        fn = bop == PTX_MOD_AND ? emu_redux_and : bop == PTX_MOD_OR ? emu_redux_or : emu_redux_xor;
    } else if (t == PTX_T_U32 || t == PTX_T_S32) {
        bool s = t == PTX_T_S32;
        switch (pi->subop) {
        case PTX_MOD_ADD: fn = emu_redux_add; break;
        case PTX_MOD_MIN: fn = s ? emu_redux_min_s32 : emu_redux_min_u32; break;
        case PTX_MOD_MAX: fn = s ? emu_redux_max_s32 : emu_redux_max_u32; break;
        default: break;
        }
    }
    if (!fn)
        return emu_dec_unsupported(dc, "redux.sync takes .add/.min/.max on .u32/.s32 or .and/.or/.xor on .b32");
    if (!warp_split(pi, false, 2, &o) || !o.d)
        return emu_dec_unsupported(dc, "redux.sync takes d, a, membermask");
    warp_init(out, fn, WARP_F_SYNC);
    out->a = emu_dec_src(dc, o.src[0], t);
    out->v[0] = emu_dec_src(dc, o.src[1], PTX_T_B32);
    out->d = warp_dst32(dc, o.d);
    return EMU_SEL_OK;
}

static enum emu_sel warp_sel_elect(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    struct warp_ops o;
    if (!(pi->flags & PTX_IF_SYNC))
        return emu_dec_unsupported(dc, "elect needs .sync");
    if (!warp_split(pi, true, 1, &o))
        return emu_dec_unsupported(dc, "elect.sync takes d|p, membermask");
    warp_init(out, emu_elect, WARP_F_SYNC);
    out->v[0] = emu_dec_src(dc, o.src[0], PTX_T_B32);
    out->d = warp_dst32(dc, o.d);
    out->e = warp_dstp(dc, o.p);
    return EMU_SEL_OK;
}

static enum emu_sel warp_sel_activemask(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    struct warp_ops o;
    if (pi->ntypes != 1 || pi->types[0] != PTX_T_B32)
        return emu_dec_unsupported(dc, "activemask is defined for .b32 only");
    if (!warp_split(pi, false, 0, &o) || !o.d)
        return emu_dec_unsupported(dc, "activemask.b32 takes d");
    warp_init(out, emu_activemask, 0);
    out->d = warp_dst32(dc, o.d);
    return EMU_SEL_OK;
}

/* The warp-level family: shfl, vote, match, redux, elect, activemask.
 * bar.warp.sync belongs to the control family. */
enum emu_sel emu_sel_warp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_SHFL: return warp_sel_shfl(dc, pi, out);
    case PTX_OP_VOTE: return warp_sel_vote(dc, pi, out);
    case PTX_OP_MATCH: return warp_sel_match(dc, pi, out);
    case PTX_OP_REDUX: return warp_sel_redux(dc, pi, out);
    case PTX_OP_ELECT: return warp_sel_elect(dc, pi, out);
    case PTX_OP_ACTIVEMASK: return warp_sel_activemask(dc, pi, out);
    default: return EMU_SEL_NO;
    }
}
