// Prefix sums (scans) within a block, five ways. Each block scans its own segment of 256 ints;
// the segments are independent (a full-array scan would add each block's total in a second pass).
//   scan_hillis_steele     inclusive, Hillis & Steele: log2(n) steps, each adds the element
//                          `offset` places back; double-buffered shared memory, O(n log n) work
//   scan_warp_volatile     inclusive, the classic warp-synchronous scan (Sengupta, Harris and
//                          Garland 2008) through volatile shared memory with no barrier inside
//                          a warp: it relies on the 32 lanes of a warp running in lockstep
//   scan_block_inclusive   inclusive, warp scans with __shfl_up_sync, then a scan of the warp
//                          totals -- the modern form, correct under independent thread scheduling
//   scan_block_exclusive   exclusive, Blelloch's work-efficient up-sweep / down-sweep (GPU Gems 3,
//                          chapter 39), two elements per thread: launch with blockDim.x = 128
//   scan_block_segmented   inclusive segmented scan: a nonzero flag starts a new segment

#define SEG 256

extern "C" __global__ void scan_hillis_steele(const int *in, int *out, int n)
{
    __shared__ int buf[2][SEG];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int cur = 0;
    buf[cur][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
        int v = buf[cur][t];
        if (t >= offset)
            v += buf[cur][t - offset];
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[cur][t];
}

/* Inclusive scan of the 32 values of this thread's warp in s[]; idx is the thread's slot. */
__device__ int warp_scan_volatile(volatile int *s, int idx)
{
    int lane = idx & 31;
    if (lane >= 1)
        s[idx] = s[idx - 1] + s[idx];
    if (lane >= 2)
        s[idx] = s[idx - 2] + s[idx];
    if (lane >= 4)
        s[idx] = s[idx - 4] + s[idx];
    if (lane >= 8)
        s[idx] = s[idx - 8] + s[idx];
    if (lane >= 16)
        s[idx] = s[idx - 16] + s[idx];
    return s[idx];
}

extern "C" __global__ void scan_warp_volatile(const int *in, int *out, int n)
{
    __shared__ int s[SEG];
    __shared__ int totals[32];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int lane = t & 31, warp = t >> 5;
    s[t] = i < n ? in[i] : 0;
    if (t < 32)
        totals[t] = 0;
    int v = warp_scan_volatile(s, t);
    __syncthreads();
    if (lane == 31)
        totals[warp] = v;
    __syncthreads();
    if (warp == 0)
        warp_scan_volatile(totals, t);
    __syncthreads();
    if (warp > 0)
        v += totals[warp - 1];
    if (i < n)
        out[i] = v;
}

extern "C" __global__ void scan_block_inclusive(const int *in, int *out, int n)
{
    __shared__ int warp_sums[32];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int lane = t & 31, warp = t >> 5, nwarps = blockDim.x >> 5;
    int v = i < n ? in[i] : 0;
    for (int offset = 1; offset < 32; offset <<= 1) {
        int up = __shfl_up_sync(0xFFFFFFFFu, v, offset);
        if (lane >= offset)
            v += up;
    }
    if (lane == 31)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int s = lane < nwarps ? warp_sums[lane] : 0;
        for (int offset = 1; offset < 32; offset <<= 1) {
            int up = __shfl_up_sync(0xFFFFFFFFu, s, offset);
            if (lane >= offset)
                s += up;
        }
        warp_sums[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        v += warp_sums[warp - 1];
    if (i < n)
        out[i] = v;
}

extern "C" __global__ void scan_block_exclusive(const int *in, int *out, int n)
{
    __shared__ int temp[SEG];
    int t = threadIdx.x, m = 2 * blockDim.x, base = blockIdx.x * m;
    temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {          /* up-sweep: build sums in place */
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (t == 0)
        temp[m - 1] = 0;                             /* clear the root */
    for (int d = 1; d < m; d <<= 1) {               /* down-sweep */
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int x = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += x;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = temp[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = temp[2 * t + 1];
}

extern "C" __global__ void scan_block_segmented(const int *in, const int *flags, int *out, int n)
{
    __shared__ int sv[SEG];
    __shared__ int sf[SEG];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    sv[t] = i < n ? in[i] : 0;
    sf[t] = i < n ? flags[i] != 0 : 1;
    __syncthreads();
    for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
        int v = sv[t], f = sf[t];
        if (t >= offset) {
            if (!f)
                v += sv[t - offset];
            f |= sf[t - offset];
        }
        __syncthreads();
        sv[t] = v;
        sf[t] = f;
        __syncthreads();
    }
    if (i < n)
        out[i] = sv[t];
}
