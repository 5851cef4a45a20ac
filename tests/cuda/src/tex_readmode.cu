// tex_readmode.cu -- channel formats and read modes: 8/16/32-bit signed and unsigned integers,
// half and float with 1, 2 and 4 channels, read as the element type or as normalised floats
// (unsigned to [0,1], signed to [-1,1]), the fill of missing channels, sRGB, and which
// combinations cudaCreateTextureObject refuses.
#include "tex_common.h"

struct fmt {
    const char *name;
    int bits, channels;
    cudaChannelFormatKind kind;
};

int main()
{
    const fmt fmts[] = {
        {"u8x1", 8, 1, cudaChannelFormatKindUnsigned},   {"s8x2", 8, 2, cudaChannelFormatKindSigned},
        {"u8x4", 8, 4, cudaChannelFormatKindUnsigned},   {"s8x4", 8, 4, cudaChannelFormatKindSigned},
        {"u16x1", 16, 1, cudaChannelFormatKindUnsigned}, {"s16x2", 16, 2, cudaChannelFormatKindSigned},
        {"s16x4", 16, 4, cudaChannelFormatKindSigned},   {"u32x1", 32, 1, cudaChannelFormatKindUnsigned},
        {"s32x2", 32, 2, cudaChannelFormatKindSigned},   {"s32x4", 32, 4, cudaChannelFormatKindSigned},
        {"f16x1", 16, 1, cudaChannelFormatKindFloat},    {"f16x2", 16, 2, cudaChannelFormatKindFloat},
        {"f32x1", 32, 1, cudaChannelFormatKindFloat},    {"f32x2", 32, 2, cudaChannelFormatKindFloat},
    };
    const cudaTextureAddressMode C = cudaAddressModeClamp;
    const int W = 8, H = 2;
    std::vector<float4> xs;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            xs.push_back(f4(x + 0.5f, y + 0.5f));
    std::vector<float4> lin;
    for (int k = 0; k < 16; k++)
        lin.push_back(f4(0.5f + k * 0.37f, 0.5f + k * 0.06f));
    for (const fmt &f : fmts) {
        int b = f.bits;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc(b, f.channels > 1 ? b : 0, f.channels > 2 ? b : 0,
                                                         f.channels > 3 ? b : 0, f.kind);
        int bytes = b / 8 * f.channels;
        std::vector<unsigned char> raw(W * H * bytes);
        for (auto &c : raw)
            c = (unsigned char)(lcg() >> 24);
        // the extremes of each integer type in the first texels
        memset(raw.data(), 0xff, b / 8);
        raw[bytes + b / 8 - 1] = 0x80;
        memset(raw.data() + bytes, 0, b / 8 - 1);
        raw[2 * bytes + b / 8 - 1] = 0x7f;
        memset(raw.data() + 2 * bytes, 0xff, b / 8 - 1);
        if (f.kind == cudaChannelFormatKindFloat && b == 16)
            for (int i = 1; i < (int)raw.size(); i += 2)
                raw[i] &= 0x7b;
        if (f.kind == cudaChannelFormatKindFloat && b == 32)
            for (int i = 3; i < (int)raw.size(); i += 4)
                raw[i] &= 0x7b;
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, W, H, 0));
        CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), W * bytes, W * bytes, H, cudaMemcpyHostToDevice));
        char label[80];
        bool isint = f.kind != cudaChannelFormatKindFloat;
        // element type: integers read as int4/uint4, floats and halves as float4
        cudaTextureObject_t t = make_tex(a, C, C, C, cudaFilterModePoint, cudaReadModeElementType, 0);
        snprintf(label, sizeof label, "%s element", f.name);
        if (!isint)
            print_hex(label, sample<float4>(t, K2D, xs), 4);
        else if (f.kind == cudaChannelFormatKindSigned)
            print_hex(label, sample<int4>(t, K2D, xs), 4);
        else
            print_hex(label, sample<uint4>(t, K2D, xs), 4);
        CK(cudaDestroyTextureObject(t));
        // normalised float, point and linear (8- and 16-bit integers only)
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = C;
        td.readMode = cudaReadModeNormalizedFloat;
        cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
        printf("%s normalised float: %s\n", f.name, cudaGetErrorName(e));
        cudaGetLastError();
        if (e == cudaSuccess) {
            snprintf(label, sizeof label, "%s normalised point", f.name);
            print_hex(label, sample<float4>(t, K2D, xs), 4);
            CK(cudaDestroyTextureObject(t));
        }
        td.filterMode = cudaFilterModeLinear;
        e = cudaCreateTextureObject(&t, &rd, &td, NULL);
        printf("%s normalised linear: %s\n", f.name, cudaGetErrorName(e));
        cudaGetLastError();
        if (e == cudaSuccess) {
            snprintf(label, sizeof label, "%s normalised linear", f.name);
            print_hex(label, sample<float4>(t, K2D, lin), 4);
            CK(cudaDestroyTextureObject(t));
        }
        // linear filtering with the element type
        td.readMode = cudaReadModeElementType;
        e = cudaCreateTextureObject(&t, &rd, &td, NULL);
        printf("%s element linear: %s\n", f.name, cudaGetErrorName(e));
        cudaGetLastError();
        if (e == cudaSuccess)
            CK(cudaDestroyTextureObject(t));
        // sRGB on 8-bit unsigned four channels
        if (b == 8 && f.channels == 4 && f.kind == cudaChannelFormatKindUnsigned) {
            td.readMode = cudaReadModeNormalizedFloat;
            td.sRGB = 1;
            for (int m = 0; m < 2; m++) {
                td.filterMode = m ? cudaFilterModeLinear : cudaFilterModePoint;
                CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
                print_hex(m ? "u8x4 srgb linear" : "u8x4 srgb point", sample<float4>(t, K2D, m ? lin : xs), 4);
                CK(cudaDestroyTextureObject(t));
            }
        }
        CK(cudaFreeArray(a));
    }
    // every sRGB value of an 8-bit channel
    {
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar1>();
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, 256, 0, 0));
        unsigned char all[256];
        for (int i = 0; i < 256; i++)
            all[i] = (unsigned char)i;
        CK(cudaMemcpy2DToArray(a, 0, 0, all, 256, 256, 1, cudaMemcpyHostToDevice));
        std::vector<float4> x;
        for (int i = 0; i < 256; i++)
            x.push_back(f4(i + 0.5f));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.readMode = cudaReadModeNormalizedFloat;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        print_hex("u8 all normalised", sample<float4>(t, K1D, x), 1);
        CK(cudaDestroyTextureObject(t));
        td.sRGB = 1;
        CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        print_hex("u8 all srgb", sample<float4>(t, K1D, x), 1);
        CK(cudaDestroyTextureObject(t));
        CK(cudaFreeArray(a));
    }
    return finish();
}
