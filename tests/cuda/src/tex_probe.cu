// tex_probe.cu -- probes of the H100's texture filter: the eight trilinear corner weights
// (a 2x2x2 float texture with one corner 1.0), half and snorm8 filtering of single texel
// values, and 1-D normalised coordinates under the border mode.
#include "tex_common.h"

int main()
{
    const cudaTextureAddressMode C = cudaAddressModeClamp, B = cudaAddressModeBorder;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    // 3-D weights: 12 fractions per axis, each corner alone
    const int fr[12] = {1, 3, 17, 50, 64, 77, 100, 128, 129, 170, 201, 255};
    std::vector<float4> xs;
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            for (int c = 0; c < 12; c++)
                xs.push_back(f4(0.5f + fr[a] / 256.0f, 0.5f + fr[b] / 256.0f, 0.5f + fr[c] / 256.0f));
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(2, 2, 2), 0));
    for (int corner = 0; corner < 8; corner++) {
        float v[8] = {0};
        v[corner] = 1.0f;
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v, 8, 2, 2);
        p.dstArray = a3;
        p.extent = make_cudaExtent(2, 2, 2);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaTextureObject_t t = make_tex(a3, C, C, C, cudaFilterModeLinear, cudaReadModeElementType, 0);
        char label[40];
        snprintf(label, sizeof label, "3d corner %d", corner);
        print_hex(label, sample<float4>(t, K3D, xs), 1);
        CK(cudaDestroyTextureObject(t));
    }
    // 2-D half and snorm8: 2x2 textures with one texel set, weights on a grid
    std::vector<float4> x2;
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            x2.push_back(f4(0.5f + fr[a] / 256.0f, 0.5f + fr[b] / 256.0f));
    const unsigned short halves[4] = {0x3c00, 0x3555, 0x7bff, 0x0001};
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    cudaArray_t ah;
    CK(cudaMallocArray(&ah, &hd, 2, 2, 0));
    for (int k = 0; k < 4; k++) {
        unsigned short v[4] = {0x3800, 0, 0, 0};
        v[3] = halves[k];
        CK(cudaMemcpy2DToArray(ah, 0, 0, v, 4, 4, 2, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(ah, C, C, C, cudaFilterModeLinear, cudaReadModeElementType, 0);
        char label[40];
        snprintf(label, sizeof label, "half 0.5 and %04x", halves[k]);
        print_hex(label, sample<float4>(t, K2D, x2), 1);
        CK(cudaDestroyTextureObject(t));
    }
    cudaChannelFormatDesc sd = cudaCreateChannelDesc<signed char>();
    cudaArray_t as;
    CK(cudaMallocArray(&as, &sd, 256, 0, 0));
    signed char all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (signed char)(i - 128);
    CK(cudaMemcpy2DToArray(as, 0, 0, all, 256, 256, 1, cudaMemcpyHostToDevice));
    std::vector<float4> x1;
    for (int i = 0; i < 255; i++)
        x1.push_back(f4(i + 0.5f + 1 / 256.0f));
    cudaTextureObject_t t = make_tex(as, C, C, C, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0);
    print_hex("snorm8 neighbours at 1/256", sample<float4>(t, K1D, x1), 1);
    CK(cudaDestroyTextureObject(t));
    // 1-D normalised coordinates, border vs clamp, width 4 and 5, fractions 0..255 of texel 1
    for (int w = 4; w <= 5; w++) {
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, w, 0, 0));
        float v[5] = {1, 2, 4, 8, 16};
        CK(cudaMemcpy2DToArray(a, 0, 0, v, w * 4, w * 4, 1, cudaMemcpyHostToDevice));
        std::vector<float4> xn;
        for (int k = 0; k < 64; k++)
            xn.push_back(f4((1.5f + k / 64.0f) / w));
        for (int m = 0; m < 2; m++) {
            cudaTextureObject_t tt = make_tex(a, m ? B : C, m ? B : C, C, cudaFilterModeLinear, cudaReadModeElementType, 1);
            char label[40];
            snprintf(label, sizeof label, "1d width %d %s normalised", w, m ? "border" : "clamp");
            print_hex(label, sample<float4>(tt, K1D, xn), 1);
            CK(cudaDestroyTextureObject(tt));
            tt = make_tex(a, m ? B : C, C, C, cudaFilterModeLinear, cudaReadModeElementType, 1);
            snprintf(label, sizeof label, "1d width %d x %s y clamp", w, m ? "border" : "clamp");
            print_hex(label, sample<float4>(tt, K1D, xn), 1);
            CK(cudaDestroyTextureObject(tt));
        }
        CK(cudaFreeArray(a));
    }
    CK(cudaFreeArray(a3));
    CK(cudaFreeArray(ah));
    CK(cudaFreeArray(as));
    return finish();
}
