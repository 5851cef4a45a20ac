// say.cu -- a kernel that prints, for the debugger's unit suite (tests/unit/check_debug.c).
// Regenerate say.ptx: nvcc -arch=sm_90 -lineinfo -ptx say.cu -o say.ptx; .file made relative to the tree
#include <cstdio>

__global__ void say(int *out)
{
    printf("t%d\n", threadIdx.x);
    out[threadIdx.x] = 1;
}
