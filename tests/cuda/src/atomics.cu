// atomics.cu -- atomicAdd (int, unsigned long long, float, double), atomicSub, atomicMin,
// atomicMax, atomicAnd/Or/Xor, atomicExch, atomicCAS loops, atomicInc/Dec, on global and shared.
#include "check.h"

struct counters {
    int add, sub, mn, mx, land, lor, lxor, exch_sum, cas_sum;
    unsigned inc, dec;
    unsigned long long big;
    float fsum;
    double dsum;
};

__global__ void hammer(counters *c, int *exch_slot)
{
    __shared__ int block_hits;
    if (threadIdx.x == 0)
        block_hits = 0;
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c->add, 3);
    atomicSub(&c->sub, 2);
    atomicMin(&c->mn, 1000 - t);
    atomicMax(&c->mx, t * 7 % 1013);
    atomicAnd(&c->land, ~(1 << (t % 31)));
    atomicOr(&c->lor, 1 << (t % 17));
    atomicXor(&c->lxor, t);
    atomicAdd(&c->exch_sum, atomicExch(exch_slot, t));
    // A volatile read: a plain one would race with the other threads' atomicCAS (a data race in
    // the PTX memory model, which Loom's ThreadSanitizer build reports).
    int old = *(volatile int *)&c->cas_sum, assumed;
    do {
        assumed = old;
        old = atomicCAS(&c->cas_sum, assumed, assumed + t);
    } while (old != assumed);
    atomicInc(&c->inc, 99);
    atomicDec(&c->dec, 1000000);
    atomicAdd(&c->big, 1ull << 33);
    atomicAdd(&c->fsum, 0.5f);
    atomicAdd(&c->dsum, 0.25);
    atomicAdd(&block_hits, 1);
    __syncthreads();
    if (threadIdx.x == 0 && block_hits != (int)blockDim.x)
        atomicAdd(&c->add, 1000000);
}

int main()
{
    const int blocks = 40, threads = 256, n = blocks * threads;
    counters h = {};
    h.mn = 1 << 30;
    h.mx = -1;
    h.land = -1;
    h.dec = 500;
    counters *d;
    int *slot, init = -1;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&slot, sizeof(int)));
    CK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(slot, &init, sizeof init, cudaMemcpyHostToDevice));
    hammer<<<blocks, threads>>>(d, slot);
    CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    int last = 0;
    CK(cudaMemcpy(&last, slot, sizeof last, cudaMemcpyDeviceToHost));
    long long tsum = (long long)n * (n - 1) / 2;
    int x = 0, mx = -1, lor = 0;
    for (int t = 0; t < n; t++) {
        x ^= t;
        mx = t * 7 % 1013 > mx ? t * 7 % 1013 : mx;
        lor |= 1 << (t % 17);
    }
    printf("add %d sub %d min %d max %d and %d or %d xor %d\n", h.add, h.sub, h.mn, h.mx, h.land, h.lor, h.lxor);
    printf("exchange sum + last %lld, cas %d, inc %u, dec %u, big %llu, float %.1f, double %.2f\n",
           (long long)h.exch_sum + last, h.cas_sum, h.inc, h.dec, h.big, h.fsum, h.dsum);
    EXPECT(h.add == 3 * n && h.sub == -2 * n && h.mn == 1000 - (n - 1) && h.mx == mx);
    EXPECT(h.land == (int)0x80000000 && h.lor == lor && h.lxor == x);
    EXPECT((long long)h.exch_sum + last == tsum - 1 && h.cas_sum == (int)tsum);
    EXPECT(h.inc == (unsigned)(n % 100) && h.dec == 0 + (unsigned)((500 - n % 1000001 + 1000001) % 1000001));
    EXPECT(h.big == (unsigned long long)n << 33 && h.fsum == 0.5f * n && h.dsum == 0.25 * n);
    return finish();
}
