// Corpus, memory state spaces: global (scalar, vector, non-coherent and cache-hinted forms,
// 8/16-bit), shared (static, 2D, extern dynamic with mixed types), local arrays indexed with data,
// __constant__ tables with initialisers, module-scope __device__ variables with initialisers
// (one a pointer to another), generic pointers into shared/global/local with isspacep, and
// structs passed by value to a .func.

#define OUT(v) (out[(k++) * n + i] = (v))

// Static shared memory: each block reverses its tile, and a 2D tile is transposed.
// Launch with blockDim.x == 128 (1D). out: 2 * n s32.
extern "C" __global__ void mem_shared_static(const int *in, int *out, int n)
{
    __shared__ int tile[128];
    __shared__ short tile2[16][9];             /* odd row length: unaligned rows */
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : -1;
    tile2[t / 8][t % 8] = (short)(i < n ? in[i] : 0);
    __syncthreads();
    if (i < n) {
        out[i] = tile[127 - t];
        out[n + i] = tile2[t % 16][t / 16];
    }
}

// Extern dynamic shared memory holding a double array followed by an int array.
// Launch with --shared 12 * blockDim.x bytes. out: 2 * n s32; outd: n f64.
extern "C" __global__ void mem_shared_dynamic(const int *in, int *out, double *outd, int n)
{
    extern __shared__ double dyn[];
    double *sd = dyn;
    int *si = (int *)&dyn[blockDim.x];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? in[i] : 0;
    sd[t] = (double)v * 0.5;
    si[t] = v ^ t;
    __syncthreads();
    unsigned nb = blockDim.x;
    if (i < n) {
        unsigned src = (t + 5) % nb;
        out[i] = si[src];
        out[n + i] = si[(t * 7) % nb] + (int)nb;
        outd[i] = sd[src] + sd[(t + nb - 1) % nb];
    }
}

// Local memory: a per-thread array that is indexed with data-dependent indices, so it cannot
// live in registers; also a local struct array. K = 4 slots, s32.
extern "C" __global__ void mem_local(const int *in, const unsigned *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int buf[24];
    struct { short s; char c; double d; } rec[6];
    int v = in[i];
    for (int j = 0; j < 24; j++)
        buf[j] = v * (j + 1) + j;
    for (int j = 0; j < 6; j++) {
        rec[j].s = (short)(v >> j);
        rec[j].c = (char)(j * 3 + v);
        rec[j].d = (double)v / (j + 1);
    }
    unsigned sel = idx[i];
    buf[sel % 24] += 1000;
    buf[(sel >> 3) % 24] ^= 0x55;
    int k = 0, acc = 0;
    for (unsigned j = sel % 5; j < 24; j += 1 + sel % 3)
        acc += buf[j];
    OUT(acc);
    OUT(buf[(sel * 7) % 24]);
    OUT(rec[sel % 6].s + rec[(sel + 1) % 6].c);
    OUT((int)rec[(sel >> 2) % 6].d);
}

// __constant__ memory with initialisers, indexed uniformly and per thread.
__constant__ int c_table[64] = {
    3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5,
    0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2};
__constant__ float c_coef[5] = {0.5f, -1.25f, 3.0f, 1e-3f, -0.0f};
__constant__ double c_dcoef[3] = {1.0 / 3.0, 2.5e-300, -7.0};
struct cpoint { int x; short y; unsigned char tag; };
__constant__ cpoint c_points[3] = {{1, -2, 200}, {-30000, 17, 1}, {0x7FFFFFFF, -32768, 255}};
__constant__ unsigned long long c_wide = 0x0123456789ABCDEFull;

// K = 6 slots, s32 (float results as bits).
extern "C" __global__ void mem_const(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    unsigned j = (unsigned)v;
    int k = 0;
    OUT(c_table[j % 64] + c_table[blockIdx.x % 64]);
    float f = (float)(v & 0xFFFF);
    OUT(__float_as_int(((c_coef[0] * f + c_coef[1]) * f + c_coef[2]) * c_coef[3] + c_coef[4]));
    OUT((int)(c_dcoef[j % 3] * 1000.0));
    const cpoint &p = c_points[j % 3];
    OUT(p.x + p.y + p.tag);
    OUT((int)(c_wide >> (j % 64)));
    OUT(c_table[(threadIdx.x * 5 + 3) & 63]);
}

// Module-scope __device__ variables with initialisers; one is a pointer to another, one is
// updated with atomics (every thread adds 1, so the final value is the thread count).
__device__ int g_tab[8] = {10, 20, 30, 40, 50, 60, 70, -80};
__device__ float g_scale = 1.5f;
__device__ int *g_ptr = g_tab + 2;
__device__ unsigned g_count;
__device__ char g_msg[] = "loom";

// out: n s32; count: 1 u32, written by the thread that draws the last ticket from g_count
// (n + 1000: it sees every increment).
extern "C" __global__ void mem_globals(const int *in, int *out, unsigned *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    unsigned j = (unsigned)v;
    out[i] = g_tab[j % 8] + g_ptr[j % 6] + (int)(g_scale * (float)(v & 255)) + g_msg[j % 4];
    unsigned old = atomicAdd(&g_count, 1u);
    if (old == (unsigned)n - 1)
        *count = atomicAdd(&g_count, 0u) + 1000u;   /* the last thread sees all n */
}

// Generic pointers: a __noinline__ function that reads and writes through a pointer which
// points to shared, global or local memory, plus isspacep via __isShared/__isGlobal/__isLocal.
__device__ __noinline__ int gen_update(int *p, int idx, int v)
{
    int old = p[idx];
    p[idx] = old * 3 + v;
    return old + (__isShared(p) ? 1000 : 0) + (__isGlobal(p) ? 2000 : 0) +
           (__isLocal(p) ? 4000 : 0);
}

// Launch with blockDim.x <= 256. K = 4 slots in out, s32; scratch: n s32 (its final state is an
// output too).
extern "C" __global__ void mem_generic(const int *in, int *scratch, int *out, int n)
{
    __shared__ int sh[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? in[i] : 0;
    sh[t] = t;
    if (i < n)
        scratch[i] = v;
    __syncthreads();
    if (i >= n)
        return;
    int loc[4] = {v, v + 1, v + 2, v + 3};
    int k = 0;
    int *p = (v & 1) ? sh : scratch + blockIdx.x * blockDim.x;   /* generic: either space */
    OUT(gen_update(sh, t, v));
    OUT(gen_update(scratch, i, v));
    OUT(gen_update(loc, (unsigned)v % 4, 7) + loc[((unsigned)v + 1) % 4]);
    OUT(gen_update(p, t, 1));
}

// Vector, non-coherent and cache-hinted global accesses. n float4 / int2 / double2 elements.
// K: out4 n float4 (as 4n f32), out2 n int2 (2n s32), outd n double2 (2n f64).
extern "C" __global__ void mem_vector(const float4 *__restrict__ in4, const int2 *in2,
                                      const double2 *ind, float4 *out4, int2 *out2,
                                      double2 *outd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 f = in4[i];                        /* ld.global.nc.v4.f32 */
    float4 g = __ldg(&in4[(i + 1) % n]);
    int2 p = __ldcg(&in2[i]);
    int2 q = __ldcs(&in2[n - 1 - i]);
    double2 d = __ldlu(&ind[i]);
    double2 e = __ldcv(&ind[(i * 3) % n]);
    __stwb(&out4[i], make_float4(f.w + g.x, f.z, f.y * 2.0f, f.x - g.w));
    __stcg(&out2[i], make_int2(p.x ^ q.y, p.y + q.x));
    __stcs(&outd[i], make_double2(d.y, d.x + e.y));
}

// Byte and halfword accesses, unaligned within words. in: 4n bytes; out8: 4n bytes;
// out16: 2n u16.
extern "C" __global__ void mem_bytes(const unsigned char *in, unsigned char *out8,
                                     unsigned short *out16, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = in + 4 * i;
    unsigned char b0 = p[0], b1 = p[1], b2 = p[2], b3 = p[3];
    uchar4 u = *(const uchar4 *)p;
    out8[4 * i + 0] = b3;
    out8[4 * i + 1] = (unsigned char)(b2 + u.x);
    out8[4 * i + 2] = (signed char)b1 > 0 ? b1 : (unsigned char)-(signed char)b1;
    out8[4 * i + 3] = (unsigned char)(b0 ^ u.w);
    const unsigned short *h = (const unsigned short *)in;
    out16[2 * i] = h[2 * i + 1];
    out16[2 * i + 1] = (unsigned short)((short)h[2 * i] >> 3);
}

// Structs by value to and from a __noinline__ function (.param byte arrays in .func calls).
struct pair3 { int a; double b; short c; };
__device__ __noinline__ pair3 struct_mix(pair3 x, pair3 y, int s)
{
    pair3 r;
    r.a = x.a * y.c + s;
    r.b = x.b - y.b * (double)s;
    r.c = (short)(x.c ^ y.a);
    return r;
}

// K = 3 slots, f64 (ints converted exactly).
extern "C" __global__ void mem_struct_call(const int *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    pair3 x = {a[i], b[i], (short)a[(i + 1) % n]};
    pair3 y = {a[(i + 2) % n], b[(i + 3) % n], (short)i};
    pair3 r = struct_mix(x, y, i & 15);
    int k = 0;
    OUT((double)r.a);
    OUT(r.b);
    OUT((double)r.c);
}

// A kernel taking a struct by value (a .param .align 8 .b8 array). `loom run` passes scalars and
// buffers only, so this one is exercised by the runtime tests rather than runs.txt.
struct kparams { int count; float scale; double offset; int *dst; };
extern "C" __global__ void mem_struct_param(kparams p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.count)
        p.dst[i] = (int)(p.scale * (float)i + p.offset);
}
