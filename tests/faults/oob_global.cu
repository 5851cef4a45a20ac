// oob_global.cu -- global memory out of bounds: a read one element past the end of a
// buffer, and a write 64 bytes before its start.
extern "C" __global__ void oob_read(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + n];     // n = 1: the last thread reads one element past the end
}

extern "C" __global__ void oob_write(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 37)
        out[i - 53] = n;    // 16 elements before the start
}
