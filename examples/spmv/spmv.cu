// Sparse matrix-vector product y = A * x with A in CSR form (row_ptr[rows + 1], cols[nnz],
// vals[nnz]), three ways:
//   spmv_csr_scalar   one thread per row: simple, but the threads of a warp walk different rows,
//                     so their loads are scattered (uncoalesced) and long rows stall the warp
//   spmv_csr_vector   one warp per row (Bell and Garland 2009): the lanes read consecutive
//                     entries of the row (coalesced), the row's bounds are cached in shared
//                     memory, and the partial sums meet in a shuffle reduction
//   spmv_csr_xcache   one thread per row, but the block first copies x into (dynamic) shared
//                     memory, so the gathers x[cols[j]] hit shared memory: --shared 4 * ncols

extern "C" __global__ void spmv_csr_scalar(int rows, const int *row_ptr, const int *cols,
                                           const float *vals, const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; j++)
        sum += vals[j] * x[cols[j]];
    y[row] = sum;
}

extern "C" __global__ void spmv_csr_vector(int rows, const int *row_ptr, const int *cols,
                                           const float *vals, const float *x, float *y)
{
    __shared__ int ptrs[32][2];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;   /* one warp per row */
    if (row >= rows)
        return;                                                /* whole warps leave together */
    if (lane < 2)
        ptrs[warp][lane] = row_ptr[row + lane];
    __syncwarp();
    int start = ptrs[warp][0], end = ptrs[warp][1];
    float sum = 0.0f;
    for (int j = start + lane; j < end; j += 32)
        sum += vals[j] * x[cols[j]];
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    if (lane == 0)
        y[row] = sum;
}

extern "C" __global__ void spmv_csr_xcache(int rows, int ncols, const int *row_ptr,
                                           const int *cols, const float *vals, const float *x,
                                           float *y)
{
    extern __shared__ float xs[];
    for (int c = threadIdx.x; c < ncols; c += blockDim.x)
        xs[c] = x[c];
    __syncthreads();
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; j++)
        sum += vals[j] * xs[cols[j]];
    y[row] = sum;
}
