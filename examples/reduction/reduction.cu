// Block reduction: each thread sums a grid-stride slice of the input, the block combines its
// threads' sums in a shared-memory tree (a __syncthreads between levels), and thread 0 adds the
// block's total to the result with one atomicAdd -- one atomic per block instead of per element.
// Launch with blockDim.x = 256 (a power of two).

extern "C" __global__ void reduce_sum(const float *in, float *total, int n)
{
    __shared__ float partial[256];
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    partial[t] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(total, partial[0]);
}
