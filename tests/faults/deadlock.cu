// deadlock.cu -- warp 0 waits at named barrier 1 for 64 threads while warp 1 waits at
// barrier 0 (__syncthreads): neither barrier can ever complete.
extern "C" __global__ void deadlock(int *out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;");
    else
        __syncthreads();
    out[threadIdx.x] = 1;
}
