// null_ptr.cu -- a store through a null pointer.
#include "fault_check.h"

struct item { int key; int value; };

__global__ void store_null(item *items, int v)
{
    items[threadIdx.x].value = v;
}

static void bad(int *) { store_null<<<1, 32>>>(nullptr, 3); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
