// Corpus, dot products and SIMD within a word: dp4a/dp2a, the __v* intrinsics (some of which
// nvcc's headers implement with the video instructions vabsdiff4 etc.), and vabsdiff4.add,
// vadd2.sat, vmax4 in inline asm. A file of its own so that a PTX reader without video
// instructions can still load bits.cu's kernels.
//
// Output slot k of element i is out[k * n + i].

#define OUT(v) (out[(k++) * n + i] = (v))

// Dot products and SIMD-within-a-word. K = 20 slots, u32.
extern "C" __global__ void bits_simd(const unsigned *a, const unsigned *b, const unsigned *c,
                                     unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i], r;
    int k = 0;
    OUT((unsigned)__dp4a((int)x, (int)y, (int)z));         /* dp4a.s32.s32 */
    OUT(__dp4a(x, y, z));                                  /* dp4a.u32.u32 */
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    OUT(r);
    asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    OUT(r);
    OUT((unsigned)__dp2a_lo((int)x, (int)y, (int)z));
    OUT((unsigned)__dp2a_hi((int)x, (int)y, (int)z));
    OUT(__dp2a_lo(x, y, z));
    OUT(__dp2a_hi(x, y, z));
    OUT(__vadd4(x, y));
    OUT(__vsub2(x, y));
    OUT(__vabsdiffu4(x, y));
    OUT(__vmaxs2(x, y));
    OUT(__vminu4(x, y));
    OUT(__vcmpgtu4(x, y));
    OUT(__vsadu4(x, y));
    OUT(__vavgs2(x, y));
    OUT(__vaddss4(x, y));                                  /* signed saturating */
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    OUT(r);
    asm("vadd2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    OUT(r);
    asm("vmax4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    OUT(r);
}
