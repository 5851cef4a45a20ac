// saxpy: y = a * x + y, one thread per element -- the "hello world" of GPU computing.
// Shows the thread index computation and the bounds check that lets a grid of whole blocks
// cover any n.

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
