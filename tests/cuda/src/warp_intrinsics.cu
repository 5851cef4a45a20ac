// warp_intrinsics.cu -- shuffles (idx, up, down, xor, with widths), votes (ballot, any, all),
// __activemask under divergence, __popc/__ffs/__brev/__clz, __match_any_sync, __reduce_*_sync.
#include "check.h"

__global__ void warp_ops(int *out)
{
    int lane = threadIdx.x & 31;
    int v = lane * lane + 3;
    int *o = out + (threadIdx.x >> 5) * 1024 + lane * 16;
    o[0] = __shfl_sync(0xffffffffu, v, 7);
    o[1] = __shfl_up_sync(0xffffffffu, v, 3);
    o[2] = __shfl_down_sync(0xffffffffu, v, 5);
    o[3] = __shfl_xor_sync(0xffffffffu, v, 9);
    o[4] = __shfl_sync(0xffffffffu, v, lane + 1, 8);
    o[5] = (int)__ballot_sync(0xffffffffu, v % 3 == 0);
    o[6] = __any_sync(0xffffffffu, lane == 17);
    o[7] = __all_sync(0xffffffffu, lane < 31);
    if (lane % 4 == 1)
        o[8] = (int)__activemask();
    else
        o[8] = -1;
    o[9] = __popc(v) + __ffs(v) * 100;
    o[10] = (int)__brev((unsigned)v);
    o[11] = __clz(v);
    o[12] = (int)__match_any_sync(0xffffffffu, lane / 5);
    int sum = v;
    for (int d = 16; d > 0; d >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
    o[13] = sum;
#if __CUDA_ARCH__ >= 800
    o[14] = __reduce_add_sync(0xffffffffu, v);
    o[15] = (int)__reduce_max_sync(0xffffffffu, (unsigned)(v ^ 0x55));
#else
    o[14] = sum;
    int m = v ^ 0x55;
    for (int d = 16; d > 0; d >>= 1) {
        int x = __shfl_xor_sync(0xffffffffu, m, d);
        m = x > m ? x : m;
    }
    o[15] = m;
#endif
}

static unsigned brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

int main()
{
    int *d, h[2 * 1024];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0, sizeof h));
    warp_ops<<<1, 64>>>(d);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0, total = 0, vals[32];
    unsigned ballot = 0;
    for (int l = 0; l < 32; l++) {
        vals[l] = l * l + 3;
        total += vals[l];
        if (vals[l] % 3 == 0)
            ballot |= 1u << l;
    }
    int mx = 0;
    for (int l = 0; l < 32; l++)
        mx = (vals[l] ^ 0x55) > mx ? (vals[l] ^ 0x55) : mx;
    for (int w = 0; w < 2; w++)
        for (int l = 0; l < 32; l++) {
            const int *o = h + w * 1024 + l * 16;
            int v = vals[l];
            unsigned match = 0;
            for (int k = 0; k < 32; k++)
                if (k / 5 == l / 5)
                    match |= 1u << k;
            int expect[16] = {
                vals[7], l >= 3 ? vals[l - 3] : v, l + 5 < 32 ? vals[l + 5] : v, vals[l ^ 9],
                vals[(l & ~7) + ((l + 1) & 7)], (int)ballot, 1, 0,
                l % 4 == 1 ? 0x22222222 : -1, __builtin_popcount(v) + (__builtin_ffs(v)) * 100, (int)brev(v),
                __builtin_clz(v), (int)match, total, total, mx};
            for (int k = 0; k < 16; k++)
                if (o[k] != expect[k]) {
                    if (bad < 5)
                        printf("warp %d lane %d op %d: got %d, expected %d\n", w, l, k, o[k], expect[k]);
                    bad++;
                }
        }
    printf("warp-level results checked: 1024, wrong %d\n", bad);
    EXPECT(bad == 0);
    return finish();
}
