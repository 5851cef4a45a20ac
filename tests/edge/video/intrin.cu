// intrin.cu -- CUDA's SIMD-within-a-word intrinsics (__v*, __sad, __usad) on edge inputs: nvcc
// implements some with the PTX video instructions (vabsdiff2/4 and their .add forms), the rest
// with other integer instructions. Output slot k of element i is out[k * n + i].
// Regenerate the PTX: nvcc -ptx -arch=compute_75 intrin.cu -o intrin.ptx

#define OUT(v) (out[(k++) * n + i] = (v))

extern "C" __global__ void intrin_1(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    int k = 0;
    OUT(__vabs2(x));
    OUT(__vabs4(x));
    OUT(__vabsdiffs2(x, y));
    OUT(__vabsdiffs4(x, y));
    OUT(__vabsdiffu2(x, y));
    OUT(__vabsdiffu4(x, y));
    OUT(__vabsss2(x));
    OUT(__vabsss4(x));
    OUT(__vadd2(x, y));
    OUT(__vadd4(x, y));
    OUT(__vavgs2(x, y));
    OUT(__vavgs4(x, y));
    OUT(__vavgu2(x, y));
    OUT(__vavgu4(x, y));
    OUT(__vcmpeq2(x, y));
    OUT(__vcmpeq4(x, y));
    OUT(__vcmpges2(x, y));
    OUT(__vcmpges4(x, y));
    OUT(__vcmpgeu2(x, y));
    OUT(__vcmpgeu4(x, y));
    OUT(__vcmpgts2(x, y));
    OUT(__vcmpgts4(x, y));
    OUT(__vcmpgtu2(x, y));
    OUT(__vcmpgtu4(x, y));
    OUT(__vcmples2(x, y));
    OUT(__vcmples4(x, y));
    OUT(__vcmpleu2(x, y));
    OUT(__vcmpleu4(x, y));
    OUT(__vcmplts2(x, y));
    OUT(__vcmplts4(x, y));
    OUT(__vcmpltu2(x, y));
    OUT(__vcmpltu4(x, y));
    OUT(__vcmpne2(x, y));
    OUT(__vcmpne4(x, y));
    OUT(__vhaddu2(x, y));
    OUT(__vhaddu4(x, y));
    OUT(__vmaxs2(x, y));
    OUT(__vmaxs4(x, y));
    OUT(__vmaxu2(x, y));
}

extern "C" __global__ void intrin_2(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = a[(i + 37) % n];
    int k = 0;
    OUT(__vmaxu4(x, y));
    OUT(__vmins2(x, y));
    OUT(__vmins4(x, y));
    OUT(__vminu2(x, y));
    OUT(__vminu4(x, y));
    OUT(__vneg2(x));
    OUT(__vneg4(x));
    OUT(__vnegss2(x));
    OUT(__vnegss4(x));
    OUT(__vsads2(x, y));
    OUT(__vsads4(x, y));
    OUT(__vsadu2(x, y));
    OUT(__vsadu4(x, y));
    OUT(__vseteq2(x, y));
    OUT(__vseteq4(x, y));
    OUT(__vsetges2(x, y));
    OUT(__vsetges4(x, y));
    OUT(__vsetgeu2(x, y));
    OUT(__vsetgeu4(x, y));
    OUT(__vsetgts2(x, y));
    OUT(__vsetgts4(x, y));
    OUT(__vsetgtu2(x, y));
    OUT(__vsetgtu4(x, y));
    OUT(__vsetles2(x, y));
    OUT(__vsetles4(x, y));
    OUT(__vsetleu2(x, y));
    OUT(__vsetleu4(x, y));
    OUT(__vsetlts2(x, y));
    OUT(__vsetlts4(x, y));
    OUT(__vsetltu2(x, y));
    OUT(__vsetltu4(x, y));
    OUT(__vsetne2(x, y));
    OUT(__vsetne4(x, y));
    OUT(__vsub2(x, y));
    OUT(__vsub4(x, y));
    OUT(__vsubss4(x, y));
    OUT(__vsubus4(x, y));
    OUT((unsigned)__sad((int)x, (int)y, z));
    OUT(__usad(x, y, z));
}
