// tex_filter.cu -- point and linear filtering of float, half and 8/16-bit textures in 1-D and
// 2-D, unnormalised and normalised coordinates: results printed as hex bits, so the 8-bit
// fixed-point weights of the GPU's linear filter are pinned exactly.
#include "tex_common.h"

// A 1-D array of w floats from host data.
static cudaArray_t array_1d(const float *v, int w)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, 0, 0));
    CK(cudaMemcpy2DToArray(a, 0, 0, v, w * sizeof(float), w * sizeof(float), 1, cudaMemcpyHostToDevice));
    return a;
}

int main()
{
    const cudaTextureAddressMode C = cudaAddressModeClamp;
    // Weights seen directly: texels 0, 1, 0, 256 so a linear sample between them is its weight.
    float steps[4] = {0.0f, 1.0f, 0.0f, 256.0f};
    cudaArray_t a01 = array_1d(steps, 4);
    std::vector<float4> xs;
    for (int k = 0; k <= 512; k++)
        xs.push_back(f4(1.5f + k / 512.0f));
    for (int k = 0; k < 64; k++)
        xs.push_back(f4(2.5f + k / 4096.0f));
    for (int k = 0; k < 16; k++) // near the rounding points of 1/256
        xs.push_back(f4(1.5f + (2 * k + 1) / 512.0f + ((k & 1) ? 1e-6f : -1e-6f)));
    cudaTextureObject_t t = make_tex(a01, C, C, C, cudaFilterModeLinear, cudaReadModeElementType, 0);
    print_hex("weights 1d linear", sample<float4>(t, K1D, xs), 1);
    CK(cudaDestroyTextureObject(t));
    t = make_tex(a01, C, C, C, cudaFilterModePoint, cudaReadModeElementType, 0);
    print_hex("weights 1d point", sample<float4>(t, K1D, xs), 1);
    CK(cudaDestroyTextureObject(t));

    // Random texels, unnormalised and normalised coordinates, 1-D.
    float v1[16];
    for (int i = 0; i < 16; i++)
        v1[i] = rnd_float();
    cudaArray_t a1 = array_1d(v1, 16);
    std::vector<float4> x1, x1n;
    for (int k = 0; k < 160; k++) {
        float x = -1.0f + k * (18.0f / 160.0f) + (float)(lcg() % 1000) / 7919.0f;
        x1.push_back(f4(x));
        x1n.push_back(f4(x / 16.0f));
    }
    for (int m = 0; m < 2; m++) {
        cudaTextureFilterMode fm = m ? cudaFilterModeLinear : cudaFilterModePoint;
        t = make_tex(a1, C, C, C, fm, cudaReadModeElementType, 0);
        print_hex(m ? "1d linear" : "1d point", sample<float4>(t, K1D, x1), 1);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(a1, C, C, C, fm, cudaReadModeElementType, 1);
        print_hex(m ? "1d linear normalised" : "1d point normalised", sample<float4>(t, K1D, x1n), 1);
        CK(cudaDestroyTextureObject(t));
    }

    // 2-D float4 texels 7 x 5, linear: the weight product and the order of the sums.
    const int W = 7, H = 5;
    std::vector<float4> v2(W * H);
    for (auto &p : v2)
        p = make_float4(rnd_float(), rnd_float(), rnd_float() * 1000.0f, rnd_float() / 1000.0f);
    cudaChannelFormatDesc cd4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a2;
    CK(cudaMallocArray(&a2, &cd4, W, H, 0));
    CK(cudaMemcpy2DToArray(a2, 0, 0, v2.data(), W * sizeof(float4), W * sizeof(float4), H,
                           cudaMemcpyHostToDevice));
    std::vector<float4> x2, x2n;
    for (int k = 0; k < 200; k++) {
        float x = -1.0f + (float)(lcg() % 9000) / 1000.0f, y = -1.0f + (float)(lcg() % 7000) / 1000.0f;
        x2.push_back(f4(x, y));
        x2n.push_back(f4(x / W, y / H));
    }
    for (int m = 0; m < 2; m++) {
        cudaTextureFilterMode fm = m ? cudaFilterModeLinear : cudaFilterModePoint;
        t = make_tex(a2, C, C, C, fm, cudaReadModeElementType, 0);
        print_hex(m ? "2d float4 linear" : "2d float4 point", sample<float4>(t, K2D, x2), 4);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(a2, C, C, C, fm, cudaReadModeElementType, 1);
        print_hex(m ? "2d float4 linear normalised" : "2d float4 point normalised", sample<float4>(t, K2D, x2n), 4);
        CK(cudaDestroyTextureObject(t));
    }

    // 8- and 16-bit unsigned and half textures, linear, read as normalised floats.
    cudaChannelFormatDesc cds[3] = {cudaCreateChannelDesc<uchar4>(), cudaCreateChannelDesc<ushort4>(),
                                    cudaCreateChannelDescHalf4()};
    const char *names[3] = {"uchar4 linear", "ushort4 linear", "half4 linear"};
    for (int f = 0; f < 3; f++) {
        int bytes = f == 0 ? 4 : 8;
        std::vector<unsigned char> raw(W * H * bytes);
        for (auto &b : raw)
            b = (unsigned char)(lcg() >> 24);
        if (f == 2) // halves: keep them finite (exponent below 31)
            for (size_t i = 1; i < raw.size(); i += 2)
                raw[i] &= 0x7b;
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cds[f], W, H, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), W * bytes, W * bytes, H, cudaMemcpyHostToDevice));
        t = make_tex(a, C, C, C, cudaFilterModeLinear, f == 2 ? cudaReadModeElementType : cudaReadModeNormalizedFloat, 0);
        print_hex(names[f], sample<float4>(t, K2D, x2), 4);
        CK(cudaDestroyTextureObject(t));
        t = make_tex(a, C, C, C, cudaFilterModePoint, f == 2 ? cudaReadModeElementType : cudaReadModeNormalizedFloat, 1);
        std::vector<float4> few(x2n.begin(), x2n.begin() + 40);
        print_hex("  and point normalised", sample<float4>(t, K2D, few), 4);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a));
    }
    CK(cudaFreeArray(a01));
    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(a2));
    return finish();
}
