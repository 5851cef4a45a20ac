// Mandelbrot set: one thread per pixel of a 2D grid counts the iterations of z = z^2 + c before
// |z| > 2 (at most max_iter). Neighbouring pixels need very different iteration counts, so the
// lanes of a warp leave the loop at different times: a picture of divergence. The loop's body
// compiles to fma.rn.f32, so exact counts depend on fused multiply-add rounding.

extern "C" __global__ void mandelbrot(unsigned *iters, int width, int height, float x0, float y0,
                                      float dx, float dy, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= width || py >= height)
        return;
    float cr = x0 + (float)px * dx, ci = y0 + (float)py * dy;
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
