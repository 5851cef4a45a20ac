// tex_common.h -- helpers shared by Loom's texture and surface test programs: a sampling kernel
// over a list of coordinates, texture-object creation, deterministic data and hex printing (so
// that a recording on the GPU pins results bit for bit).
#ifndef LOOM_TEST_TEX_COMMON_H
#define LOOM_TEST_TEX_COMMON_H
#include "check.h"
#include <cstring>
#include <vector>

// What a sample reads: the fetch family and, for gathers, the component.
enum sample_kind { K1D, K2D, K3D, KA1D, KA2D, KFETCH, KG0, KG1, KG2, KG3 };

// Samples texture t at coordinates c[i] = (x, y, z, layer) the way kind says.
template <typename T>
__global__ void sample_kernel(cudaTextureObject_t t, int kind, const float4 *c, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 p = c[i];
    T r;
    switch (kind) {
    case K1D: r = tex1D<T>(t, p.x); break;
    case K2D: r = tex2D<T>(t, p.x, p.y); break;
    case K3D: r = tex3D<T>(t, p.x, p.y, p.z); break;
    case KA1D: r = tex1DLayered<T>(t, p.x, (int)p.w); break;
    case KA2D: r = tex2DLayered<T>(t, p.x, p.y, (int)p.w); break;
    case KFETCH: r = tex1Dfetch<T>(t, (int)p.x); break;
    case KG0: r = tex2Dgather<T>(t, p.x, p.y, 0); break;
    case KG1: r = tex2Dgather<T>(t, p.x, p.y, 1); break;
    case KG2: r = tex2Dgather<T>(t, p.x, p.y, 2); break;
    default: r = tex2Dgather<T>(t, p.x, p.y, 3); break;
    }
    out[i] = r;
}

// Runs sample_kernel over coords and returns the results (T is float4, int4 or uint4).
template <typename T>
static std::vector<T> sample(cudaTextureObject_t t, int kind, const std::vector<float4> &coords)
{
    int n = (int)coords.size();
    float4 *dc;
    T *dout;
    CK(cudaMalloc(&dc, n * sizeof(float4)));
    CK(cudaMalloc(&dout, n * sizeof(T)));
    CK(cudaMemcpy(dc, coords.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    sample_kernel<T><<<(n + 127) / 128, 128>>>(t, kind, dc, dout, n);
    CK(cudaGetLastError());
    std::vector<T> out(n);
    CK(cudaMemcpy(out.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaFree(dc));
    CK(cudaFree(dout));
    return out;
}

static unsigned bits_of(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}

// Prints a label and the results as hex words, `comps` components of each, 8 words a line.
template <typename T>
static void print_hex(const char *label, const std::vector<T> &v, int comps)
{
    printf("%s:", label);
    int k = 0;
    for (size_t i = 0; i < v.size(); i++) {
        unsigned w[4];
        memcpy(w, &v[i], 16);
        for (int c = 0; c < comps; c++, k++)
            printf("%s%08x", k % 8 == 0 ? "\n  " : " ", w[c]);
    }
    printf("\n");
}

// Creates a texture object over an array with the given sampling state.
static cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureAddressMode m0, cudaTextureAddressMode m1,
                                    cudaTextureAddressMode m2, cudaTextureFilterMode filter,
                                    cudaTextureReadMode read, int normalized)
{
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = m0;
    td.addressMode[1] = m1;
    td.addressMode[2] = m2;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    td.borderColor[0] = 0.25f;
    td.borderColor[1] = 0.5f;
    td.borderColor[2] = 0.75f;
    td.borderColor[3] = 1.0f;
    cudaTextureObject_t t = 0;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

// Deterministic pseudo-random 32-bit words.
static unsigned lcg_state = 12345;
static unsigned lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

// A float in [-8, 8) with 12 random fraction bits.
static float rnd_float(void)
{
    return (float)((int)(lcg() >> 16) - 32768) / 4096.0f;
}

static float4 f4(float x, float y = 0, float z = 0, float w = 0)
{
    return make_float4(x, y, z, w);
}
#endif
