// loop.cu -- debugger fixture: a loop to leave with until, labels to break at
__global__ void loop(int *out, int n)
{
    int t = threadIdx.x;
    int acc = 0;
    for (int k = 0; k < n; k++) {
        acc += k * t;
        if (acc > 1000)
            acc -= 1000;
    }
    out[t] = acc;
}
