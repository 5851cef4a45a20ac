// Corpus, half precision and bfloat16 through cuda_fp16.h / cuda_bf16.h: scalar and packed
// (x2) arithmetic, fma, min/max including the _nan variants, comparisons, and the conversions
// to and from float. Buffers hold raw 16-bit patterns (u16) or packed pairs (u32).
//
// For compute_75, bf16 arithmetic is emulated by nvcc through f32; compute_80/90 have native
// bf16 instructions. Output slot k of element i is out[k * n + i].

#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define OUT(v) (out[(k++) * n + i] = (v))

__device__ __forceinline__ unsigned short hbits(__half h)
{
    return __half_as_ushort(h);
}

__device__ __forceinline__ unsigned h2bits(__half2 h)
{
    return (unsigned)__half_as_ushort(__high2half(h)) << 16 | __half_as_ushort(__low2half(h));
}

__device__ __forceinline__ unsigned short bbits(__nv_bfloat16 h)
{
    return __bfloat16_as_ushort(h);
}

// K = 18 slots of u16 in out; 1 u32 of comparison bits in flags. (hsqrt/hrcp, built on .approx
// instructions, are in float.cu's f32_approx_loose.)
extern "C" __global__ void f16_arith(const unsigned short *a, const unsigned short *b,
                                     const unsigned short *c, unsigned short *out,
                                     unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    int k = 0;
    OUT(hbits(__hadd(x, y)));
    OUT(hbits(__hsub(x, y)));
    OUT(hbits(__hmul(x, y)));
    OUT(hbits(__hfma(x, y, z)));
    OUT(hbits(__hdiv(x, y)));
    OUT(hbits(__hneg(x)));
    OUT(hbits(__habs(x)));
    OUT(hbits(__hmax(x, y)));
    OUT(hbits(__hmin(x, y)));
    OUT(hbits(__hmax_nan(x, y)));
    OUT(hbits(__hmin_nan(x, y)));
    OUT(hbits(__hadd_sat(x, y)));
    OUT(hbits(__hmul_sat(x, y)));
    OUT(hbits(__hfma_sat(x, y, z)));
    OUT(hbits(__hadd_rn(x, y)));      /* never contracted into an fma */
    OUT(hbits(__hmul_rn(x, y)));
    OUT(hbits(x * y + z));
    OUT(hbits(htrunc(x)));
    unsigned f = 0;
    f |= (unsigned)__heq(x, y) << 0;
    f |= (unsigned)__hne(x, y) << 1;
    f |= (unsigned)__hlt(x, y) << 2;
    f |= (unsigned)__hle(x, y) << 3;
    f |= (unsigned)__hgt(x, y) << 4;
    f |= (unsigned)__hge(x, y) << 5;
    f |= (unsigned)__hequ(x, y) << 6;
    f |= (unsigned)__hneu(x, y) << 7;
    f |= (unsigned)__hltu(x, y) << 8;
    f |= (unsigned)__hgeu(x, y) << 9;
    f |= (unsigned)__hisnan(x) << 10;
    f |= (unsigned)(__hisinf(x) != 0) << 11;
    flags[i] = f;
}

// Packed half2: a and b hold n pairs each (as u32). K = 12 slots of u32 in out.
extern "C" __global__ void f16x2_arith(const unsigned *a, const unsigned *b, const unsigned *c,
                                       unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 x = *(const __half2 *)&a[i], y = *(const __half2 *)&b[i], z = *(const __half2 *)&c[i];
    int k = 0;
#define H2(v) OUT(h2bits(v))
    H2(__hadd2(x, y));
    H2(__hsub2(x, y));
    H2(__hmul2(x, y));
    H2(__hfma2(x, y, z));
    H2(__hmax2(x, y));
    H2(__hmin2(x, y));
    H2(__hmax2_nan(x, y));
    H2(__hmin2_nan(x, y));
    H2(__hneg2(x));
    H2(__habs2(x));
    H2(__hadd2_sat(x, y));
    OUT((unsigned)__hbeq2(x, y) | (unsigned)__hblt2(x, y) << 1 |
        (unsigned)__hbgtu2(x, y) << 2 | h2bits(__hisnan2(x)) << 3);
#undef H2
}

// bf16 fma exists from sm_80 (fma.rn.bf16); compute_75 gets an f32 fma rounded to bf16, which
// rounds twice and so may differ from the native instruction in rare cases.
__device__ __forceinline__ __nv_bfloat16 bf16_fma(__nv_bfloat16 a, __nv_bfloat16 b,
                                                         __nv_bfloat16 c)
{
#if __CUDA_ARCH__ >= 800
    return __hfma(a, b, c);
#else
    return __float2bfloat16_rn(fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
#endif
}

// K = 16 slots of u16 in out; 1 u32 of comparison bits in flags.
extern "C" __global__ void bf16_arith(const unsigned short *a, const unsigned short *b,
                                      const unsigned short *c, unsigned short *out,
                                      unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]),
                  z = __ushort_as_bfloat16(c[i]);
    __nv_bfloat162 x2 = __halves2bfloat162(x, y), y2 = __halves2bfloat162(z, x);
    int k = 0;
    OUT(bbits(__hadd(x, y)));
    OUT(bbits(__hsub(x, y)));
    OUT(bbits(__hmul(x, y)));
    OUT(bbits(bf16_fma(x, y, z)));
    OUT(bbits(__hneg(x)));
    OUT(bbits(__habs(x)));
    OUT(bbits(__hmax(x, y)));
    OUT(bbits(__hmin(x, y)));
    OUT(bbits(__hmax_nan(x, y)));
    OUT(bbits(__hmin_nan(x, y)));
    OUT(bbits(__hadd_rn(x, y)));
    OUT(bbits(__hmul_rn(x, y)));
    __nv_bfloat162 s = __hadd2(x2, y2);
    __nv_bfloat162 p = __halves2bfloat162(bf16_fma(x, z, x), bf16_fma(y, x, y));
    OUT(bbits(__low2bfloat16(s)));
    OUT(bbits(__high2bfloat16(s)));
    OUT(bbits(__low2bfloat16(p)));
    OUT(bbits(__high2bfloat16(p)));
    unsigned f = 0;
    f |= (unsigned)__heq(x, y) << 0;
    f |= (unsigned)__hne(x, y) << 1;
    f |= (unsigned)__hlt(x, y) << 2;
    f |= (unsigned)__hle(x, y) << 3;
    f |= (unsigned)__hgt(x, y) << 4;
    f |= (unsigned)__hge(x, y) << 5;
    f |= (unsigned)__hequ(x, y) << 6;
    f |= (unsigned)__hneu(x, y) << 7;
    f |= (unsigned)__hisnan(x) << 8;
    flags[i] = f;
}

// Conversions between f32/f64/integers and f16/bf16 in every rounding mode.
// x: f32 input, h: f16 bits, bf: bf16 bits. K = 22 slots of u16 in out16, 14 of u32 in out32.
extern "C" __global__ void f16_convert(const float *x, const double *xd, const unsigned short *h,
                                       const unsigned short *bf, unsigned short *out16,
                                       unsigned *out32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = x[i];
    double d = xd[i];
    __half hv = __ushort_as_half(h[i]);
    __nv_bfloat16 bv = __ushort_as_bfloat16(bf[i]);
    int iv = __float_as_int(f) >> 12;        /* assorted magnitudes, both signs */
    int k = 0;
    unsigned short *out = out16;
    OUT(hbits(__float2half_rn(f)));
    OUT(hbits(__float2half_rz(f)));
    OUT(hbits(__float2half_rd(f)));
    OUT(hbits(__float2half_ru(f)));
    OUT(hbits(__double2half(d)));
    OUT(bbits(__float2bfloat16_rn(f)));
    OUT(bbits(__float2bfloat16_rz(f)));
    OUT(bbits(__float2bfloat16_rd(f)));
    OUT(bbits(__float2bfloat16_ru(f)));
    OUT(bbits(__double2bfloat16(d)));
    OUT(hbits(__int2half_rn(iv)));
    OUT(hbits(__int2half_rz(iv)));
    OUT(hbits(__int2half_rd(iv)));
    OUT(hbits(__int2half_ru(iv)));
    OUT(hbits(__uint2half_rn((unsigned)iv)));
    OUT(hbits(__short2half_rn((short)iv)));
    OUT(hbits(__ushort2half_rz((unsigned short)iv)));
    OUT(bbits(__int2bfloat16_rn(iv)));
    OUT(bbits(__int2bfloat16_rz(iv)));
    OUT(hbits(__float2half_rn(__bfloat162float(bv))));
    OUT((unsigned short)__half2short_rn(hv));
    OUT(__half2ushort_rz(hv));

    k = 0;
    unsigned *out_w = out32;
#undef OUT
#define OUT(v) (out_w[(k++) * n + i] = (v))
    OUT(__float_as_uint(__half2float(hv)));
    OUT(__float_as_uint(__bfloat162float(bv)));
    OUT((unsigned)__half2int_rn(hv));
    OUT((unsigned)__half2int_rz(hv));
    OUT((unsigned)__half2int_rd(hv));
    OUT((unsigned)__half2int_ru(hv));
    OUT(__half2uint_rn(hv));
    OUT(__half2uint_rz(hv));
    OUT((unsigned)__bfloat162int_rn(bv));
    OUT((unsigned)__bfloat162int_rz(bv));
    OUT(__bfloat162uint_rd(bv));
    OUT((unsigned)(__half2ll_ru(hv) >> 8));
    __half2 p = __floats2half2_rn(f, -f);
    OUT(h2bits(p));
    __nv_bfloat162 q = __floats2bfloat162_rn(f, f * 3.0f);
    OUT((unsigned)bbits(__high2bfloat16(q)) << 16 | bbits(__low2bfloat16(q)));
#undef OUT
#define OUT(v) (out[(k++) * n + i] = (v))
}
