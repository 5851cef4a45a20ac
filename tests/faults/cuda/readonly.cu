// readonly.cu -- a kernel writes to __constant__ memory through a generic pointer.
#include "fault_check.h"

__constant__ int table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

__global__ void write_const(int v)
{
    int *p = (int *)&table[threadIdx.x & 7];
    asm volatile("mov.b64 %0, %0;" : "+l"(p));   // hide the pointer's origin from nvcc
    if (threadIdx.x == 5)
        *p = v;
}

static void bad(int *) { write_const<<<1, 32>>>(9); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
