// dl.cu -- DL: a small convolutional network with two independent branches, shaped like
// GrCUDA's sixth benchmark, in fixed-point integers: each branch takes its own image through
// convolution, ReLU, 2x2 max pooling, a second convolution and pooling; the two feature maps
// are concatenated and a dense layer scores them (one CTA, fixed reduction order).
//
//   dl [SIDE [ITER]]   SIDE x SIDE input images (default 128), ITER image pairs (default 4)
#include "sched_bench.h"

#define BLOCK 128
#define GRID 32
#define C1 8
#define C2 8

// out[co][y][x] = max(0, sum over ci, 3x3 of in[ci][y+dy][x+dx] w[co][ci][dy][dx]) >> shift,
// zero padding.
__global__ void conv3x3(const int *__restrict__ in, const int *__restrict__ w, int *__restrict__ out,
                        int cin, int cout, int side, int shift)
{
    int n = cout * side * side;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int co = i / (side * side), y = i / side % side, x = i % side;
        int acc = 0;
        for (int ci = 0; ci < cin; ci++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy >= 0 && yy < side && xx >= 0 && xx < side)
                        acc += in[(ci * side + yy) * side + xx] * w[((co * cin + ci) * 3 + dy + 1) * 3 + dx + 1];
                }
        out[i] = max(acc, 0) >> shift;
    }
}

// 2x2 max pooling of c maps of side x side.
__global__ void pool2(const int *__restrict__ in, int *__restrict__ out, int c, int side)
{
    int half = side / 2, n = c * half * half;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int ch = i / (half * half), y = i / half % half, x = i % half;
        const int *p = in + (ch * side + 2 * y) * side + 2 * x;
        out[i] = max(max(p[0], p[1]), max(p[side], p[side + 1]));
    }
}

// out = a followed by b (n elements each).
__global__ void concat(const int *__restrict__ a, const int *__restrict__ b, int *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 2 * n; i += gridDim.x * blockDim.x)
        out[i] = i < n ? a[i] : b[i - n];
}

// out[k] = sum of x[i] w[i] (one CTA, fixed tree order, 64-bit).
__global__ void dense(const int *__restrict__ x, const int *__restrict__ w, long long *__restrict__ out,
                      int n, int k)
{
    __shared__ long long s[BLOCK];
    long long acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += (long long)x[i] * w[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int step = BLOCK / 2; step > 0; step /= 2) {
        if (threadIdx.x < step)
            s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[k] = s[0];
}

static std::vector<int> weights(uint32_t seed, size_t n, int range)
{
    std::vector<int> w(n);
    for (size_t i = 0; i < n; i++)
        w[i] = (int)(sb_mix(seed * 7919u + (uint32_t)i) % (uint32_t)(2 * range + 1)) - range;
    return w;
}

int main(int argc, char **argv)
{
    int side = (int)sb_arg(argc, argv, 1, 128);
    int iters = (int)sb_arg(argc, argv, 2, 4);
    if (side % 4) {
        fprintf(stderr, "dl: SIDE must be a multiple of 4\n");
        return 2;
    }
    int s2 = side / 2, s4 = side / 4, feat = C2 * s4 * s4;
    int *img[2], *w1[2], *w2[2], *a1[2], *p1[2], *a2[2], *p2[2];
    for (int b = 0; b < 2; b++) {
        img[b] = sb_alloc<int>(side * side);
        w1[b] = sb_alloc<int>(C1 * 9);
        w2[b] = sb_alloc<int>(C2 * C1 * 9);
        a1[b] = sb_alloc<int>(C1 * side * side);
        p1[b] = sb_alloc<int>(C1 * s2 * s2);
        a2[b] = sb_alloc<int>(C2 * s2 * s2);
        p2[b] = sb_alloc<int>(feat);
        sb_upload(w1[b], weights(31 + b, C1 * 9, 8));
        sb_upload(w2[b], weights(33 + b, C2 * C1 * 9, 8));
    }
    int *cat = sb_alloc<int>(2 * feat), *wd = sb_alloc<int>(2 * feat);
    long long *score = sb_alloc<long long>(iters);
    sb_upload(wd, weights(35, 2 * feat, 16));
    sb_timer t;
    t.start();
    for (int it = 0; it < iters; it++) {
        for (int b = 0; b < 2; b++) {
            std::vector<int> h(side * side);
            for (int i = 0; i < side * side; i++)
                h[i] = (int)(sb_mix(40 + 2 * it + b) ^ sb_mix(i)) & 255;
            sb_upload(img[b], h);
        }
        for (int b = 0; b < 2; b++) {
            conv3x3<<<GRID, BLOCK>>>(img[b], w1[b], a1[b], 1, C1, side, 3);
            pool2<<<GRID, BLOCK>>>(a1[b], p1[b], C1, side);
            conv3x3<<<GRID, BLOCK>>>(p1[b], w2[b], a2[b], C1, C2, s2, 6);
            pool2<<<GRID, BLOCK>>>(a2[b], p2[b], C2, s2);
        }
        concat<<<GRID, BLOCK>>>(p2[0], p2[1], cat, feat);
        dense<<<1, BLOCK>>>(cat, wd, score, 2 * feat, it);
    }
    CK_LAUNCH();
    t.stop("dl");
    std::vector<long long> hs(iters);
    CK(cudaMemcpy(hs.data(), score, iters * sizeof(long long), cudaMemcpyDeviceToHost));
    uint64_t h = sb_hash(SB_HASH_SEED, hs.data(), iters * sizeof(long long));
    h = sb_hash_device(h, cat, 2 * feat * sizeof(int));
    printf("dl side=%d iters=%d kernels=%d hash=%016llx\n", side, iters, 10 * iters, (unsigned long long)h);
    for (int it = 0; it < iters; it++)
        printf("pair %d: score %lld\n", it, hs[it]);
    return 0;
}
