// loopcount: a data-dependent trip count per thread (a small Mandelbrot). Each thread iterates
// z = z^2 + c for its own point c until |z| > 2 or max_iter; the lanes of a warp leave the loop
// at different times and the warp runs until its slowest lane is done.

extern "C" __global__ void loopcount(unsigned *iters, int width, int height, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y;
    if (px >= width || py >= height)
        return;
    // c spans [-2, 0.5] x [-1, 1] in exact binary steps (1/32, 1/16)
    float cr = -2.0f + (float)px * 0.03125f, ci = -1.0f + (float)py * 0.0625f;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    iters[py * width + px] = (unsigned)it;
}
