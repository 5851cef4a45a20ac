// Corpus, control flow: nested divergent branches, loops with data-dependent trip counts and
// break/continue, a large switch (nvcc lowers it to a compare tree) and a brx.idx jump table in
// inline asm (nvcc 13 never emits brx.idx), __noinline__ calls with many argument types,
// recursion, indirect calls through function pointers (from a __device__ table with an
// initialiser), early return and exit.
//
// Output slot k of element i is out[k * n + i].

#define OUT(v) (out[(k++) * n + i] = (v))

// K = 4 slots, s32.
extern "C" __global__ void ctl_divergent(const int *in, const unsigned *sel, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    unsigned s = sel[i];
    int r = 0, q = 0;
    if (s & 1) {
        if (s & 2) {
            r = v * 3;
            if (v < 0)
                r = -r;
            else
                q = 1;
        } else {
            r = v ^ 0x5A5A;
            for (unsigned j = 0; j < (s >> 4); j++)
                r = r * 5 + (int)j;
        }
    } else if (s & 4) {
        r = (s & 8) ? v >> 3 : v << 2;
        q = 2;
    } else {
        switch (s & 24) {
        case 0: r = v + 1; break;
        case 8: r = v - 1; break;
        default: r = ~v; q = 3; break;
        }
    }
    int k = 0;
    OUT(r);
    OUT(q);
    OUT(r > 0 ? r % 97 : -(r % 89));
    /* a branch on thread id inside a warp: halves, quarters, odd lanes */
    int lane = threadIdx.x & 31, t;
    if (lane < 16)
        t = lane < 8 ? 1 : 2;
    else
        t = (lane & 1) ? 3 : 4;
    OUT(t * 100 + (int)(s % 7));
}

// Loops with data-dependent trip counts, break, continue, do-while. K = 5 slots, s32.
extern "C" __global__ void ctl_loops(const unsigned *sel, const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned s = sel[i];
    int v = in[i];
    int k = 0;
    /* Collatz steps of s + 1, capped */
    unsigned c = s + 1, steps = 0;
    while (c != 1) {
        c = (c & 1) ? 3 * c + 1 : c >> 1;
        if (++steps >= 300)
            break;
    }
    OUT((int)steps);
    /* sum of j in [0, s) skipping multiples of 3, stopping early past 2000 */
    int sum = 0;
    for (unsigned j = 0; j < s; j++) {
        if (j % 3 == 0)
            continue;
        sum += (int)j;
        if (sum > 2000)
            break;
    }
    OUT(sum);
    /* do-while on the bits of v */
    unsigned b = (unsigned)v, bits = 0;
    do {
        bits += b & 1;
        b >>= 1;
    } while (b);
    OUT((int)bits);
    /* nested loops, inner bound depends on the outer index */
    int acc = 0;
    for (unsigned x = 0; x < (s & 15); x++)
        for (unsigned y = x; y < (s >> 4); y++)
            acc += (int)(x * y) ^ v;
    OUT(acc);
    /* loop whose exit is a goto out of two levels */
    int found = -1;
    for (int x = 0; x < 16; x++)
        for (int y = 0; y < 16; y++)
            if (((x * 16 + y) ^ (int)s) == 0x5F) {
                found = x * 100 + y;
                goto done;
            }
done:
    OUT(found);
}

// A switch of 40 cases (compare tree) and a 6-entry brx.idx jump table. K = 3 slots, s32.
__device__ __forceinline__ int jump_table(unsigned idx, int v)
{
    int r;
    asm volatile("{\n\t"
                 "ts: .branchtargets L0, L1, L2, L3, L4, L5;\n\t"
                 "brx.idx %1, ts;\n"
                 "L0:\n\tadd.s32 %0, %2, 100;\n\tbra.uni Ld;\n"
                 "L1:\n\tsub.s32 %0, %2, 7;\n\tbra.uni Ld;\n"
                 "L2:\n\tshl.b32 %0, %2, 3;\n\tbra.uni Ld;\n"
                 "L3:\n\tnot.b32 %0, %2;\n\tbra.uni Ld;\n"
                 "L4:\n\tmul.lo.s32 %0, %2, -3;\n\tbra.uni Ld;\n"
                 "L5:\n\tmov.u32 %0, 12345;\n"
                 "Ld:\n\t}"
                 : "=r"(r)
                 : "r"(idx), "r"(v));
    return r;
}

extern "C" __global__ void ctl_switch(const unsigned *sel, const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned s = sel[i];
    int v = in[i], r = 0, k = 0;
    switch (s % 41) {
    case 0: r = v + 1; break;          case 1: r = v * 3; break;
    case 2: r = v ^ 0xFF; break;       case 3: r = v >> 2; break;
    case 4: r = -v; break;             case 5: r = v & 0xF0F0; break;
    case 6: r = v | 9; break;          case 7: r = v * v; break;
    case 8: r = v - 1000; break;       case 9: r = v << 5; break;
    case 10: r = v / 3; break;         case 11: r = v % 11; break;
    case 12: r = ~v; break;            case 13: r = v + 13; break;
    case 14: r = v * 14 + 1; break;    case 15: r = (v >> 15) & 1; break;
    case 16: r = v ^ (v >> 3); break;  case 17: r = v * 17; break;
    case 18: r = v - 18; break;        case 19: r = 19 - v; break;
    case 20: r = v & 20; break;        case 21: r = v | 21; break;
    case 22: r = v * 22 - 7; break;    case 23: r = (v > 0) * 23; break;
    case 24: r = v >> 24; break;       case 25: r = v << 25; break;
    case 26: r = v + 26 * v; break;    case 27: r = v ^ 27; break;
    case 28: r = v % 28; break;        case 29: r = v / 29; break;
    case 30: r = v * 30; break;        case 31: r = v - 31 * 31; break;
    case 32: r = (v & 1) ? 32 : -32; break;
    case 33: r = v + 0x3333; break;    case 34: r = v * -34; break;
    case 35: r = v ^ 0x35353535; break;
    case 36: r = v >> 6; break;        case 37: r = v * 37 + 37; break;
    case 38: r = v & ~38; break;       case 39: r = v | (39 << 8); break;
    default: r = 4040; break;
    }
    OUT(r);
    OUT(jump_table(s % 6, v));
    OUT(jump_table((s >> 3) % 6, r));
}

// __noinline__ functions: several argument and return types, recursion, function pointers.
__device__ __noinline__ long long mix_args(int a, unsigned char b, short c, float d,
                                                  double e, long long f, const int *p)
{
    return (long long)a * b + c + (long long)(d * 4.0f) + (long long)(e * 8.0) + f + p[0];
}

__device__ __noinline__ int fib(int x)
{
    return x < 2 ? x : fib(x - 1) + fib(x - 2);
}

__device__ __noinline__ int ackermann(int m, int x)
{
    if (m == 0)
        return x + 1;
    if (x == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, x - 1));
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_xor(int a, int b) { return a ^ b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

typedef int (*binop)(int, int);
__device__ binop g_ops[4] = {op_add, op_mul, op_xor, op_max};

// K = 6 slots, s64.
extern "C" __global__ void ctl_calls(const unsigned *sel, const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned s = sel[i];
    int v = in[i];
    int k = 0;
    OUT(mix_args(v, (unsigned char)s, (short)(v >> 8), (float)(s & 7) * 0.25f,
                 (double)(int)(s >> 5) * 0.5, (long long)v << 20, in + (s % n)));
    OUT(fib((int)(s % 17)));
    OUT(ackermann(2, (int)(s % 6)));
    OUT(ackermann((int)(s % 3), 3));
    binop f = g_ops[s % 4];                         /* indirect call: call (...), %rd, (...), proto */
    OUT(f(v, (int)s));
    binop g = (s & 16) ? op_mul : op_add;          /* pointer chosen by a branch */
    OUT(g(f(v, 3), (int)(s >> 2)));
}

// Early return and exit: some threads leave before writing, the others go on.
// out: 2 * n s32; slots of threads that left stay 0.
extern "C" __global__ void ctl_early_exit(const unsigned *sel, const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned s = sel[i];
    if (s % 5 == 0)
        return;
    out[i] = in[i] + 1;
    if (s % 7 == 0)
        asm volatile("exit;");
    int acc = 0;
    for (unsigned j = 0; j < s % 13; j++) {
        if (j == 9)
            return;
        acc += (int)j * in[i];
    }
    out[n + i] = acc ^ (int)s;
}
