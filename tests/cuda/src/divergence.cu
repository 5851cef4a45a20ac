// divergence.cu -- control flow under divergence: per-thread loop counts, nested branches,
// early return, switch, recursion (a device stack), and warp votes after reconvergence.
#include "check.h"

__device__ int collatz_steps(long long x)
{
    int s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        s++;
    }
    return s;
}

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void branchy(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int r;
    switch (i % 5) {
    case 0: r = collatz_steps(i + 1); break;
    case 1: r = fib(i % 16); break;
    case 2:
        r = 0;
        for (int k = 0; k < i % 37; k++)
            if (k % 3 == 0)
                r += k;
            else if (k % 3 == 1)
                continue;
            else
                r -= 1;
        break;
    case 3:
        if (i & 8)
            return;
        r = -i;
        break;
    default: r = __popc(__ballot_sync(__activemask(), i & 1)); break;
    }
    out[i] = r;
}

static int h_collatz(long long x)
{
    int s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        s++;
    }
    return s;
}

static int h_fib(int n) { return n < 2 ? n : h_fib(n - 1) + h_fib(n - 2); }

int main()
{
    const int n = 4000;
    int *d, *h = (int *)malloc(n * sizeof(int));
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMemset(d, 0x7f, n * sizeof(int)));
    branchy<<<(n + 127) / 128, 128>>>(d, n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        int e;
        switch (i % 5) {
        case 0: e = h_collatz(i + 1); break;
        case 1: e = h_fib(i % 16); break;
        case 2:
            e = 0;
            for (int k = 0; k < i % 37; k++)
                if (k % 3 == 0)
                    e += k;
                else if (k % 3 == 2)
                    e -= 1;
            break;
        case 3: e = (i & 8) ? 0x7f7f7f7f : -i; break;
        default: continue;   // depends on which lanes the hardware keeps together
        }
        checked++;
        bad += h[i] != e;
    }
    printf("checked %d, mismatches %d, collatz(26) steps %d\n", checked, bad, h[25]);
    EXPECT(bad == 0);
    free(h);
    return finish();
}
