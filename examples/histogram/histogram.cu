// 256-bin byte histogram, two ways:
//   histogram_global   every element does an atomicAdd on global memory: heavy contention on
//                      popular bins
//   histogram_shared   each block counts into a private histogram in shared memory (fast
//                      shared-memory atomics), then adds its nonzero bins to the global result
//                      once -- the privatisation pattern
// Both use a grid-stride loop, so any grid size covers any n.

extern "C" __global__ void histogram_global(const unsigned char *data, unsigned *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

extern "C" __global__ void histogram_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}
