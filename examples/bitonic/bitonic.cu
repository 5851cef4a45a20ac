// Bitonic sort in shared memory: each block sorts its own 2 * blockDim.x keys (ascending) in
// place. Bitonic sort is a sorting network: the sequence of compare-exchange steps does not
// depend on the data, so every thread does the same work and there is no divergence beyond the
// swap itself. log2(m) * (log2(m) + 1) / 2 steps, each followed by a __syncthreads.
// Launch with blockDim.x = 512 (1024 keys per block); a short last block is padded with
// 0xFFFFFFFF, which sorts to the end and is not written back.

#define KEYS 1024

extern "C" __global__ void bitonic_sort(unsigned *keys, int n)
{
    __shared__ unsigned s[KEYS];
    int t = threadIdx.x, m = 2 * blockDim.x, base = blockIdx.x * m;
    s[t] = base + t < n ? keys[base + t] : 0xFFFFFFFFu;
    s[t + blockDim.x] = base + t + (int)blockDim.x < n ? keys[base + t + blockDim.x] : 0xFFFFFFFFu;
    for (int size = 2; size <= m; size <<= 1) {
        bool up = (t & (size / 2)) == 0;           /* direction of this bitonic subsequence */
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            int pos = 2 * t - (t & (stride - 1));
            unsigned a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    if (base + t < n)
        keys[base + t] = s[t];
    if (base + t + (int)blockDim.x < n)
        keys[base + t + blockDim.x] = s[t + blockDim.x];
}
