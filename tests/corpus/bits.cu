// Corpus, bit manipulation: popc, clz, ffs (bfind-based), brev, bfind, fns, prmt (__byte_perm and
// the named modes), shf (funnel shifts, wrap and clamp), bfe/bfi, lop3, bmsk, szext.
// (dp4a/dp2a and the SIMD-in-a-word intrinsics, which use video instructions, are in simd.cu.)
//
// Output slot k of element i is out[k * n + i].

#define OUT(v) (out[(k++) * n + i] = (v))

// K = 14 slots of u32 in out, 2 slots of u64 in out64.
extern "C" __global__ void bits_count(const unsigned *a, const unsigned long long *b,
                                      unsigned *out, unsigned long long *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    unsigned long long y = b[i];
    unsigned r;
    int k = 0;
    OUT(__popc(x));
    OUT(__popcll(y));
    OUT(__clz(x));
    OUT(__clzll(y));
    OUT(__ffs(x));
    OUT(__ffsll(y));
    OUT(__brev(x));
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("bfind.s64 %0, %1;" : "=r"(r) : "l"(y));
    OUT(r);
    asm("bfind.shiftamt.u64 %0, %1;" : "=r"(r) : "l"(y));
    OUT(r);
    OUT(__fns(x, i & 31, (int)(y & 7) - 3));   /* n-th set bit: fns.b32 */
    OUT(__fns((unsigned)y, 31 - (i & 31), -1 - (int)(x & 3)));
    out64[i] = __brevll(y);
    out64[n + i] = (unsigned long long)__popc(x) << 32 | (unsigned)__clzll(~y);
}

// K = 20 slots, u32.
extern "C" __global__ void bits_perm(const unsigned *a, const unsigned *b, const unsigned *c,
                                     unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = c[i], r;
    int k = 0;
    OUT(__byte_perm(x, y, s));                 /* prmt.b32 with a register selector */
    OUT(__byte_perm(x, y, 0x3210));
    OUT(__byte_perm(x, y, 0x7654));
    OUT(__byte_perm(x, 0, 0x0123));            /* byte swap */
    OUT(__byte_perm(x, y, 0x8B8F));            /* sign-replicate selector bits */
#define PRMT(mode) do { \
        asm("prmt.b32." mode " %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); \
        OUT(r); \
    } while (0)
    PRMT("f4e");
    PRMT("b4e");
    PRMT("rc8");
    PRMT("ecl");
    PRMT("ecr");
    PRMT("rc16");
#undef PRMT
    OUT(__funnelshift_l(x, y, s));             /* shf.l.wrap */
    OUT(__funnelshift_r(x, y, s));             /* shf.r.wrap */
    OUT(__funnelshift_lc(x, y, s));            /* shf.l.clamp */
    OUT(__funnelshift_rc(x, y, s));            /* shf.r.clamp */
    OUT(x << 13 | x >> 19);                    /* rotate: shf or shl/shr/or */
    OUT(__funnelshift_l(x, x, s & 31));
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s & 63));
    OUT(r);
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(y), "r"(x), "r"(s >> 27));
    OUT(r);
    OUT(__byte_perm(s, x, y & 0x7777));
}

// bfe/bfi with positions and lengths from data (including past the width), lop3 with a set of
// truth tables, bmsk and szext (sm_70+). K = 22 slots of u32 in out, 4 of u64 in out64.
extern "C" __global__ void bits_field(const unsigned *a, const unsigned *b, const unsigned *c,
                                      const unsigned long long *d, unsigned *out,
                                      unsigned long long *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = c[i];
    unsigned long long w = d[i], rw;
    unsigned pos = s & 0xFF, len = (s >> 8) & 0xFF;   /* both may exceed 31 */
    unsigned pos5 = s & 31, len5 = (s >> 8) & 31;
    unsigned r;
    int k = 0;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos5), "r"(len5));
    OUT(r);
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos5), "r"(len5));
    OUT(r);
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    OUT(r);
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    OUT(r);
    asm("bfe.u32 %0, %1, 8, 0;" : "=r"(r) : "r"(x));
    OUT(r);
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos5), "r"(len5));
    OUT(r);
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len));
    OUT(r);
    OUT((x >> 5) & 0x3FF);                     /* C bit-field extraction */
    OUT((y & ~0xFF00u) | ((x & 0xFF) << 8));   /* C bit-field insertion */
#define LOP3(lut) do { \
        asm("lop3.b32 %0, %1, %2, %3, " #lut ";" : "=r"(r) : "r"(x), "r"(y), "r"(s)); \
        OUT(r); \
    } while (0)
    LOP3(0x96);                                /* a ^ b ^ c */
    LOP3(0xE8);                                /* majority */
    LOP3(0xCA);                                /* a ? b : c */
    LOP3(0xFE);                                /* a | b | c */
    LOP3(0x80);                                /* a & b & c */
    LOP3(0x01);                                /* ~(a | b | c) */
    LOP3(0x6A);                                /* (a & b) ^ c */
    LOP3(0x00);
    LOP3(0xFF);
#undef LOP3
    OUT((x & y) ^ (~x & s) ^ (y | s));         /* nvcc folds this into lop3 */
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(pos), "r"(len));
    OUT(r);
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(pos), "r"(len));
    OUT(r);
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(pos));
    OUT(r);
    k = 0;
#undef OUT
#define OUT(v) (out64[(k++) * n + i] = (v))
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(rw) : "l"(w), "r"(pos), "r"(len));
    OUT(rw);
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(rw) : "l"(w), "r"(pos & 63), "r"(len & 63));
    OUT(rw);
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(rw) : "l"((unsigned long long)x), "l"(w), "r"(pos),
        "r"(len));
    OUT(rw);
    asm("lop3.b32 %0, %1, %2, %3, 0x1E;" : "=r"(r) : "r"((unsigned)w), "r"(x), "r"(y));
    OUT((unsigned long long)r << 32 | (unsigned)(w >> 32));
#undef OUT
#define OUT(v) (out[(k++) * n + i] = (v))
}
