// shared.cu -- debugger fixture: a block's sum through shared memory and barriers (x shared,
// watch shared, until barrier, info barriers)
__global__ void reduce(const int *in, int *out)
{
    __shared__ int buf[64];
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (int s = 32; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}
