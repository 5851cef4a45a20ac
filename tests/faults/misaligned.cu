// misaligned.cu -- a 4-byte load from an address that is not a multiple of 4.
extern "C" __global__ void misaligned(const char *in, int *out, int off)
{
    const int *p = (const int *)(in + off);   // off = 2
    out[threadIdx.x] = p[threadIdx.x];
}
