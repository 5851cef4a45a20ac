// ifelse: the simplest divergence. Even and odd lanes of every warp take the two sides of an
// if/else of equal length, so a warp runs both sides one after the other with half its lanes
// masked off each time (SIMD efficiency 1/2 inside the branch), then reconverges after it.

extern "C" __global__ void ifelse(unsigned *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    unsigned x = (unsigned)tid;
    if (threadIdx.x % 2 == 0) {                 // even lanes
        x = x * x + 7u;
        x ^= x >> 11;
        x *= 0x9e3779b1u;
        x += x >> 3;
    } else {                                    // odd lanes
        x = (x << 5) | (x >> 27);
        x += 0x7f4a7c15u;
        x ^= x * x;
        x -= x >> 9;
    }
    out[tid] = x;
}
