// templates_types.cu -- templated kernels over char, short, int, long long, float, double and
// a struct; integer overflow wraps, division and modulo of negatives, conversions.
#include <cstdint>
#include "check.h"

struct vec3 {
    float x, y, z;
};

template <typename T>
__global__ void mix(const T *a, const T *b, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (T)(a[i] * b[i] + a[i] / (b[i] == 0 ? (T)1 : b[i]) - a[i] % (b[i] == 0 ? (T)1 : b[i]));
}

template <typename T>
__global__ void fmix(const T *a, const T *b, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * b[i] + a[i] / b[i] - (T)(long long)a[i];
}

__global__ void cross(const vec3 *a, const vec3 *b, vec3 *c)
{
    int i = threadIdx.x;
    c[i].x = a[i].y * b[i].z - a[i].z * b[i].y;
    c[i].y = a[i].z * b[i].x - a[i].x * b[i].z;
    c[i].z = a[i].x * b[i].y - a[i].y * b[i].x;
}

template <typename T, typename F>
static int check_int(F ref)
{
    const int n = 1000;
    T ha[n], hb[n], ho[n], *a, *b, *o;
    for (int i = 0; i < n; i++) {
        ha[i] = (T)(i * 37 - 5000);
        hb[i] = (T)(i % 13 - 6);
    }
    CK(cudaMalloc(&a, sizeof ha));
    CK(cudaMalloc(&b, sizeof hb));
    CK(cudaMalloc(&o, sizeof ho));
    CK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    mix<T><<<4, 256>>>(a, b, o, n);
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += ho[i] != ref(ha[i], hb[i]);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(o));
    return bad;
}

template <typename T>
static int check_float()
{
    const int n = 1000;
    T ha[n], hb[n], ho[n], *a, *b, *o;
    for (int i = 0; i < n; i++) {
        ha[i] = (T)(i - 500) / (T)8;
        hb[i] = (T)(i % 9 + 1) / (T)4;
    }
    CK(cudaMalloc(&a, sizeof ha));
    CK(cudaMalloc(&b, sizeof hb));
    CK(cudaMalloc(&o, sizeof ho));
    CK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    fmix<T><<<4, 256>>>(a, b, o, n);
    CK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        T e = ha[i] * hb[i] + ha[i] / hb[i] - (T)(long long)ha[i];
        T d = ho[i] - e;
        bad += (d < 0 ? -d : d) > (T)1e-4 * (e < 0 ? -e + 1 : e + 1);
    }
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(o));
    return bad;
}

template <typename T>
static T ref_mix(T a, T b)
{
    T d = b == 0 ? (T)1 : b;
    return (T)(a * b + a / d - a % d);
}

int main()
{
    int r[6] = {check_int<int8_t>(ref_mix<int8_t>), check_int<int16_t>(ref_mix<int16_t>),
                check_int<int32_t>(ref_mix<int32_t>), check_int<long long>(ref_mix<long long>),
                check_float<float>(), check_float<double>()};
    printf("mismatches: char %d, short %d, int %d, long long %d, float %d, double %d\n", r[0], r[1], r[2], r[3],
           r[4], r[5]);
    for (int i = 0; i < 6; i++)
        EXPECT(r[i] == 0);
    vec3 ha[32], hb[32], hc[32], *a, *b, *c;
    for (int i = 0; i < 32; i++) {
        ha[i] = {(float)i, 1.0f, 2.0f};
        hb[i] = {3.0f, (float)-i, 0.5f};
    }
    CK(cudaMalloc(&a, sizeof ha));
    CK(cudaMalloc(&b, sizeof hb));
    CK(cudaMalloc(&c, sizeof hc));
    CK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    cross<<<1, 32>>>(a, b, c);
    CK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    printf("cross[5] = (%.1f, %.1f, %.1f)\n", hc[5].x, hc[5].y, hc[5].z);
    EXPECT(hc[5].x == 1.0f * 0.5f - 2.0f * -5.0f && hc[5].y == 2.0f * 3.0f - 5.0f * 0.5f &&
           hc[5].z == 5.0f * -5.0f - 1.0f * 3.0f);
    return finish();
}
