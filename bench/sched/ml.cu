// ml.cu -- ML: an ensemble of two classifiers over the same rows, shaped like GrCUDA's fourth
// benchmark, in fixed-point integers: a naive-Bayes-like scorer (per-class sums of log-probability
// table entries, then each row shifted by its maximum) and a ridge-regression-like scorer
// (features centred by their column means, a linear map, each row shifted by its mean); the
// two branches are independent until the last kernel takes the argmax of their sum.
//
//   ml [ROWS [ITER]]   ROWS rows of 64 features and 8 classes (default 16384), ITER batches (default 2)
#include "sched_bench.h"

#define FEATURES 64
#define CLASSES 8
#define VALUES 16
#define BLOCK 128
#define GRID 32

// nb[r][c] = sum over features f of table[c][f][x[r][f]].
__global__ void nb_score(const int *__restrict__ x, const int *__restrict__ table,
                         int *__restrict__ nb, int rows)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * CLASSES; i += gridDim.x * blockDim.x) {
        int r = i / CLASSES, c = i % CLASSES;
        int acc = 0;
        for (int f = 0; f < FEATURES; f++)
            acc += table[(c * FEATURES + f) * VALUES + x[r * FEATURES + f]];
        nb[i] = acc;
    }
}

// Each row minus its maximum (the log of a softmax's numerator, in fixed point).
__global__ void row_shift_max(int *__restrict__ s, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int m = s[r * CLASSES];
        for (int c = 1; c < CLASSES; c++)
            m = max(m, s[r * CLASSES + c]);
        for (int c = 0; c < CLASSES; c++)
            s[r * CLASSES + c] -= m;
    }
}

// The mean of each feature column, times 256 (one thread per column).
__global__ void column_means(const int *__restrict__ x, int *__restrict__ mean, int rows)
{
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f < FEATURES) {
        long long acc = 0;
        for (int r = 0; r < rows; r++)
            acc += x[r * FEATURES + f];
        mean[f] = (int)(acc * 256 / rows);
    }
}

// z = 256 x - mean, column by column.
__global__ void centre(const int *__restrict__ x, const int *__restrict__ mean,
                       int *__restrict__ z, int rows)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * FEATURES; i += gridDim.x * blockDim.x)
        z[i] = 256 * x[i] - mean[i % FEATURES];
}

// rr[r][c] = (sum over f of z[r][f] w[f][c]) / 256 + bias[c].
__global__ void rr_score(const int *__restrict__ z, const int *__restrict__ w,
                         const int *__restrict__ bias, int *__restrict__ rr, int rows)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * CLASSES; i += gridDim.x * blockDim.x) {
        int r = i / CLASSES, c = i % CLASSES;
        long long acc = 0;
        for (int f = 0; f < FEATURES; f++)
            acc += (long long)z[r * FEATURES + f] * w[f * CLASSES + c];
        rr[i] = (int)(acc / 256) + bias[c];
    }
}

// Each row minus its mean (rounded toward zero).
__global__ void row_shift_mean(int *__restrict__ s, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int acc = 0;
        for (int c = 0; c < CLASSES; c++)
            acc += s[r * CLASSES + c];
        int m = acc / CLASSES;
        for (int c = 0; c < CLASSES; c++)
            s[r * CLASSES + c] -= m;
    }
}

// label[r] = argmax over c of nb[r][c] / 4 + rr[r][c] (the first on ties).
__global__ void ensemble(const int *__restrict__ nb, const int *__restrict__ rr,
                         int *__restrict__ label, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int best = 0, best_v = nb[r * CLASSES] / 4 + rr[r * CLASSES];
        for (int c = 1; c < CLASSES; c++) {
            int v = nb[r * CLASSES + c] / 4 + rr[r * CLASSES + c];
            if (v > best_v) {
                best_v = v;
                best = c;
            }
        }
        label[r] = best;
    }
}

int main(int argc, char **argv)
{
    int rows = (int)sb_arg(argc, argv, 1, 16384);
    int iters = (int)sb_arg(argc, argv, 2, 2);
    std::vector<int> htable(CLASSES * FEATURES * VALUES), hw(FEATURES * CLASSES), hbias(CLASSES);
    for (size_t i = 0; i < htable.size(); i++)
        htable[i] = -(int)(sb_mix(11 + (uint32_t)i) % 4096);
    for (size_t i = 0; i < hw.size(); i++)
        hw[i] = (int)(sb_mix(12 + (uint32_t)i) % 257) - 128;
    for (int c = 0; c < CLASSES; c++)
        hbias[c] = (int)(sb_mix(13 + c) % 1024) - 512;
    int *x = sb_alloc<int>((size_t)rows * FEATURES), *table = sb_alloc<int>(htable.size());
    int *w = sb_alloc<int>(hw.size()), *bias = sb_alloc<int>(CLASSES);
    int *nb = sb_alloc<int>((size_t)rows * CLASSES), *mean = sb_alloc<int>(FEATURES);
    int *z = sb_alloc<int>((size_t)rows * FEATURES), *rr = sb_alloc<int>((size_t)rows * CLASSES);
    int *label = sb_alloc<int>(rows);
    sb_upload(table, htable);
    sb_upload(w, hw);
    sb_upload(bias, hbias);
    uint64_t h = SB_HASH_SEED;
    std::vector<int> hlabel(rows);
    int kernels = 0;
    sb_timer t;
    t.start();
    for (int it = 0; it < iters; it++) {
        std::vector<int> hx((size_t)rows * FEATURES);
        for (size_t i = 0; i < hx.size(); i++)
            hx[i] = (int)((sb_mix(1000 * it + 14) ^ sb_mix((uint32_t)i)) % VALUES);
        sb_upload(x, hx);
        nb_score<<<GRID, BLOCK>>>(x, table, nb, rows);
        row_shift_max<<<GRID, BLOCK>>>(nb, rows);
        column_means<<<1, FEATURES>>>(x, mean, rows);
        centre<<<GRID, BLOCK>>>(x, mean, z, rows);
        rr_score<<<GRID, BLOCK>>>(z, w, bias, rr, rows);
        row_shift_mean<<<GRID, BLOCK>>>(rr, rows);
        ensemble<<<GRID, BLOCK>>>(nb, rr, label, rows);
        kernels += 7;
        CK_LAUNCH();
        h = sb_hash_device(h, label, rows * sizeof(int));
        h = sb_hash_device(h, nb, (size_t)rows * CLASSES * sizeof(int));
        h = sb_hash_device(h, rr, (size_t)rows * CLASSES * sizeof(int));
    }
    t.stop("ml");
    CK(cudaMemcpy(hlabel.data(), label, rows * sizeof(int), cudaMemcpyDeviceToHost));
    int count[CLASSES] = {0};
    for (int r = 0; r < rows; r++)
        count[hlabel[r]]++;
    printf("ml rows=%d iters=%d kernels=%d hash=%016llx\n", rows, iters, kernels, (unsigned long long)h);
    printf("last batch, rows per class:");
    for (int c = 0; c < CLASSES; c++)
        printf(" %d", count[c]);
    printf("\n");
    return 0;
}
