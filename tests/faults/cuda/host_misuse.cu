// host_misuse.cu -- host-side misuse of the runtime API: bad pointers to copies and sets,
// bad frees, destroyed streams and events, invalid launch configurations and kernels.
// Each case runs in a child process (a crash must not hide the cases after it) and prints
// the error the call returned, what cudaGetLastError and cudaDeviceSynchronize say after
// it, and whether a good kernel still runs. expected/host_misuse.out holds what CUDA 13
// returned on an H100 (driver 580); Loom must return the same.
// golden-stdout
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void big_shared(int *p)
{
    extern __shared__ int s[];
    s[threadIdx.x] = 1;
    p[threadIdx.x] = s[threadIdx.x];
}
static void not_a_kernel(void) {}

static void *const WILD = (void *)0x10000;

// Prints one result line.
static void show(const char *what, cudaError_t e) { printf("  %s: %s\n", what, cudaGetErrorName(e)); }

static int *dev64(void)
{
    int *d = nullptr;
    cudaMalloc(&d, 64 * sizeof(int));
    return d;
}

// ---- The cases: each makes one bad call and returns its result. ----
static cudaError_t memcpy_h2d_wild_dst(void) { int h[64] = {}; return cudaMemcpy(WILD, h, sizeof h, cudaMemcpyHostToDevice); }
static cudaError_t memcpy_d2h_wild_src(void) { int h[64]; return cudaMemcpy(h, WILD, sizeof h, cudaMemcpyDeviceToHost); }
static cudaError_t memcpy_h2d_past_end(void) { int h[128] = {}; return cudaMemcpy(dev64(), h, sizeof h, cudaMemcpyHostToDevice); }
static cudaError_t memcpy_d2h_past_end(void) { int h[128]; return cudaMemcpy(h, dev64(), sizeof h, cudaMemcpyDeviceToHost); }
static cudaError_t memcpy_d2h_freed(void)
{
    int h[64];
    int *d = dev64();
    cudaFree(d);
    return cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
}
static cudaError_t memcpy_d2d_null_src(void) { return cudaMemcpy(dev64(), nullptr, 64, cudaMemcpyDeviceToDevice); }
static cudaError_t memcpy_bad_kind(void) { int h[64] = {}; return cudaMemcpy(dev64(), h, sizeof h, (cudaMemcpyKind)7); }
static cudaError_t memcpy_default_wild(void) { int h[64] = {}; return cudaMemcpy(WILD, h, sizeof h, cudaMemcpyDefault); }
static cudaError_t memcpy_async_bad_stream(void)
{
    int h[64] = {};
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
    return cudaMemcpyAsync(dev64(), h, sizeof h, cudaMemcpyHostToDevice, s);
}
static cudaError_t memset_wild(void) { return cudaMemset(WILD, 0, 64); }
static cudaError_t memset_past_end(void) { return cudaMemset(dev64(), 0, 1024); }
static cudaError_t free_wild(void) { return cudaFree(WILD); }
static cudaError_t free_twice(void)
{
    int *d = dev64();
    cudaFree(d);
    return cudaFree(d);
}
static cudaError_t free_host_malloc(void) { return cudaFree(malloc(256)); }
static cudaError_t free_interior(void) { return cudaFree(dev64() + 4); }
static cudaError_t free_null(void) { return cudaFree(nullptr); }
static cudaError_t free_pinned(void)
{
    void *h = nullptr;
    cudaMallocHost(&h, 256);
    return cudaFree(h);
}
static cudaError_t freehost_device(void) { return cudaFreeHost(dev64()); }
static cudaError_t malloc_huge(void) { void *p; return cudaMalloc(&p, (size_t)1 << 50); }
static cudaError_t malloc_null_out(void) { return cudaMalloc(nullptr, 64); }
static cudaError_t stream_sync_destroyed(void)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
    return cudaStreamSynchronize(s);
}
static cudaError_t stream_destroy_twice(void)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
    return cudaStreamDestroy(s);
}
static cudaError_t event_record_destroyed(void)
{
    cudaEvent_t e;
    cudaEventCreate(&e);
    cudaEventDestroy(e);
    return cudaEventRecord(e, 0);
}
static cudaError_t event_elapsed_unrecorded(void)
{
    cudaEvent_t a, b;
    float ms;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    return cudaEventElapsedTime(&ms, a, b);
}
static cudaError_t event_elapsed_no_timing(void)
{
    cudaEvent_t a, b;
    float ms;
    cudaEventCreateWithFlags(&a, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&b, cudaEventDisableTiming);
    cudaEventRecord(a, 0);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    return cudaEventElapsedTime(&ms, a, b);
}
static cudaError_t event_query_unrecorded(void)
{
    cudaEvent_t e;
    cudaEventCreate(&e);
    return cudaEventQuery(e);
}
static cudaError_t launch_too_many_threads(void) { fill<<<1, 2048>>>(dev64(), 1); return cudaGetLastError(); }
static cudaError_t launch_block_z_65(void) { fill<<<1, dim3(1, 1, 65)>>>(dev64(), 1); return cudaGetLastError(); }
static cudaError_t launch_zero_grid(void) { fill<<<0, 32>>>(dev64(), 1); return cudaGetLastError(); }
static cudaError_t launch_zero_block(void) { fill<<<1, 0>>>(dev64(), 1); return cudaGetLastError(); }
static cudaError_t launch_grid_y_65536(void) { fill<<<dim3(1, 65536), 1>>>(dev64(), 1); return cudaGetLastError(); }
static cudaError_t launch_shared_1mb(void) { big_shared<<<1, 32, 1 << 20>>>(dev64()); return cudaGetLastError(); }
static cudaError_t launch_shared_64k_no_attr(void) { big_shared<<<1, 32, 64 << 10>>>(dev64()); return cudaGetLastError(); }
static cudaError_t launch_destroyed_stream(void)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
    fill<<<1, 32, 0, s>>>(dev64(), 1);
    return cudaGetLastError();
}
static cudaError_t launch_not_a_kernel(void)
{
    int *d = dev64();
    int v = 1;
    void *args[] = { &d, &v };
    return cudaLaunchKernel((const void *)not_a_kernel, dim3(1), dim3(32), args, 0, 0);
}
static cudaError_t launch_null_args(void)
{
    return cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), nullptr, 0, 0);
}
static cudaError_t func_attrs_not_a_kernel(void)
{
    cudaFuncAttributes a;
    return cudaFuncGetAttributes(&a, (const void *)not_a_kernel);
}

// The same range checks through the other entry points, and a wild host-side pointer
// (recorded on the H100 with the rest: it returns cudaErrorInvalidValue for all but
// memcpy_h2d_wild_src, where CUDA dies of SIGSEGV as with memcpy_default_wild; Loom
// returns cudaErrorInvalidValue for both instead of crashing).
__device__ int sym[16];
static cudaError_t memcpy_async_h2d_past_end(void)
{
    int h[128] = {};
    cudaError_t e = cudaMemcpyAsync(dev64(), h, sizeof h, cudaMemcpyHostToDevice, 0);
    cudaStreamSynchronize(0);
    return e;
}
static cudaError_t memcpy_d2d_past_end(void)
{
    int *big = nullptr;
    cudaMalloc(&big, 128 * sizeof(int));
    return cudaMemcpy(big, dev64(), 128 * sizeof(int), cudaMemcpyDeviceToDevice);
}
static cudaError_t memcpy_default_past_end(void) { int h[128] = {}; return cudaMemcpy(dev64(), h, sizeof h, cudaMemcpyDefault); }
static cudaError_t memcpy_h2d_wild_src(void) { return cudaMemcpy(dev64(), WILD, 64 * sizeof(int), cudaMemcpyHostToDevice); }
static cudaError_t memcpy2d_past_end(void)
{
    int h[96] = {};   // three rows of 16 ints, pitch 32 ints: the third row ends past the 64 ints
    return cudaMemcpy2D(dev64(), 32 * sizeof(int), h, 32 * sizeof(int), 16 * sizeof(int), 3, cudaMemcpyHostToDevice);
}
static cudaError_t memset_async_past_end(void)
{
    cudaError_t e = cudaMemsetAsync(dev64(), 0, 1024, 0);
    cudaStreamSynchronize(0);
    return e;
}
static cudaError_t memcpy_to_symbol_past_end(void) { int h[16] = {}; return cudaMemcpyToSymbol(sym, h, sizeof h, sizeof(int)); }
// The other per-function calls, given a host function that is no kernel.
static cudaError_t func_set_attr_not_a_kernel(void)
{
    return cudaFuncSetAttribute((const void *)not_a_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
}
static cudaError_t func_cache_config_not_a_kernel(void)
{
    return cudaFuncSetCacheConfig((const void *)not_a_kernel, cudaFuncCachePreferShared);
}
static cudaError_t func_get_name_not_a_kernel(void)
{
    const char *name = nullptr;
    return cudaFuncGetName(&name, (const void *)not_a_kernel);
}
static cudaError_t occupancy_not_a_kernel(void)
{
    int n = 0;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)not_a_kernel, 128, 0);
}
static cudaError_t param_info_not_a_kernel(void)
{
    size_t off = 0, size = 0;
    return cudaFuncGetParamInfo((const void *)not_a_kernel, 0, &off, &size);
}
// cudaFree of a __device__ variable's address: the module owns it.
static cudaError_t free_device_symbol(void)
{
    void *p = nullptr;
    cudaError_t e = cudaGetSymbolAddress(&p, sym);
    if (e != cudaSuccess) return e;
    e = cudaFree(p);
    int h[16] = {};
    if (cudaMemcpyToSymbol(sym, h, sizeof h) != cudaSuccess) printf("  the variable is gone\n");
    return e;
}

struct test_case { const char *name; cudaError_t (*fn)(void); };
static const test_case cases[] = {
#define CASE(f) { #f, f }
    CASE(memcpy_h2d_wild_dst), CASE(memcpy_d2h_wild_src), CASE(memcpy_h2d_past_end), CASE(memcpy_d2h_past_end),
    CASE(memcpy_d2h_freed), CASE(memcpy_d2d_null_src), CASE(memcpy_bad_kind), CASE(memcpy_default_wild),
    CASE(memcpy_async_bad_stream), CASE(memset_wild), CASE(memset_past_end), CASE(free_wild), CASE(free_twice),
    CASE(free_host_malloc), CASE(free_interior), CASE(free_null), CASE(free_pinned), CASE(freehost_device),
    CASE(malloc_huge), CASE(malloc_null_out), CASE(stream_sync_destroyed), CASE(stream_destroy_twice),
    CASE(event_record_destroyed), CASE(event_elapsed_unrecorded), CASE(event_elapsed_no_timing),
    CASE(event_query_unrecorded), CASE(launch_too_many_threads), CASE(launch_block_z_65), CASE(launch_zero_grid),
    CASE(launch_zero_block), CASE(launch_grid_y_65536), CASE(launch_shared_1mb), CASE(launch_shared_64k_no_attr),
    CASE(launch_destroyed_stream), CASE(launch_not_a_kernel), CASE(launch_null_args), CASE(func_attrs_not_a_kernel),
    CASE(memcpy_async_h2d_past_end), CASE(memcpy_d2d_past_end), CASE(memcpy_default_past_end), CASE(memcpy_h2d_wild_src),
    CASE(memcpy2d_past_end), CASE(memset_async_past_end), CASE(memcpy_to_symbol_past_end),
    CASE(free_device_symbol), CASE(func_set_attr_not_a_kernel), CASE(func_cache_config_not_a_kernel),
    CASE(func_get_name_not_a_kernel), CASE(occupancy_not_a_kernel), CASE(param_info_not_a_kernel),
#undef CASE
};

// In the child: the bad call, then the state it leaves behind.
static void run_case(const test_case &c)
{
    cudaFree(nullptr);   // initialise the runtime first, so that only the case's call is judged
    show("call", c.fn());
    show("cudaGetLastError", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int *d = nullptr, h[32] = {};
    cudaError_t e = cudaMalloc(&d, 32 * sizeof(int));
    if (e == cudaSuccess) {
        fill<<<1, 32>>>(d, 42);
        e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("  a good kernel after it: %s\n", e != cudaSuccess ? cudaGetErrorName(e) : h[31] == 42 ? "runs" : "WRONG");
}

int main(int argc, char **argv)
{
    for (const test_case &c : cases) {
        if (argc > 1 && strcmp(argv[1], c.name))
            continue;
        printf("%s\n", c.name);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            run_case(c);
            fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status))
            printf("  the process died of signal %d\n", WTERMSIG(status));
        else if (WEXITSTATUS(status))
            printf("  the process exited with status %d\n", WEXITSTATUS(status));
        fflush(stdout);
    }
    printf("DONE\n");
    return 0;
}
