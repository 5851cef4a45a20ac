// Matrix multiply C = A * B (row-major; A is M x K, B is K x N), two ways:
//   matmul_naive   one thread per element of C, every operand read from global memory
//   matmul_tiled   each 16x16 block stages 16x16 tiles of A and B in shared memory, so each
//                  element loaded from global memory is used 16 times; two __syncthreads per
//                  tile (after loading, and before the tile is overwritten)
// Launch with a 2D grid of 16x16 blocks covering N columns and M rows.

#define TILE 16

extern "C" __global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
