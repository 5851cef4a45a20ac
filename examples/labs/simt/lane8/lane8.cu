// lane8: a long body run by lanes 0..7 of each warp only. The other 24 lanes wait masked off
// while it runs, so the warp spends most of its issue slots at 8 active lanes out of 32.

extern "C" __global__ void lane8(unsigned *out, int n, int rounds)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    unsigned lane = threadIdx.x % 32;
    unsigned x = (unsigned)tid;
    if (lane < 8) {
        #pragma unroll 1
        for (int r = 0; r < rounds; r++)        // the long body: a small hash, rounds times
            x = (x ^ (x >> 7)) * 2654435761u + (unsigned)r;
    }
    out[tid] = x;
}
