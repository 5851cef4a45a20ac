// kernels.cu -- source of the PTX files used by run-args.sh (nvcc -arch=sm_80 -ptx -DONE, -DTWO,
// -DNAMES, -DTYPES ...).
#include <cstdio>

// one.ptx: a module with a single kernel.
#ifdef ONE
extern "C" __global__ void scale(unsigned *out, const unsigned *in, unsigned a, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i];
}
#endif

#ifdef TWO
// two.ptx: several kernels, every scalar type, a structure by value, printf and a fault.
extern "C" __global__ void add_u32(unsigned *c, const unsigned *a, const unsigned *b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Writes the raw bytes of every scalar argument, packed, to out (42 bytes).
extern "C" __global__ void scalars(unsigned char *out, signed char s8, short s16, int s32, long long s64,
                                   unsigned char u8, unsigned short u16, unsigned u32, unsigned long long u64,
                                   float f32, double f64)
{
    unsigned char *p = out;
    memcpy(p, &s8, 1); p += 1;
    memcpy(p, &s16, 2); p += 2;
    memcpy(p, &s32, 4); p += 4;
    memcpy(p, &s64, 8); p += 8;
    memcpy(p, &u8, 1); p += 1;
    memcpy(p, &u16, 2); p += 2;
    memcpy(p, &u32, 4); p += 4;
    memcpy(p, &u64, 8); p += 8;
    memcpy(p, &f32, 4); p += 4;
    memcpy(p, &f64, 8);
}

struct pair { int a; float b; double c; };
extern "C" __global__ void bystruct(pair s, unsigned char *out)
{
    memcpy(out, &s, sizeof s);
}

extern "C" __global__ void hello(int n)
{
    printf("hello from thread %d of %d: %5.2f %s\n", (int)threadIdx.x, n, 1.5, "ok");
}

extern "C" __global__ void oob(int *p)
{
    p[threadIdx.x + 1000000] = 1;
}
#endif

#ifdef NOENTRY
// noentry.ptx: a module with no kernel.
extern "C" __device__ int twice(int x) { return 2 * x; }
#endif

#ifdef NAMES
// names.ptx: C++ names for --kernel: a namespace, templates, and overloads of one name.
namespace lab {
template <typename T> __global__ void fill(T *out, T v) { out[threadIdx.x] = v; }
template __global__ void fill<int>(int *, int);
template __global__ void fill<float>(float *, float);
__global__ void bump(int *out) { out[threadIdx.x] += 1; }
__global__ void twice(int *out) { out[threadIdx.x] *= 2; }
__global__ void twice(float *out) { out[threadIdx.x] *= 2.0f; }
}
#endif

#ifdef TYPES
// types.ptx: scalars of the half-width floating types and raw bits, and a pointer that may be
// null, stored into out as they arrive; and a half buffer doubled in place.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void store_types(unsigned short *out, __half h, __nv_bfloat16 b, unsigned short bits,
                                       const int *maybe)
{
    out[0] = __half_as_ushort(h);
    out[1] = __bfloat16_as_ushort(b);
    out[2] = bits;
    out[3] = maybe == nullptr ? 1 : 0;
}
extern "C" __global__ void twice_half(__half *x) { x[threadIdx.x] = __hadd(x[threadIdx.x], x[threadIdx.x]); }
#endif
