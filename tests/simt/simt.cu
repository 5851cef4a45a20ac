// simt.cu -- SIMT reconvergence cases: lanes that reach one block along
// different branches must meet at warp-synchronous instructions there.
// Regenerate simt.ptx with: nvcc -arch=compute_75 -ptx simt.cu -o simt.ptx

// The else of `if (a && b)` is reached from two branches; its shuffle names
// exactly the lanes that take it.
extern "C" __global__ void else_of_and(const int *a, const int *b, int *out)
{
    int t = threadIdx.x;
    bool both = a[t] != 0 && b[t] != 0;
    unsigned m = __ballot_sync(0xffffffffu, !both);
    int r;
    if (both) {
        r = -1;
    } else {
        int src = __ffs(m) - 1;
        r = __shfl_sync(m, t * 10, src) + __popc(__activemask() & m);
        __syncwarp(m);
    }
    out[t] = r;
}

// A switch whose cases fall into shared code, then a warp vote over the lanes there.
extern "C" __global__ void shared_tail(const int *sel, int *out)
{
    int t = threadIdx.x, v = sel[t] & 3, r = 0;
    unsigned m = __ballot_sync(0xffffffffu, v != 0);
    if (v == 1) r = 100;
    else if (v == 2) r = 200;
    else if (v == 3) r = 300;
    if (v != 0) r += (int)__popc(__ballot_sync(m, r >= 200));
    out[t] = r;
}
