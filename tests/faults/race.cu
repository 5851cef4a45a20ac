// race.cu -- shared-memory races (loom run --racecheck) and race-free patterns.
// neighbour: each thread writes its slot and reads the next thread's with no barrier.
// warp_scan: the classic warp-synchronous scan through a volatile pointer; a race by CUDA's
// rules since Volta (lanes are not guaranteed to run in lockstep), as compute-sanitizer says.
extern "C" __global__ void neighbour(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

extern "C" __global__ void warp_scan(const int *in, int *out)
{
    __shared__ int s[32];
    volatile int *vs = s;
    int lane = threadIdx.x;
    vs[lane] = in[lane];
    if (lane >= 1) vs[lane] += vs[lane - 1];
    if (lane >= 2) vs[lane] += vs[lane - 2];
    if (lane >= 4) vs[lane] += vs[lane - 4];
    if (lane >= 8) vs[lane] += vs[lane - 8];
    if (lane >= 16) vs[lane] += vs[lane - 16];
    out[lane] = vs[lane];
}

// Race-free: the same scan with __syncwarp between reads and writes.
extern "C" __global__ void warp_scan_synced(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = in[lane];
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        int v = lane >= d ? s[lane - d] : 0;
        __syncwarp();
        s[lane] += v;
        __syncwarp();
    }
    out[lane] = s[lane];
}

// Race-free: a block reduction with __syncthreads, and a shared histogram with atomics.
extern "C" __global__ void reduce(const int *in, int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d /= 2) {
        if (threadIdx.x < d)
            s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void histogram(const int *in, int *out)
{
    __shared__ int bins[16];
    if (threadIdx.x < 16)
        bins[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&bins[in[threadIdx.x] & 15], 1);
    __syncthreads();
    if (threadIdx.x < 16)
        out[threadIdx.x] = bins[threadIdx.x];
}
