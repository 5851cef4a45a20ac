/* bench.h -- native reference implementations of the bench kernels. */
#ifndef LOOM_BENCH_H
#define LOOM_BENCH_H

void native_saxpy(int n, float a, const float *x, float *y);
void native_reduce_sum(const int *in, int n, int *out);
void native_matmul(const float *A, const float *B, float *C, int n);
void native_mandelbrot(int *out, int w, int h, int max_iter);
void native_histogram(const unsigned char *data, int n, unsigned *bins);
void native_collatz(const unsigned *start, unsigned *steps, int n);

#endif
