// kernels.cu -- fixtures of the parameter access analysis (ptx/ptx_access.c): kernels that read,
// write, read and write, use atomics, restrict and streaming loads, loops, calls, escapes (to
// module variables, shared memory, atomics), pointer chasing, pointers to pointers, module
// variables, by-value structures, textures, surfaces, cp.async and memcpy. check_ptx_access.c
// asserts the mode of every parameter; gen_ptx.sh regenerates kernels.ptx.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_pipeline.h>

extern "C" __global__ void copy(const float *src, float *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

extern "C" __global__ void scale_inplace(float *a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}

extern "C" __global__ void fill(int *out, int v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = v;
}

extern "C" __global__ void histogram(const int *in, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i] & 63], 1u);
}

extern "C" __global__ void restrict_load(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldg(&in[i]) + in[n - 1 - i];
}

// Pointers walked in a loop: the induction registers are reassigned on the back edge.
extern "C" __global__ void walk(const float *a, float *b, long n)
{
    const float *p = a + threadIdx.x, *end = a + n;
    float *q = b + threadIdx.x;
    while (p < end) {
        *q = *p * 2.0f;
        p += blockDim.x;
        q += blockDim.x;
    }
}

// One store through a pointer chosen between two parameters.
extern "C" __global__ void pick(float *a, float *b, int which)
{
    float *t = which ? a : b;
    t[threadIdx.x] = 1.0f;
}

__device__ __noinline__ float dev_load(const float *p, int i) { return p[i]; }
__device__ __noinline__ void dev_store(float *p, int i, float v) { p[i] = v; }

extern "C" __global__ void via_calls(const float *a, float *b)
{
    int i = threadIdx.x;
    dev_store(b, i, dev_load(a, i) + 1.0f);
}

__device__ float *g_saved;

extern "C" __global__ void leak(float *p, float *q)
{
    if (threadIdx.x == 0) g_saved = p;
    q[threadIdx.x] = 0.0f;
}

__device__ __noinline__ void keep(float *p) { g_saved = p; }

extern "C" __global__ void leak_via_call(float *p)
{
    keep(p + threadIdx.x);
}

struct node {
    node *next;
    int val;
};

extern "C" __global__ void chase(const node *head, int *out)
{
    int s = 0;
    for (const node *n = head; n; n = n->next) s += n->val;
    out[threadIdx.x] = s;
}

__device__ int g_counter;
__device__ float g_table[64];

extern "C" __global__ void use_globals(float *out)
{
    atomicAdd(&g_counter, 1);
    out[threadIdx.x] = g_table[threadIdx.x & 63];
}

struct args {
    float *data;
    int n;
};

extern "C" __global__ void by_value(args a)
{
    if ((int)threadIdx.x < a.n) a.data[threadIdx.x] += 1.0f;
}

extern "C" __global__ void value_only(int n, float f, unsigned long long mask, int *out)
{
    out[threadIdx.x] = (mask >> (threadIdx.x & 63)) & 1 ? n : (int)f;
}

extern "C" __global__ void staged(const float *in, float *out)
{
    __shared__ float tile[256];
    tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

extern "C" __global__ void async_copy(const float *in, float *out)
{
    __shared__ float tile[256];
    __pipeline_memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

extern "C" __global__ void say(const int *p)
{
    printf("%d\n", p[threadIdx.x]);
}

extern "C" __global__ void tex_read(cudaTextureObject_t t, float *out)
{
    out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}

extern "C" __global__ void surf_write(cudaSurfaceObject_t s, int v)
{
    surf2Dwrite(v, s, threadIdx.x * 4, blockIdx.x);
}

// A pointer handed to the block through shared memory: it escapes, the store is other.
extern "C" __global__ void through_shared(float *p)
{
    __shared__ float *sp;
    if (threadIdx.x == 0) sp = p;
    __syncthreads();
    sp[threadIdx.x] = 1.0f;
}

extern "C" __global__ void ptr_to_ptr(float **pp, int n)
{
    pp[blockIdx.x][threadIdx.x] = (float)n;
}

// Through an integer and back, aligned down: still the parameter.
extern "C" __global__ void int_round_trip(float *p)
{
    uintptr_t u = reinterpret_cast<uintptr_t>(p) + threadIdx.x * 16;
    u &= ~(uintptr_t)15;
    reinterpret_cast<float *>(u)[0] = 0.0f;
}

// A pointer published with an atomic exchange escapes.
extern "C" __global__ void publish(unsigned long long *slot, float *p)
{
    atomicExch(slot, reinterpret_cast<unsigned long long>(p));
}

extern "C" __global__ void copy_bytes(char *dst, const char *src, int n)
{
    memcpy(dst + blockIdx.x * n, src + blockIdx.x * n, n);
}

extern "C" __global__ void streaming(const float4 *in, float4 *out)
{
    float4 v = __ldcs(&in[threadIdx.x]);
    __stcs(&out[threadIdx.x], v);
}

struct two {
    const float *a;
    float *b;
};

extern "C" __global__ void two_ptrs(two t)
{
    t.b[threadIdx.x] = t.a[threadIdx.x];
}
