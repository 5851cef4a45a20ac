/* bench_native.c -- native C versions of the bench kernels (same algorithms,
 * compiled with -O2 in the same binary) that Loom's times are compared with. */
#include <string.h>

#include "bench/bench.h"

void native_saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

/* The GPU algorithm, block by block: each block of 2 * 256 elements is
 * summed in pairs into a 256-entry array, which a tree halves (s[t] +=
 * s[t + k] for k = 128, 64 ... 1), then added to *out. */
void native_reduce_sum(const int *in, int n, int *out)
{
    enum { B = 256 };
    int s[B];
    for (int base = 0; base < n; base += 2 * B) {
        for (int t = 0; t < B; t++) {
            int i = base + t, v = i < n ? in[i] : 0;
            if (i + B < n) v += in[i + B];
            s[t] = v;
        }
        for (int k = B / 2; k > 0; k >>= 1)
            for (int t = 0; t < k; t++) s[t] += s[t + k];
        *out += s[0];
    }
}

/* The simplest C for the same result: one pass. */
void native_reduce_sum_plain(const int *in, int n, int *out)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += in[i];
    *out += s;
}

void native_matmul(const float *A, const float *B, float *C, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++) acc += A[i * n + k] * B[k * n + j];
            C[i * n + j] = acc;
        }
}

void native_mandelbrot(int *out, int w, int h, int max_iter)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;
            float zr = 0.0f, zi = 0.0f;
            int it = 0;
            while (it < max_iter && zr * zr + zi * zi < 4.0f) {
                float t = zr * zr - zi * zi + cr;
                zi = 2.0f * zr * zi + ci;
                zr = t;
                it++;
            }
            out[y * w + x] = it;
        }
}

/* The GPU algorithm: each of `blocks` blocks of `threads` counts the
 * elements of its grid-stride share into 256 private bins, then adds them
 * to the global bins. */
void native_histogram(const unsigned char *data, int n, unsigned *bins, int blocks, int threads)
{
    unsigned local[256];
    int stride = blocks * threads;
    for (int b = 0; b < blocks; b++) {
        memset(local, 0, sizeof local);
        for (int base = b * threads; base < n; base += stride)   /* the block's threads, one round at a time */
            for (int i = base; i < base + threads && i < n; i++) local[data[i]]++;
        for (int k = 0; k < 256; k++) bins[k] += local[k];
    }
}

/* The simplest C for the same result: one pass. */
void native_histogram_plain(const unsigned char *data, int n, unsigned *bins)
{
    for (int i = 0; i < n; i++) bins[data[i]]++;
}

void native_collatz(const unsigned *start, unsigned *steps, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long v = start[i];
        unsigned s = 0;
        while (v != 1 && s < 10000) {
            if (v & 1) v = 3 * v + 1;
            else v >>= 1;
            s++;
        }
        steps[i] = s;
    }
}
