// forkjoin.cu -- a fork-join: WIDTH independent kernels, each on its own buffer, then one join
// kernel that reads them all (its pointer parameters name every buffer), ROUNDS times.
//
//   forkjoin [WIDTH [N [ROUNDS]]]   WIDTH 1..32 (default 8), N elements per branch
//                                   (default 32768), ROUNDS (default 4)
#include "sched_bench.h"

#define MAXW 32
#define BLOCK 128
#define GRID 8

// A branch: x[i] = ITER rounds of an integer hash of (x[i], branch).
__global__ void branch(unsigned *__restrict__ x, int n, unsigned salt)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = x[i];
        for (int r = 0; r < 16; r++)
            v = sb_mix(v ^ salt) + (unsigned)r;
        x[i] = v;
    }
}

#define P(k) const unsigned *__restrict__ p##k
// out[round] = the xor of every branch's elements (width of the 32 parameters used; unused
// ones repeat p0), then each branch seeded from it through seed[].
__global__ void join(P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10), P(11),
                     P(12), P(13), P(14), P(15), P(16), P(17), P(18), P(19), P(20), P(21), P(22),
                     P(23), P(24), P(25), P(26), P(27), P(28), P(29), P(30), P(31),
                     unsigned *__restrict__ out, int width, int n, int round)
{
    const unsigned *p[MAXW] = {p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14,
                               p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27,
                               p28, p29, p30, p31};
    __shared__ unsigned s[BLOCK];
    unsigned acc = 0;
    for (int b = 0; b < width; b++)
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            acc ^= p[b][i] * (unsigned)(2 * b + 1);
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] ^= s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[round] = s[0];
}
#undef P

int main(int argc, char **argv)
{
    int width = (int)sb_arg(argc, argv, 1, 8);
    int n = (int)sb_arg(argc, argv, 2, 32768);
    int rounds = (int)sb_arg(argc, argv, 3, 4);
    if (width > MAXW) {
        fprintf(stderr, "forkjoin: WIDTH must be at most %d\n", MAXW);
        return 2;
    }
    unsigned *x[MAXW];
    for (int b = 0; b < width; b++) {
        std::vector<unsigned> h(n);
        for (int i = 0; i < n; i++)
            h[i] = sb_mix(50 + b * 65536 + i);
        x[b] = sb_alloc<unsigned>(n);
        sb_upload(x[b], h);
    }
    for (int b = width; b < MAXW; b++)
        x[b] = x[0];
    unsigned *out = sb_alloc<unsigned>(rounds);
    sb_timer t;
    t.start();
    for (int r = 0; r < rounds; r++) {
        for (int b = 0; b < width; b++)
            branch<<<GRID, BLOCK>>>(x[b], n, (unsigned)(r * MAXW + b));
        join<<<1, BLOCK>>>(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11],
                           x[12], x[13], x[14], x[15], x[16], x[17], x[18], x[19], x[20], x[21],
                           x[22], x[23], x[24], x[25], x[26], x[27], x[28], x[29], x[30], x[31],
                           out, width, n, r);
    }
    CK_LAUNCH();
    t.stop("forkjoin");
    std::vector<unsigned> h(rounds);
    CK(cudaMemcpy(h.data(), out, rounds * sizeof(unsigned), cudaMemcpyDeviceToHost));
    uint64_t hash = sb_hash(SB_HASH_SEED, h.data(), rounds * sizeof(unsigned));
    for (int b = 0; b < width; b++)
        hash = sb_hash_device(hash, x[b], n * sizeof(unsigned));
    printf("forkjoin width=%d n=%d rounds=%d kernels=%d hash=%016llx\n", width, n, rounds,
           rounds * (width + 1), (unsigned long long)hash);
    for (int r = 0; r < rounds; r++)
        printf("round %d: join = %08x\n", r, h[r]);
    return 0;
}
