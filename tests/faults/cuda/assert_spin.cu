// assert_spin.cu -- one thread fails an assert while another block spins on a flag that
// is never set: the kernel must still end, with cudaErrorAssert (on the GPU the trap stops
// the spinning block; Loom lets the other blocks run on for at most a second).
#include <cassert>
#include "fault_check.h"

__global__ void assert_or_spin(volatile int *flag)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) assert(*flag == 1);
        return;
    }
    while (*flag == 0) {
    }
}

static void bad(int *buf)
{
    cudaMemset(buf, 0, sizeof(int));
    assert_or_spin<<<2, 32>>>(buf);
}

int main() { return run_fault_test(cudaErrorAssert, bad); }
