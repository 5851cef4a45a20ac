// bs.cu -- B&S: the Black-Scholes price of a European call over CHAINS independent option
// chains, one kernel per chain on its own allocations (GrCUDA's second benchmark: the same
// equation on 10 vectors). exp, log and the normal distribution come from exact operations
// (sched_bench.h), so the prices match an H100's bit for bit.
//
//   bs [N [CHAINS [ITER]]]   N options per chain (default 2^17), CHAINS (default 10),
//                            ITER rounds, each repricing at a shifted spot (default 2)
#include "sched_bench.h"

#define GRID 16
#define BLOCK 128

// The standard normal distribution function from the Abramowitz-Stegun polynomial 26.2.17.
__device__ static float normal_cdf(float x)
{
    float ax = fabsf(x);
    float k = __fdiv_rn(1.0f, fmaf(0.2316419f, ax, 1.0f));
    float p = 1.330274429f;
    p = fmaf(p, k, -1.821255978f);
    p = fmaf(p, k, 1.781477937f);
    p = fmaf(p, k, -0.356563782f);
    p = fmaf(p, k, 0.319381530f);
    float density = __fmul_rn(0.398942280f, sb_exp(__fmul_rn(__fmul_rn(-0.5f, x), x)));
    float tail = __fmul_rn(__fmul_rn(density, p), k);
    return x < 0.0f ? tail : __fsub_rn(1.0f, tail);
}

// Call prices for spot prices s[i] * shift, strike K, rate R, volatility V, maturity 1 year.
__global__ void black_scholes(const float *__restrict__ spot, float *__restrict__ price,
                              float shift, int n)
{
    const float K = 60.0f, R = 0.08f, V = 0.3f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float s = __fmul_rn(spot[i], shift);
        float drift = __fadd_rn(R, __fmul_rn(__fmul_rn(0.5f, V), V));
        float d1 = __fdiv_rn(__fadd_rn(sb_log(__fdiv_rn(s, K)), drift), V);
        float d2 = __fsub_rn(d1, V);
        float discount = __fmul_rn(K, sb_exp(-R));
        price[i] = __fsub_rn(__fmul_rn(s, normal_cdf(d1)), __fmul_rn(discount, normal_cdf(d2)));
    }
}

int main(int argc, char **argv)
{
    int n = (int)sb_arg(argc, argv, 1, 1 << 17);
    int chains = (int)sb_arg(argc, argv, 2, 10);
    int iters = (int)sb_arg(argc, argv, 3, 2);
    std::vector<float *> spot(chains), price(chains);
    for (int c = 0; c < chains; c++) {
        std::vector<float> h(n);
        for (int i = 0; i < n; i++)
            h[i] = sb_unit(100 + c, i, 30.0f, 90.0f);
        spot[c] = sb_alloc<float>(n);
        price[c] = sb_alloc<float>((size_t)n * iters);
        sb_upload(spot[c], h);
    }
    sb_timer t;
    t.start();
    for (int r = 0; r < iters; r++)
        for (int c = 0; c < chains; c++)
            black_scholes<<<GRID, BLOCK>>>(spot[c], price[c] + (size_t)r * n, 1.0f + 0.125f * r, n);
    CK_LAUNCH();
    t.stop("bs");
    uint64_t h = SB_HASH_SEED;
    std::vector<float> first(chains);
    for (int c = 0; c < chains; c++) {
        h = sb_hash_device(h, price[c], (size_t)n * iters * sizeof(float));
        CK(cudaMemcpy(&first[c], price[c], sizeof(float), cudaMemcpyDeviceToHost));
    }
    printf("bs n=%d chains=%d iters=%d kernels=%d hash=%016llx\n", n, chains, iters, chains * iters,
           (unsigned long long)h);
    for (int c = 0; c < chains; c++)
        printf("chain %d: price[0] = %.9g (0x%08x)\n", c, first[c], sb_bits(first[c]));
    return 0;
}
