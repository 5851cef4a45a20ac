#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
__device__ int gcount;
__constant__ float cvals[4] = {1.0f, 2.5f, -3.0f, 4.0f};
__device__ int *ptrs[2] = {&gcount, &gcount};
__device__ __noinline__ int helper(int a, int b) { return a * b + gcount; }
__device__ float (*fptr)(float);
__device__ float sq(float x) { return x * x; }
__device__ float cube(float x) { return x * x * x; }
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void red(const int *in, int *out, int n) {
    __shared__ int s[256];
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    s[t] = t < n ? in[t] : 0;
    dyn[t] = s[t];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    int v = __shfl_down_sync(0xffffffff, s[t], 1);
    unsigned b = __ballot_sync(0xffffffff, v > 3);
    if (t == 0) { atomicAdd(out, s[0] + helper(v, b)); printf("sum %d %f\n", s[0], cvals[t&3]); }
    switch (t & 7) { case 0: out[1] = 3; break; case 1: out[2] = 5; break; case 2: out[3]=7; break; case 3: out[4]=1; break; case 4: out[5]=1; break; case 5: out[6] = 9; break; default: break; }
    float (*fp)(float) = (t & 1) ? sq : cube;
    out[7] = (int)fp((float)t);
    if (t > 1000) __trap();
    assert(n > 0);
}
__global__ void halfk(__half *h, double *d, long long *q) {
    int t = threadIdx.x;
    h[t] = __hadd(h[t], __float2half(1.5f));
    d[t] = sqrt(d[t]) / 3.0 + sin(d[t]);
    q[t] = atomicCAS((unsigned long long*)q, 1ull, 2ull) + __clzll(q[t]) + __popcll(q[t]);
    while (q[0] != 5) { q[1]++; }
}
