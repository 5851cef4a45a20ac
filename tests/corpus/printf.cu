// Corpus, device printf (vprintf): formats of every argument type, and a warp whose lanes print
// one after another (serialised with __syncwarp, so the order of lines is deterministic).
// The kernels' stdout is compared separately from their output buffers.

#include <cstdio>

// One thread prints; every thread writes out[i] = in[i] + i. Launch --grid 1 --block 32 or more.
extern "C" __global__ void printf_formats(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        printf("hello from loom corpus\n");
        printf("int %d unsigned %u hex %x HEX %X octal %o\n", in[0], (unsigned)in[1],
               (unsigned)in[2], 0xBEEFu, 8u);
        printf("padded [%5d] [%-5d] [%05d] [%+d]\n", 42, 42, 42, 42);
        printf("64-bit %lld %llu %llx\n", -1234567890123ll, 18446744073709551615ull,
               0x0123456789ABCDEFull);
        printf("float %f %.3f %e %g %g\n", 1.5, 3.14159265, 12345.678, 0.0001, 1e20);
        printf("double %.10f float-as-double %.2f\n", 1.0 / 3.0, (double)2.5f);
        printf("char %c%c%c string [%s] [%8s] [%-8s]\n", 'l', 'o', 'm', "loom", "gpu", "cpu");
        printf("percent %% done, %d%%\n", 100);
        printf("special %f %f %f\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 * 0.0);
    }
    if (i < n)
        out[i] = in[i] + i;
}

// Lanes of warp 0 print in lane order, then block-level lines from thread 0.
// Launch --grid 1 --block 64. out: n s32 (lane sums).
extern "C" __global__ void printf_lanes(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i & 31;
    int v = i < n ? in[i] : 0;
    if (i < 32) {
        for (int l = 0; l < 32; l += 4) {
            if (lane == l)
                printf("lane %2d value %d\n", lane, v);
            __syncwarp();
        }
    }
    __syncthreads();
    int s = v;
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xFFFFFFFFu, s, off);
    if (i == 0)
        printf("warp sum %d, block %d x %d\n", s, (int)blockDim.x, (int)gridDim.x);
    if (i < n)
        out[i] = s;
}
