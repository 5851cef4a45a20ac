// readonly.cu -- a kernel writes to __constant__ memory through a generic pointer (the
// inline asm hides where the pointer comes from, so that nvcc keeps the store).
__constant__ int table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

extern "C" __global__ void write_const(int v)
{
    int *p = (int *)&table[threadIdx.x & 7];
    asm volatile("mov.b64 %0, %0;" : "+l"(p));
    if (threadIdx.x == 5)
        *p = v;
}
