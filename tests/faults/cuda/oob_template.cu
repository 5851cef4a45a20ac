// oob_template.cu -- a write past the end of a buffer in a kernel that is a function template
// in a namespace: the report names it demangled, as compute-sanitizer does
// ("void blas::scale<float, 4>(float*, float const*, int)").
#include "fault_check.h"

namespace blas {
template <typename T, int UNROLL>
__global__ void scale(T *out, const T *in, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
    for (int k = 0; k < UNROLL; k++)
        out[i + k + n] = in[i + k] * T(2);
}
}

static void bad(int *buf) { blas::scale<float, 4><<<1, 32>>>((float *)buf, (const float *)buf, 1); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
