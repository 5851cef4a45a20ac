// img.cu -- IMG: an image pipeline shaped like GrCUDA's third benchmark, in integers: blurs at
// three radii of one image, Sobel edges of two blurs, the minimum and maximum of the large
// blur's edges stretched into a mask, an unsharp mask, and two combining steps.
// Eleven kernels whose graph has up to three independent branches at a time.
//
//   img [SIDE [ITER]]   a SIDE x SIDE image (default 512), ITER images in turn (default 1)
#include "sched_bench.h"

#define BLOCK 128
#define GRID 32

// Binomial blur of radius r (weights C(2r, r + k), one dimension each way, clamped edges).
__global__ void blur(const int *__restrict__ in, int *__restrict__ out, int side, int r)
{
    int n = side * side;
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
        int y = p / side, x = p % side;
        long long acc = 0;
        int cy = 1;
        for (int dy = -r; dy <= r; dy++) {
            int yy = min(max(y + dy, 0), side - 1);
            int cx = 1;
            long long row = 0;
            for (int dx = -r; dx <= r; dx++) {
                int xx = min(max(x + dx, 0), side - 1);
                row += (long long)cx * in[yy * side + xx];
                cx = cx * (r - dx) / (r + dx + 1);
            }
            acc += cy * row;
            cy = cy * (r - dy) / (r + dy + 1);
        }
        out[p] = (int)(acc >> (4 * r));
    }
}

// |gx| + |gy| of the 3x3 Sobel operator, clamped edges.
__global__ void sobel(const int *__restrict__ in, int *__restrict__ out, int side)
{
    int n = side * side;
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
        int y = p / side, x = p % side;
        int v[3][3];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                v[dy + 1][dx + 1] = in[min(max(y + dy, 0), side - 1) * side + min(max(x + dx, 0), side - 1)];
        int gx = v[0][2] + 2 * v[1][2] + v[2][2] - v[0][0] - 2 * v[1][0] - v[2][0];
        int gy = v[2][0] + 2 * v[2][1] + v[2][2] - v[0][0] - 2 * v[0][1] - v[0][2];
        out[p] = abs(gx) + abs(gy);
    }
}

// out[0] = the minimum (want_max 0) or the maximum (1) of in, one CTA.
__global__ void extremum(const int *__restrict__ in, int *__restrict__ out, int n, int want_max)
{
    __shared__ int s[BLOCK];
    int acc = want_max ? -2147483647 : 2147483647;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc = want_max ? max(acc, in[i]) : min(acc, in[i]);
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] = want_max ? max(s[threadIdx.x], s[threadIdx.x + w])
                                      : min(s[threadIdx.x], s[threadIdx.x + w]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = s[0];
}

// The edges stretched to 0..256 between their minimum and maximum.
__global__ void stretch(const int *__restrict__ in, const int *__restrict__ lo,
                        const int *__restrict__ hi, int *__restrict__ out, int n)
{
    int l = lo[0], range = max(hi[0] - lo[0], 1);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = (in[i] - l) * 256 / range;
}

// Unsharp mask: 2 * image - blur, clamped to 0..255.
__global__ void unsharpen(const int *__restrict__ img, const int *__restrict__ blurred,
                          int *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = min(max(2 * img[i] - blurred[i], 0), 255);
}

// out = (a * mask + b * (256 - mask)) / 256 with the mask clamped to 0..256.
__global__ void combine(const int *__restrict__ a, const int *__restrict__ b,
                        const int *__restrict__ mask, int *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int m = min(max(mask[i], 0), 256);
        out[i] = (a[i] * m + b[i] * (256 - m)) >> 8;
    }
}

int main(int argc, char **argv)
{
    int side = (int)sb_arg(argc, argv, 1, 512);
    int iters = (int)sb_arg(argc, argv, 2, 1);
    int n = side * side;
    int *img = sb_alloc<int>(n), *small = sb_alloc<int>(n), *large = sb_alloc<int>(n);
    int *unsharp_blur = sb_alloc<int>(n), *edge_small = sb_alloc<int>(n), *edge_large = sb_alloc<int>(n);
    int *lo = sb_alloc<int>(1), *hi = sb_alloc<int>(1), *mask = sb_alloc<int>(n);
    int *sharp = sb_alloc<int>(n), *mid = sb_alloc<int>(n), *out = sb_alloc<int>(n);
    uint64_t h = SB_HASH_SEED;
    int kernels = 0;
    sb_timer t;
    t.start();
    for (int it = 0; it < iters; it++) {
        std::vector<int> himg(n);
        for (int i = 0; i < n; i++) {
            int y = i / side, x = i % side;
            himg[i] = ((x / 16 + y / 16) % 2 ? 160 : 60) + (int)((sb_mix(7 + it) ^ sb_mix(i)) % 32);
        }
        sb_upload(img, himg);
        blur<<<GRID, BLOCK>>>(img, small, side, 1);
        blur<<<GRID, BLOCK>>>(img, large, side, 4);
        blur<<<GRID, BLOCK>>>(img, unsharp_blur, side, 2);
        sobel<<<GRID, BLOCK>>>(small, edge_small, side);
        sobel<<<GRID, BLOCK>>>(large, edge_large, side);
        extremum<<<1, BLOCK>>>(edge_large, lo, n, 0);
        extremum<<<1, BLOCK>>>(edge_large, hi, n, 1);
        stretch<<<GRID, BLOCK>>>(edge_large, lo, hi, mask, n);
        unsharpen<<<GRID, BLOCK>>>(img, unsharp_blur, sharp, n);
        combine<<<GRID, BLOCK>>>(sharp, large, mask, mid, n);
        combine<<<GRID, BLOCK>>>(mid, small, edge_small, out, n);
        kernels += 11;
        CK_LAUNCH();
        h = sb_hash_device(h, out, n * sizeof(int));
    }
    t.stop("img");
    std::vector<int> hout(n);
    CK(cudaMemcpy(hout.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += hout[i];
    printf("img side=%d iters=%d kernels=%d hash=%016llx\n", side, iters, kernels, (unsigned long long)h);
    printf("last image: sum=%lld out[0]=%d out[mid]=%d\n", sum, hout[0], hout[n / 2 + side / 2]);
    return 0;
}
