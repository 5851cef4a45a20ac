// rdc_shared.h -- what the translation units of the -rdc test share.
#pragma once
extern __device__ int rdc_square(int x);
extern __device__ int rdc_bias;
extern __constant__ int rdc_table[4];
extern __device__ unsigned rdc_counter;
template <typename T> __device__ T twice(T x) { return x + x; }
int run_counter(int n);
