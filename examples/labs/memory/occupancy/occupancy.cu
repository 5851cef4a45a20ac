// occupancy: three kernels, each held below a full SM by a different resource. The grids are
// small (a few CTAs), so what they show is the theoretical occupancy a launch gets: how many
// of its CTAs one SM could hold at once, and what stops it there.

// Registers: each thread keeps 64 values live across a loop of rounds that mixes every one
// with its neighbour, so ptxas needs a register per value and more (ptxas -v says how many).
#define LIVE 64
extern "C" __global__ void occ_registers(const unsigned *in, unsigned *out, int rounds)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; k++)
        v[k] = in[i] * (2u * k + 1u) + k;
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int k = 0; k < LIVE; k++)
            v[k] = (v[k] ^ (v[(k + 1) % LIVE] >> 3)) * 0x9e3779b1u + r;
    }
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < LIVE; k++)
        acc = acc * 31u + v[k];
    out[i] = acc;
}

// Shared memory: 40 KiB of static shared memory per CTA; each thread fills its part, and reads
// another thread's after the barrier.
#define SMEM_WORDS 10240
extern "C" __global__ void occ_shared(unsigned *out)
{
    __shared__ unsigned s[SMEM_WORDS];
    unsigned t = threadIdx.x;
    for (unsigned k = t; k < SMEM_WORDS; k += blockDim.x)
        s[k] = k * 3u + blockIdx.x;
    __syncthreads();
    unsigned acc = 0;
    for (unsigned k = (t + 1) % blockDim.x; k < SMEM_WORDS; k += blockDim.x)
        acc += s[k];
    out[blockIdx.x * blockDim.x + t] = acc;
}

// CTA slots: one warp per CTA. An H100 SM holds at most 32 CTAs, so at most 32 of its 64 warps.
extern "C" __global__ void occ_blocks(unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i * i + 1u;
}
