// tex_linear_mem.cu -- textures over linear memory (tex1Dfetch, indices past the end) and over
// pitched 2-D memory (filtered, normalised), the descriptors read back from a texture object,
// and the channel descriptors that cudaCreateChannelDesc makes.
#include "tex_common.h"

int main()
{
    // channel descriptors
    cudaChannelFormatDesc cds[6] = {cudaCreateChannelDesc<float>(),  cudaCreateChannelDesc<uchar4>(),
                                    cudaCreateChannelDesc<short2>(), cudaCreateChannelDescHalf2(),
                                    cudaCreateChannelDesc<int4>(),   cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindNone)};
    for (auto &c : cds)
        printf("channel desc %d %d %d %d kind %d\n", c.x, c.y, c.z, c.w, (int)c.f);

    // linear memory: 100 floats fetched by index, some past the end or negative
    const int N = 100;
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = rnd_float();
    float *d;
    CK(cudaMalloc(&d, N * sizeof(float)));
    CK(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = N * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    std::vector<float4> idx;
    for (int i = -3; i < N + 4; i += 2)
        idx.push_back(f4((float)i));
    idx.push_back(f4(1e6f));
    print_hex("fetch float", sample<float4>(t, KFETCH, idx), 4);
    cudaResourceDesc rb;
    cudaTextureDesc tb;
    memset(&rb, 0x55, sizeof rb);
    memset(&tb, 0x55, sizeof tb);
    CK(cudaGetTextureObjectResourceDesc(&rb, t));
    CK(cudaGetTextureObjectTextureDesc(&tb, t));
    printf("resource back: type %d ptr ok %d size %zu desc %d %d %d %d kind %d\n", (int)rb.resType,
           rb.res.linear.devPtr == d, rb.res.linear.sizeInBytes, rb.res.linear.desc.x, rb.res.linear.desc.y,
           rb.res.linear.desc.z, rb.res.linear.desc.w, (int)rb.res.linear.desc.f);
    printf("texture desc back: address %d %d %d filter %d read %d srgb %d normalised %d\n", (int)tb.addressMode[0],
           (int)tb.addressMode[1], (int)tb.addressMode[2], (int)tb.filterMode, (int)tb.readMode, tb.sRGB,
           tb.normalizedCoords);
    CK(cudaDestroyTextureObject(t));
    // the same bytes as uchar4 normalised, and as short2 element type
    rd.res.linear.desc = cudaCreateChannelDesc<uchar4>();
    td.readMode = cudaReadModeNormalizedFloat;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    print_hex("fetch uchar4 normalised", sample<float4>(t, KFETCH, idx), 4);
    CK(cudaDestroyTextureObject(t));
    rd.res.linear.desc = cudaCreateChannelDesc<short2>();
    td.readMode = cudaReadModeElementType;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    print_hex("fetch short2", sample<int4>(t, KFETCH, idx), 4);
    CK(cudaDestroyTextureObject(t));
    // a size that is not a whole number of elements and a misaligned pointer
    rd.res.linear.desc = cudaCreateChannelDesc<float4>();
    rd.res.linear.sizeInBytes = 24;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
    printf("linear size 24 of float4: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        print_hex("fetch float4 of 24 bytes", sample<float4>(t, KFETCH, std::vector<float4>{f4(0), f4(1), f4(2)}), 4);
        CK(cudaDestroyTextureObject(t));
    }
    rd.res.linear.sizeInBytes = 64;
    rd.res.linear.devPtr = (char *)d + 4;
    e = cudaCreateTextureObject(&t, &rd, &td, NULL);
    printf("linear pointer off by 4: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        CK(cudaDestroyTextureObject(t));
    cudaGetLastError();

    // pitched 2-D memory: 13 x 6 floats
    const int W = 13, H = 6;
    float *p2;
    size_t pitch;
    CK(cudaMallocPitch((void **)&p2, &pitch, W * sizeof(float), H));
    std::vector<float> v2(W * H);
    for (auto &f : v2)
        f = rnd_float();
    CK(cudaMemcpy2D(p2, pitch, v2.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = p2;
    rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = cudaAddressModeWrap;
    td.addressMode[1] = cudaAddressModeMirror;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    std::vector<float4> xs;
    for (int k = 0; k < 80; k++)
        xs.push_back(f4(-1.0f + (float)(lcg() % 3000) / 1000.0f, -1.0f + (float)(lcg() % 3000) / 1000.0f));
    print_hex("pitch2d linear wrap mirror", sample<float4>(t, K2D, xs), 1);
    CK(cudaDestroyTextureObject(t));
    rd.res.pitch2D.pitchInBytes = 60; // not a multiple of the texture pitch alignment
    e = cudaCreateTextureObject(&t, &rd, &td, NULL);
    printf("pitch2d pitch 60: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        CK(cudaDestroyTextureObject(t));
    cudaGetLastError();
    CK(cudaFree(d));
    CK(cudaFree(p2));
    return finish();
}
