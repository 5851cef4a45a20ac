// occupancy.cu -- the occupancy API and kernel attributes: cudaFuncGetAttributes (launch
// bounds), cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxPotentialBlockSize,
// cudaOccupancyAvailableDynamicSMemPerBlock. Figures that depend on the register allocator are
// only checked for consistency. (The calculator ignores __launch_bounds__: 1024 threads of a
// kernel bounded to 128 still give a block count.)
#include "check.h"

__global__ void __launch_bounds__(128) bounded(float *p) { p[threadIdx.x] *= 2.0f; }

__global__ void heavy_smem(float *p)
{
    __shared__ float tile[8192];   // 32 KiB static
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, bounded));
    printf("bounded: maxThreadsPerBlock %d, static shared %zu\n", a.maxThreadsPerBlock, a.sharedSizeBytes);
    EXPECT(a.maxThreadsPerBlock == 128);
    CK(cudaFuncGetAttributes(&a, heavy_smem));
    printf("heavy_smem: maxThreadsPerBlock %d, static shared %zu\n", a.maxThreadsPerBlock, a.sharedSizeBytes);
    EXPECT(a.sharedSizeBytes == 32768);
    printf("info: heavy_smem registers %d, ptxVersion %d, binaryVersion %d\n", a.numRegs, a.ptxVersion,
           a.binaryVersion);

    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, heavy_smem, 256, 0));
    int by_smem = (int)(prop.sharedMemPerMultiprocessor / (32768 + prop.reservedSharedMemPerBlock));
    printf("heavy_smem blocks per SM limited by shared memory: %s\n", blocks == by_smem ? "yes" : "no");
    EXPECT(blocks == by_smem);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 128, 0));
    EXPECT(blocks >= 1 && blocks <= prop.maxBlocksPerMultiProcessor);
    EXPECT(blocks * 128 <= prop.maxThreadsPerMultiProcessor);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 1024, 0));
    printf("info: bounded with 1024 threads (over its bound): %d blocks\n", blocks);
    EXPECT(blocks >= 1 && blocks <= 2);

    int min_grid = 0, block = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
    printf("potential block size for bounded: %d\n", block);
    EXPECT(block > 0 && block <= 128 && block % 32 == 0);
    EXPECT(min_grid >= prop.multiProcessorCount);
    size_t dyn = 0;
    CK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, heavy_smem, 2, 256));
    printf("dynamic shared memory available with 2 blocks per SM: %s\n",
           dyn + 32768 <= prop.sharedMemPerBlockOptin ? "within the opt-in limit" : "too much");
    EXPECT(dyn > 0);
    return finish();
}
