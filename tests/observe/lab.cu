// lab.cu -- the report's sample kernel: a divergent if/else, a loop, a shared-memory
// bank conflict (a column of a 32x32 tile), a barrier.
__global__ void lab(const float *in, float *out, int n)
{
    __shared__ float tile[32][32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    if (t % 2 == 0)
        v = sqrtf(v) * 2.0f;
    else
        v = v / 3.0f + 1.0f;
    for (int k = 0; k < n; k++)
        v = v * 0.5f + k;
    tile[t % 32][t / 32] = v;
    __syncthreads();
    out[i] = tile[t / 32][t % 32];
}

// A guarded element-wise kernel: the last warp of the grid runs with part of its lanes.
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}
