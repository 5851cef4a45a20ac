// host_register.cu -- memory the program allocates itself, registered with cudaHostRegister:
// a kernel writes it through cudaHostGetDevicePointer's address, the host reads the result;
// registering twice or an overlapping range fails, unregistering twice fails.
#include <cstdlib>
#include "check.h"

__global__ void scale(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * k + i;
}

int main()
{
    const int n = 1000;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = i;
    CK(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped));
    int *d = nullptr;
    CK(cudaHostGetDevicePointer((void **)&d, h, 0));
    scale<<<(n + 127) / 128, 128>>>(d, n, 3);
    CK(cudaDeviceSynchronize());
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("sum after the kernel: %lld\n", sum);   // sum of 4i = 4 * 499500
    printf("register again: %s\n", cudaGetErrorName(cudaHostRegister(h, n * sizeof(int), 0)));
    cudaGetLastError();
    printf("register an overlapping range: %s\n", cudaGetErrorName(cudaHostRegister(h + 10, 64, 0)));
    cudaGetLastError();
    CK(cudaHostUnregister(h));
    printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(h)));
    cudaGetLastError();
    free(h);
    printf("%s\n", sum == 4LL * 499500 ? "PASS" : "FAIL");
    return 0;
}
