// Corpus, special registers: %tid/%ntid/%ctaid/%nctaid in 3D, %laneid, %lanemask_*, and, where a
// GPU's value is machine-dependent, only a relation that always holds: %warpid < %nwarpid,
// %smid < %nsmid, %clock/%clock64/%globaltimer not decreasing, %total_smem_size covering the
// static and dynamic shared memory. %dynamic_smem_size equals --shared.
//
// Output slot k of thread g (linear over the whole 3D grid) is out[k * n + g], n = all threads.

#define OUT(v) (out[(k++) * n + g] = (v))
#define SREG32(name) ({ unsigned r_; asm volatile("mov.u32 %0, %%" name ";" : "=r"(r_)); r_; })

// K = 20 slots, u32. Launch e.g. --grid 2,2,2 --block 8,4,3 --shared 256.
extern "C" __global__ void sreg_ids(unsigned *out, int n)
{
    __shared__ unsigned pad[16];
    unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned bthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned blin = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int g = (int)(blin * bthreads + lin);
    if (lin < 16)
        pad[lin] = lin * 3 + 1;
    unsigned long long c0 = clock64(), t0;
    unsigned c32a = SREG32("clock");
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    __syncthreads();
    if (g >= n)
        return;
    int k = 0;
    OUT(threadIdx.x);
    OUT(threadIdx.y);
    OUT(threadIdx.z);
    OUT(blockDim.x | blockDim.y << 10 | blockDim.z << 20);
    OUT(blockIdx.x);
    OUT(blockIdx.y);
    OUT(blockIdx.z);
    OUT(gridDim.x | gridDim.y << 10 | gridDim.z << 20);
    OUT(SREG32("laneid"));
    OUT(SREG32("lanemask_eq"));
    OUT(SREG32("lanemask_lt"));
    OUT(SREG32("lanemask_le"));
    OUT(SREG32("lanemask_gt"));
    OUT(SREG32("lanemask_ge"));
    OUT(SREG32("warpid") < SREG32("nwarpid"));
    OUT(SREG32("smid") < SREG32("nsmid"));
    unsigned long long c1 = clock64(), t1;
    unsigned c32b = SREG32("clock");
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    OUT((c1 >= c0) | (c32b - c32a < 0x80000000u) << 1 | (t1 >= t0) << 2);
    OUT(SREG32("dynamic_smem_size"));
    OUT(SREG32("total_smem_size") >= SREG32("dynamic_smem_size") + sizeof pad);
    OUT(pad[(lin + 1) & 15] + lin / 32 * 1000);
}
