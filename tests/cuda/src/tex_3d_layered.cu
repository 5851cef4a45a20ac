// tex_3d_layered.cu -- 3-D textures, 1-D and 2-D layered textures (the layer is an integer, never
// filtered or wrapped) and tld4 gathers of each component, point and linear, clamp and border.
#include "tex_common.h"

int main()
{
    const cudaTextureAddressMode C = cudaAddressModeClamp, B = cudaAddressModeBorder,
                                 Wr = cudaAddressModeWrap;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    // 3-D 6 x 5 x 4 random floats
    const int X = 6, Y = 5, Z = 4;
    std::vector<float> v3(X * Y * Z);
    for (auto &f : v3)
        f = rnd_float();
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(X, Y, Z), 0));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(v3.data(), X * sizeof(float), X, Y);
    p.dstArray = a3;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    std::vector<float4> x3;
    for (int k = 0; k < 120; k++)
        x3.push_back(f4(-1.0f + (float)(lcg() % 8000) / 1000.0f, -1.0f + (float)(lcg() % 7000) / 1000.0f,
                        -1.0f + (float)(lcg() % 6000) / 1000.0f));
    for (int f = 0; f < 2; f++) {
        cudaTextureFilterMode fm = f ? cudaFilterModeLinear : cudaFilterModePoint;
        cudaTextureObject_t t = make_tex(a3, C, C, C, fm, cudaReadModeElementType, 0);
        print_hex(f ? "3d linear clamp" : "3d point clamp", sample<float4>(t, K3D, x3), 1);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(a3, B, B, B, fm, cudaReadModeElementType, 0);
        print_hex(f ? "3d linear border" : "3d point border", sample<float4>(t, K3D, x3), 1);
        CK(cudaDestroyTextureObject(t));
    }

    // 1-D layered: 9 texels x 3 layers; layers out of range included
    const int L = 3, W1 = 9;
    std::vector<float> v1(W1 * L);
    for (auto &f : v1)
        f = rnd_float();
    cudaArray_t al1;
    CK(cudaMalloc3DArray(&al1, &cd, make_cudaExtent(W1, 0, L), cudaArrayLayered));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(v1.data(), W1 * sizeof(float), W1, 1);
    p.dstArray = al1;
    p.extent = make_cudaExtent(W1, 1, L);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    std::vector<float4> xl1;
    for (int k = 0; k < 60; k++)
        xl1.push_back(f4(-1.0f + (float)(lcg() % 11000) / 1000.0f, 0, 0, (float)((int)(lcg() % 7) - 2)));
    for (int f = 0; f < 2; f++) {
        cudaTextureObject_t t =
            make_tex(al1, Wr, Wr, Wr, f ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, 1);
        std::vector<float4> xn = xl1;
        for (auto &c : xn)
            c.x /= W1;
        print_hex(f ? "a1d linear wrap normalised" : "a1d point wrap normalised", sample<float4>(t, KA1D, xn), 1);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(al1, C, C, C, f ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, 0);
        print_hex(f ? "a1d linear clamp" : "a1d point clamp", sample<float4>(t, KA1D, xl1), 1);
        CK(cudaDestroyTextureObject(t));
    }

    // 2-D layered: 4 x 3 uchar4 texels x 5 layers, normalised-float reads
    const int W2 = 4, H2 = 3, L2 = 5;
    cudaChannelFormatDesc cd4 = cudaCreateChannelDesc<uchar4>();
    std::vector<uchar4> v2(W2 * H2 * L2);
    for (auto &c : v2)
        c = make_uchar4(lcg() >> 24, lcg() >> 24, lcg() >> 24, lcg() >> 24);
    cudaArray_t al2;
    CK(cudaMalloc3DArray(&al2, &cd4, make_cudaExtent(W2, H2, L2), cudaArrayLayered));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(v2.data(), W2 * sizeof(uchar4), W2, H2);
    p.dstArray = al2;
    p.extent = make_cudaExtent(W2, H2, L2);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    std::vector<float4> xl2;
    for (int k = 0; k < 60; k++)
        xl2.push_back(f4(-1.0f + (float)(lcg() % 6000) / 1000.0f, -1.0f + (float)(lcg() % 5000) / 1000.0f, 0,
                         (float)((int)(lcg() % 8) - 1)));
    for (int f = 0; f < 2; f++) {
        cudaTextureObject_t t =
            make_tex(al2, B, C, C, f ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
        print_hex(f ? "a2d linear border clamp" : "a2d point border clamp", sample<float4>(t, KA2D, xl2), 4);
        CK(cudaDestroyTextureObject(t));
    }

    // tld4 on a 2-D 5 x 4 float array and a uchar4 one (normalised) and an int one
    const int W = 5, H = 4;
    std::vector<float> vf(W * H);
    for (int i = 0; i < W * H; i++)
        vf[i] = (float)(i + 1);
    cudaArray_t af;
    CK(cudaMallocArray(&af, &cd, W, H, 0));
    CK(cudaMemcpy2DToArray(af, 0, 0, vf.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    std::vector<float4> xg;
    for (int k = 0; k < 40; k++)
        xg.push_back(f4(-1.0f + (float)(lcg() % 7000) / 1000.0f, -1.0f + (float)(lcg() % 6000) / 1000.0f));
    for (int m = 0; m < 2; m++) {
        cudaTextureObject_t t = make_tex(af, m ? B : C, m ? B : C, C, cudaFilterModePoint, cudaReadModeElementType, 0);
        print_hex(m ? "tld4 float r border" : "tld4 float r clamp", sample<float4>(t, KG0, xg), 4);
        print_hex(m ? "tld4 float g border" : "tld4 float g clamp", sample<float4>(t, KG1, xg), 4);
        CK(cudaDestroyTextureObject(t));
    }
    cudaArray_t au;
    CK(cudaMallocArray(&au, &cd4, W, H, 0));
    CK(cudaMemcpy2DToArray(au, 0, 0, v2.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = make_tex(au, Wr, Wr, C, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
    std::vector<float4> xgn = xg;
    for (auto &c : xgn) {
        c.x /= W;
        c.y /= H;
    }
    const int kinds[4] = {KG0, KG1, KG2, KG3};
    const char *gl[4] = {"tld4 uchar4 r", "tld4 uchar4 g", "tld4 uchar4 b", "tld4 uchar4 a"};
    for (int c = 0; c < 4; c++)
        print_hex(gl[c], sample<float4>(t, kinds[c], xgn), 4);
    CK(cudaDestroyTextureObject(t));
    t = make_tex(au, C, C, C, cudaFilterModePoint, cudaReadModeElementType, 0);
    print_hex("tld4 uchar4 element b", sample<uint4>(t, KG2, xg), 4);
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a3));
    CK(cudaFreeArray(al1));
    CK(cudaFreeArray(al2));
    CK(cudaFreeArray(af));
    CK(cudaFreeArray(au));
    return finish();
}
