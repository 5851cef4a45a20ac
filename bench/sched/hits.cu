// hits.cu -- HITS: hubs and authorities on a sparse random graph (GrCUDA's fifth benchmark).
// Each iteration: two independent sparse matrix-vector products (authorities from the hubs
// through the transposed graph, hubs from the authorities through the graph), two independent
// sums, two independent normalisations. Rows are summed in a fixed order, so the floats
// are the same however the two halves interleave.
//
//   hits [VERTICES [ITER]]   VERTICES (default 131072) of out-degree 1..15, ITER iterations (default 10)
#include "sched_bench.h"

#define BLOCK 128
#define GRID 32

// y[r] = sum of x[col[k]] for k in row r of a CSR matrix with unit weights.
__global__ void spmv(const int *__restrict__ ptr, const int *__restrict__ col,
                     const float *__restrict__ x, float *__restrict__ y, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        float acc = 0.0f;
        for (int k = ptr[r]; k < ptr[r + 1]; k++)
            acc += x[col[k]];
        y[r] = acc;
    }
}

// out[0] = the sum of x, one CTA, in a fixed tree order.
__global__ void sum(const float *__restrict__ x, float *__restrict__ out, int n)
{
    __shared__ float s[BLOCK];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += x[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = s[0];
}

// y = x / total[0].
__global__ void divide(const float *__restrict__ x, const float *__restrict__ total,
                       float *__restrict__ y, int n)
{
    float t = total[0];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[i] / t;
}

// A CSR matrix from edge lists: rows[i] -> cols[i].
static void to_csr(int v, const std::vector<int> &rows, const std::vector<int> &cols,
                   std::vector<int> &ptr, std::vector<int> &col)
{
    ptr.assign(v + 1, 0);
    for (int r : rows)
        ptr[r + 1]++;
    for (int i = 0; i < v; i++)
        ptr[i + 1] += ptr[i];
    std::vector<int> fill(ptr.begin(), ptr.end() - 1);
    col.resize(rows.size());
    for (size_t e = 0; e < rows.size(); e++)
        col[fill[rows[e]]++] = cols[e];
}

int main(int argc, char **argv)
{
    int v = (int)sb_arg(argc, argv, 1, 131072);
    int iters = (int)sb_arg(argc, argv, 2, 10);
    std::vector<int> src, dst;
    for (int i = 0; i < v; i++) {
        int degree = 1 + (int)(sb_mix(21 + i) % 15);
        for (int d = 0; d < degree; d++) {
            src.push_back(i);
            dst.push_back((int)(sb_mix(22 + i * 16 + d) % (uint32_t)v));
        }
    }
    int e = (int)src.size();
    std::vector<int> hptr, hcol, tptr, tcol;
    to_csr(v, src, dst, hptr, hcol);
    to_csr(v, dst, src, tptr, tcol);
    int *aptr = sb_alloc<int>(v + 1), *acol = sb_alloc<int>(e);
    int *atptr = sb_alloc<int>(v + 1), *atcol = sb_alloc<int>(e);
    float *hub = sb_alloc<float>(v), *auth = sb_alloc<float>(v);
    float *hub_raw = sb_alloc<float>(v), *auth_raw = sb_alloc<float>(v);
    float *hub_sum = sb_alloc<float>(1), *auth_sum = sb_alloc<float>(1);
    sb_upload(aptr, hptr);
    sb_upload(acol, hcol);
    sb_upload(atptr, tptr);
    sb_upload(atcol, tcol);
    std::vector<float> ones(v, 1.0f);
    sb_upload(hub, ones);
    sb_upload(auth, ones);
    sb_timer t;
    t.start();
    for (int it = 0; it < iters; it++) {
        spmv<<<GRID, BLOCK>>>(atptr, atcol, hub, auth_raw, v);
        spmv<<<GRID, BLOCK>>>(aptr, acol, auth, hub_raw, v);
        sum<<<1, BLOCK>>>(auth_raw, auth_sum, v);
        sum<<<1, BLOCK>>>(hub_raw, hub_sum, v);
        divide<<<GRID, BLOCK>>>(auth_raw, auth_sum, auth, v);
        divide<<<GRID, BLOCK>>>(hub_raw, hub_sum, hub, v);
    }
    CK_LAUNCH();
    t.stop("hits");
    std::vector<float> hh(v), ha(v);
    CK(cudaMemcpy(hh.data(), hub, v * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ha.data(), auth, v * sizeof(float), cudaMemcpyDeviceToHost));
    uint64_t h = sb_hash(SB_HASH_SEED, hh.data(), v * sizeof(float));
    h = sb_hash(h, ha.data(), v * sizeof(float));
    int best_hub = 0, best_auth = 0;
    for (int i = 1; i < v; i++) {
        if (hh[i] > hh[best_hub])
            best_hub = i;
        if (ha[i] > ha[best_auth])
            best_auth = i;
    }
    printf("hits vertices=%d edges=%d iters=%d kernels=%d hash=%016llx\n", v, e, iters, 6 * iters,
           (unsigned long long)h);
    printf("top hub %d (%.9g), top authority %d (%.9g)\n", best_hub, hh[best_hub], best_auth,
           ha[best_auth]);
    return 0;
}
