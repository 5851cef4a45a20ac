// mma.cu -- edge tests of the tensor-core instructions: mma.sync of every shape and type
// (mma_ops.cuh, written by gen.py), ldmatrix / stmatrix / movmatrix and wmma.load / mma /
// store. gen.sh compiles it to mma.ptx (committed); runs.txt names the launches.
//
// Inputs come from gen.h's fixed-seed generator, so a kernel needs only its output buffer;
// the H100 recordings pin the results bit for bit, rounding of the accumulation included.
#include <stdint.h>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "gen.h"
#include "mma_ops.cuh"

using namespace nvcuda;

// A 32-row x 40-column u16 shared tile: 16-byte aligned rows of 80 bytes.
#define LD_ROWS 32
#define LD_STRIDE 40

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// The row lane l points at: rows permuted, at a column offset of 0, 8 or 16 elements.
__device__ __forceinline__ uint32_t ld_row(const uint16_t *sm, uint32_t l)
{
    return smem_addr(sm + ((l * 7 + 3) % LD_ROWS) * LD_STRIDE + 8 * (l % 3));
}

// ldmatrix .x1/.x2/.x4, plain and .trans, from a tile holding its own element indices.
// out: 6 variants x 32 lanes x 4 registers (unused registers stay 0).
extern "C" __global__ void ldmatrix_all(uint32_t *out)
{
    __shared__ __align__(16) uint16_t sm[LD_ROWS * LD_STRIDE];
    uint32_t l = threadIdx.x;
    for (uint32_t i = l; i < LD_ROWS * LD_STRIDE; i += 32)
        sm[i] = (uint16_t)(i * 3 + 0x100);
    __syncwarp();
    uint32_t p = ld_row(sm, l), r[6][4] = {};
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0][0]) : "r"(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[1][0]), "=r"(r[1][1]) : "r"(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[2][0]), "=r"(r[2][1]), "=r"(r[2][2]), "=r"(r[2][3]) : "r"(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[3][0]) : "r"(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[4][0]), "=r"(r[4][1]) : "r"(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[5][0]), "=r"(r[5][1]), "=r"(r[5][2]), "=r"(r[5][3]) : "r"(p));
    for (int v = 0; v < 6; v++)
        for (int i = 0; i < 4; i++)
            out[(v * 32 + l) * 4 + i] = r[v][i];
}

// stmatrix .x1/.x2/.x4, plain and .trans, of registers holding distinct halves, into a
// tile filled with 0xffff first. out: 6 variants x the whole tile as u32.
extern "C" __global__ void stmatrix_all(uint32_t *out)
{
    __shared__ __align__(16) uint16_t sm[LD_ROWS * LD_STRIDE];
    uint32_t l = threadIdx.x, n = LD_ROWS * LD_STRIDE / 2;
    uint32_t r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (l * 8 + 2 * i + 1) << 16 | (l * 8 + 2 * i) | 0x10001000u;
    for (int v = 0; v < 6; v++) {
        for (uint32_t i = l; i < LD_ROWS * LD_STRIDE; i += 32)
            sm[i] = 0xffff;
        __syncwarp();
        uint32_t p = ld_row(sm, l);
        switch (v) {
        case 0: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(p), "r"(r[0]) : "memory"); break;
        case 1: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(p), "r"(r[0]), "r"(r[1]) : "memory"); break;
        case 2:
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                         :: "r"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
            break;
        case 3: asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(p), "r"(r[0]) : "memory"); break;
        case 4:
            asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(p), "r"(r[0]), "r"(r[1]) : "memory");
            break;
        default:
            asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1, %2, %3, %4};"
                         :: "r"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
            break;
        }
        __syncwarp();
        const uint32_t *w = (const uint32_t *)sm;
        for (uint32_t i = l; i < n; i += 32)
            out[v * n + i] = w[i];
        __syncwarp();
    }
}

// movmatrix.trans of a register holding (lane, half) indices. out: 32 lanes.
extern "C" __global__ void movmatrix_trans(uint32_t *out)
{
    uint32_t l = threadIdx.x, a = (2 * l + 1) << 16 | 2 * l | 0x20002000u, d;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    out[l] = d;
}

// Element e of a generated matrix as the low bits of one generated register.
template <class T> __device__ T gen_elem(int k, uint32_t t, uint32_t e, uint32_t part);
template <> __device__ __half gen_elem<__half>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return __ushort_as_half((unsigned short)gen_reg(k, t, e % 32, e / 32, part));
}
template <> __device__ __nv_bfloat16 gen_elem<__nv_bfloat16>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return __ushort_as_bfloat16((unsigned short)gen_reg(k, t, e % 32, e / 32, part));
}
template <> __device__ float gen_elem<float>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return __uint_as_float(gen_reg(k, t, e % 32, e / 32, part));
}
template <> __device__ double gen_elem<double>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return __hiloint2double(gen_reg(k, t, e % 32, 2 * (e / 32) + 1, part), gen_reg(k, t, e % 32, 2 * (e / 32), part));
}
template <> __device__ signed char gen_elem<signed char>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return (signed char)gen_reg(k, t, e % 32, e / 32, part);
}
template <> __device__ unsigned char gen_elem<unsigned char>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return (unsigned char)gen_reg(k, t, e % 32, e / 32, part);
}
template <> __device__ int gen_elem<int>(int k, uint32_t t, uint32_t e, uint32_t part)
{
    return (int)gen_reg(k, t, e % 32, e / 32, part);
}

// One warp per tile: A (M x K), B (K x N) and C (M x N) generated into shared memory in the
// layouts LA and LB (C row-major), with leading dimensions padded by 16 bytes; D stored to
// out[t * M * N ...] row-major (DCOL: column-major). TI is the element type of A and B in
// memory, TF the fragment's (wmma::precision::tf32 for tf32), TC that of C and D.
template <class TF, class TI, class TC, int M, int N, int K, class LA, class LB, bool DCOL>
__device__ void wmma_tiles(TC *out, uint32_t ntiles, int ka, int kc)
{
    __shared__ __align__(32) TI sa[M * K + 256];
    __shared__ __align__(32) TI sb[K * N + 256];
    __shared__ __align__(32) TC sc[M * N + 256];
    const bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
    const int pad = 16 / sizeof(TI), lda = (arow ? K : M) + pad, ldb = (brow ? N : K) + pad;
    const int ldc = N + 16 / (int)sizeof(TC);
    uint32_t l = threadIdx.x;
    for (uint32_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        for (int e = l; e < M * K; e += 32) {
            int i = e / K, j = e % K;
            sa[arow ? i * lda + j : j * lda + i] = gen_elem<TI>(ka, t, e, 0);
        }
        for (int e = l; e < K * N; e += 32) {
            int i = e / N, j = e % N;
            sb[brow ? i * ldb + j : j * ldb + i] = gen_elem<TI>(ka, t, e, 1);
        }
        for (int e = l; e < M * N; e += 32)
            sc[e / N * ldc + e % N] = gen_elem<TC>(kc, t, e, 2);
        __syncwarp();
        wmma::fragment<wmma::matrix_a, M, N, K, TF, LA> fa;
        wmma::fragment<wmma::matrix_b, M, N, K, TF, LB> fb;
        wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
        wmma::load_matrix_sync(fa, sa, lda);
        wmma::load_matrix_sync(fb, sb, ldb);
        wmma::load_matrix_sync(fc, sc, ldc, wmma::mem_row_major);
        wmma::mma_sync(fc, fa, fb, fc);
        if (DCOL)
            wmma::store_matrix_sync(out + (size_t)t * M * N, fc, M, wmma::mem_col_major);
        else
            wmma::store_matrix_sync(out + (size_t)t * M * N, fc, N, wmma::mem_row_major);
        __syncwarp();
    }
}

#define WMMA_KERNEL(NAME, TF, TI, TC, M, N, K, LA, LB, DCOL, KA, KC)                                    \
    extern "C" __global__ void wmma_##NAME(TC *out, uint32_t ntiles)                                    \
    {                                                                                                   \
        wmma_tiles<TF, TI, TC, M, N, K, wmma::LA, wmma::LB, DCOL>(out, ntiles, G_##KA, G_##KC);         \
    }
WMMA_KERNEL(f16_f32_rr, __half, __half, float, 16, 16, 16, row_major, row_major, false, F16, F32)
WMMA_KERNEL(f16_f32_rc, __half, __half, float, 16, 16, 16, row_major, col_major, false, F16, F32)
WMMA_KERNEL(f16_f32_cr, __half, __half, float, 16, 16, 16, col_major, row_major, true, F16, F32)
WMMA_KERNEL(f16_f32_cc, __half, __half, float, 16, 16, 16, col_major, col_major, false, F16, F32)
WMMA_KERNEL(f16_f16_rc, __half, __half, __half, 16, 16, 16, row_major, col_major, false, F16, F16)
WMMA_KERNEL(f16_f16_cr, __half, __half, __half, 16, 16, 16, col_major, row_major, true, F16, F16)
WMMA_KERNEL(bf16_rr, __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, row_major, row_major, false, BF16, F32)
WMMA_KERNEL(bf16_cc, __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, col_major, col_major, true, BF16, F32)
WMMA_KERNEL(tf32_rc, wmma::precision::tf32, float, float, 16, 16, 8, row_major, col_major, false, TF32, F32)
WMMA_KERNEL(tf32_cr, wmma::precision::tf32, float, float, 16, 16, 8, col_major, row_major, false, TF32, F32)
WMMA_KERNEL(f64_rr, double, double, double, 8, 8, 4, row_major, row_major, false, F64, F64)
WMMA_KERNEL(f64_cc, double, double, double, 8, 8, 4, col_major, col_major, true, F64, F64)
WMMA_KERNEL(s8_rr, signed char, signed char, int, 16, 16, 16, row_major, row_major, false, S8, S32)
WMMA_KERNEL(u8_cc, unsigned char, unsigned char, int, 16, 16, 16, col_major, col_major, true, U8, S32)

// The registers of loaded wmma fragments (their lane layout, which the ISA leaves open):
// A and B of f16 m16n16k16 from a matrix holding element indices, in row and column layout,
// and the f32 accumulator. out: 32 lanes x (4 x 8 + 8) registers.
extern "C" __global__ void wmma_frag_layout(uint32_t *out)
{
    __shared__ __align__(32) __half s[16 * 16];
    __shared__ __align__(32) float f[16 * 16];
    uint32_t l = threadIdx.x, k = 0;
    for (int e = l; e < 256; e += 32) {
        s[e] = __ushort_as_half((unsigned short)e);
        f[e] = (float)e;
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> ar;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> ac;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> br;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> bc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(ar, s, 16);
    wmma::load_matrix_sync(ac, s, 16);
    wmma::load_matrix_sync(br, s, 16);
    wmma::load_matrix_sync(bc, s, 16);
    wmma::load_matrix_sync(c, f, 16, wmma::mem_row_major);
    for (int i = 0; i < 16; i += 2) {
        out[l * 40 + k++] = __half_as_ushort(ar.x[i]) | (uint32_t)__half_as_ushort(ar.x[i + 1]) << 16;
        out[l * 40 + k++] = __half_as_ushort(ac.x[i]) | (uint32_t)__half_as_ushort(ac.x[i + 1]) << 16;
        out[l * 40 + k++] = __half_as_ushort(br.x[i]) | (uint32_t)__half_as_ushort(br.x[i + 1]) << 16;
        out[l * 40 + k++] = __half_as_ushort(bc.x[i]) | (uint32_t)__half_as_ushort(bc.x[i + 1]) << 16;
    }
    for (int i = 0; i < 8; i++)
        out[l * 40 + k++] = __float_as_uint(c.x[i]);
}
