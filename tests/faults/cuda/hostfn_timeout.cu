// hostfn_timeout.cu -- a host function that never returns, under LOOM_TIMEOUT: nothing can stop
// it, so Loom's watchdog names it on stderr and ends the program with status 124 instead of
// leaving it hung in cudaDeviceSynchronize forever.
// loom-only env: LOOM_TIMEOUT=0.5
// exit-status: 124
#include <cstdio>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void put(int *p) { *p = 1; }

extern "C" void CUDART_CB stuck_host_fn(void *)
{
    for (;;)
        sleep(1);
}

int main()
{
    int *d = nullptr;
    cudaMalloc(&d, sizeof(int));
    put<<<1, 1>>>(d);
    cudaLaunchHostFunc(0, stuck_host_fn, nullptr);
    printf("waiting\n");
    cudaError_t e = cudaDeviceSynchronize();
    printf("FAIL: cudaDeviceSynchronize returned %s\n", cudaGetErrorName(e));
    return 1;
}
