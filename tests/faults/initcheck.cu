// initcheck.cu -- reads of device memory that nothing wrote (loom run --initcheck).
// heap_uninit: a block mallocs a buffer in the kernel, writes all but its last element and
// reads all of it. all_written: the same with every element written (no report).
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
