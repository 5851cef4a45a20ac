// misaligned.cu -- a 4-byte load from an address 2 bytes into a buffer.
#include "fault_check.h"

__global__ void load_misaligned(const char *in, int *out, int off)
{
    const int *p = (const int *)(in + off);
    out[threadIdx.x] = p[threadIdx.x];
}

static void bad(int *buf) { load_misaligned<<<1, 32>>>((const char *)buf, buf + 64, 2); }

int main() { return run_fault_test(cudaErrorMisalignedAddress, bad); }
