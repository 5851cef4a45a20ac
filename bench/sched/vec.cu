// vec.cu -- VEC: the squares of two vectors in two independent kernels, then the sum of their
// differences in a two-level reduction that joins the branches (GrCUDA's first benchmark).
//
//   vec [N [ITER]]   N elements (default 2^20), ITER rounds of the pipeline (default 4)
#include "sched_bench.h"

#define GRID 64
#define BLOCK 128

__global__ void square(const float *__restrict__ x, float *__restrict__ y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}

// One partial sum of x2[i] - y2[i] per CTA, in a fixed tree order.
__global__ void diff_partial(const float *__restrict__ x2, const float *__restrict__ y2,
                             float *__restrict__ partial, int n)
{
    __shared__ float s[BLOCK];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x2[i] - y2[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

// The partial sums of one round, in order, into out[round].
__global__ void diff_final(const float *__restrict__ partial, float *__restrict__ out, int round)
{
    if (threadIdx.x == 0) {
        float acc = 0.0f;
        for (int i = 0; i < GRID; i++)
            acc += partial[i];
        out[round] = acc;
    }
}

// Next round's inputs from this one's squares: x = frac(x2), y = frac(y2) scaled, so that
// the rounds depend on each other.
__global__ void next_input(const float *__restrict__ x2, float *__restrict__ x, float scale, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = scale * (x2[i] - truncf(x2[i]));
}

int main(int argc, char **argv)
{
    int n = (int)sb_arg(argc, argv, 1, 1 << 20);
    int iters = (int)sb_arg(argc, argv, 2, 4);
    std::vector<float> hx(n), hy(n);
    for (int i = 0; i < n; i++) {
        hx[i] = sb_unit(1, i, 0.0f, 2.0f);
        hy[i] = sb_unit(2, i, 0.0f, 2.0f);
    }
    float *x = sb_alloc<float>(n), *y = sb_alloc<float>(n);
    float *x2 = sb_alloc<float>(n), *y2 = sb_alloc<float>(n);
    float *partial = sb_alloc<float>(GRID), *out = sb_alloc<float>(iters);
    sb_upload(x, hx);
    sb_upload(y, hy);
    int kernels = 0;
    sb_timer t;
    t.start();
    for (int r = 0; r < iters; r++) {
        square<<<GRID, BLOCK>>>(x, x2, n);
        square<<<GRID, BLOCK>>>(y, y2, n);
        diff_partial<<<GRID, BLOCK>>>(x2, y2, partial, n);
        diff_final<<<1, 32>>>(partial, out, r);
        kernels += 4;
        if (r + 1 < iters) {
            next_input<<<GRID, BLOCK>>>(x2, x, 2.0f, n);
            next_input<<<GRID, BLOCK>>>(y2, y, 2.0f, n);
            kernels += 2;
        }
    }
    CK_LAUNCH();
    t.stop("vec");
    std::vector<float> hout(iters);
    CK(cudaMemcpy(hout.data(), out, iters * sizeof(float), cudaMemcpyDeviceToHost));
    uint64_t h = sb_hash(SB_HASH_SEED, hout.data(), iters * sizeof(float));
    h = sb_hash_device(h, x2, n * sizeof(float));
    h = sb_hash_device(h, y2, n * sizeof(float));
    printf("vec n=%d iters=%d kernels=%d hash=%016llx\n", n, iters, kernels, (unsigned long long)h);
    for (int r = 0; r < iters; r++)
        printf("round %d: sum(x^2 - y^2) = %.9g (0x%08x)\n", r, hout[r], sb_bits(hout[r]));
    return 0;
}
