// basic.cu -- debugger fixture: y = a*x + y, one thread an element (breaks, steps, print, x, watch)
__global__ void scale(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a * x[i];
        y[i] = v + y[i];
    }
}
