// evenodd: the even/odd loop of dynamic warp formation (Fung et al., MICRO 2007). In every
// iteration half the lanes of each warp take one side and half the other, on the parity of
// their data and the iteration. Warp w's even lanes and warp w+1's odd lanes take the same
// side, so a pool that regroups threads at the same PC, each keeping its lane, can fill whole
// warps where a per-warp stack runs both sides at half width.

extern "C" __global__ void evenodd(const unsigned *in, unsigned *out, int n, int iters)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        // with in = iota: (lane + warp + i) is odd for half the lanes of every warp
        if (((v + v / 32u + (unsigned)i) & 1u) != 0) {
            acc = acc * acc + v;
            acc ^= acc >> 11;
            acc *= 0x9e3779b1u;
            acc += acc >> 3;
        } else {
            acc = (acc << 5) | (acc >> 27);
            acc += v ^ 0x7f4a7c15u;
            acc ^= acc * acc;
            acc -= acc >> 9;
        }
    }
    out[tid] = acc;
}
