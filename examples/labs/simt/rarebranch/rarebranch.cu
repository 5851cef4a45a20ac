// rarebranch: a costly path taken by few threads, in the manner of a Black-Scholes pricer that
// falls back to a slow series for rare inputs. One option in 32 (on average, by its data) needs
// the series; its warp runs the series with one or two lanes active while the others wait.

extern "C" __global__ void rarebranch(const unsigned *seed, float *price, int n, int terms)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    unsigned s = seed[tid] * 2654435761u;            // a hash of the option's seed
    float x = (float)(s >> 16) * (1.0f / 65536.0f);  // in [0, 1), exact
    float p = 0.5f + 0.25f * x;                      // the cheap closed form
    if ((s >> 27) == 0) {                            // rare: top five bits zero, ~1 in 32
        float term = 1.0f, sum = 0.0f;               // the costly series: sum of x^k / k
        #pragma unroll 1
        for (int k = 1; k <= terms; k++) {
            term *= x;
            sum += term / (float)k;
        }
        p = sum;
    }
    price[tid] = p;
}
