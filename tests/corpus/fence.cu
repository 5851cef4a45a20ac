// Corpus, memory fences and volatile polling: the "last block" reduction (__threadfence +
// atomicInc ticket + volatile reads), a volatile flag between two warps of one CTA with
// __threadfence_block, and message passing between two CTAs with __threadfence /
// __threadfence_system (this one needs both CTAs to make progress at once).

// Each block reduces its slice in shared memory (float, fixed order), publishes it, and the block
// that draws the last ticket adds the partial sums in block order.
// partial: gridDim.x f32; result: 2 f32 ([0] total, [1] number of partials it saw);
// count: 1 u32 (reset to 0 by the last block). Launch with blockDim.x = 128.
extern "C" __global__ void fence_last_block(const float *in, float *partial, float *result,
                                            unsigned *count, int n)
{
    __shared__ float s[128];
    __shared__ bool last;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 64; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        volatile float *vp = partial;
        float total = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += vp[b];
        result[0] = total;
        result[1] = (float)gridDim.x;
        *count = 0;
    }
}

// Within one CTA of 64 threads: lane 0 of warp 1 writes a payload, fences, raises a volatile
// shared flag; lane 0 of warp 0 spins on it, then reads the payload. out: 4 s32.
extern "C" __global__ void fence_flag(const int *in, int *out)
{
    __shared__ int payload[4];
    __shared__ volatile int flag;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();
    if (t == 32) {
        payload[0] = in[0] + 1;
        payload[1] = in[1] * 2;
        payload[2] = in[2] ^ 0xABC;
        __threadfence_block();
        flag = 1;
    }
    if (t == 0) {
        while (flag == 0)
            ;
        __threadfence_block();
        out[0] = payload[0];
        out[1] = payload[1];
        out[2] = payload[2];
        out[3] = flag;
    }
}

// Between two CTAs (--grid 2 --block 32): CTA 1 writes data, fences, sets a global flag;
// CTA 0 polls the flag with volatile loads, fences, then reads and copies the data.
// data: 32 s32 (out: CTA 1's writes), flag: 1 s32, copy: 32 s32.
extern "C" __global__ void fence_mp_blocks(const int *in, int *data, int *flag, int *copy)
{
    int t = threadIdx.x;
    if (blockIdx.x == 1) {
        data[t] = in[t] * 3 - 1;
        __threadfence();
        __syncthreads();
        if (t == 0) {
            __threadfence_system();
            atomicExch(flag, 1);
        }
    } else {
        if (t == 0) {
            volatile int *vf = flag;
            while (*vf == 0)
                ;
        }
        __syncthreads();
        __threadfence();
        copy[t] = ((volatile int *)data)[31 - t];
    }
}
