// diverge.cu -- debugger fixture: lanes that split two ways and then three (info lanes, info simt)
__global__ void diverge(int *out, int n)
{
    int t = threadIdx.x;
    int v = 0;
    if (t % 2 == 0) {
        for (int k = 0; k < n + t; k++)
            v += k;
    } else if (t < 16) {
        for (int k = 0; k < n; k++)
            v -= out[k];
    } else {
        v = t * 7;
    }
    out[t] = v;
}
