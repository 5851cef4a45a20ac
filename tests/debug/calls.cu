// calls.cu -- debugger fixture: .func calls two deep (backtrace, step into, next over, finish)
__device__ __noinline__ int square(int v)
{
    int r = v * v;
    return r;
}

__device__ __noinline__ int sum_squares(int a, int b)
{
    int s = square(a);
    s += square(b);
    return s;
}

__global__ void calls(int *out)
{
    int t = threadIdx.x;
    int r = sum_squares(t, t + 1);
    out[t] = r;
}
