// rdc_funcs.cu -- device functions and variables used from rdc_main.cu.
#include <cstdio>
#include "rdc_shared.h"

__device__ int rdc_bias;
__constant__ int rdc_table[4] = {10, 20, 30, 40};

__device__ __noinline__ int rdc_square(int x)
{
    if (x == 3)
        printf("rdc_square(3) in another translation unit\n");
    return x * x;
}
