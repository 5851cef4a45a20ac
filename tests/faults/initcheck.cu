// initcheck.cu -- reads of device memory that nothing wrote (loom run --initcheck).
// heap_uninit: a block mallocs a buffer in the kernel, writes all but its last element and
// reads all of it. all_written: the same with every element written (no report).
// heap_atomic: atomics on counters nobody zeroed.
extern "C" __global__ void heap_uninit(int *out, int n)
{
    __shared__ int *buf;
    if (threadIdx.x == 0)
        buf = (int *)malloc(n * sizeof(int));
    __syncthreads();
    if (threadIdx.x < n - 1)
        buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        free(buf);
}

extern "C" __global__ void all_written(const int *in, int *out)
{
    __shared__ int *buf;
    if (threadIdx.x == 0)
        buf = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    buf[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        free(buf);
}

// heap_atomic: counters malloc'd in the kernel and never zeroed, incremented with atomicAdd:
// an atomic reads the value it updates, so this is a read of memory never written.
extern "C" __global__ void heap_atomic(const int *in, int *out)
{
    __shared__ int *bins;
    if (threadIdx.x == 0)
        bins = (int *)malloc(16 * sizeof(int));
    __syncthreads();
    atomicAdd(&bins[in[threadIdx.x] & 15], 1);
    __syncthreads();
    if (threadIdx.x < 16)
        out[threadIdx.x] = bins[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        free(bins);
}
