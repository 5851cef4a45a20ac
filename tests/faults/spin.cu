// spin.cu -- kernels that never finish (stopped by --timeout, or by Ctrl-C). spin: warp 1
// loops on one branch instruction, so that a report names the same PC every time, while
// warp 0 waits at a barrier; poll: every thread spins on a flag nobody sets.
extern "C" __global__ void spin(int *out)
{
    if (threadIdx.x >= 32)
        asm volatile("{\n$Lspin:\n\tbra.uni $Lspin;\n}");
    __syncthreads();
    out[threadIdx.x] = 1;
}

extern "C" __global__ void poll(volatile int *flag)
{
    while (*flag == 0) {
    }
}
