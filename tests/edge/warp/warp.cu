// warp.cu -- edge tests of the warp-level instructions: shfl.sync in every mode with
// every segment width and clamp, vote.sync, match.sync, redux.sync, elect.sync, activemask.
// gen.sh compiles it to warp.ptx (committed); runs.txt names the launches.
//
// Member masks name exactly the lanes that execute the instruction (or lanes that do not
// exist, in partial warps), so every kernel is well defined on the GPU. Outputs are u32
// arrays laid out slot-major: out[slot * n + i] for thread i of n.
#include <stdint.h>

#define FULL 0xFFFFFFFFu

__device__ __forceinline__ unsigned laneid()
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

// One shfl.sync with register b, c and member mask; returns d with p in bit 31.
#define SHFL_P(MODE)                                                                          \
    __device__ __forceinline__ unsigned shfl_##MODE(unsigned a, unsigned b, unsigned c, unsigned m) \
    {                                                                                         \
        unsigned d, p;                                                                        \
        asm volatile("{ .reg .pred q; shfl.sync." #MODE ".b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }" \
                     : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c), "r"(m));                   \
        return d | p << 31;                                                                   \
    }
SHFL_P(up)
SHFL_P(down)
SHFL_P(bfly)
SHFL_P(idx)

// Every mode x segment mask (widths 32..1) x clamp x b (uniform and per-lane, with bits
// above [4:0] set). Values fit in 16 bits so bit 31 holds p. Slots: 6*3*8*4 = 576.
extern "C" __global__ void shfl_grid(unsigned *out)
{
    const unsigned segs[6] = {0x00, 0x10, 0x18, 0x1C, 0x1E, 0x1F};
    const unsigned clamps[3] = {0x00, 0x1F, 0x05};
    const unsigned bk[8][2] = {{0, 0}, {0, 1}, {0, 5}, {0, 17}, {0, 33}, {1, 0}, {3, 7}, {7, 0xFFFFFFE3u}};
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid();
    unsigned v = i * 0x100u + 0x11u, k = 0;
    for (int s = 0; s < 6; s++)
        for (int c = 0; c < 3; c++)
            for (int b = 0; b < 8; b++) {
                unsigned cc = segs[s] << 8 | clamps[c], bb = lane * bk[b][0] + bk[b][1];
                out[(k++) * n + i] = shfl_up(v, bb, cc, FULL);
                out[(k++) * n + i] = shfl_down(v, bb, cc, FULL);
                out[(k++) * n + i] = shfl_bfly(v, bb, cc, FULL);
                out[(k++) * n + i] = shfl_idx(v, bb, cc, FULL);
            }
}

#define OUT(v) (out[(k++) * n + i] = (unsigned)(v))

// The CUDA intrinsics with every width 1..32 (immediate operands as nvcc emits them), a
// butterfly reduction, an inclusive scan and 64-bit / double shuffles. Full warps only.
// Slots: 6*4 + 4 = 28.
extern "C" __global__ void shfl_intrin(const unsigned *in, unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned v = in[i];
#define WIDTH(W)                                              \
    OUT(__shfl_sync(FULL, v, (lane * 3 + 1), W));             \
    OUT(__shfl_up_sync(FULL, v, (W) > 1 ? 1 : 0, W));         \
    OUT(__shfl_down_sync(FULL, v, (W) / 2, W));               \
    OUT(__shfl_xor_sync(FULL, v, (W) > 2 ? 3 : 1, W));
    WIDTH(1) WIDTH(2) WIDTH(4) WIDTH(8) WIDTH(16) WIDTH(32)
    unsigned s = v;
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(FULL, s, off);
    OUT(s);
    unsigned scan = v;
    for (int off = 1; off < 32; off <<= 1) {
        unsigned t = __shfl_up_sync(FULL, scan, off);
        if (lane >= (unsigned)off)
            scan += t;
    }
    OUT(scan);
    unsigned long long l = __shfl_down_sync(FULL, (unsigned long long)v << 32 | lane, 7);
    OUT((unsigned)(l >> 32) ^ (unsigned)l);
    double d = __shfl_sync(FULL, (double)v * 0.5, 31 - lane);
    OUT((unsigned)(__double_as_longlong(d) >> 20));
}

// A destination that is also the source: all lanes must read before any writes.
extern "C" __global__ void shfl_alias(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, k = 0;
    unsigned a = i * 7 + 1, b = a, c = a, d = a;
    asm volatile("shfl.sync.up.b32 %0, %0, 1, 0, -1;" : "+r"(a));
    asm volatile("shfl.sync.down.b32 %0, %0, 2, 0x1f, -1;" : "+r"(b));
    asm volatile("shfl.sync.bfly.b32 %0, %0, 5, 0x1f, -1;" : "+r"(c));
    asm volatile("shfl.sync.idx.b32 %0, %0, %0, 0x1f, -1;" : "+r"(d));
    OUT(a); OUT(b); OUT(c); OUT(d);
}

// Shuffles inside divergent code with the member mask of the lanes on each path.
// Slots: 6.
extern "C" __global__ void shfl_diverge(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned v = i * 0x100u + 0x11u, r0, r1, r2;
    if (lane & 1) {
        r0 = shfl_idx(v, (lane + 2) & 31, 0x1F, 0xAAAAAAAAu);
        r1 = shfl_down(v, 2, 0x1F, 0xAAAAAAAAu);
        r2 = shfl_bfly(v, 6, 0x1F, 0xAAAAAAAAu);
    } else if (lane < 8) {
        r0 = shfl_up(v, 2, 0x1800, 0x55u);
        r1 = shfl_idx(v, 6, 0x181F, 0x55u);
        r2 = shfl_bfly(v, 2, 0x181F, 0x55u);
    } else {
        r0 = shfl_down(v, 4, 0x1F, 0x55555500u);
        r1 = shfl_up(v, 16, 8, 0x55555500u);          /* clamp 8: sources stay on this path */
        r2 = shfl_idx(v, 38 - lane, 0x1F, 0x55555500u);
    }
    OUT(r0); OUT(r1); OUT(r2);
    unsigned m = __activemask();
    OUT(m);
    OUT(__shfl_xor_sync(m, v, 1));
    OUT(__shfl_down_sync(m, v, 3, 16));
}

// For partial warps (e.g. 48 threads): the full member mask names lanes that do not exist.
// Sources stay inside the existing lanes. Slots: 4.
extern "C" __global__ void shfl_partial(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, k = 0;
    unsigned v = i * 3 + 5;
    OUT(__shfl_xor_sync(FULL, v, 1));
    OUT(__shfl_down_sync(FULL, v, 1, 16));
    OUT(__shfl_up_sync(FULL, v, 2, 8));
    OUT(__shfl_sync(FULL, v, 15, 16));
}

// vote.sync over predicate patterns, with the source negated too.
#define VOTE4(P, MASK)                                                                           \
    do {                                                                                         \
        unsigned all_, any_, uni_, ball_, nall_, nany_, nuni_, nball_;                           \
        asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %8, 0;"                                 \
                     " vote.sync.all.pred q, p, %9; selp.u32 %0, 1, 0, q;"                      \
                     " vote.sync.any.pred q, p, %9; selp.u32 %1, 1, 0, q;"                      \
                     " vote.sync.uni.pred q, p, %9; selp.u32 %2, 1, 0, q;"                      \
                     " vote.sync.ballot.b32 %3, p, %9;"                                         \
                     " vote.sync.all.pred q, !p, %9; selp.u32 %4, 1, 0, q;"                     \
                     " vote.sync.any.pred q, !p, %9; selp.u32 %5, 1, 0, q;"                     \
                     " vote.sync.uni.pred q, !p, %9; selp.u32 %6, 1, 0, q;"                     \
                     " vote.sync.ballot.b32 %7, !p, %9; }"                                      \
                     : "=r"(all_), "=r"(any_), "=r"(uni_), "=r"(ball_), "=r"(nall_), "=r"(nany_), \
                       "=r"(nuni_), "=r"(nball_) : "r"((unsigned)(P)), "r"(MASK));               \
        OUT(all_ | any_ << 1 | uni_ << 2 | nall_ << 4 | nany_ << 5 | nuni_ << 6);                \
        OUT(ball_);                                                                              \
        OUT(nball_);                                                                             \
    } while (0)

// Works for partial warps too (full mask). Slots: 12 patterns * 3 = 36.
extern "C" __global__ void vote_patterns(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    VOTE4(1, FULL);
    VOTE4(0, FULL);
    VOTE4(lane == 0, FULL);
    VOTE4(lane == 31, FULL);
    VOTE4((lane & 1) == 0, FULL);
    VOTE4(i % 3 == 0, FULL);
    VOTE4(lane < 16, FULL);
    VOTE4(lane >= 17, FULL);
    VOTE4(i == 37, FULL);
    VOTE4((i * 2654435761u) >> 31, FULL);
    VOTE4(i < 40, FULL);
    VOTE4(lane != 5, FULL);
}

// Votes in divergent code: each path names its own lanes. Slots: 3 + 3 + 2 = 8.
extern "C" __global__ void vote_diverge(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned p = (i * 0x9E3779B9u) >> 30 != 0;
    if (lane & 1) {
        VOTE4(p, 0xAAAAAAAAu);
    } else {
        VOTE4(lane < 10, 0x55555555u);
    }
    if (lane < 12) {
        unsigned m = __activemask();
        VOTE4(p && lane > 2, m);
        if (lane >= 4) {
            unsigned m2 = __activemask();
            OUT(m2);
            OUT(__ballot_sync(m2, lane & 2));
        } else {
            OUT(0); OUT(0);
        }
    } else {
        VOTE4(lane == 20, 0xFFFFF000u);
        OUT(1); OUT(1);
    }
}

// A converged warp whose two halves name two different member masks.
// Slots: 3 + 3 + 2 = 8.
extern "C" __global__ void vote_split(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned half = lane < 16 ? 0x0000FFFFu : 0xFFFF0000u;
    VOTE4(1, half);
    VOTE4(lane % 4 == 1, half);
    unsigned d;
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(d) : "r"(lane & 3), "r"(half));
    OUT(d);
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(d) : "r"(lane), "r"(half));
    OUT(d);
}

// match.sync with duplicate values, 32 and 64 bits. Slots: 8 * 2 + 2 * 2 = 20.
#define MATCH2(T, C, V, MASK)                                                                     \
    do {                                                                                          \
        unsigned any_, all_, p_;                                                                  \
        asm volatile("match.any.sync." T " %0, %1, %2;" : "=r"(any_) : C(V), "r"(MASK));          \
        asm volatile("{ .reg .pred q; match.all.sync." T " %0|q, %2, %3; selp.u32 %1, 1, 0, q; }" \
                     : "=r"(all_), "=r"(p_) : C(V), "r"(MASK));                                   \
        OUT(any_);                                                                                \
        OUT(all_ ^ p_ << 31);                                                                     \
    } while (0)

extern "C" __global__ void match_dup(const unsigned *in, unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned v = in[i];
    MATCH2("b32", "r", lane / 3, FULL);
    MATCH2("b32", "r", lane % 5, FULL);
    MATCH2("b32", "r", 42u, FULL);
    MATCH2("b32", "r", v, FULL);
    MATCH2("b32", "r", v & 7, FULL);
    MATCH2("b64", "l", (unsigned long long)(lane & 1) << 40 | 7, FULL);
    MATCH2("b64", "l", (unsigned long long)(lane & 1) << 40 | (lane & 2), FULL);
    MATCH2("b64", "l", 0x123456789ULL, FULL);
    if (lane & 1) {
        MATCH2("b32", "r", lane & 6, 0xAAAAAAAAu);
    } else {
        MATCH2("b64", "l", 5ULL, 0x55555555u);
    }
    if (lane < 4) {
        MATCH2("b32", "r", v | 1, 0xFu);
    } else {
        OUT(0); OUT(0);
    }
}

// redux.sync on every operation, signed and unsigned, full and partial masks.
// Slots: 8 * 3 = 24.
#define REDUX8(V, MASK)                                                                           \
    do {                                                                                          \
        unsigned r_[8], v_ = (V), m_ = (MASK);                                                    \
        asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r_[0]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r_[1]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(r_[2]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(r_[3]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(r_[4]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(r_[5]) : "r"(v_), "r"(m_));          \
        asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(r_[6]) : "r"(v_), "r"(m_));           \
        asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r_[7]) : "r"(v_), "r"(m_));          \
        for (int j_ = 0; j_ < 8; j_++)                                                            \
            OUT(r_[j_]);                                                                          \
    } while (0)

extern "C" __global__ void redux_ops(const unsigned *in, unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned v = in[i] * 0x9E3779B9u;
    REDUX8(v, FULL);
    if (lane % 3 == 0) {
        REDUX8(v ^ 0x80000000u, 0x49249249u);
    } else {
        REDUX8(lane - 16, 0xB6DB6DB6u);
    }
    REDUX8(v >> (lane & 7), lane < 16 ? 0x0000FFFFu : 0xFFFF0000u);
}

// elect.sync and activemask in converged, divergent and predicated code.
// Slots: 2 + 2 + 2 + 1 + 1 + 1 = 9.
#define ELECT(MASK)                                                                               \
    do {                                                                                          \
        unsigned d_, p_;                                                                          \
        asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }"               \
                     : "=r"(d_), "=r"(p_) : "r"(MASK));                                           \
        OUT(d_);                                                                                  \
        OUT(p_);                                                                                  \
    } while (0)

extern "C" __global__ void elect_mask(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    ELECT(FULL);
    if ((1u << lane) & 0xFFFFFDE0u) {          /* one branch: lanes 5..31 but 9 */
        ELECT(__activemask());
    } else {
        ELECT(0x21Fu);
    }
    if (lane & 2) {
        ELECT(0xCCCCCCCCu);
    } else {
        OUT(99); OUT(99);
    }
    OUT(__activemask());
    unsigned r = 0xDEADBEEFu;
    asm volatile("{ .reg .pred q; setp.lt.u32 q, %1, 20; @q activemask.b32 %0; }" : "+r"(r) : "r"(lane));
    OUT(r);
    if (lane % 3 == 1) {
        if (lane > 7)
            OUT(__activemask());
        else
            OUT(__activemask() | 0x80000000u);
    } else {
        OUT(__activemask() ^ 1u);
    }
}

// Guarded warp instructions: the guard-true lanes are exactly the member mask.
// Slots: 8 (lanes whose guard is false keep 0xDEADBEEF).
extern "C" __global__ void guard_ops(unsigned *out)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, lane = laneid(), k = 0;
    unsigned v = i * 0x100u + 0x11u, r[6];
    for (int j = 0; j < 6; j++)
        r[j] = 0xDEADBEEFu;
    asm volatile("{ .reg .pred g, q; setp.lt.u32 g, %6, 20;"
                 " @g shfl.sync.idx.b32 %0, %7, 19, 0x1f, 0xfffff;"
                 " @g shfl.sync.bfly.b32 %1, %7, 3, 0x1f, 0xfffff;"
                 " setp.ne.u32 q, %8, 0;"
                 " @g vote.sync.ballot.b32 %2, q, 0xfffff;"
                 " @g match.any.sync.b32 %3, %9, 0xfffff;"
                 " @g redux.sync.add.u32 %4, %7, 0xfffff;"
                 " @g activemask.b32 %5; }"
                 : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5])
                 : "r"(lane), "r"(v), "r"(lane & 5), "r"(lane % 3));
    for (int j = 0; j < 6; j++)
        OUT(r[j]);
    unsigned d = 0xDEADBEEFu, p = 7;
    if (lane >= 3) {
        asm volatile("{ .reg .pred g, q; setp.ne.u32 g, %2, 9; @g elect.sync %0|q, 0xfffffdf8; selp.u32 %1, 1, 0, q; }"
                     : "+r"(d), "+r"(p) : "r"(lane));
    }
    OUT(d);
    OUT(p);
}
