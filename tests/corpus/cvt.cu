// Corpus, conversions: float/double to every integer width in every rounding mode (out of range
// saturates; NaN gives 0 only for f32 -> 32-bit, the most negative value otherwise, on an H100),
// integers to float/double in every rounding mode, double to float rounding (NaN payloads kept),
// 8/16-bit integer truncation, sign/zero extension and saturation, bit casts.
//
// Output slot k of element i is out[k * n + i].

#define OUT(v) (out[(k++) * n + i] = (v))

// f32 -> integers. K = 16 slots, s64 (32-bit results sign- or zero-extended as noted).
extern "C" __global__ void cvt_f32_int(const float *a, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    int k = 0;
    OUT(__float2int_rn(x));
    OUT(__float2int_rz(x));
    OUT(__float2int_rd(x));
    OUT(__float2int_ru(x));
    OUT(__float2uint_rn(x));
    OUT(__float2uint_rz(x));
    OUT(__float2uint_rd(x));
    OUT(__float2uint_ru(x));
    OUT(__float2ll_rn(x));
    OUT(__float2ll_rz(x));
    OUT(__float2ll_rd(x));
    OUT(__float2ll_ru(x));
    OUT((long long)__float2ull_rn(x));
    OUT((long long)__float2ull_rz(x));
    OUT((long long)__float2ull_rd(x));
    OUT((long long)__float2ull_ru(x));
}

// f64 -> integers and f32. K = 24 slots, s64; f32 results as their bit patterns.
extern "C" __global__ void cvt_f64_int(const double *a, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    int k = 0;
    OUT(__double2int_rn(x));
    OUT(__double2int_rz(x));
    OUT(__double2int_rd(x));
    OUT(__double2int_ru(x));
    OUT(__double2uint_rn(x));
    OUT(__double2uint_rz(x));
    OUT(__double2uint_rd(x));
    OUT(__double2uint_ru(x));
    OUT(__double2ll_rn(x));
    OUT(__double2ll_rz(x));
    OUT(__double2ll_rd(x));
    OUT(__double2ll_ru(x));
    OUT((long long)__double2ull_rn(x));
    OUT((long long)__double2ull_rz(x));
    OUT((long long)__double2ull_rd(x));
    OUT((long long)__double2ull_ru(x));
    OUT(__float_as_uint(__double2float_rn(x)));
    OUT(__float_as_uint(__double2float_rz(x)));
    OUT(__float_as_uint(__double2float_rd(x)));
    OUT(__float_as_uint(__double2float_ru(x)));
    OUT(__double2hiint(x));
    OUT((unsigned)__double2loint(x));
    OUT(__double_as_longlong(__hiloint2double(__double2loint(x), __double2hiint(x))));
    OUT(__double_as_longlong((double)(float)x));   /* cvt.rn.f32.f64 then cvt.f64.f32 */
}

// Integers -> f32 (as bits) and f64 in every rounding mode. K = 28 slots, u64.
extern "C" __global__ void cvt_int_float(const long long *a, const int *b, unsigned long long *out,
                                         int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i];
    unsigned long long ux = (unsigned long long)x;
    int y = b[i];
    unsigned uy = (unsigned)y;
    int k = 0;
#define F(v) OUT(__float_as_uint(v))
#define D(v) OUT((unsigned long long)__double_as_longlong(v))
    F(__int2float_rn(y));
    F(__int2float_rz(y));
    F(__int2float_rd(y));
    F(__int2float_ru(y));
    F(__uint2float_rn(uy));
    F(__uint2float_rz(uy));
    F(__uint2float_rd(uy));
    F(__uint2float_ru(uy));
    F(__ll2float_rn(x));
    F(__ll2float_rz(x));
    F(__ll2float_rd(x));
    F(__ll2float_ru(x));
    F(__ull2float_rn(ux));
    F(__ull2float_rz(ux));
    F(__ull2float_rd(ux));
    F(__ull2float_ru(ux));
    D(__ll2double_rn(x));
    D(__ll2double_rz(x));
    D(__ll2double_rd(x));
    D(__ll2double_ru(x));
    D(__ull2double_rn(ux));
    D(__ull2double_rz(ux));
    D(__ull2double_rd(ux));
    D(__ull2double_ru(ux));
    D(__int2double_rn(y));
    D(__uint2double_rn(uy));
    F((float)(signed char)y);         /* cvt.rn.f32.s8 or via s32 */
    D((double)(unsigned short)y);
#undef F
#undef D
}

// 8/16-bit integer conversions and saturation, written with inline asm where C would not
// produce the instruction. K = 24 slots, s32.
extern "C" __global__ void cvt_small_int(const int *a, const long long *b, const float *c,
                                         int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    long long y = b[i];
    float f = c[i];
    int k = 0, r;
    unsigned short h;
    OUT((signed char)x);
    OUT((unsigned char)x);
    OUT((short)x);
    OUT((unsigned short)x);
    OUT((int)y);                      /* cvt.u32.u64 truncation */
    asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.s16.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.u16.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.u32.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.s32.u32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.sat.s32.s64 %0, %1;" : "=r"(r) : "l"(y));
    OUT(r);
    asm("cvt.sat.u32.s64 %0, %1;" : "=r"(r) : "l"(y));
    OUT(r);
    asm("cvt.s32.s8 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.u32.u16 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.s16.s8 %0, %1;" : "=h"(h) : "h"((unsigned short)x));
    OUT((short)h);
    asm("cvt.rzi.s8.f32 %0, %1;" : "=h"(h) : "f"(f));
    OUT((short)h);
    asm("cvt.rni.u8.f32 %0, %1;" : "=h"(h) : "f"(f));
    OUT((short)h);
    asm("cvt.rmi.s16.f32 %0, %1;" : "=h"(h) : "f"(f));
    OUT((short)h);
    asm("cvt.rpi.u16.f32 %0, %1;" : "=h"(h) : "f"(f));
    OUT((short)h);
    asm("cvt.rn.f32.s16 %0, %1;" : "=f"(f) : "h"((unsigned short)x));
    OUT(__float_as_int(f));
    asm("cvt.rz.f32.u8 %0, %1;" : "=f"(f) : "h"((unsigned short)x));
    OUT(__float_as_int(f));
    asm("cvt.u8.u32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("cvt.s8.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
}
