// dap_printf.cu -- kernel printf under `loom dap`: its text reaches the editor as output
// events, the part printed before a stop at that stop (tests/dap/dap_session.py).
#include <cstdio>

extern "C" __global__ void say(int k)
{
    printf("thread %d says %d\n", threadIdx.x, threadIdx.x * k);
    __syncthreads();
    printf("thread %d again\n", threadIdx.x);
}
