// coalesce: how the addresses of a warp's global loads become 32-byte sectors. Every kernel
// runs one thread per output element, loads with a different pattern and stores its result
// at out[i], one aligned float per lane (4 sectors per warp). Buffers start 512-byte aligned
// (cudaMalloc, loom run), so element 0 begins a sector and a 128-byte line.

// Lane l loads in[base + l]: 128 bytes from a sector boundary.
extern "C" __global__ void ld_aligned(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0f;
}

// The same 128 bytes moved by one float: they straddle a line and a sector.
extern "C" __global__ void ld_offset1(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1] * 2.0f;
}

// Every second float: the warp's 32 floats lie in 256 bytes.
extern "C" __global__ void ld_stride2(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i] * 2.0f;
}

// Every 32nd float: each lane's float in a sector (and a line) of its own.
extern "C" __global__ void ld_stride32(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[32 * i] * 2.0f;
}

// An array of structures of three floats (12 bytes each, 4-byte aligned, so three scalar
// loads) against the same data as three arrays.
struct p3 { float x, y, z; };
extern "C" __global__ void aos3(const p3 *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    p3 p = in[i];
    out[i] = p.x + p.y * 2.0f + p.z * 3.0f;
}

extern "C" __global__ void soa3(const float *x, const float *y, const float *z, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] + y[i] * 2.0f + z[i] * 3.0f;
}

// Four floats: 4-byte aligned (four scalar loads), and 16-byte aligned (float4: one load).
struct p4 { float x, y, z, w; };
extern "C" __global__ void aos4(const p4 *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    p4 p = in[i];
    out[i] = p.x + p.y * 2.0f + p.z * 3.0f + p.w * 4.0f;
}

extern "C" __global__ void aos4_vec(const float4 *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = in[i];
    out[i] = p.x + p.y * 2.0f + p.z * 3.0f + p.w * 4.0f;
}
