/* emu_mma.c -- the tensor-core family: mma.sync, wmma.load/store/mma, ldmatrix, stmatrix,
 * movmatrix. Fragments follow the PTX ISA's layouts; the arithmetic is emu_mma_arith.c's. */
#include "emu/emu_internal.h"
#include "emu/emu_mma.h"

#include <stdlib.h>

/* ---- Decoded operands -------------------------------------------------------------
 * A tensor-core instruction names up to 34 registers: their rows live in an aux block
 * owned by the program. Fragment registers are r32 rows (r64 for .f64). */
struct mma_aux {
    uint16_t m, n, k;          /* shape */
    uint8_t fa, fb, fc, fd;    /* enum emu_mma_fmt of A, B, C and D */
    uint8_t na, nb, nc, nd;    /* registers of each fragment */
    uint8_t satfinite;         /* integer forms: clamp the s32 result */
    uint8_t chunk;             /* floating point: k elements per fused dot product (the rest chained) */
    uint8_t bxor;              /* b1 forms: xor.popc (else and.popc) */
    uint8_t acol, bcol;        /* wmma: A (B) column-major in memory (else row-major) */
    uint8_t which;             /* wmma.load/store: the fragment, 0 a, 1 b, 2 c or d */
    uint8_t mcol;              /* wmma.load.c / store.d: memory column-major */
    uint16_t stride;           /* wmma.load/store: r32 row of the stride (elements) */
    uint16_t a[16], b[16], c[8], d[8];
};

/* Bits of one element of format f. */
static unsigned fmt_bits(enum emu_mma_fmt f)
{
    switch (f) {
    case EMU_MMA_F16: case EMU_MMA_BF16: return 16;
    case EMU_MMA_S8: case EMU_MMA_U8: return 8;
    case EMU_MMA_S4: case EMU_MMA_U4: return 4;
    case EMU_MMA_B1: return 1;
    case EMU_MMA_F64: return 64;
    default: return 32;
    }
}

/* Element j (of width w bits) of register word v. */
static uint32_t elem_of(uint32_t v, unsigned w, unsigned j)
{
    return w == 32 ? v : v >> (j * w) & ((1u << w) - 1);
}

/* ---- Fragment layouts of mma.sync ---------------------------------------------------
 * PTX ISA, "Matrix Fragments for mma.m16n8k*": with g = lane / 4 and t = lane % 4, and e
 * elements of a multiplicand per 32-bit register, register r of A holds row g + 8 (r % 2),
 * columns e t + 4 e (r / 2) + j; register r of B holds rows e t + 4 e r + j of column g.
 * A 32-bit accumulator register r holds (g + 8 (r / 2), 2 t + r % 2); an f16x2 register r
 * holds (g + 8 r, 2 t + j). m8n8k4 .f64: A (g, t), B (t, g), C register r (g, 2 t + r). */
static void sync_a(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, e = 32 / fmt_bits(x->fa);
    if (x->fa == EMU_MMA_F64) {
        *row = g; *col = t;
        return;
    }
    *row = g + 8 * (r & 1);
    *col = e * t + 4 * e * (r >> 1) + j;
}

static void sync_b(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, e = 32 / fmt_bits(x->fb);
    if (x->fb == EMU_MMA_F64) {
        *row = t; *col = g;
        return;
    }
    *row = e * t + 4 * e * r + j;
    *col = g;
}

static void sync_c(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (x->fc == EMU_MMA_F64) {
        *row = g; *col = 2 * t + r;
    } else if (x->fc == EMU_MMA_F16) {
        *row = g + 8 * r; *col = 2 * t + j;
    } else {
        *row = g + 8 * (r >> 1); *col = 2 * t + (r & 1);
    }
}

/* ---- Fragment layouts of wmma --------------------------------------------------------
 * The PTX ISA leaves them unspecified; these are the H100's (recorded by the
 * wmma_frag_layout kernel of tests/edge/mma). A wmma tile is two m16n8 tiles side by
 * side: A's registers are mma.sync's A fragment, B's are the two B fragments of columns
 * 0..7 and 8..15, and the accumulator's the two C fragments. The f16 multiplicand
 * fragments have eight registers (the ISA's count), the second four repeating the first. */
static void wmma_a(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    if (x->fa == EMU_MMA_F64) {
        sync_a(x, lane, r, j, row, col);
        return;
    }
    unsigned e = 32 / fmt_bits(x->fa), per = 16 * x->k / (32 * e);   /* registers of one m16 x k slice */
    sync_a(x, lane, r % per, j, row, col);
}

static void wmma_b(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    if (x->fb == EMU_MMA_F64) {
        sync_b(x, lane, r, j, row, col);
        return;
    }
    unsigned e = 32 / fmt_bits(x->fb), per = 8 * x->k / (32 * e);
    r %= 2 * per;                  /* f16: registers 4..7 repeat 0..3 */
    sync_b(x, lane, r % per, j, row, col);
    *col += 8 * (r / per);
}

static void wmma_c(const struct mma_aux *x, unsigned lane, unsigned r, unsigned j, unsigned *row, unsigned *col)
{
    if (x->fc == EMU_MMA_F64) {
        sync_c(x, lane, r, j, row, col);
        return;
    }
    unsigned per = x->fc == EMU_MMA_F16 ? 2 : 4;
    sync_c(x, lane, r % per, j, row, col);
    *col += 8 * (r / per);
}

typedef void (*mma_layout)(const struct mma_aux *, unsigned, unsigned, unsigned, unsigned *, unsigned *);

/* ---- Matrices ---------------------------------------------------------------------
 * The handler gathers every lane's fragment registers into whole matrices (elements as
 * bits, f64 as pairs), computes D and scatters it back. Sizes: M <= 16, N <= 16, K <= 256. */
#define MMA_MAXM 16
#define MMA_MAXN 16
#define MMA_MAXK 256

struct mma_tiles {
    uint32_t a[MMA_MAXM][MMA_MAXK];
    uint32_t bt[MMA_MAXN][MMA_MAXK];   /* B transposed: columns as rows */
    uint64_t c[MMA_MAXM][MMA_MAXN];
    uint64_t d[MMA_MAXM][MMA_MAXN];
    uint64_t a64[MMA_MAXM * 4], b64[4 * MMA_MAXN];   /* f64 multiplicands (m8n8k4), row-major */
};

/* The value of fragment register r of lane l: 32-bit rows, or 64-bit rows for f64. */
static uint64_t frag_word(const struct emu_warp *w, uint16_t row, bool wide, unsigned l)
{
    return wide ? w->r64[row][l] : w->r32[row][l];
}

/* Gathers fragment regs[0..n) of every lane into the elements of A (which 0), B (1) or
 * C (2) through layout lay. */
static void gather(const struct emu_warp *w, const struct mma_aux *x, const uint16_t *regs, unsigned n,
                   enum emu_mma_fmt f, mma_layout lay, int which, struct mma_tiles *t)
{
    unsigned bits = fmt_bits(f), per = bits >= 32 ? 1 : 32 / bits;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        for (unsigned r = 0; r < n; r++) {
            uint64_t v = frag_word(w, regs[r], f == EMU_MMA_F64, l);
            for (unsigned j = 0; j < per; j++) {
                unsigned row, col;
                lay(x, l, r, j, &row, &col);
                uint64_t e = bits >= 32 ? v : elem_of((uint32_t)v, bits, j);
                if (which == 0) t->a[row][col] = (uint32_t)e;
                else if (which == 1) t->bt[col][row] = (uint32_t)e;
                else t->c[row][col] = e;
            }
        }
}

/* Sign-extends an integer element of format f. */
static int64_t int_of(enum emu_mma_fmt f, uint32_t v)
{
    switch (f) {
    case EMU_MMA_S8: return (int8_t)v;
    case EMU_MMA_S4: return (int64_t)(v ^ 8u) - 8;
    default: return v;
    }
}

/* D = A B + C over the gathered tiles. */
static void compute(const struct mma_aux *x, struct mma_tiles *t)
{
    for (unsigned i = 0; i < x->m; i++)
        for (unsigned j = 0; j < x->n; j++) {
            const uint32_t *ar = t->a[i], *bc = t->bt[j];
            switch (x->fa) {
            case EMU_MMA_F64: {
                uint64_t ra[MMA_MAXK], cb[MMA_MAXK];
                for (unsigned q = 0; q < x->k; q++) {
                    ra[q] = t->a64[i * x->k + q];
                    cb[q] = t->b64[q * x->n + j];
                }
                t->d[i][j] = emu_mma_dot_f64(x->k, ra, cb, t->c[i][j]);
                break;
            }
            case EMU_MMA_S8: case EMU_MMA_U8: case EMU_MMA_S4: case EMU_MMA_U4: case EMU_MMA_B1: {
                int64_t s = (int32_t)t->c[i][j];
                for (unsigned q = 0; q < x->k; q++) {
                    if (x->fa == EMU_MMA_B1)
                        s += x->bxor ? (ar[q] ^ bc[q]) : (ar[q] & bc[q]);
                    else
                        s += int_of((enum emu_mma_fmt)x->fa, ar[q]) * int_of((enum emu_mma_fmt)x->fb, bc[q]);
                }
                if (x->satfinite)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                t->d[i][j] = (uint32_t)s;
                break;
            }
            default: {
                uint32_t acc = (uint32_t)t->c[i][j];
                for (unsigned k0 = 0; k0 < x->k; k0 += x->chunk)
                    acc = emu_mma_dot((enum emu_mma_fmt)x->fa, (enum emu_mma_fmt)x->fc, x->chunk, ar + k0, bc + k0, acc);
                t->d[i][j] = acc;
                break;
            }
            }
        }
}

/* Writes D's fragment registers for the lanes of m through layout lay. */
static void scatter(struct emu_warp *w, const struct mma_aux *x, emu_mask m, mma_layout lay,
                    const struct mma_tiles *t)
{
    bool wide = x->fd == EMU_MMA_F64, half = x->fd == EMU_MMA_F16;
    uint64_t out[8][EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        for (unsigned r = 0; r < x->nd; r++) {
            uint64_t v = 0;
            for (unsigned j = 0; j < (half ? 2u : 1u); j++) {
                unsigned row, col;
                lay(x, l, r, j, &row, &col);
                v |= t->d[row][col] << (16 * j);
            }
            out[r][l] = v;
        }
    for (unsigned r = 0; r < x->nd; r++)
        EMU_LANES(l) {
            if (!EMU_ON(m, l))
                continue;
            if (wide) w->r64[x->d[r]][l] = out[r][l];
            else w->r32[x->d[r]][l] = (uint32_t)out[r][l];
        }
}

/* mma.sync and wmma.mma: every lane's registers are read, then D is written for m. */
static int mma_run(struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool wmma)
{
    const struct mma_aux *x = in->aux;
    struct mma_tiles tiles, *t = &tiles;
    mma_layout la = wmma ? wmma_a : sync_a, lb = wmma ? wmma_b : sync_b, lc = wmma ? wmma_c : sync_c;
    if (x->fa == EMU_MMA_F64) {   /* f64 multiplicands: one element per lane */
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            unsigned row, col;
            la(x, l, 0, 0, &row, &col);
            t->a64[row * x->k + col] = w->r64[x->a[0]][l];
            lb(x, l, 0, 0, &row, &col);
            t->b64[row * x->n + col] = w->r64[x->b[0]][l];
        }
    } else {
        gather(w, x, x->a, x->na, (enum emu_mma_fmt)x->fa, la, 0, t);
        gather(w, x, x->b, x->nb, (enum emu_mma_fmt)x->fb, lb, 1, t);
    }
    gather(w, x, x->c, x->nc, (enum emu_mma_fmt)x->fc, lc, 2, t);
    compute(x, t);
    scatter(w, x, m, lc, t);
    return EMU_CONTINUE;
}

static int emu_mma_sync(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return mma_run(w, in, m, false);
}

/* ---- mma.sync.m8n8k4 .f16: four quad pairs -------------------------------------------
 * PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f16 floating point type": the lanes
 * 4 q .. 4 q + 3 and 4 q + 16 .. 4 q + 19 (quad pair q) compute an 8x8x4 product of
 * their own. With t = lane % 4 + 4 (lane >= 16), the thread's index in its pair, and v
 * its element (two per register): A .row holds (t, v), A .col (4 (t / 4) + v, t % 4);
 * B .col holds (v, t), B .row (t % 4, 4 (t / 4) + v); an f16 accumulator (t, v); an f32
 * accumulator register v (t % 2 + 4 (t / 4) + 2 (v / 2 % 2), v % 2 + 2 (t / 2 % 2) + 4 (v / 4)). */
static void qp_c(bool f32, unsigned t, unsigned v, unsigned *row, unsigned *col)
{
    if (!f32) {
        *row = t; *col = v;
        return;
    }
    *row = (t & 1) + 4 * (t >> 2) + 2 * ((v >> 1) & 1);
    *col = (v & 1) + 2 * ((t >> 1) & 1) + 4 * (v >> 2);
}

static int emu_mma_qp(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const struct mma_aux *x = in->aux;
    bool f32 = x->fc == EMU_MMA_F32;
    uint32_t a[4][8][4], b[4][8][4], c[4][8][8], d[4][8][8];   /* per pair: A rows, B columns, C, D */
    uint32_t out[8][EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        unsigned q = (l >> 2) & 3, t = (l & 3) + 4 * (l >> 4);
        for (unsigned v = 0; v < 4; v++) {
            uint32_t av = w->r32[x->a[v / 2]][l] >> (16 * (v & 1)) & 0xffff;
            uint32_t bv = w->r32[x->b[v / 2]][l] >> (16 * (v & 1)) & 0xffff;
            if (x->acol) a[q][4 * (t >> 2) + v][t & 3] = av;
            else a[q][t][v] = av;
            if (x->bcol) b[q][t][v] = bv;
            else b[q][4 * (t >> 2) + v][t & 3] = bv;
        }
        for (unsigned v = 0; v < 8; v++) {
            unsigned row, col;
            qp_c(f32, t, v, &row, &col);
            c[q][row][col] = f32 ? w->r32[x->c[v]][l] : w->r32[x->c[v / 2]][l] >> (16 * (v & 1)) & 0xffff;
        }
    }
    for (unsigned q = 0; q < 4; q++)
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++)
                d[q][i][j] = emu_mma_dot_qp((enum emu_mma_fmt)x->fc, a[q][i], b[q][j], c[q][i][j]);
    memset(out, 0, sizeof out);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        unsigned q = (l >> 2) & 3, t = (l & 3) + 4 * (l >> 4);
        for (unsigned v = 0; v < 8; v++) {
            unsigned row, col;
            qp_c(f32, t, v, &row, &col);
            if (f32) out[v][l] = d[q][row][col];
            else out[v / 2][l] |= d[q][row][col] << (16 * (v & 1));
        }
    }
    for (unsigned r = 0; r < x->nd; r++)
        EMU_LANES(l) {
            if (EMU_ON(m, l))
                w->r32[x->d[r]][l] = out[r][l];
        }
    return EMU_CONTINUE;
}

static int emu_wmma_mma(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return mma_run(w, in, m, true);
}

/* ---- wmma.load / wmma.store ----------------------------------------------------------
 * Lane l's fragment elements come from (go to) memory at the address of the lane's
 * operand plus (row * stride + col) elements for row-major memory, (col * stride + row)
 * for column-major; the stride counts elements. */
static int wmma_mem(struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool store)
{
    const struct mma_aux *x = in->aux;
    enum emu_mma_fmt f = (enum emu_mma_fmt)(x->which == 0 ? x->fa : x->which == 1 ? x->fb : x->fc);
    mma_layout lay = x->which == 0 ? wmma_a : x->which == 1 ? wmma_b : wmma_c;
    bool col = x->which == 0 ? x->acol : x->which == 1 ? x->bcol : x->mcol;
    unsigned bits = fmt_bits(f), per = bits >= 32 ? 1 : 32 / bits, bytes = bits >= 8 ? bits / 8 : 1;
    unsigned n = x->which == 0 ? x->na : x->which == 1 ? x->nb : x->nc;
    const uint16_t *regs = x->which == 0 ? x->a : x->which == 1 ? x->b : x->c;
    bool wide = f == EMU_MMA_F64;
    uint64_t val[16][EMU_WARP_SIZE];
    EMU_LANES(l) {
        if (!EMU_ON(m, l))
            continue;
        uint64_t base = emu_addr(w, in, l), stride = w->r32[x->stride][l];
        for (unsigned r = 0; r < n; r++) {
            uint64_t v = store ? frag_word(w, regs[r], wide, l) : 0;
            for (unsigned j = 0; j < per; j++) {
                unsigned row, c;
                lay(x, l, r, j, &row, &c);
                uint64_t at = base + (col ? c * stride + row : row * stride + c) * bytes;
                void *p = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, at, bytes, store);
                if (!p)
                    return EMU_STOP_FAULT;
                unsigned sh = bits >= 32 ? 0 : j * bits;
                if (store) {
                    uint64_t e = bits >= 32 ? v : v >> sh & ((1u << bits) - 1);
                    memcpy(p, &e, bytes);
                } else {
                    uint64_t e = 0;
                    memcpy(&e, p, bytes);
                    v |= e << sh;
                }
            }
            val[r][l] = v;
        }
    }
    if (store)
        return EMU_CONTINUE;
    for (unsigned r = 0; r < n; r++)
        EMU_LANES(l) {
            if (!EMU_ON(m, l))
                continue;
            if (wide) w->r64[regs[r]][l] = val[r][l];
            else w->r32[regs[r]][l] = (uint32_t)val[r][l];
        }
    return EMU_CONTINUE;
}

static int emu_wmma_load(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return wmma_mem(w, in, m, false);
}

static int emu_wmma_store(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return wmma_mem(w, in, m, true);
}

/* ---- ldmatrix / stmatrix / movmatrix --------------------------------------------------
 * PTX ISA, "ldmatrix": lanes 8 i .. 8 i + 7 hold the addresses of the eight 16-byte rows of
 * matrix i; register i of lane l receives row l / 4, elements 2 (l % 4) and 2 (l % 4) + 1
 * of matrix i (of its transpose with .trans). stmatrix is the inverse. in->nv: matrices;
 * in->sub: .trans; in->v: the registers. */
static int emu_ldmatrix(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint16_t rows[4][8][8];
    for (unsigned i = 0; i < in->nv; i++)
        for (unsigned r = 0; r < 8; r++) {
            unsigned l = 8 * i + r;
            void *p = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), 16, false);
            if (!p)
                return EMU_STOP_FAULT;
            memcpy(rows[i][r], p, 16);
        }
    for (unsigned i = 0; i < in->nv; i++)
        EMU_LANES(l) {
            unsigned r = l / 4, c = 2 * (l % 4);
            uint32_t lo = in->sub ? rows[i][c][r] : rows[i][r][c], hi = in->sub ? rows[i][c + 1][r] : rows[i][r][c + 1];
            if (EMU_ON(m, l))
                w->r32[in->v[i]][l] = lo | (uint32_t)hi << 16;
        }
    return EMU_CONTINUE;
}

static int emu_stmatrix(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint16_t rows[4][8][8];
    (void)m;
    for (unsigned i = 0; i < in->nv; i++)
        EMU_LANES(l) {
            unsigned r = l / 4, c = 2 * (l % 4);
            uint32_t v = w->r32[in->v[i]][l];
            if (in->sub) {
                rows[i][c][r] = (uint16_t)v;
                rows[i][c + 1][r] = (uint16_t)(v >> 16);
            } else {
                rows[i][r][c] = (uint16_t)v;
                rows[i][r][c + 1] = (uint16_t)(v >> 16);
            }
        }
    for (unsigned i = 0; i < in->nv; i++)
        for (unsigned r = 0; r < 8; r++) {
            unsigned l = 8 * i + r;
            void *p = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), 16, true);
            if (!p)
                return EMU_STOP_FAULT;
            memcpy(p, rows[i][r], 16);
        }
    return EMU_CONTINUE;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: lane l's d holds row l / 4, elements
 * 2 (l % 4) .. + 1 of the transpose of the matrix that the a registers hold so. */
static int emu_movmatrix(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint16_t mat[8][8];
    EMU_LANES(l) {
        uint32_t v = w->r32[in->a][l];
        mat[l / 4][2 * (l % 4)] = (uint16_t)v;
        mat[l / 4][2 * (l % 4) + 1] = (uint16_t)(v >> 16);
    }
    EMU_LANES(l) {
        unsigned r = l / 4, c = 2 * (l % 4);
        if (EMU_ON(m, l))
            w->r32[in->d][l] = mat[c][r] | (uint32_t)mat[c + 1][r] << 16;
    }
    return EMU_CONTINUE;
}

/* ---- Selection ---------------------------------------------------------------------- */
static bool has_mod(const struct ptx_instr *pi, enum ptx_mod mod)
{
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] == mod)
            return true;
    return false;
}

/* The first mod of pi among list[0..n), as its index, or -1. */
static int which_mod(const struct ptx_instr *pi, const enum ptx_mod *list, int n)
{
    for (int i = 0; i < n; i++)
        if (has_mod(pi, list[i]))
            return i;
    return -1;
}

/* The .row/.col suffixes of pi in order (1 for .col) into out[0..2); returns their count. */
static int layouts(const struct ptx_instr *pi, int out[2])
{
    int n = 0;
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] == PTX_MOD_ROW || pi->mods[i] == PTX_MOD_COL) {
            if (n == 2)
                return 3;
            out[n++] = pi->mods[i] == PTX_MOD_COL;
        }
    return n;
}

static bool fmt_of_type(enum ptx_type t, enum emu_mma_fmt *out)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: *out = EMU_MMA_F16; return true;
    case PTX_T_BF16: case PTX_T_BF16X2: *out = EMU_MMA_BF16; return true;
    case PTX_T_TF32: *out = EMU_MMA_TF32; return true;
    case PTX_T_F32: *out = EMU_MMA_F32; return true;
    case PTX_T_F64: *out = EMU_MMA_F64; return true;
    case PTX_T_S8: *out = EMU_MMA_S8; return true;
    case PTX_T_U8: *out = EMU_MMA_U8; return true;
    case PTX_T_S4: *out = EMU_MMA_S4; return true;
    case PTX_T_U4: *out = EMU_MMA_U4; return true;
    case PTX_T_B1: *out = EMU_MMA_B1; return true;
    case PTX_T_S32: *out = EMU_MMA_S32; return true;
    default: return false;
    }
}

/* Rows of the registers of vector operand op (n of them) into rows[]; dst: written. */
static bool vec_rows(struct emu_decoder *dc, const struct ptx_operand *op, unsigned n, bool wide, bool dst,
                     uint16_t *rows)
{
    if (op->kind != PTX_OPND_VEC || op->nelems != n)
        return false;
    enum ptx_type t = wide ? PTX_T_B64 : PTX_T_B32;
    for (unsigned i = 0; i < n; i++)
        rows[i] = dst ? emu_dec_dst(dc, &op->elems[i], t) : emu_dec_src(dc, &op->elems[i], t);
    return true;
}

/* Registers per lane of a multiplicand of m x k (or k x n) elements of format f. */
static unsigned frag_regs(unsigned rows, unsigned cols, enum emu_mma_fmt f)
{
    return f == EMU_MMA_F64 ? rows * cols / 32 : rows * cols * fmt_bits(f) / (32 * 32);
}

static struct mma_aux *new_aux(struct emu_decoder *dc, struct emu_inst *out)
{
    struct mma_aux *x = calloc(1, sizeof *x);
    if (!x) {
        emu_dec_unsupported(dc, "out of memory");
        return NULL;
    }
    out->aux = x;
    out->aux_owned = 1;
    return x;
}

/* The shapes of mma.sync (m16n8kK for every K its types allow, m8n8k4 for f64 and f16) and
 * of wmma (m16n16k16, m16n16k8). */
static const enum ptx_mod shape_mods[] = {
    PTX_MOD_M16N8K4, PTX_MOD_M16N8K8, PTX_MOD_M16N8K16, PTX_MOD_M16N8K32, PTX_MOD_M16N8K64,
    PTX_MOD_M16N8K128, PTX_MOD_M16N8K256, PTX_MOD_M8N8K4, PTX_MOD_M16N16K16, PTX_MOD_M16N16K8,
};
static const uint16_t shape_mnk[][3] = {
    {16, 8, 4}, {16, 8, 8}, {16, 8, 16}, {16, 8, 32}, {16, 8, 64}, {16, 8, 128}, {16, 8, 256}, {8, 8, 4},
    {16, 16, 16}, {16, 16, 8},
};

static bool pick_shape(const struct ptx_instr *pi, struct mma_aux *x)
{
    int s = which_mod(pi, shape_mods, (int)(sizeof shape_mods / sizeof shape_mods[0]));
    if (s < 0)
        return false;
    x->m = shape_mnk[s][0];
    x->n = shape_mnk[s][1];
    x->k = shape_mnk[s][2];
    return true;
}

/* Whether the (shape, types) pair is one that the ISA defines for mma.sync. */
static bool sync_form_ok(const struct mma_aux *x)
{
    enum emu_mma_fmt a = (enum emu_mma_fmt)x->fa;
    if (x->m == 8)
        return (a == EMU_MMA_F64 || a == EMU_MMA_F16) && x->k == 4;
    switch (a) {
    case EMU_MMA_F16: case EMU_MMA_BF16: return x->k == 8 || x->k == 16;
    case EMU_MMA_TF32: return x->k == 4 || x->k == 8;
    case EMU_MMA_S8: case EMU_MMA_U8: return x->k == 16 || x->k == 32;
    case EMU_MMA_S4: case EMU_MMA_U4: return x->k == 32 || x->k == 64;
    case EMU_MMA_B1: return x->k == 128 || x->k == 256;
    default: return false;
    }
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype{.op.popc} d, a, b, c
 * (m8n8k4 .f16: .alayout.blayout of .row/.col each) */
static enum emu_sel sel_mma(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (has_mod(pi, PTX_MOD_SP) || has_mod(pi, PTX_MOD_SP_ORDERED_METADATA))
        return emu_dec_unsupported(dc, "sparse mma.sp is not supported yet");
    struct mma_aux x = {0};
    enum emu_mma_fmt f[4];
    if (!pick_shape(pi, &x) || x.n != 8)
        return emu_dec_unsupported(dc, "this mma shape is not supported yet");
    if (pi->ntypes != 4 && !(pi->ntypes == 2 && pi->types[0] == PTX_T_F16))
        return emu_dec_unsupported(dc, "mma needs .dtype.atype.btype.ctype");
    for (unsigned i = 0; i < 4; i++)
        if (!fmt_of_type(pi->types[pi->ntypes == 4 ? i : 0], &f[i]))
            return emu_dec_unsupported(dc, "this mma type is not supported yet");
    x.fd = f[0]; x.fa = f[1]; x.fb = f[2]; x.fc = f[3];
    if (!sync_form_ok(&x) || x.fc != x.fd || (x.fa == EMU_MMA_F64) != (x.fc == EMU_MMA_F64))
        return emu_dec_unsupported(dc, "this mma shape/type combination is not supported yet");
    int lay[2], nl = layouts(pi, lay);
    bool qp = x.m == 8 && x.fa == EMU_MMA_F16;   /* m8n8k4 .f16: any layouts */
    if (nl != 2 || (!qp && (lay[0] || !lay[1])))
        return emu_dec_unsupported(dc, "mma needs .row.col");
    x.acol = (uint8_t)lay[0];
    x.bcol = (uint8_t)lay[1];
    x.satfinite = (pi->flags & PTX_IF_SATFINITE) != 0;
    x.bxor = has_mod(pi, PTX_MOD_XOR);
    if (x.fa == EMU_MMA_B1 && (!has_mod(pi, PTX_MOD_POPC) || (!x.bxor && !has_mod(pi, PTX_MOD_AND))))
        return emu_dec_unsupported(dc, "mma .b1 needs .and.popc or .xor.popc");
    bool wide = x.fa == EMU_MMA_F64;
    x.na = (uint8_t)frag_regs(x.m, x.k, (enum emu_mma_fmt)x.fa);
    x.nb = (uint8_t)frag_regs(x.k, x.n, (enum emu_mma_fmt)x.fb);
    x.nc = x.nd = (uint8_t)(wide ? 2 : x.fc == EMU_MMA_F16 ? 2 : 4);
    if (qp) {
        x.na = x.nb = 2;
        x.nc = x.nd = x.fc == EMU_MMA_F16 ? 4 : 8;
    }
    if (pi->nops != 4)
        return emu_dec_unsupported(dc, "mma takes d, a, b, c");
    struct mma_aux *px = new_aux(dc, out);
    if (!px)
        return EMU_SEL_UNSUPPORTED;
    *px = x;
    if (!vec_rows(dc, &pi->ops[1], x.na, wide, false, px->a) || !vec_rows(dc, &pi->ops[2], x.nb, wide, false, px->b) ||
        !vec_rows(dc, &pi->ops[3], x.nc, wide, false, px->c) || !vec_rows(dc, &pi->ops[0], x.nd, wide, true, px->d))
        return emu_dec_unsupported(dc, "mma operands do not match the shape and types");
    px->chunk = (uint8_t)x.k;
    out->fn = qp ? emu_mma_qp : emu_mma_sync;
    return EMU_SEL_OK;
}

/* wmma fragments: registers per lane of each fragment. The multiplicand fragments hold
 * m16n8-sized slices side by side (wmma_a, wmma_b); f64 and tf32 as documented. */
static bool wmma_form(struct mma_aux *x)
{
    enum emu_mma_fmt a = (enum emu_mma_fmt)x->fa, c = (enum emu_mma_fmt)x->fc;
    if (a == EMU_MMA_F64) {
        if (x->m != 8 || x->n != 8 || x->k != 4)
            return false;
        x->na = x->nb = 1;
        x->nc = x->nd = 2;
        return true;
    }
    if (x->m != 16 || x->n != 16)
        return false;
    bool ok = ((a == EMU_MMA_F16 || a == EMU_MMA_BF16 || a == EMU_MMA_S8 || a == EMU_MMA_U8) && x->k == 16) ||
              (a == EMU_MMA_TF32 && x->k == 8);
    if (!ok)
        return false;
    x->na = (uint8_t)frag_regs(16, x->k, a);
    x->nb = (uint8_t)frag_regs(x->k, 16, a);
    if (a == EMU_MMA_F16)          /* eight registers each, the second four repeating the first */
        x->na = x->nb = 8;
    x->nc = x->nd = (uint8_t)(c == EMU_MMA_F16 ? 4 : 8);
    return true;
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride};
 * wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride};
 * wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype d, a, b, c */
static enum emu_sel sel_wmma(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    struct mma_aux x = {0};
    if (!pick_shape(pi, &x))
        return emu_dec_unsupported(dc, "this wmma shape is not supported yet");
    bool mma = pi->subop == PTX_MOD_MMA || has_mod(pi, PTX_MOD_MMA);
    bool load = pi->subop == PTX_MOD_LOAD || has_mod(pi, PTX_MOD_LOAD);
    bool store = pi->subop == PTX_MOD_STORE || has_mod(pi, PTX_MOD_STORE);
    int lay[2], nl = layouts(pi, lay);
    enum emu_mma_fmt f[4];
    for (unsigned i = 0; i < pi->ntypes; i++)
        if (!fmt_of_type(pi->types[i], &f[i]))
            return emu_dec_unsupported(dc, "this wmma type is not supported yet");
    if (mma) {
        if (nl != 2 || pi->nops != 4 || (pi->ntypes != 2 && pi->ntypes != 4))
            return emu_dec_unsupported(dc, "wmma.mma needs two layouts, types and d, a, b, c");
        x.acol = (uint8_t)lay[0];
        x.bcol = (uint8_t)lay[1];
        x.satfinite = (pi->flags & PTX_IF_SATFINITE) != 0;
        x.fd = f[0];
        x.fc = f[pi->ntypes - 1];
        x.fa = x.fb = pi->ntypes == 4 ? f[1] : EMU_MMA_F16;
        if (pi->ntypes == 4 && f[1] != f[2])
            return emu_dec_unsupported(dc, "wmma.mma with different A and B types is not supported yet");
        if (x.fa == EMU_MMA_F32 && x.k == 8)
            x.fa = x.fb = EMU_MMA_TF32;
        if (x.fd != x.fc)
            return emu_dec_unsupported(dc, "wmma.mma with different C and D types is not supported yet");
        if (!wmma_form(&x))
            return emu_dec_unsupported(dc, "this wmma shape/type combination is not supported yet");
        bool wide = x.fa == EMU_MMA_F64;
        struct mma_aux *px = new_aux(dc, out);
        if (!px)
            return EMU_SEL_UNSUPPORTED;
        *px = x;
        if (!vec_rows(dc, &pi->ops[1], x.na, wide, false, px->a) ||
            !vec_rows(dc, &pi->ops[2], x.nb, wide, false, px->b) ||
            !vec_rows(dc, &pi->ops[3], x.nc, wide, false, px->c) || !vec_rows(dc, &pi->ops[0], x.nd, wide, true, px->d))
            return emu_dec_unsupported(dc, "wmma.mma operands do not match the shape and types");
        px->chunk = (uint8_t)(x.fa == EMU_MMA_TF32 ? 4 : x.k);
        out->fn = emu_wmma_mma;
        return EMU_SEL_OK;
    }
    if (!load && !store)
        return emu_dec_unsupported(dc, "wmma needs .load, .store or .mma");
    enum ptx_mod wm[] = {PTX_MOD_A, PTX_MOD_B, PTX_MOD_C, PTX_MOD_D};
    int which = which_mod(pi, wm, 4);
    if (which < 0 || nl != 1 || pi->ntypes != 1 || (store && which != 3) || (load && which == 3))
        return emu_dec_unsupported(dc, "wmma.load needs .a/.b/.c, wmma.store .d, one layout and one type");
    /* The fragment's multiplicand type decides its register count; for c/d it is f16
     * unless the shape says otherwise (only the accumulator type matters there). */
    enum emu_mma_fmt t = f[0];
    x.fa = x.fb = which < 2 ? t : (x.k == 8 ? EMU_MMA_TF32 : t == EMU_MMA_F64 ? EMU_MMA_F64 : t == EMU_MMA_S32 ? EMU_MMA_S8 : EMU_MMA_F16);
    if (which < 2 && t == EMU_MMA_F32 && x.k == 8)
        x.fa = x.fb = EMU_MMA_TF32;
    x.fc = x.fd = which >= 2 ? t : (t == EMU_MMA_F64 ? EMU_MMA_F64 : t == EMU_MMA_S8 || t == EMU_MMA_U8 ? EMU_MMA_S32 : EMU_MMA_F32);
    if (!wmma_form(&x))
        return emu_dec_unsupported(dc, "this wmma shape/type combination is not supported yet");
    x.which = (uint8_t)(which == 3 ? 2 : which);
    if (which == 0) x.acol = (uint8_t)lay[0];
    else if (which == 1) x.bcol = (uint8_t)lay[0];
    else x.mcol = (uint8_t)lay[0];
    unsigned n = x.which == 0 ? x.na : x.which == 1 ? x.nb : x.nc;
    bool wide = t == EMU_MMA_F64;
    const struct ptx_operand *addr = &pi->ops[store ? 0 : 1], *regs = &pi->ops[store ? 1 : 0];
    if (pi->nops < 2 || pi->nops > 3 || addr->kind != PTX_OPND_ADDR)
        return emu_dec_unsupported(dc, "wmma.load/store takes registers, an address and a stride");
    struct mma_aux *px = new_aux(dc, out);
    if (!px)
        return EMU_SEL_UNSUPPORTED;
    *px = x;
    uint16_t *rows = x.which == 0 ? px->a : x.which == 1 ? px->b : px->c;
    if (!vec_rows(dc, regs, n, wide, load, rows))
        return emu_dec_unsupported(dc, "wmma.load/store registers do not match the shape and type");
    px->stride = pi->nops == 3 ? emu_dec_reg32(dc, &pi->ops[2])
                               : emu_dec_const32(dc, x.which == 0 ? (x.acol ? x.m : x.k) : x.which == 1 ? (x.bcol ? x.k : x.n)
                                                                : (x.mcol ? x.m : x.n));
    if (!emu_dec_address(dc, addr, pi->space, out))
        return emu_dec_unsupported(dc, "bad address");
    out->space = (uint8_t)pi->space;
    out->fn = store ? emu_wmma_store : emu_wmma_load;
    return EMU_SEL_OK;
}

/* ldmatrix.sync.aligned.m8n8.num{.trans}{.ss}.b16 r, [p]; stmatrix likewise [p], r. */
static enum emu_sel sel_ldst_matrix(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out, bool st)
{
    static const enum ptx_mod nums[] = {PTX_MOD_X1, PTX_MOD_X2, PTX_MOD_X4};
    int num = which_mod(pi, nums, 3);
    if (!has_mod(pi, PTX_MOD_M8N8) || num < 0 || pi->ntypes != 1 || pi->types[0] != PTX_T_B16)
        return emu_dec_unsupported(dc, "only the .m8n8 .x1/.x2/.x4 .b16 forms are supported yet");
    if (pi->space != PTX_SPACE_NONE && pi->space != PTX_SPACE_SHARED)
        return emu_dec_unsupported(dc, "ldmatrix/stmatrix access shared memory only");
    unsigned nv = 1u << num;
    const struct ptx_operand *addr = &pi->ops[st ? 0 : 1], *regs = &pi->ops[st ? 1 : 0];
    if (pi->nops != 2 || addr->kind != PTX_OPND_ADDR)
        return emu_dec_unsupported(dc, "ldmatrix/stmatrix takes registers and an address");
    if (regs->kind == PTX_OPND_VEC ? regs->nelems != nv : nv != 1)
        return emu_dec_unsupported(dc, "ldmatrix/stmatrix registers do not match .x1/.x2/.x4");
    for (unsigned i = 0; i < nv; i++) {
        const struct ptx_operand *e = regs->kind == PTX_OPND_VEC ? &regs->elems[i] : regs;
        out->v[i] = st ? emu_dec_src(dc, e, PTX_T_B32) : emu_dec_dst(dc, e, PTX_T_B32);
    }
    if (!emu_dec_address(dc, addr, pi->space, out))
        return emu_dec_unsupported(dc, "bad address");
    out->space = (uint8_t)pi->space;
    out->nv = (uint8_t)nv;
    out->sub = has_mod(pi, PTX_MOD_TRANS);
    out->fn = st ? emu_stmatrix : emu_ldmatrix;
    return EMU_SEL_OK;
}

static enum emu_sel sel_movmatrix(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (!has_mod(pi, PTX_MOD_M8N8) || !has_mod(pi, PTX_MOD_TRANS) || pi->ntypes != 1 || pi->types[0] != PTX_T_B16 ||
        pi->nops != 2)
        return emu_dec_unsupported(dc, "movmatrix takes .m8n8.trans.b16 d, a");
    out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_B32);
    out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_B32);
    out->fn = emu_movmatrix;
    return EMU_SEL_OK;
}

/* The tensor-core family (PTX_OPF_TENSOR opcodes). */
enum emu_sel emu_sel_mma(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_MMA: return sel_mma(dc, pi, out);
    case PTX_OP_WMMA: return sel_wmma(dc, pi, out);
    case PTX_OP_LDMATRIX: return sel_ldst_matrix(dc, pi, out, false);
    case PTX_OP_STMATRIX: return sel_ldst_matrix(dc, pi, out, true);
    case PTX_OP_MOVMATRIX: return sel_movmatrix(dc, pi, out);
    case PTX_OP_WGMMA: return emu_dec_unsupported(dc, "wgmma is not supported yet");
    default:
        if (ptx_opcode_flags(pi->op) & PTX_OPF_TENSOR)
            return emu_dec_unsupported(dc, "this tensor-core instruction is not supported yet");
        return EMU_SEL_NO;
    }
}
