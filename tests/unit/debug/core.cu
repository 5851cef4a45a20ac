// core.cu -- kernels for the debugger core's unit suite (tests/unit/check_debug.c).
// Regenerate core.ptx: nvcc -arch=sm_90 -lineinfo -ptx core.cu -o core.ptx; .file made relative to the tree
__device__ __noinline__ int square(int x)
{
    int y = x * x;
    return y;
}

__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = square(i);
        if (i % 2)
            v = -v;
        out[i] = v;
    }
}

__global__ void smem(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void oob(int *out, int n)
{
    int k = threadIdx.x * 2;
    out[k] = k;
    out[threadIdx.x + n] = 1;
}

__global__ void branchy(int *out)
{
    int t = threadIdx.x;
    int acc = 0;
    for (int k = 0; k < t % 4; k++)
        acc += k * t + 1;
    out[t] = acc;
}
