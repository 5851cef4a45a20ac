// banks: shared-memory bank conflicts. Every kernel stores one word per thread into shared
// memory, waits at a barrier, loads its neighbour's word (lane ^ 1, the same banks as its own)
// and writes it out, so a warp makes one shared store and one shared load request. What
// changes from kernel to kernel is the address pattern of those two requests: the stride
// between lanes (1, 2 and 32 words of 4 bytes), a 32x32 tile read by columns with and without
// a padding column, and 8-byte (double) and 16-byte (float4) words.

#define THREADS 128

// Words of 4 bytes at `stride` words apart: lane l of a warp uses word l * stride, so
// bank (l * stride) % 32.
#define STRIDED(NAME, STRIDE)                                                   \
    extern "C" __global__ void NAME(unsigned *out)                              \
    {                                                                           \
        __shared__ unsigned s[THREADS * STRIDE];                                \
        unsigned t = threadIdx.x;                                               \
        s[t * STRIDE] = t * 7u + blockIdx.x;                                    \
        __syncthreads();                                                        \
        out[blockIdx.x * THREADS + t] = s[(t ^ 1u) * STRIDE];                   \
    }

STRIDED(bank_s1, 1)
STRIDED(bank_s2, 2)
STRIDED(bank_s32, 32)

// Transpose of a 32x32 tile per block (block 32x32): rows are stored (lane = column, no
// conflict) and columns are loaded (lane = row). With 32 columns a column is one bank;
// with 33 each row starts one bank further on.
#define TRANSPOSE(NAME, COLS)                                                   \
    extern "C" __global__ void NAME(const float *in, float *out)                \
    {                                                                           \
        __shared__ float tile[32][COLS];                                        \
        unsigned x = threadIdx.x, y = threadIdx.y, n = gridDim.x * 32;          \
        unsigned bx = blockIdx.x * 32, by = blockIdx.y * 32;                    \
        tile[y][x] = in[(by + y) * n + bx + x];                                 \
        __syncthreads();                                                        \
        out[(bx + y) * n + by + x] = tile[x][y];                                \
    }

TRANSPOSE(transpose_32, 32)
TRANSPOSE(transpose_33, 33)

// 8-byte words: lane l uses double l * STRIDE (bytes 8 l STRIDE to 8 l STRIDE + 7).
#define STRIDED64(NAME, STRIDE)                                                 \
    extern "C" __global__ void NAME(double *out)                                \
    {                                                                           \
        __shared__ double s[THREADS * STRIDE];                                  \
        unsigned t = threadIdx.x;                                               \
        s[t * STRIDE] = (double)(t * 7u + blockIdx.x);                          \
        __syncthreads();                                                        \
        out[blockIdx.x * THREADS + t] = s[(t ^ 1u) * STRIDE];                   \
    }

STRIDED64(bank_f64_s1, 1)
STRIDED64(bank_f64_s2, 2)

// 16-byte words: lane l uses float4 l * STRIDE.
#define STRIDED128(NAME, STRIDE)                                                \
    extern "C" __global__ void NAME(float4 *out)                                \
    {                                                                           \
        __shared__ float4 s[THREADS * STRIDE];                                  \
        unsigned t = threadIdx.x;                                               \
        float v = (float)(t * 7u + blockIdx.x);                                 \
        s[t * STRIDE] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);           \
        __syncthreads();                                                        \
        out[blockIdx.x * THREADS + t] = s[(t ^ 1u) * STRIDE];                   \
    }

STRIDED128(bank_f4_s1, 1)
STRIDED128(bank_f4_s2, 2)

// Which lanes are served together: the first half-warp's doubles all sit in banks 0-1
// (double 16 l, 128 bytes apart) and the second half-warp's in banks 2-3 (double
// 256 + 16 (l - 16) + 1). Counted over the whole warp no bank holds more than 16 different
// words; counted per half-warp each half needs 16 passes.
extern "C" __global__ void bank_f64_halves(double *out)
{
    __shared__ double s[THREADS / 32 * 512];
    unsigned t = threadIdx.x, l = t % 32, base = t / 32 * 512;
    unsigned i = base + (l < 16 ? 16 * l : 256 + 16 * (l - 16) + 1);
    s[i] = (double)(t * 7u + blockIdx.x);
    __syncthreads();
    unsigned m = l ^ 1u, j = base + (m < 16 ? 16 * m : 256 + 16 * (m - 16) + 1);
    out[blockIdx.x * THREADS + t] = s[j];
}

// The same question for 16-byte words and quarter-warps: quarter q (lanes 8q to 8q+7) uses
// float4s 8 (l % 8) + q + 64 q, so all of quarter q sits in banks 4q to 4q+3, 8 deep.
extern "C" __global__ void bank_f4_quarters(float4 *out)
{
    __shared__ float4 s[THREADS / 32 * 256];
    unsigned t = threadIdx.x, l = t % 32, base = t / 32 * 256;
    unsigned i = base + 8 * (l % 8) + l / 8 + 64 * (l / 8);
    float v = (float)(t * 7u + blockIdx.x);
    s[i] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);
    __syncthreads();
    unsigned m = l ^ 1u, j = base + 8 * (m % 8) + m / 8 + 64 * (m / 8);
    out[blockIdx.x * THREADS + t] = s[j];
}

// Broadcasts and partial warps of 8- and 16-byte words. Each warp fills 32 words of its own
// (word t, no conflict) and then loads word base + IDX, IDX a function of the lane l: several
// lanes may read the same word, and with COND false a lane takes no part in the load.
#define PICK64(NAME, IDX, COND)                                                 \
    extern "C" __global__ void NAME(double *out)                                \
    {                                                                           \
        __shared__ double s[THREADS];                                           \
        unsigned t = threadIdx.x, l = t % 32, base = t - l;                     \
        s[t] = (double)(t * 7u + blockIdx.x);                                   \
        __syncthreads();                                                        \
        double v = -1.0;                                                        \
        if (COND)                                                               \
            v = s[base + (IDX)];                                                \
        out[blockIdx.x * THREADS + t] = v;                                      \
    }

#define PICK128(NAME, IDX, COND)                                                \
    extern "C" __global__ void NAME(float4 *out)                                \
    {                                                                           \
        __shared__ float4 s[THREADS];                                           \
        unsigned t = threadIdx.x, l = t % 32, base = t - l;                     \
        float f = (float)(t * 7u + blockIdx.x);                                 \
        s[t] = make_float4(f, f + 1.0f, f + 2.0f, f + 3.0f);                    \
        __syncthreads();                                                        \
        float4 v = make_float4(-1.0f, -1.0f, -1.0f, -1.0f);                     \
        if (COND)                                                               \
            v = s[base + (IDX)];                                                \
        out[blockIdx.x * THREADS + t] = v;                                      \
    }

PICK64(pick64_all_same, 0, true)              // every lane the same double
PICK64(pick64_halves_same, l % 16, true)      // both half-warps the same 16 doubles
PICK64(pick64_pairs, l / 2, true)             // lanes 2k and 2k+1 share a double: 16 doubles
PICK64(pick64_half_active, l, l < 16)         // only the first half-warp loads
PICK64(pick64_two_lanes, l, l == 0 || l == 31) // lanes 0 and 31 only

PICK128(pick128_all_same, 0, true)            // every lane the same float4
PICK128(pick128_halves_bcast, l / 16, true)   // each half-warp one float4 (matmul's As[ty][k])
PICK128(pick128_quarters_bcast, l / 8, true)  // each quarter-warp one float4
PICK128(pick128_q01_same, l % 8 + 8 * (l / 16), true) // quarters 0 and 1 the same 8 float4s, 2 and 3 another 8
PICK128(pick128_q02_same, l % 8 + 8 * (l / 8 % 2), true) // quarters 0 and 2 the same, 1 and 3 the same
PICK128(pick128_quarter_active, l, l < 8)     // only the first quarter-warp loads
PICK128(pick128_two_lanes, l, l == 0 || l == 31) // lanes 0 and 31 only
