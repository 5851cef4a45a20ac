// surface_trap.cu -- a surface read out of range in the trap boundary mode (the default) faults
// the kernel; the error is sticky, so this program checks nothing after it.
#include "check.h"

__global__ void read_past(cudaSurfaceObject_t s, int x, int *out)
{
    int v;
    surf2Dread(&v, s, x, 1);
    *out = v;
}

int main()
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, 8, 4, cudaArraySurfaceLoadStore));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    int *out;
    CK(cudaMalloc(&out, sizeof(int)));
    read_past<<<1, 1>>>(s, 7 * 4, out);
    printf("in range: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    read_past<<<1, 1>>>(s, 8 * 4, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("one past the end: %s\n", cudaGetErrorName(e));
    EXPECT(e != cudaSuccess);
    return finish();
}
