// oob_local.cu -- a per-thread (local-memory) array indexed far past its end.
extern "C" __global__ void oob_local(int *out, int k)
{
    volatile int a[16];
    for (int j = 0; j < 16; j++)
        a[j] = j * threadIdx.x;
    out[threadIdx.x] = a[k];    // k = 100000: past the thread's local memory
}
