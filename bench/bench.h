/* bench.h -- native reference implementations of the bench kernels: the
 * same algorithms as the CUDA kernels (the ratio the bench prints), and for
 * the reduction and the histogram also the plainest one-pass C loop (the
 * "plain" column), whose work per element is far smaller. */
#ifndef LOOM_BENCH_H
#define LOOM_BENCH_H

void native_saxpy(int n, float a, const float *x, float *y);
void native_reduce_sum(const int *in, int n, int *out);
void native_reduce_sum_plain(const int *in, int n, int *out);
void native_matmul(const float *A, const float *B, float *C, int n);
void native_mandelbrot(int *out, int w, int h, int max_iter);
void native_histogram(const unsigned char *data, int n, unsigned *bins, int blocks, int threads);
void native_histogram_plain(const unsigned char *data, int n, unsigned *bins);
void native_collatz(const unsigned *start, unsigned *steps, int n);

#endif
