// Corpus, integer arithmetic: 32/64-bit add/sub/mul/mad, mul.hi, mul.wide, mul24, sad,
// div/rem signed and unsigned, min/max/abs/neg, shifts, carry chains, 8/16-bit arithmetic.
//
// Every kernel writes output slot k of element i to out[k * n + i]; K_<kernel> is the slot count.

#define OUT(v) (out[(k++) * n + i] = (v))
#define DIV_SENTINEL 0x7EADBEEF

// K = 34 slots, s32.
extern "C" __global__ void int_arith32(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    bool bad_sdiv = y == 0 || (x == (int)0x80000000 && y == -1);
    int k = 0;
    OUT((int)(ux + uy));
    OUT((int)(ux - uy));
    OUT((int)(ux * uy));
    OUT((int)(ux * uy + ux));                 /* mad.lo */
    OUT(x * 12345);                           /* mul by immediate */
    OUT(__mulhi(x, y));
    OUT((int)__umulhi(ux, uy));
    OUT(__mul24(x, y));
    OUT((int)__umul24(ux, uy));
    OUT(__mul24(x, y) + y);                   /* mad24 candidate */
    OUT(bad_sdiv ? DIV_SENTINEL : x / y);
    OUT(bad_sdiv ? DIV_SENTINEL : x % y);
    OUT(uy == 0 ? DIV_SENTINEL : (int)(ux / uy));
    OUT(uy == 0 ? DIV_SENTINEL : (int)(ux % uy));
    OUT(x / 7);                               /* division by constants: mul.hi sequences */
    OUT(x % 10);
    OUT((int)(ux / 3u));
    OUT(min(x, y));
    OUT(max(x, y));
    OUT((int)min(ux, uy));
    OUT((int)max(ux, uy));
    OUT(x == (int)0x80000000 ? x : abs(x));
    OUT((int)(0u - ux));                      /* neg */
    OUT(~x);
    OUT(__sad(x, y, 7u));
    OUT((int)__usad(ux, uy, ux >> 4));
    OUT(__hadd(x, y));
    OUT(__rhadd(x, y));
    OUT((int)__uhadd(ux, uy));
    OUT((int)__urhadd(ux, uy));
    OUT(x >> (y & 31));
    OUT((int)(ux >> (uy & 31)));
    OUT((int)(ux << (uy & 31)));
    OUT((x < y) | (ux < uy) << 1 | (x == y) << 2 | (x >= y) << 3 | (ux >= uy) << 4 |
        (x != y) << 5 | (ux <= uy) << 6 | (x > 0) << 7);
}

// Instructions nvcc 13 no longer emits from C (mul24/mad24 become shifts + mul.lo, max becomes
// setp + selp), written as inline asm; also saturating add/sub, mad.hi and shift counts past
// the register width (PTX clamps them). K = 22 slots, s32.
extern "C" __global__ void int_asm32(const int *a, const int *b, const int *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], z = c[i];
    unsigned sh = (unsigned)z & 63u;          /* 0..63: half of them past 31 */
    int k = 0, r;
#define ASM3(op) do { asm(op " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); OUT(r); } while (0)
#define ASM4(op) do { asm(op " %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); OUT(r); } while (0)
#define ASMSH(op) do { asm(op " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(sh)); OUT(r); } while (0)
    ASM3("mul24.lo.s32");
    ASM3("mul24.hi.s32");
    ASM3("mul24.lo.u32");
    ASM3("mul24.hi.u32");
    ASM4("mad24.lo.s32");
    ASM4("mad24.hi.u32");
    ASM4("mad24.hi.sat.s32");
    ASM4("mad.hi.s32");
    ASM4("mad.hi.u32");
    ASM4("mad.hi.sat.s32");
    ASM3("add.sat.s32");
    ASM3("sub.sat.s32");
    ASM3("max.s32");
    ASM3("max.u32");
    ASM3("min.s32");
    ASM3("min.u32");
    ASMSH("shl.b32");
    ASMSH("shr.u32");
    ASMSH("shr.s32");
    ASMSH("shr.b32");
    ASM3("mul.lo.u32");
    ASM3("mul.hi.u32");
#undef ASM3
#undef ASM4
#undef ASMSH
}

// K = 35 slots, s64.
extern "C" __global__ void int_arith64(const long long *a, const long long *b, long long *out,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    bool bad_sdiv = y == 0 || (x == (long long)0x8000000000000000ull && y == -1);
    int k = 0;
    OUT((long long)(ux + uy));
    OUT((long long)(ux - uy));
    OUT((long long)(ux * uy));
    OUT((long long)(ux * uy + uy));
    OUT(__mul64hi(x, y));
    OUT((long long)__umul64hi(ux, uy));
    OUT(bad_sdiv ? DIV_SENTINEL : x / y);
    OUT(bad_sdiv ? DIV_SENTINEL : x % y);
    OUT(uy == 0 ? DIV_SENTINEL : (long long)(ux / uy));
    OUT(uy == 0 ? DIV_SENTINEL : (long long)(ux % uy));
    OUT(x / 1000000007ll);
    OUT((long long)(ux % 3ull));
    OUT(min(x, y));
    OUT(max(x, y));
    OUT((long long)min(ux, uy));
    OUT((long long)max(ux, uy));
    OUT(x == (long long)0x8000000000000000ull ? x : llabs(x));
    OUT((long long)(0ull - ux));
    OUT(~x ^ y);
    OUT(x >> (y & 63));
    OUT((long long)(ux >> (uy & 63)));
    OUT((long long)(ux << (uy & 63)));
    OUT((long long)(ux << 32 | ux >> 32));
    OUT(x & y);
    OUT(x | y);
    OUT((long long)((x < y) | (ux < uy) << 1 | (x == y) << 2 | (x >= y) << 3 |
                    (ux >= uy) << 4 | (x != y) << 5 | (ux > uy) << 6));
    OUT((long long)(int)x + (long long)(unsigned)y);  /* cvt.s64.s32 / cvt.u64.u32 */
    long long r;
    unsigned sh = (unsigned)y & 127u;         /* shift counts past 63 are clamped */
    asm("max.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y));
    OUT(r);
    asm("max.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y));
    OUT(r);
    asm("min.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y));
    OUT(r);
    asm("shl.b64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"(sh));
    OUT(r);
    asm("shr.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"(sh));
    OUT(r);
    asm("shr.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"(sh));
    OUT(r);
    asm("mad.lo.s64 %0, %1, %2, %1;" : "=l"(r) : "l"(x), "l"(y));
    OUT(r);
    asm("mad.hi.u64 %0, %1, %2, %1;" : "=l"(r) : "l"(x), "l"(y));
    OUT(r);
}

// K = 6 slots, s64: widening multiplies and 32->64 multiply-add.
extern "C" __global__ void int_wide(const int *a, const int *b, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    int k = 0;
    OUT((long long)x * y);                                   /* mul.wide.s32 */
    OUT((long long)((unsigned long long)ux * uy));           /* mul.wide.u32 */
    OUT((long long)x * y + (long long)y);                    /* mad.wide.s32 */
    OUT((long long)((unsigned long long)ux * uy + ux));      /* mad.wide.u32 */
    OUT((long long)x * 1000003);
    OUT((long long)((unsigned long long)ux * 0xFFFFFFFFu));
}

// Extended precision: inline-asm carry chains (add.cc/addc/sub.cc/subc/mad.lo.cc/madc.hi),
// 128-bit arithmetic through unsigned __int128. K = 14 slots, u64.
extern "C" __global__ void int_carry(const unsigned long long *a, const unsigned long long *b,
                                     unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    unsigned x0 = (unsigned)x, x1 = (unsigned)(x >> 32), y0 = (unsigned)y, y1 = (unsigned)(y >> 32);
    int k = 0;

    /* 96-bit add: (x1:x0:x1) + (y1:y0:y0) */
    unsigned s0, s1, s2;
    asm("add.cc.u32 %0, %3, %6;\n\t"
        "addc.cc.u32 %1, %4, %7;\n\t"
        "addc.u32 %2, %5, %8;"
        : "=r"(s0), "=r"(s1), "=r"(s2)
        : "r"(x1), "r"(x0), "r"(x1), "r"(y0), "r"(y0), "r"(y1));
    OUT((unsigned long long)s1 << 32 | s0);
    OUT(s2);

    /* 96-bit subtract with borrow chain, and the final borrow through subc */
    unsigned d0, d1, d2;
    asm("sub.cc.u32 %0, %3, %6;\n\t"
        "subc.cc.u32 %1, %4, %7;\n\t"
        "subc.u32 %2, %5, %8;"
        : "=r"(d0), "=r"(d1), "=r"(d2)
        : "r"(x0), "r"(x1), "r"(0u), "r"(y0), "r"(y1), "r"(0u));
    OUT((unsigned long long)d1 << 32 | d0);
    OUT(d2);

    /* 64x64 -> 128 by 32-bit pieces with mad.lo.cc / madc.hi.cc / madc.lo / addc */
    unsigned p0, p1, p2, p3;
    asm("{\n\t"
        ".reg .u32 t0, t1, t2, t3;\n\t"
        "mul.lo.u32 %0, %4, %6;\n\t"
        "mul.hi.u32 %1, %4, %6;\n\t"
        "mul.lo.u32 %2, %5, %7;\n\t"
        "mul.hi.u32 %3, %5, %7;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
        "addc.u32 %3, %3, 0;\n\t"
        "}"
        : "=r"(p0), "=r"(p1), "=r"(p2), "=r"(p3)
        : "r"(x0), "r"(x1), "r"(y0), "r"(y1));
    OUT((unsigned long long)p1 << 32 | p0);
    OUT((unsigned long long)p3 << 32 | p2);

    /* the same product through __int128 (mul.lo.u64 + mul.hi.u64) */
    unsigned __int128 p = (unsigned __int128)x * y;
    OUT((unsigned long long)p);
    OUT((unsigned long long)(p >> 64));

    /* 128-bit add and subtract (add.cc.u64 / addc.u64 when nvcc chooses them) */
    unsigned __int128 q = ((unsigned __int128)y << 64 | x) + ((unsigned __int128)x << 64 | y);
    OUT((unsigned long long)q);
    OUT((unsigned long long)(q >> 64));
    unsigned __int128 r = ((unsigned __int128)x << 64 | y) - ((unsigned __int128)y << 64 | x);
    OUT((unsigned long long)r);
    OUT((unsigned long long)(r >> 64));

    /* 64-bit carry chain in asm */
    unsigned long long c0, c1;
    asm("add.cc.u64 %0, %2, %3;\n\t"
        "addc.u64 %1, %2, %3;"
        : "=l"(c0), "=l"(c1) : "l"(x), "l"(y));
    OUT(c0);
    OUT(c1);
}

// 8- and 16-bit arithmetic, stored through 16- and 8-bit global stores.
// K = 10 slots of u16 in out16, K = 6 slots of u8 in out8.
extern "C" __global__ void int_small(const int *a, const int *b, unsigned short *out16,
                                     unsigned char *out8, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    short x = (short)a[i], y = (short)b[i];
    unsigned short ux = (unsigned short)x, uy = (unsigned short)y;
    signed char cx = (signed char)a[i], cy = (signed char)b[i];
    unsigned char bx = (unsigned char)a[i], by = (unsigned char)b[i];
    int k = 0;
    unsigned short *out = out16;
    OUT((unsigned short)(x + y));
    OUT((unsigned short)(x * y));
    OUT((unsigned short)(ux - uy));
    OUT((unsigned short)(y == 0 || (x == -32768 && y == -1) ? 0x7EAD : x / y));
    OUT((unsigned short)(uy == 0 ? 0x7EAD : ux % uy));
    OUT((unsigned short)(x >> (uy & 15)));
    OUT((unsigned short)(ux >> (uy & 15)));
    OUT((unsigned short)(x < y ? x : y));
    OUT((unsigned short)(ux > uy ? ux : uy));
    unsigned short hw;
    asm("mul.hi.s16 %0, %1, %2;" : "=h"(hw) : "h"(ux), "h"(uy));
    OUT(hw);

    k = 0;
    unsigned char *out_b = out8;
#undef OUT
#define OUT(v) (out_b[(k++) * n + i] = (v))
    OUT((unsigned char)(cx + cy));
    OUT((unsigned char)(cx * cy));
    OUT((unsigned char)(bx - by));
    OUT((unsigned char)(cx < cy ? cx : cy));
    OUT((unsigned char)(bx > by ? bx : by));
    OUT((unsigned char)(cx >> 3));
#undef OUT
#define OUT(v) (out[(k++) * n + i] = (v))
}
