/* bench_native.c -- native C versions of the bench kernels (same algorithms,
 * compiled with -O2 in the same binary) that Loom's times are compared with. */
#include "bench/bench.h"

void native_saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

void native_reduce_sum(const int *in, int n, int *out)
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

void native_histogram(const unsigned char *data, int n, unsigned *bins)
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
