// unstructured: control flow that is not a nest of if/else and loops, as in the thread-frontier
// paper (Diamos et al., MICRO 2011): a short-circuit condition whose tests branch into shared
// blocks (the third test is reached from the first and the second, the "then" block from the
// second and the third), a loop with two exits, and a goto out of it past the code that
// follows the loop. A PDOM stack reconverges only at immediate post-dominators, so lanes that
// reach a shared block along different edges may run it separately; thread frontiers can merge
// them there.

// in holds three words per thread: the conditions p, q, r (in[tid], in[n + tid], in[2n + tid]);
// each short-circuit test loads its word only when it is evaluated, so the tests stay branches.
extern "C" __global__ void unstructured(const unsigned *in, unsigned *out, int n, int steps)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    unsigned x = (unsigned)tid * 2654435761u, r = 0;

    if ((in[tid] % 3u == 0u && in[n + tid] % 5u < 2u) || in[2 * n + tid] % 4u == 1u) {
        r = x ^ (x >> 13);           // "then": reached from the second test and the third
        r *= 0x85ebca6bu;
    } else {
        r = (x << 7) + 0x27d4eb2fu;  // "else": the third test failed
    }

#pragma unroll 1
    for (int i = 0; i < steps; i++) {
        x = x * 1664525u + 1013904223u;
        if ((x >> 28) == 3u)
            goto found;              // exit 1: skips the "not found" block
        if ((x >> 28) == 9u)
            break;                   // exit 2
        r += x >> 20;
    }
    r = r * 31u + 7u;                // "not found": after the loop's normal or break exit
found:
    out[tid] = r ^ x;
}
