// tex_address.cu -- addressing modes: wrap, clamp, mirror and border (with a border colour) in
// 1-D, 2-D (a mode per axis) and 3-D, point and linear, normalised and unnormalised coordinates.
#include "tex_common.h"
// nvcc-flags: -Xcompiler -Wno-deprecated-declarations

int main()
{
    const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                             cudaAddressModeBorder};
    const char *mname[4] = {"wrap", "clamp", "mirror", "border"};
    // 1-D: five texels 1..5 so each sample names the texels it read.
    float v[5] = {1.0f, 2.0f, 4.0f, 8.0f, 16.0f};
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a1;
    CK(cudaMallocArray(&a1, &cd, 5, 0, 0));
    CK(cudaMemcpyToArray(a1, 0, 0, v, sizeof v, cudaMemcpyHostToDevice));
    std::vector<float4> xn, xu;
    for (int k = -40; k <= 40; k++) {
        xn.push_back(f4(k / 16.0f + 0.01f));
        xu.push_back(f4(k / 4.0f + 0.03f));
    }
    xn.push_back(f4(-0.0f));
    xn.push_back(f4(1.0f));
    xn.push_back(f4(1e9f));
    xn.push_back(f4(-1e9f));
    xn.push_back(f4(__builtin_inff()));
    xn.push_back(f4(__builtin_nanf("")));
    xu.push_back(f4(5.0f));
    xu.push_back(f4(1e9f));
    xu.push_back(f4(-1e9f));
    xu.push_back(f4(__builtin_nanf("")));
    for (int m = 0; m < 4; m++)
        for (int f = 0; f < 2; f++) {
            cudaTextureFilterMode fm = f ? cudaFilterModeLinear : cudaFilterModePoint;
            char label[80];
            cudaTextureObject_t t = make_tex(a1, modes[m], modes[m], modes[m], fm, cudaReadModeElementType, 1);
            snprintf(label, sizeof label, "1d %s %s normalised", mname[m], f ? "linear" : "point");
            print_hex(label, sample<float4>(t, K1D, xn), 1);
            CK(cudaDestroyTextureObject(t));
            t = make_tex(a1, modes[m], modes[m], modes[m], fm, cudaReadModeElementType, 0);
            snprintf(label, sizeof label, "1d %s %s unnormalised", mname[m], f ? "linear" : "point");
            print_hex(label, sample<float4>(t, K1D, xu), 1);
            CK(cudaDestroyTextureObject(t));
        }

    // 2-D 5 x 3 float2 texels, a different mode per axis.
    float2 v2[15];
    for (int i = 0; i < 15; i++)
        v2[i] = make_float2((float)(1 << (i % 5)), (float)(1 << (i / 5)) * 100.0f);
    cudaChannelFormatDesc cd2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a2;
    CK(cudaMallocArray(&a2, &cd2, 5, 3, 0));
    CK(cudaMemcpy2DToArray(a2, 0, 0, v2, 5 * sizeof(float2), 5 * sizeof(float2), 3, cudaMemcpyHostToDevice));
    std::vector<float4> x2;
    for (int k = 0; k < 48; k++)
        x2.push_back(f4(-1.5f + (float)(lcg() % 4000) / 1000.0f, -1.5f + (float)(lcg() % 4000) / 1000.0f));
    for (int mx = 0; mx < 4; mx++)
        for (int my = 0; my < 4; my++) {
            char label[80];
            cudaTextureObject_t t = make_tex(a2, modes[mx], modes[my], modes[0], cudaFilterModeLinear,
                                             cudaReadModeElementType, 1);
            snprintf(label, sizeof label, "2d x %s y %s linear", mname[mx], mname[my]);
            print_hex(label, sample<float4>(t, K2D, x2), 4);
            CK(cudaDestroyTextureObject(t));
        }

    // 3-D 3 x 2 x 4 floats: wrap, mirror, border on the three axes.
    cudaArray_t a3;
    CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(3, 2, 4), 0));
    float v3[24];
    for (int i = 0; i < 24; i++)
        v3[i] = (float)(i + 1);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(v3, 3 * sizeof(float), 3, 2);
    p.dstArray = a3;
    p.extent = make_cudaExtent(3, 2, 4);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    std::vector<float4> x3;
    for (int k = 0; k < 48; k++)
        x3.push_back(f4(-1.0f + (float)(lcg() % 3000) / 1000.0f, -1.0f + (float)(lcg() % 3000) / 1000.0f,
                        -1.0f + (float)(lcg() % 3000) / 1000.0f));
    for (int f = 0; f < 2; f++) {
        cudaTextureObject_t t = make_tex(a3, modes[0], modes[2], modes[3],
                                         f ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, 1);
        print_hex(f ? "3d wrap mirror border linear" : "3d wrap mirror border point", sample<float4>(t, K3D, x3), 4);
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(a2));
    CK(cudaFreeArray(a3));
    return finish();
}
