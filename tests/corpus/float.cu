// Corpus, single precision: every explicitly rounded intrinsic (.rn .rz .rm .rp), IEEE basics
// (div.rn, sqrt.rn, fma, min/max with NaN, copysign, classification, comparisons incl. unordered),
// the .approx fast-math functions, .sat/.ftz forms, and library functions built from them.
//
// Output slot k of element i is out[k * n + i]. Compiled without -ftz / --use_fast_math, so
// plain f32 arithmetic keeps denormals.

#include <cuda_fp16.h>

#define OUT(v) (out[(k++) * n + i] = (v))

// K = 28 slots, f32.
extern "C" __global__ void f32_round(const float *a, const float *b, const float *c, float *out,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    int k = 0;
    OUT(__fadd_rn(x, y));
    OUT(__fadd_rz(x, y));
    OUT(__fadd_rd(x, y));
    OUT(__fadd_ru(x, y));
    OUT(__fsub_rn(x, y));
    OUT(__fsub_rz(x, y));
    OUT(__fsub_rd(x, y));
    OUT(__fsub_ru(x, y));
    OUT(__fmul_rn(x, y));
    OUT(__fmul_rz(x, y));
    OUT(__fmul_rd(x, y));
    OUT(__fmul_ru(x, y));
    OUT(__fmaf_rn(x, y, z));
    OUT(__fmaf_rz(x, y, z));
    OUT(__fmaf_rd(x, y, z));
    OUT(__fmaf_ru(x, y, z));
    OUT(__fdiv_rn(x, y));
    OUT(__fdiv_rz(x, y));
    OUT(__fdiv_rd(x, y));
    OUT(__fdiv_ru(x, y));
    OUT(__frcp_rn(x));
    OUT(__frcp_rz(x));
    OUT(__frcp_rd(x));
    OUT(__frcp_ru(x));
    OUT(__fsqrt_rn(x));
    OUT(__fsqrt_rz(x));
    OUT(__fsqrt_rd(x));
    OUT(__fsqrt_ru(x));
}

// K = 22 slots of f32 in out, 1 u32 of flag bits in flags.
extern "C" __global__ void f32_basic(const float *a, const float *b, const float *c, float *out,
                                     unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    int k = 0;
    OUT(x + y);
    OUT(x - y);
    OUT(x * y);
    OUT(x / y);                       /* div.rn.f32 (full-range sequence) */
    OUT(x * y + z);                   /* contracted to fma.rn.f32 */
    OUT(fmaf(x, y, z));
    OUT(sqrtf(x));                    /* sqrt.rn.f32 */
    OUT(fminf(x, y));                 /* NaN loses */
    OUT(fmaxf(x, y));
    OUT(copysignf(x, y));
    OUT(fabsf(x));
    OUT(-x);
    OUT(floorf(x));                   /* cvt.rmi.f32.f32 */
    OUT(ceilf(x));                    /* cvt.rpi.f32.f32 */
    OUT(truncf(x));                   /* cvt.rzi.f32.f32 */
    OUT(rintf(x));                    /* cvt.rni.f32.f32 */
    OUT(roundf(x));                   /* half away from zero: a sequence */
    OUT(fdimf(x, y));
    OUT(x > y ? x : z);               /* selp.f32 / setp.gt.f32 */
    OUT(1.0f / x);                    /* rcp.rn.f32 */
    OUT(x * 0.5f + 2.0f);
    OUT(__int_as_float(__float_as_int(x) ^ 0x80000000));
    unsigned f = 0;
    f |= (unsigned)(isinf(x) != 0) << 0;
    f |= (unsigned)(isnan(x) != 0) << 1;
    f |= (unsigned)(isfinite(x) != 0) << 2;
    f |= (unsigned)(signbit(x) != 0) << 3;
    f |= (unsigned)(x < y) << 4;
    f |= (unsigned)(x <= y) << 5;
    f |= (unsigned)(x == y) << 6;
    f |= (unsigned)(x != y) << 7;     /* unordered: true on NaN (setp.neu) */
    f |= (unsigned)(x > y) << 8;
    f |= (unsigned)(x >= y) << 9;
    f |= (unsigned)!(x < y) << 10;    /* setp.geu */
    f |= (unsigned)!(x >= y) << 11;   /* setp.ltu */
    f |= (unsigned)(isnan(x) || isnan(y)) << 12;   /* setp.nan */
    f |= (unsigned)(!isnan(x) && !isnan(y)) << 13; /* setp.num */
    f |= (unsigned)(x == 0.0f) << 14;
    f |= (unsigned)(fabsf(x) < 1.17549435e-38f) << 15;
    flags[i] = f;
}

// Fast-math and .approx instructions with tight error bounds (results within the PTX ISA's
// stated error, not bit-exact across implementations; compare with a relative tolerance of about
// 1e-5 and an absolute one of about 2e-6 near zero). Inputs: moderate values, |x| < 256.
// K = 20 slots, f32.
extern "C" __global__ void f32_approx(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], r;
    int k = 0;
    OUT(__sinf(x));                   /* sin.approx.f32 */
    OUT(__cosf(x));                   /* cos.approx.f32 */
    OUT(__expf(x));                   /* ex2.approx after a multiply */
    OUT(__exp10f(x));
    OUT(__log2f(x));                  /* lg2.approx.f32 */
    OUT(__logf(x));
    OUT(__log10f(x));
    OUT(__fdividef(x, y));            /* div.approx.f32 */
    OUT(__fdividef(x, 3.0e38f));      /* divisor above 2^126: 0 (NaN for an infinite x) */
    OUT(rsqrtf(x));                   /* rsqrt.approx.f32 */
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(y));
    OUT(r);
    asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    double rd;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(rd) : "d"((double)x));
    OUT((float)rd);
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(y));
    OUT(r);
    asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
}

// Low-precision approximations: tanh.approx (f32, f16), __powf, ex2.approx on f16/f16x2, and the
// half functions built on .approx f32 instructions or on polynomials (hsin), converted to f32.
// Compare with a relative tolerance of about 4e-3. h holds f16 bit patterns. K = 11 slots, f32.
extern "C" __global__ void f32_approx_loose(const float *a, const float *b,
                                            const unsigned short *h, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], r;
    __half hv = __ushort_as_half(h[i]);
    unsigned short hr;
    unsigned pr;
    int k = 0;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    OUT(__powf(fabsf(x), y * 0.25f));
    asm("tanh.approx.f16 %0, %1;" : "=h"(hr) : "h"(h[i]));
    OUT(__half2float(__ushort_as_half(hr)));
    asm("ex2.approx.f16 %0, %1;" : "=h"(hr) : "h"(h[i]));
    OUT(__half2float(__ushort_as_half(hr)));
    asm("ex2.approx.f16x2 %0, %1;" : "=r"(pr) : "r"((unsigned)h[i] << 16 | h[(i + 1) % n]));
    OUT(__half2float(__ushort_as_half((unsigned short)pr)));
    OUT(__half2float(__ushort_as_half((unsigned short)(pr >> 16))));
    OUT(__half2float(hsqrt(hv)));
    OUT(__half2float(hrcp(hv)));
    OUT(__half2float(hexp2(hv)));
    OUT(__half2float(hlog2(hv)));
    OUT(__half2float(hsin(hv)));
}

// .sat and .ftz arithmetic, __saturatef, min/max of signed zeros and NaN through asm.
// K = 16 slots, f32.
extern "C" __global__ void f32_satftz(const float *a, const float *b, const float *c, float *out,
                                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i], r;
    int k = 0;
    OUT(__saturatef(x));              /* cvt.sat.f32.f32 */
    asm("add.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("mul.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    OUT(r);
    asm("add.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("mul.rz.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("fma.rm.ftz.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z));
    OUT(r);
    asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("sqrt.rn.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("max.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    OUT(r);
    asm("abs.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("neg.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("cvt.ftz.f32.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("cvt.rni.ftz.sat.f32.f32 %0, %1;" : "=f"(r) : "f"(x));
    OUT(r);
    asm("{\n\t.reg .pred p;\n\ttestp.subnormal.f32 p, %1;\n\tselp.f32 %0, 0f3F800000, 0f00000000, p;\n\t}"
        : "=f"(r) : "f"(x));
    OUT(r);
}

// Library functions: long instruction sequences of exact operations plus a few .approx ones
// (sinf/cosf reduce with fma, expf uses ex2.approx.ftz). K = 16 slots, f32.
extern "C" __global__ void f32_libm(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    int k = 0, e;
    OUT(sinf(x));
    OUT(cosf(x));
    OUT(tanf(x));
    OUT(expf(x));
    OUT(logf(x));
    OUT(powf(x, y));
    OUT(atan2f(x, y));
    OUT(erff(x));
    OUT(cbrtf(x));
    OUT(fmodf(x, y));
    OUT(remainderf(x, y));
    OUT(hypotf(x, y));
    OUT(ldexpf(x, (int)y & 63));
    OUT(frexpf(x, &e));
    OUT((float)e);
    OUT(tanhf(x));
}
