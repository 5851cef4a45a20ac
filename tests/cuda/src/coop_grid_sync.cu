// coop_grid_sync.cu -- cooperative groups: grid.sync() between phases of a kernel launched
// with cudaLaunchCooperativeKernel, sized with the occupancy API; also block-level groups.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

__global__ void phases(int *data, int *sums, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        data[i] = i % 10;
    grid.sync();
    // phase 2: each block sums a slice written by other blocks
    int per = n / gridDim.x, acc = 0;
    int first = ((blockIdx.x + 1) % gridDim.x) * per;
    for (int i = first + block.thread_rank(); i < first + per; i += block.size())
        acc += data[i];
    atomicAdd(&sums[blockIdx.x], acc);
    grid.sync();
    // phase 3: block 0 totals the per-block sums
    if (blockIdx.x == 0 && block.thread_rank() == 0) {
        int t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += sums[b];
        sums[gridDim.x] = t;
    }
}

int main()
{
    int supported = 0;
    CK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperative launch supported: %d\n", supported);
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, 128, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(per_sm >= 1);
    int blocks = 16;
    EXPECT(blocks <= per_sm * sms);
    const int n = blocks * 1000;
    int *data, *sums;
    CK(cudaMalloc(&data, n * sizeof(int)));
    CK(cudaMalloc(&sums, (blocks + 1) * sizeof(int)));
    CK(cudaMemset(sums, 0, (blocks + 1) * sizeof(int)));
    int nn = n;
    void *args[] = {&data, &sums, &nn};
    CK(cudaLaunchCooperativeKernel((void *)phases, blocks, 128, args, 0, 0));
    CK(cudaDeviceSynchronize());
    int h[17];
    CK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    int expect = 0;
    for (int i = 0; i < n; i++)
        expect += i % 10;
    printf("blocks %d, total %d, expected %d, block 3 sum %d\n", blocks, h[blocks], expect, h[3]);
    EXPECT(h[blocks] == expect && h[3] == 4500);
    return finish();
}
