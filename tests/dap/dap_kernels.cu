// dap_kernels.cu -- kernels that tests/dap/dap_session.py debugs through `loom dap`:
// a .func call to step into and out of, a shared-memory write to watch, and a fault.
// Regenerate dap_kernels.ptx with gen_ptx.sh (nvcc -lineinfo: .loc gives the CUDA lines).

__device__ __noinline__ int scale(int v, int k)
{
    int r = v * k;
    return r + 1;
}

// out[i] = (3 * i) * k + 1
extern "C" __global__ void fill(int *out, int k)
{
    __shared__ int tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i * 3;
    int w = scale(v, k);
    tile[threadIdx.x] = w;
    __syncthreads();
    out[i] = tile[threadIdx.x];
}

// writes out[i + shift]: out of bounds for i + shift >= the buffer's length
extern "C" __global__ void spill(int *out, int shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + shift] = i;
}

// waits until *flag is set: runs until the debugger pauses or ends it
extern "C" __global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}
