/* emu_async.c -- asynchronous copies and asynchronous barriers: cp.async (+ commit_group,
 * wait_group, mbarrier.arrive), cp.async.bulk (+ bulk groups), mbarrier.*, barrier.cluster.
 *
 * Loom completes every asynchronous copy when it is issued: the PTX ISA lets a copy
 * complete at any time before the wait that observes it, so this is one legal schedule,
 * and it makes every cp.async group complete at commit (wait_group has nothing left to
 * wait for). What the ISA leaves undefined is reported as a fault, not ignored: an
 * mbarrier operation on shared memory that holds no initialised mbarrier, an init of a
 * live one, more arrivals than the phase has pending, a tx-count out of range, a
 * .noComplete arrival that completes the phase, a copy of the wrong size or alignment.
 *
 * An mbarrier lives in its 8 bytes of shared memory in Loom's own encoding (the object
 * is opaque): bits 0-19 the arrivals pending in the current phase, 20-39 the expected
 * arrivals, 40-60 the tx-count (two's complement), 63 the phase parity. The CTA keeps a
 * bit per 8 bytes of shared memory for the initialised ones. The state that arrive
 * returns is the object before the arrival; pending_count reads its pending field.
 *
 * Waits poll: a try_wait/test_wait that finds its phase incomplete gives the warp's turn
 * up (EMU_STOP_YIELD), and barrier.cluster.wait runs again until its phase completes.
 * When every warp that can run polls twice in a row with no mbarrier or cluster-barrier
 * change in between, nothing can ever complete their phases (the copies are done, and a
 * one-CTA cluster has no other writer): the CTA stops with a deadlock fault naming them. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "emu/emu_internal.h"
#include "include/loom/loom.h"

#define MB_MAX ((1u << 20) - 1)
/* Each lane l of mask m, lowest first. */
#define EMU_EACH_ACTIVE(m, l) \
    for (emu_mask rest_ = (m), l = 0; rest_ && ((l = (unsigned)__builtin_ctz(rest_)), 1); rest_ &= rest_ - 1)                 /* largest arrival count and tx-count */

/* Per-CTA state of the asynchronous barriers, made at the first use. */
struct emu_async {
    uint64_t epoch;                             /* bumped by every mbarrier / cluster-barrier change */
    uint8_t *init;                              /* bit per 8 shared bytes: an initialised mbarrier */
    uint64_t ninit;                             /* bytes of init */
    uint32_t cl_count, cl_phase;                /* barrier.cluster: arrivals in the phase, phases done */
    uint32_t nwarps;
    struct emu_async_warp {
        emu_mask cl_arrived;                    /* lanes arrived at barrier.cluster, not yet waited */
        uint32_t cl_phase;                      /* the phase they arrived in */
        uint32_t fails;                         /* polls in a row that found nothing changed */
        uint64_t fail_epoch;
        uint32_t fail_pc;
        uint32_t fail_off;                      /* the mbarrier polled (UINT32_MAX: the cluster barrier) */
    } *warp;
};

static struct emu_async *async_of(struct emu_cta *cta)
{
    if (cta->async) return cta->async;
    struct emu_async *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->ninit = cta->shared_size / 64 + 1;
    a->init = calloc(a->ninit, 1);
    a->nwarps = cta->nwarps;
    a->warp = calloc(cta->nwarps, sizeof *a->warp);
    if (!a->init || !a->warp) { free(a->init); free(a->warp); free(a); return NULL; }
    cta->async = a;
    return a;
}

void emu_async_reset(struct emu_cta *cta)
{
    struct emu_async *a = cta->async;
    if (!a) return;
    memset(a->init, 0, a->ninit);
    memset(a->warp, 0, a->nwarps * sizeof *a->warp);
    a->epoch = 0;
    a->cl_count = a->cl_phase = 0;
}

void emu_async_free(struct emu_cta *cta)
{
    if (!cta->async) return;
    free(cta->async->init);
    free(cta->async->warp);
    free(cta->async);
    cta->async = NULL;
}

static uint32_t pc_of(const struct emu_warp *w, const struct emu_inst *in)
{
    return in->src;
}

/* ---- mbarrier objects ------------------------------------------------------------- */
#define MB_PENDING(v) ((uint32_t)(v) & MB_MAX)
#define MB_EXPECTED(v) ((uint32_t)((v) >> 20) & MB_MAX)
#define MB_PHASE(v) ((uint32_t)((v) >> 63))
static int32_t mb_tx(uint64_t v) { return (int32_t)((uint32_t)(v >> 40) << 11) >> 11; }
static uint64_t mb_make(uint32_t pending, uint32_t expected, int32_t tx, uint32_t phase)
{
    return (uint64_t)pending | (uint64_t)expected << 20 | (uint64_t)((uint32_t)tx & 0x1FFFFFu) << 40 |
           (uint64_t)phase << 63;
}

/* Lane l's mbarrier: its shared offset in *off and its word, or NULL after a fault. */
static uint64_t *mb_at(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint32_t *off)
{
    void *p = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), 8, true);
    if (!p) return NULL;
    uint8_t *s = w->cta->shared;
    if ((uint8_t *)p < s || (uint8_t *)p >= s + w->cta->shared_size) {
        emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, emu_addr(w, in, l), 8,
                  "mbarrier object at 0x%" PRIx64 " is not in shared memory", emu_addr(w, in, l));
        return NULL;
    }
    *off = (uint32_t)((uint8_t *)p - s);
    return p;
}

static bool mb_live(const struct emu_async *a, uint32_t off) { return a->init[off >> 6] >> (off >> 3 & 7) & 1; }

/* Lane l's initialised mbarrier, or NULL after a fault. */
static uint64_t *mb_get(struct emu_warp *w, const struct emu_inst *in, unsigned l, const char *what, uint32_t *off)
{
    struct emu_async *a = async_of(w->cta);
    uint64_t *p = mb_at(w, in, l, off);
    if (!p) return NULL;
    if (!a || !mb_live(a, *off)) {
        emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, emu_addr(w, in, l), 8,
                  "%s on shared offset 0x%x, which holds no initialised mbarrier (mbarrier.init first)", what, *off);
        return NULL;
    }
    return p;
}

/* Completes the phase when no arrival and no transaction is pending. */
static uint64_t mb_settle(uint64_t v)
{
    if (MB_PENDING(v) || mb_tx(v)) return v;
    return mb_make(MB_EXPECTED(v), MB_EXPECTED(v), 0, MB_PHASE(v) ^ 1u);
}

/* Adds tx to the tx-count of *p (negative: completes transactions); false after a fault. */
static bool mb_add_tx(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t *p, int64_t tx)
{
    int64_t n = mb_tx(*p) + tx;
    if (n > MB_MAX || n < -(int64_t)MB_MAX) {
        emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                  "mbarrier tx-count %" PRId64 " is out of range (at most %u in either direction)", n, MB_MAX);
        return false;
    }
    *p = mb_make(MB_PENDING(*p), MB_EXPECTED(*p), (int32_t)n, MB_PHASE(*p));
    w->cta->async->epoch++;
    return true;
}

/* `count` arrivals on *p (drop: the expected count falls by as many too); false after a fault. */
static bool mb_arrive(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t *p, uint32_t count,
                      bool drop, bool no_complete)
{
    uint64_t v = *p;
    if (count < 1 || count > MB_PENDING(v)) {
        emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                  "mbarrier arrival count %u exceeds the %u arrivals pending in the current phase", count,
                  MB_PENDING(v));
        return false;
    }
    uint32_t expected = MB_EXPECTED(v) - (drop ? count : 0);
    v = mb_make(MB_PENDING(v) - count, expected, mb_tx(v), MB_PHASE(v));
    uint64_t after = mb_settle(v);
    if (no_complete && MB_PHASE(after) != MB_PHASE(v)) {
        emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0, "mbarrier .noComplete arrival completes the phase");
        return false;
    }
    *p = after;
    w->cta->async->epoch++;
    return true;
}

/* mbarrier.init [a], b: b expected arrivals, phase 0. */
static int h_mb_init(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    struct emu_async *a = async_of(w->cta);
    if (!a) return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_OUT_OF_MEMORY, 0, 0, "out of memory");
    EMU_EACH_ACTIVE(m, l) {
        uint32_t off, count = w->r32[in->b][l];
        uint64_t *p = mb_at(w, in, l, &off);
        if (!p) return EMU_STOP_FAULT;
        if (count < 1 || count > MB_MAX)
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "mbarrier.init count %u is out of range (1 to %u)", count, MB_MAX);
        if (mb_live(a, off))
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "mbarrier.init on shared offset 0x%x, which holds a live mbarrier (mbarrier.inval first)", off);
        *p = mb_make(count, count, 0, 0);
        a->init[off >> 6] |= (uint8_t)(1u << (off >> 3 & 7));
        a->epoch++;
    }
    return EMU_CONTINUE;
}

static int h_mb_inval(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    EMU_EACH_ACTIVE(m, l) {
        uint32_t off;
        if (!mb_get(w, in, l, "mbarrier.inval", &off)) return EMU_STOP_FAULT;
        w->cta->async->init[off >> 6] &= (uint8_t)~(1u << (off >> 3 & 7));
    }
    return EMU_CONTINUE;
}

/* mbarrier.arrive{_drop}{.expect_tx}{.noComplete} d, [a]{, b}: in->sub bit 0 drop, bit 1
 * expect_tx (b is the tx-count, one arrival), bit 2 noComplete; in->b the count row or
 * EMU_NOREG (one); in->d the state row (r64) or EMU_NOREG. */
static int h_mb_arrive(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    bool drop = in->sub & 1, tx = in->sub & 2, noc = in->sub & 4;
    EMU_EACH_ACTIVE(m, l) {
        uint32_t off;
        uint64_t *p = mb_get(w, in, l, drop ? "mbarrier.arrive_drop" : "mbarrier.arrive", &off);
        if (!p) return EMU_STOP_FAULT;
        uint64_t before = *p;
        uint32_t count = in->b == EMU_NOREG || tx ? 1 : w->r32[in->b][l];
        if (tx && !mb_add_tx(w, in, l, p, w->r32[in->b][l])) return EMU_STOP_FAULT;
        if (!mb_arrive(w, in, l, p, count, drop, noc)) return EMU_STOP_FAULT;
        if (in->d != EMU_NOREG) w->r64[in->d][l] = before;
    }
    return EMU_CONTINUE;
}

/* mbarrier.expect_tx / complete_tx [a], b (in->sub: 1 complete). */
static int h_mb_tx(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    EMU_EACH_ACTIVE(m, l) {
        uint32_t off;
        uint64_t *p = mb_get(w, in, l, in->sub ? "mbarrier.complete_tx" : "mbarrier.expect_tx", &off);
        if (!p) return EMU_STOP_FAULT;
        int64_t n = (int64_t)w->r32[in->b][l];
        if (!mb_add_tx(w, in, l, p, in->sub ? -n : n)) return EMU_STOP_FAULT;
        if (in->sub) *p = mb_settle(*p);
    }
    return EMU_CONTINUE;
}

/* mbarrier.pending_count d, state. */
static int h_mb_pending(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    EMU_EACH_ACTIVE(m, l) w->r32[in->d][l] = MB_PENDING(w->r64[in->a][l]);
    return EMU_CONTINUE;
}

/* Records a poll that found its phase incomplete; a deadlock fault when every warp that
 * can run has polled twice in a row with nothing changed. */
static int poll_failed(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint32_t off)
{
    struct emu_cta *cta = w->cta;
    struct emu_async *a = cta->async;
    struct emu_async_warp *s = &a->warp[w->id];
    if (s->fail_epoch != a->epoch) s->fails = 0;
    s->fails++;
    s->fail_epoch = a->epoch;
    s->fail_pc = pc_of(w, in);
    s->fail_off = off;
    if (s->fails < 2) return EMU_STOP_YIELD;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        const struct emu_warp *o = &cta->warps[i];
        if (o->done || emu_wait_kind(o) == EMU_WAIT_BARRIER) continue;
        if (a->warp[i].fails < 2 || a->warp[i].fail_epoch != a->epoch) return EMU_STOP_YIELD;
    }
    char detail[400];
    size_t used = 0;
    for (uint32_t i = 0; i < cta->nwarps && used < sizeof detail - 80; i++) {
        const struct emu_warp *o = &cta->warps[i];
        if (o->done || emu_wait_kind(o) == EMU_WAIT_BARRIER) continue;
        const struct emu_async_warp *t = &a->warp[i];
        uint32_t line = cta->launch->prog->locs[t->fail_pc].ptx_line;
        if (t->fail_off == UINT32_MAX)
            used += (size_t)snprintf(detail + used, sizeof detail - used, "%swarp %u at barrier.cluster.wait (line %u)",
                                     used ? ", " : "", i, line);
        else {
            uint64_t v;
            memcpy(&v, cta->shared + t->fail_off, 8);
            used += (size_t)snprintf(detail + used, sizeof detail - used,
                                     "%swarp %u (line %u) on the mbarrier at shared offset 0x%x (phase %u, %u of %u "
                                     "arrivals pending, tx-count %d)",
                                     used ? ", " : "", i, line, t->fail_off, MB_PHASE(v), MB_PENDING(v),
                                     MB_EXPECTED(v), mb_tx(v));
        }
    }
    return emu_fault(w, in, l, LOOM_ERR_DEADLOCK, 0, 0,
                     "mbarrier deadlock: every thread that can run waits for a phase that can no longer complete: %s",
                     detail);
}

/* mbarrier.test_wait / try_wait{.parity} p, [a], b: in->sub bit 0 parity (b is a
 * phase parity, r32) else b is a state (r64); bit 1 try_wait. */
static int h_mb_wait(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_mask done = 0;
    uint32_t off;
    unsigned first = 0;
    bool any_fail = false;
    EMU_EACH_ACTIVE(m, l) {
        uint64_t *p = mb_get(w, in, l, (in->sub & 2) ? "mbarrier.try_wait" : "mbarrier.test_wait", &off);
        if (!p) return EMU_STOP_FAULT;
        uint32_t parity = (in->sub & 1) ? w->r32[in->b][l] & 1u : MB_PHASE(w->r64[in->b][l]);
        if (MB_PHASE(*p) != parity) done |= 1u << l;
        else if (!any_fail) { any_fail = true; first = l; }
    }
    emu_mask *d = &w->pred[in->d];
    *d = (*d & ~m) | done;
    if (!any_fail) {
        if (w->cta->async) w->cta->async->warp[w->id].fails = 0;
        return EMU_CONTINUE;
    }
    uint32_t off1;
    mb_at(w, in, first, &off1);
    return poll_failed(w, in, first, off1);
}

/* ---- barrier.cluster: a cluster of one CTA --------------------------------------- */
static int h_cluster_arrive(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    struct emu_async *a = async_of(w->cta);
    if (!a) return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_OUT_OF_MEMORY, 0, 0, "out of memory");
    struct emu_async_warp *s = &a->warp[w->id];
    if (s->cl_arrived & m)
        return emu_fault(w, in, (unsigned)__builtin_ctz(s->cl_arrived & m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "barrier.cluster.arrive again before barrier.cluster.wait");
    s->cl_arrived |= m;
    s->cl_phase = a->cl_phase;
    a->cl_count += (uint32_t)__builtin_popcount(m);
    a->epoch++;
    uint32_t live = 0;
    for (uint32_t i = 0; i < w->cta->nwarps; i++)
        if (!w->cta->warps[i].done) live += (uint32_t)__builtin_popcount(w->cta->warps[i].valid & ~w->cta->warps[i].exited);
    if (a->cl_count >= live) {
        a->cl_count = 0;
        a->cl_phase++;
    }
    return EMU_CONTINUE;
}

static int h_cluster_wait(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    struct emu_async *a = w->cta->async;
    struct emu_async_warp *s = a ? &a->warp[w->id] : NULL;
    if (!s || (m & ~s->cl_arrived))
        return emu_fault(w, in, (unsigned)__builtin_ctz(s ? m & ~s->cl_arrived : m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "barrier.cluster.wait without a barrier.cluster.arrive before it");
    if (a->cl_phase != s->cl_phase) {
        s->cl_arrived &= ~m;
        s->fails = 0;
        return EMU_CONTINUE;
    }
    w->pc = pc_of(w, in);   /* waits: runs again at the warp's next turn */
    return poll_failed(w, in, (unsigned)__builtin_ctz(m), UINT32_MAX);
}

/* ---- Copies ----------------------------------------------------------------------- */

/* Host pointer of lane l's `size` bytes at addr in space, aligned to `align`, or NULL
 * after a fault: the start of every 16 bytes and the last byte are checked, and must
 * lie in one region. */
static uint8_t *range_ptr(struct emu_warp *w, const struct emu_inst *in, unsigned l, enum ptx_space space,
                          uint64_t addr, uint32_t size, unsigned align, bool write)
{
    if (addr & (align - 1)) {
        emu_fault(w, in, l, LOOM_ERR_MISALIGNED, addr, size, "misaligned asynchronous copy: address 0x%" PRIx64
                  " is not a multiple of %u", addr, align);
        return NULL;
    }
    uint8_t *first = emu_mem_ptr(w, in, l, space, addr, 1, write);
    if (!first) return NULL;
    for (uint32_t k = 16; k <= size; k += 16) {
        uint32_t at = k < size ? k : size - 1;
        uint8_t *p = emu_mem_ptr(w, in, l, space, addr + at, 1, write);
        if (!p) return NULL;
        if (p != first + at) {
            emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, addr, size,
                      "asynchronous copy of %u bytes at 0x%" PRIx64 " spans two regions", size, addr);
            return NULL;
        }
    }
    if (size > 1 && size % 16 && !emu_mem_ptr(w, in, l, space, addr + size - 1, 1, write)) return NULL;
    return first;
}

/* cp.async.{ca,cg}.shared.global [d], [s], cp-size{, src-size | ignore-src}: in->a/imm the
 * destination (shared), in->c the source address row (r64), in->sub the cp-size, in->b
 * the src-size row (EMU_NOREG: cp-size), in->e the ignore-src predicate (EMU_NOREG: none,
 * in->sub2 set when negated). */
static int h_cp_async(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned cp = in->sub;
    EMU_EACH_ACTIVE(m, l) {
        uint32_t src_size = in->b == EMU_NOREG ? cp : w->r32[in->b][l];
        if (in->e != EMU_NOREG && (((w->pred[in->e] >> l) & 1u) ^ in->sub2)) src_size = 0;
        if (src_size > cp)
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "cp.async source size %u exceeds the copy size %u", src_size, cp);
        uint8_t *d = emu_mem_ptr(w, in, l, PTX_SPACE_SHARED, emu_addr(w, in, l), cp, true);
        if (!d) return EMU_STOP_FAULT;
        uint64_t sa = w->r64[in->c][l];
        if (src_size) {
            uint8_t *s = range_ptr(w, in, l, PTX_SPACE_GLOBAL, sa, src_size, cp, false);
            if (!s) return EMU_STOP_FAULT;
            memmove(d, s, src_size);
        }
        memset(d + src_size, 0, cp - src_size);
    }
    return EMU_CONTINUE;
}

/* cp.async.mbarrier.arrive{.noinc} [a]: the arrival that follows this thread's copies,
 * done already. Without .noinc the pending count is raised first, so only .noinc counts. */
static int h_cp_mb_arrive(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    EMU_EACH_ACTIVE(m, l) {
        uint32_t off;
        uint64_t *p = mb_get(w, in, l, "cp.async.mbarrier.arrive", &off);
        if (!p) return EMU_STOP_FAULT;
        if (in->sub && !mb_arrive(w, in, l, p, 1, false, false)) return EMU_STOP_FAULT;
    }
    return EMU_CONTINUE;
}

/* cp.async.bulk [d], [s], size{, [mbar]}: in->a/imm/space the destination, in->c the
 * source address row (r64 or r32 per in->sub2: 1 = shared r32), in->sub the source
 * space, in->b the size row, in->e the mbarrier address row (r32 shared, EMU_NOREG:
 * bulk group). */
static int h_cp_bulk(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    EMU_EACH_ACTIVE(m, l) {
        uint32_t size = w->r32[in->b][l];
        if (size % 16)
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "cp.async.bulk size %u is not a multiple of 16", size);
        uint64_t sa = in->sub2 ? w->r32[in->c][l] : w->r64[in->c][l];
        uint8_t *d = size ? range_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), size, 16, true) : NULL;
        uint8_t *s = size ? range_ptr(w, in, l, (enum ptx_space)in->sub, sa, size, 16, false) : NULL;
        if (size && (!d || !s)) return EMU_STOP_FAULT;
        if (size) memmove(d, s, size);
        if (in->e != EMU_NOREG) {
            struct emu_inst at = *in;
            at.a = in->e; at.addr32 = 1; at.imm = 0; at.space = PTX_SPACE_SHARED;
            uint32_t off;
            uint64_t *p = mb_get(w, &at, l, "cp.async.bulk's mbarrier::complete_tx", &off);
            if (!p) return EMU_STOP_FAULT;
            if (!mb_add_tx(w, in, l, p, -(int64_t)size)) return EMU_STOP_FAULT;
            *p = mb_settle(*p);
        }
    }
    return EMU_CONTINUE;
}

/* Groups complete at commit; waits find nothing to wait for. */
static int h_async_nop(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    (void)w; (void)in; (void)m;
    return EMU_CONTINUE;
}

/* ---- Selection -------------------------------------------------------------------- */
static bool has_mod(const struct ptx_instr *pi, enum ptx_mod mod)
{
    for (unsigned k = 0; k < pi->nmods; k++)
        if (pi->mods[k] == mod) return true;
    return false;
}

static enum ptx_space shared_or_generic(const struct ptx_instr *pi)
{
    return has_mod(pi, PTX_MOD_SHARED) || has_mod(pi, PTX_MOD_SHARED_CTA) || has_mod(pi, PTX_MOD_SHARED_CLUSTER)
               ? PTX_SPACE_SHARED : PTX_SPACE_NONE;
}

/* A 32-bit shared address row for operand op (a register, or an address [r] / [sym]). */
static bool shared_addr_row(struct emu_decoder *dc, const struct ptx_operand *op, uint16_t *out)
{
    struct emu_inst t;
    memset(&t, 0, sizeof t);
    if (op->kind != PTX_OPND_ADDR || !emu_dec_address(dc, op, PTX_SPACE_SHARED, &t)) return false;
    if (!t.addr32 || t.imm) {
        /* [r64] or an offset: the sum in a 32-bit scratch row would need a helper; refused */
        return false;
    }
    *out = t.a;
    return true;
}

static enum emu_sel sel_mbarrier(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    enum ptx_mod op = pi->subop;
    enum ptx_space sp = shared_or_generic(pi);
    if (has_mod(pi, PTX_MOD_SHARED_CLUSTER) && op != PTX_MOD_ARRIVE && op != PTX_MOD_EXPECT_TX &&
        op != PTX_MOD_COMPLETE_TX)
        return emu_dec_unsupported(dc, "mbarrier operations on .shared::cluster are not defined");
    out->d = out->b = EMU_NOREG;
    switch (op) {
    case PTX_MOD_INIT:
        if (pi->nops != 2) return emu_dec_unsupported(dc, "mbarrier.init takes [a], count");
        out->fn = h_mb_init;
        out->b = emu_dec_src(dc, &pi->ops[1], PTX_T_U32);
        return emu_dec_address(dc, &pi->ops[0], sp, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    case PTX_MOD_INVAL:
        if (pi->nops != 1) return emu_dec_unsupported(dc, "mbarrier.inval takes [a]");
        out->fn = h_mb_inval;
        return emu_dec_address(dc, &pi->ops[0], sp, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    case PTX_MOD_ARRIVE: case PTX_MOD_ARRIVE_DROP: {
        bool tx = pi->subop2 == PTX_MOD_EXPECT_TX;
        if (pi->nops < 2 || pi->nops > 3 || (tx && pi->nops != 3))
            return emu_dec_unsupported(dc, "mbarrier.arrive takes state, [a]{, count}");
        out->fn = h_mb_arrive;
        out->sub = (uint8_t)((op == PTX_MOD_ARRIVE_DROP ? 1 : 0) | (tx ? 2 : 0) | (has_mod(pi, PTX_MOD_NOCOMPLETE) ? 4 : 0));
        if (pi->ops[0].kind != PTX_OPND_SINK) out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_B64);
        if (pi->nops == 3) out->b = emu_dec_src(dc, &pi->ops[2], PTX_T_U32);
        return emu_dec_address(dc, &pi->ops[1], sp, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    }
    case PTX_MOD_EXPECT_TX: case PTX_MOD_COMPLETE_TX:
        if (pi->nops != 2) return emu_dec_unsupported(dc, "mbarrier.expect_tx/complete_tx take [a], txCount");
        out->fn = h_mb_tx;
        out->sub = op == PTX_MOD_COMPLETE_TX;
        out->b = emu_dec_src(dc, &pi->ops[1], PTX_T_U32);
        return emu_dec_address(dc, &pi->ops[0], sp, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    case PTX_MOD_TEST_WAIT: case PTX_MOD_TRY_WAIT: {
        bool parity = pi->subop2 == PTX_MOD_PARITY;
        if (pi->nops < 3 || pi->nops > 4) return emu_dec_unsupported(dc, "mbarrier waits take p, [a], state");
        out->fn = h_mb_wait;
        out->sub = (uint8_t)((parity ? 1 : 0) | (op == PTX_MOD_TRY_WAIT ? 2 : 0));
        out->d = emu_dec_pred(dc, &pi->ops[0]);
        out->b = emu_dec_src(dc, &pi->ops[2], parity ? PTX_T_U32 : PTX_T_B64);
        return emu_dec_address(dc, &pi->ops[1], sp, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    }
    case PTX_MOD_PENDING_COUNT:
        if (pi->nops != 2) return emu_dec_unsupported(dc, "mbarrier.pending_count takes d, state");
        out->fn = h_mb_pending;
        out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_U32);
        out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_B64);
        return EMU_SEL_OK;
    default:
        return emu_dec_unsupported(dc, "this mbarrier operation is not supported yet");
    }
}

static enum emu_sel sel_cp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (pi->subop != PTX_MOD_ASYNC)
        return emu_dec_unsupported(dc, "cp.reduce and other copies are not supported yet");
    enum ptx_mod op = pi->subop2;
    out->b = out->e = EMU_NOREG;
    if (op == PTX_MOD_COMMIT_GROUP || op == PTX_MOD_WAIT_GROUP || op == PTX_MOD_WAIT_ALL) {
        out->fn = h_async_nop;
        return EMU_SEL_OK;
    }
    if (op == PTX_MOD_MBARRIER) {   /* cp.async.mbarrier.arrive{.noinc}.b64 [a] */
        if (pi->nops != 1) return emu_dec_unsupported(dc, "cp.async.mbarrier.arrive takes [a]");
        out->fn = h_cp_mb_arrive;
        out->sub = has_mod(pi, PTX_MOD_NOINC);
        return emu_dec_address(dc, &pi->ops[0], shared_or_generic(pi), out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
    }
    if (op == PTX_MOD_BULK) {
        enum ptx_mod b3 = PTX_MOD_NONE_;
        for (unsigned k = 0; k < pi->nmods; k++)
            if (ptx_mod_category(pi->mods[k]) == PTX_MC_SUBOP && pi->mods[k] != PTX_MOD_ASYNC && pi->mods[k] != PTX_MOD_BULK) {
                b3 = pi->mods[k];
                break;
            }
        if (b3 == PTX_MOD_COMMIT_GROUP || b3 == PTX_MOD_WAIT_GROUP) {
            out->fn = h_async_nop;
            return EMU_SEL_OK;
        }
        if (b3 == PTX_MOD_TENSOR) return emu_dec_unsupported(dc, "cp.async.bulk.tensor is not supported yet");
        if (has_mod(pi, PTX_MOD_PREFETCH)) {
            out->fn = h_async_nop;
            return EMU_SEL_OK;
        }
        if (has_mod(pi, PTX_MOD_MULTICAST_CLUSTER))
            return emu_dec_unsupported(dc, "cp.async.bulk .multicast::cluster is not supported yet");
        bool to_global = pi->nmods > 2 && pi->mods[2] == PTX_MOD_GLOBAL;
        bool mbar = has_mod(pi, PTX_MOD_MBARRIER_COMPLETE_TX_BYTES);
        if (pi->nops < (mbar ? 4u : 3u)) return emu_dec_unsupported(dc, "cp.async.bulk takes [d], [s], size{, [mbar]}");
        out->fn = h_cp_bulk;
        out->b = emu_dec_src(dc, &pi->ops[2], PTX_T_U32);
        const struct ptx_operand *s = &pi->ops[1];
        if (s->kind != PTX_OPND_ADDR || s->ival || s->sym || s->reg < 0)
            return emu_dec_unsupported(dc, "cp.async.bulk's source must be [register]");
        bool src_shared = !to_global && pi->nmods > 3 && (pi->mods[3] == PTX_MOD_SHARED_CTA || pi->mods[3] == PTX_MOD_SHARED);
        out->sub = to_global || src_shared ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
        struct ptx_operand sreg = *s;
        sreg.kind = PTX_OPND_REG;
        bool s32 = dc->fn->regs[s->reg].type != PTX_T_B64 && dc->fn->regs[s->reg].type != PTX_T_U64 &&
                   dc->fn->regs[s->reg].type != PTX_T_S64;
        out->sub2 = s32;
        out->c = s32 ? emu_dec_src(dc, &sreg, PTX_T_U32) : emu_dec_src(dc, &sreg, PTX_T_U64);
        if (mbar && !shared_addr_row(dc, &pi->ops[3], &out->e))
            return emu_dec_unsupported(dc, "cp.async.bulk's mbarrier must be [32-bit register]");
        if (!emu_dec_address(dc, &pi->ops[0], to_global ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED, out))
            return EMU_SEL_UNSUPPORTED;
        return EMU_SEL_OK;
    }
    /* cp.async.{ca,cg}.shared{::cta}.global [d], [s], cp-size{, src-size | ignore-src}{, policy} */
    if (pi->nops < 3 || pi->ops[2].kind != PTX_OPND_IMM_INT)
        return emu_dec_unsupported(dc, "cp.async takes [d], [s], cp-size{, src-size}");
    int64_t cp = pi->ops[2].ival;
    bool cg = has_mod(pi, PTX_MOD_CG);
    if (cg ? cp != 16 : (cp != 4 && cp != 8 && cp != 16))
        return emu_dec_unsupported(dc, cg ? "cp.async.cg copies 16 bytes" : "cp.async copies 4, 8 or 16 bytes");
    out->fn = h_cp_async;
    out->sub = (uint8_t)cp;
    const struct ptx_operand *s = &pi->ops[1];
    if (s->kind != PTX_OPND_ADDR || s->sym || s->reg < 0)
        return emu_dec_unsupported(dc, "cp.async's source must be [register]");
    unsigned nlast = pi->nops - (has_mod(pi, PTX_MOD_L2_CACHE_HINT) ? 1u : 0u);
    if (nlast == 4) {
        const struct ptx_operand *x = &pi->ops[3];
        if (x->kind == PTX_OPND_REG && dc->fn->regs[x->reg].type == PTX_T_PRED) {
            out->e = emu_dec_pred(dc, x);
            out->sub2 = x->neg;
        } else {
            out->b = emu_dec_src(dc, x, PTX_T_U32);
        }
    }
    if (s->ival) return emu_dec_unsupported(dc, "cp.async's source must be [register] without an offset");
    struct ptx_operand sreg = *s;
    sreg.kind = PTX_OPND_REG;
    out->c = emu_dec_src(dc, &sreg, PTX_T_U64);
    return emu_dec_address(dc, &pi->ops[0], PTX_SPACE_SHARED, out) ? EMU_SEL_OK : EMU_SEL_UNSUPPORTED;
}

enum emu_sel emu_sel_async(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_CP: return sel_cp(dc, pi, out);
    case PTX_OP_MBARRIER: return sel_mbarrier(dc, pi, out);
    case PTX_OP_BARRIER:   /* barrier.cluster.{arrive,wait} (emu_decode.c's family_of) */
        if (pi->nops) return emu_dec_unsupported(dc, "barrier.cluster takes no operands");
        out->fn = pi->subop == PTX_MOD_ARRIVE ? h_cluster_arrive : h_cluster_wait;
        return EMU_SEL_OK;
    default:
        return EMU_SEL_NO;
    }
}
