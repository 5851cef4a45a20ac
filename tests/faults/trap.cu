// trap.cu -- one thread executes trap.
extern "C" __global__ void trap(int *out)
{
    if (threadIdx.x == 3 && blockIdx.x == 1)
        asm volatile("trap;");
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
