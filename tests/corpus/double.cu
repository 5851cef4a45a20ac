// Corpus, double precision: every explicitly rounded intrinsic, IEEE basics, classification and
// comparisons, and double library functions (built from exact f64 operations plus rcp/rsqrt
// approximations that are refined).
//
// Output slot k of element i is out[k * n + i].

#define OUT(v) (out[(k++) * n + i] = (v))

// K = 28 slots, f64.
extern "C" __global__ void f64_round(const double *a, const double *b, const double *c,
                                     double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    int k = 0;
    OUT(__dadd_rn(x, y));
    OUT(__dadd_rz(x, y));
    OUT(__dadd_rd(x, y));
    OUT(__dadd_ru(x, y));
    OUT(__dsub_rn(x, y));
    OUT(__dsub_rz(x, y));
    OUT(__dsub_rd(x, y));
    OUT(__dsub_ru(x, y));
    OUT(__dmul_rn(x, y));
    OUT(__dmul_rz(x, y));
    OUT(__dmul_rd(x, y));
    OUT(__dmul_ru(x, y));
    OUT(__fma_rn(x, y, z));
    OUT(__fma_rz(x, y, z));
    OUT(__fma_rd(x, y, z));
    OUT(__fma_ru(x, y, z));
    OUT(__ddiv_rn(x, y));
    OUT(__ddiv_rz(x, y));
    OUT(__ddiv_rd(x, y));
    OUT(__ddiv_ru(x, y));
    OUT(__drcp_rn(x));
    OUT(__drcp_rz(x));
    OUT(__drcp_rd(x));
    OUT(__drcp_ru(x));
    OUT(__dsqrt_rn(x));
    OUT(__dsqrt_rz(x));
    OUT(__dsqrt_rd(x));
    OUT(__dsqrt_ru(x));
}

// K = 20 slots of f64 in out, 1 u32 of flag bits in flags.
extern "C" __global__ void f64_basic(const double *a, const double *b, const double *c,
                                     double *out, unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i], r;
    int k = 0;
    OUT(x + y);
    OUT(x - y);
    OUT(x * y);
    OUT(x / y);                       /* div.rn.f64 */
    OUT(x * y + z);                   /* fma.rn.f64 */
    OUT(sqrt(x));                     /* sqrt.rn.f64 */
    OUT(fmin(x, y));
    OUT(fmax(x, y));
    OUT(copysign(x, y));
    OUT(fabs(x));
    OUT(-x);
    OUT(floor(x));
    OUT(ceil(x));
    OUT(trunc(x));
    OUT(rint(x));
    OUT(round(x));
    OUT(1.0 / x);                     /* rcp.rn.f64 */
    OUT(x > y ? x : z);
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(fabs(x) + 1.0));
    OUT(r > 0.0 ? 1.0 : 0.0);         /* .approx: only its sign is compared */
    asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(z));
    OUT(r);
    unsigned f = 0;
    f |= (unsigned)(isinf(x) != 0) << 0;
    f |= (unsigned)(isnan(x) != 0) << 1;
    f |= (unsigned)(isfinite(x) != 0) << 2;
    f |= (unsigned)(signbit(x) != 0) << 3;
    f |= (unsigned)(x < y) << 4;
    f |= (unsigned)(x <= y) << 5;
    f |= (unsigned)(x == y) << 6;
    f |= (unsigned)(x != y) << 7;
    f |= (unsigned)(x > y) << 8;
    f |= (unsigned)(x >= y) << 9;
    f |= (unsigned)!(x < y) << 10;
    f |= (unsigned)!(x >= y) << 11;
    f |= (unsigned)(isnan(x) || isnan(y)) << 12;
    f |= (unsigned)(x == 0.0) << 13;
    flags[i] = f;
}

// Double library functions (deterministic on a GPU; their internal rcp/rsqrt approximations are
// refined to within 1-2 ulp, so compare with a tolerance of a few ulp). K = 14 slots, f64.
extern "C" __global__ void f64_libm(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    int k = 0;
    OUT(sin(x));
    OUT(cos(x));
    OUT(exp(x));
    OUT(log(x));
    OUT(pow(x, y));
    OUT(atan2(x, y));
    OUT(erf(x));
    OUT(cbrt(x));
    OUT(tanh(x));
    OUT(fmod(x, y));
    OUT(hypot(x, y));
    OUT(rsqrt(x));
    OUT(log1p(x));
    OUT(expm1(x));
}
