// oob_shared.cu -- a shared-memory array indexed past its end.
extern "C" __global__ void oob_shared(int *out, int k)
{
    __shared__ int tile[64];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + k];   // k = 64: thread 0 reads tile[64]
}
