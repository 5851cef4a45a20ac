// drv_kernels.cu -- kernels the driver API tests load as PTX (drv_kernels.ptx is nvcc -ptx
// -arch=sm_90 of this file, committed so that the tests need no nvcc).
__device__ int counter;
__constant__ int coef[4];

extern "C" __global__ void add(const int *a, const int *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i] * coef[i & 3];
}

extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

extern "C" __global__ void bump(void)
{
    atomicAdd(&counter, 1);
}

extern "C" __global__ void big_shared(int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
