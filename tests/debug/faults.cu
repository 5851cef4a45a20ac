// faults.cu -- debugger fixture: a kernel for each fault the debugger stops at
#include <cassert>

// idx[t] = 3t is fine for t < 22; data[idx[t]] is out of bounds beyond (data holds 64)
__global__ void oob(int *idx, int *data)
{
    int t = threadIdx.x;
    idx[t] = t * 3;
    data[idx[t]] = t;
}

__global__ void misaligned(char *p)
{
    int t = threadIdx.x;
    *(int *)(p + 4 * t + (t == 9)) = t;
}

__global__ void trap(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    if (t == 5)
        asm volatile("trap;");
}

__global__ void check(const int *a)
{
    int t = threadIdx.x;
    assert(a[t] < 40);
}

// warp 0 waits at named barrier 1 for 64 threads, warp 1 at barrier 0: neither completes
__global__ void deadlock(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    if (t < 32)
        asm volatile("bar.sync 1, 64;");
    else
        __syncthreads();
    out[t] += 1;
}

__global__ void race(int *out)
{
    __shared__ int s[2];
    int t = threadIdx.x;
    if (t == 0 || t == 40)
        s[0] = t;
    out[t] = s[0];
}
