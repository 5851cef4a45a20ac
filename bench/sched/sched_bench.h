// sched_bench.h -- helpers shared by the scheduling benchmarks (bench/sched/*.cu): input
// generation, exact device maths, checksums and a timed section reported on stderr.
//
// The programs use the default stream only: every kernel in submission order, no streams or
// events, so a scheduler that runs independent kernels at once finds them itself. Each prints
// a checksum of its results on stdout that must not depend on how independent kernels were
// interleaved, nor differ from an H100's: only operations that IEEE 754 rounds exactly
// (add, mul, fma, div, sqrt) or integers, never the .approx instructions behind expf or logf.
// A float product that feeds a sum is written __fmul_rn (mul.rn.f32): PTX lets the code
// generator fuse a plain mul.f32 and add.f32 into one fma, which ptxas does and Loom does not.
#ifndef SCHED_BENCH_H
#define SCHED_BENCH_H
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

// A CUDA call that must succeed; a failure ends the program with exit status 1.
#define CK(call)                                                                                \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call,               \
                    cudaGetErrorName(e_));                                                      \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

// Checks the last launch (launch errors only; execution errors surface at the next sync).
#define CK_LAUNCH() CK(cudaGetLastError())

// A 32-bit mixing function (a multiply-xorshift hash): pseudo-random inputs by index.
__host__ __device__ static inline uint32_t sb_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A float in [lo, hi) on a grid of 1/1024 steps from (seed, i), on the host.
static inline float sb_unit(uint32_t seed, uint32_t i, float lo, float hi)
{
    return lo + (hi - lo) * (float)(sb_mix(seed * 0x9e3779b9u + i) & 1023u) * (1.0f / 1024.0f);
}

// exp(x) for |x| < 80 from exact operations: x = k ln2 + r with ln2 split in two parts,
// a degree-7 Taylor polynomial of r, then a scale by 2^k built from the exponent bits.
__device__ static inline float sb_exp(float x)
{
    float k = rintf(__fmul_rn(x, 1.44269504f));
    float r = fmaf(-k, 0.693145752f, x);
    r = fmaf(-k, 1.42860677e-6f, r);
    float p = 1.0f / 5040.0f;
    p = fmaf(p, r, 1.0f / 720.0f);
    p = fmaf(p, r, 1.0f / 120.0f);
    p = fmaf(p, r, 1.0f / 24.0f);
    p = fmaf(p, r, 1.0f / 6.0f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    return __fmul_rn(p, __int_as_float(((int)k + 127) << 23));
}

// log(x) for normal x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), then
// log m = 2 atanh(s) with s = (m - 1) / (m + 1), a series in s^2.
__device__ static inline float sb_log(float x)
{
    int bits = __float_as_int(x);
    int e = ((bits >> 23) & 255) - 127;
    float m = __int_as_float((bits & 0x007fffff) | 0x3f800000);
    if (m > 1.41421356f) {
        m = __fmul_rn(m, 0.5f);
        e += 1;
    }
    float s = __fdiv_rn(__fsub_rn(m, 1.0f), __fadd_rn(m, 1.0f));
    float s2 = __fmul_rn(s, s);
    float p = 1.0f / 9.0f;
    p = fmaf(p, s2, 1.0f / 7.0f);
    p = fmaf(p, s2, 1.0f / 5.0f);
    p = fmaf(p, s2, 1.0f / 3.0f);
    p = fmaf(p, s2, 1.0f);
    return fmaf((float)e, 0.693147182f, __fmul_rn(__fmul_rn(2.0f, s), p));
}

// FNV-1a over bytes, folded into a running 64-bit checksum.
static inline uint64_t sb_hash(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define SB_HASH_SEED 0xcbf29ce484222325ull

// Copies a device buffer back and folds it into the checksum h.
static inline uint64_t sb_hash_device(uint64_t h, const void *dev, size_t bytes)
{
    std::vector<unsigned char> host(bytes);
    CK(cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost));
    return sb_hash(h, host.data(), bytes);
}

// argv[i] as a positive integer, or dflt when absent; a bad one ends the program.
static inline long sb_arg(int argc, char **argv, int i, long dflt)
{
    if (argc <= i)
        return dflt;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end || v <= 0) {
        fprintf(stderr, "%s: argument %d must be a positive integer, not '%s'\n", argv[0], i,
                argv[i]);
        exit(2);
    }
    return v;
}

// The timed section: from a drained device (inputs uploaded) to the last kernel's end,
// host wall clock, reported on stderr so that stdout stays the same on every run.
struct sb_timer {
    std::chrono::steady_clock::time_point t0;
    void start()
    {
        CK(cudaDeviceSynchronize());
        t0 = std::chrono::steady_clock::now();
    }
    void stop(const char *name)
    {
        CK(cudaDeviceSynchronize());
        double us = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - t0).count();
        fprintf(stderr, "sched-bench: %s section_us=%.1f\n", name, us);
    }
};

// Device memory for n elements of T, one allocation per buffer.
template <typename T> static inline T *sb_alloc(size_t n)
{
    T *p;
    CK(cudaMalloc(&p, n * sizeof(T)));
    return p;
}

template <typename T> static inline void sb_upload(T *dev, const std::vector<T> &host)
{
    CK(cudaMemcpy(dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// A float's bits, for printing a value exactly.
static inline unsigned sb_bits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}
#endif
