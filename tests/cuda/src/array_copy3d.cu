// array_copy3d.cu -- CUDA arrays through the API: cudaMallocArray and cudaMalloc3DArray in each
// shape, cudaArrayGetInfo, 2-D copies to and from arrays (and the deprecated 1-D ones), 3-D
// copies between linear memory and arrays with offsets, array to array, async, and the errors
// that bad arguments get.
#include "check.h"
#include <cstring>
#include <vector>
// nvcc-flags: -Xcompiler -Wno-deprecated-declarations

static void show_info(const char *label, cudaArray_t a)
{
    cudaChannelFormatDesc cd;
    cudaExtent e;
    unsigned flags = 99;
    memset(&cd, 0x55, sizeof cd);
    CK(cudaArrayGetInfo(&cd, &e, &flags, a));
    printf("%s: desc %d %d %d %d kind %d extent %zu %zu %zu flags %u\n", label, cd.x, cd.y, cd.z, cd.w, (int)cd.f,
           e.width, e.height, e.depth, flags);
}

static void err(const char *what, cudaError_t e)
{
    printf("%s: %s\n", what, cudaGetErrorName(e));
    cudaGetLastError();
}

// Prints a checksum of n bytes and the first few.
static void show_bytes(const char *label, const unsigned char *b, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        sum = sum * 31 + b[i];
    printf("%s: %zu bytes sum %08x first", label, n, sum);
    for (size_t i = 0; i < n && i < 12; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

int main()
{
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), u4 = cudaCreateChannelDesc<uchar4>(),
                          s2 = cudaCreateChannelDesc<short2>(), h1 = cudaCreateChannelDescHalf();
    cudaArray_t a1, a2, a3, al1, al2, as;
    CK(cudaMallocArray(&a1, &f1, 100, 0, 0));
    CK(cudaMallocArray(&a2, &u4, 37, 11, 0));
    CK(cudaMalloc3DArray(&a3, &s2, make_cudaExtent(9, 7, 5), 0));
    CK(cudaMalloc3DArray(&al1, &h1, make_cudaExtent(33, 0, 4), cudaArrayLayered));
    CK(cudaMalloc3DArray(&al2, &f1, make_cudaExtent(8, 6, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
    CK(cudaMallocArray(&as, &f1, 16, 16, cudaArraySurfaceLoadStore));
    show_info("1d", a1);
    show_info("2d", a2);
    show_info("3d", a3);
    show_info("1d layered", al1);
    show_info("2d layered surface", al2);
    show_info("2d surface", as);
    cudaChannelFormatDesc got;
    CK(cudaGetChannelDesc(&got, a2));
    printf("cudaGetChannelDesc: %d %d %d %d kind %d\n", got.x, got.y, got.z, got.w, (int)got.f);

    // 2-D copies in and out with offsets
    const int W = 37, H = 11;
    std::vector<unsigned char> src(W * 4 * H), dst(W * 4 * H, 0);
    for (size_t i = 0; i < src.size(); i++)
        src[i] = (unsigned char)(i * 7 + 3);
    CK(cudaMemcpy2DToArray(a2, 0, 0, src.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2DFromArray(dst.data(), W * 4, a2, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    EXPECT(dst == src);
    std::vector<unsigned char> part(10 * 4 * 3, 0);
    CK(cudaMemcpy2DFromArray(part.data(), 40, a2, 5 * 4, 2, 40, 3, cudaMemcpyDeviceToHost));
    show_bytes("2d part", part.data(), part.size());
    // device memory to array and array to array
    unsigned char *dev;
    size_t pitch;
    CK(cudaMallocPitch((void **)&dev, &pitch, W * 4, H));
    CK(cudaMemcpy2DFromArray(dev, pitch, a2, 0, 0, W * 4, H, cudaMemcpyDeviceToDevice));
    cudaArray_t b2;
    CK(cudaMallocArray(&b2, &u4, W, H, 0));
    CK(cudaMemcpy2DToArray(b2, 4, 1, dev, pitch, (W - 1) * 4, H - 1, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2DArrayToArray(b2, 0, 0, a2, 0, 0, 8, 1, cudaMemcpyDeviceToDevice));
    std::fill(dst.begin(), dst.end(), 0);
    CK(cudaMemcpy2DFromArray(dst.data(), W * 4, b2, 0, 0, W * 4, H, cudaMemcpyDefault));
    show_bytes("shifted copy", dst.data(), dst.size());
    // the deprecated 1-D forms: a linear run of bytes that wraps to the next row
    std::vector<unsigned char> line(W * 4 + 40);
    for (size_t i = 0; i < line.size(); i++)
        line[i] = (unsigned char)(200 - i);
    CK(cudaMemcpyToArray(b2, 8, 2, line.data(), line.size(), cudaMemcpyHostToDevice));
    std::vector<unsigned char> back(line.size() + 20);
    CK(cudaMemcpyFromArray(back.data(), b2, 0, 2, back.size(), cudaMemcpyDeviceToHost));
    show_bytes("1d to array", back.data(), back.size());

    // 3-D: linear to array with positions, back to linear, array to array, async
    const int X = 9, Y = 7, Z = 5;
    std::vector<short> s3(X * Y * Z * 2), r3(X * Y * Z * 2, -1);
    for (size_t i = 0; i < s3.size(); i++)
        s3[i] = (short)(i * 13 - 500);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(s3.data(), X * 4, X, Y);
    p.dstArray = a3;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcArray = a3;
    p.srcPos = make_cudaPos(2, 1, 1);
    p.dstPtr = make_cudaPitchedPtr(r3.data(), X * 4, X, Y);
    p.dstPos = make_cudaPos(1 * 4, 2, 0); // bytes in x for linear memory
    p.extent = make_cudaExtent(5, 4, 3);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    show_bytes("3d part back", (unsigned char *)r3.data(), r3.size() * 2);
    cudaArray_t b3;
    CK(cudaMalloc3DArray(&b3, &s2, make_cudaExtent(X, Y, Z), 0));
    memset(&p, 0, sizeof p);
    p.srcArray = a3;
    p.dstArray = b3;
    p.srcPos = make_cudaPos(1, 0, 2);
    p.dstPos = make_cudaPos(0, 1, 0);
    p.extent = make_cudaExtent(8, 6, 3);
    p.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3D(&p));
    cudaPitchedPtr dp;
    CK(cudaMalloc3D(&dp, make_cudaExtent(X * 4, Y, Z)));
    CK(cudaMemset3D(dp, 0, make_cudaExtent(X * 4, Y, Z)));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    memset(&p, 0, sizeof p);
    p.srcArray = b3;
    p.dstPtr = dp;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3DAsync(&p, st));
    memset(&p, 0, sizeof p);
    p.srcPtr = dp;
    p.dstPtr = make_cudaPitchedPtr(r3.data(), X * 4, X, Y);
    p.extent = make_cudaExtent(X * 4, Y, Z);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3DAsync(&p, st));
    CK(cudaStreamSynchronize(st));
    show_bytes("array to array to linear", (unsigned char *)r3.data(), r3.size() * 2);
    // layered arrays copy their layers as depth
    std::vector<float> l2(8 * 6 * 3), l2b(8 * 6 * 3, 0);
    for (size_t i = 0; i < l2.size(); i++)
        l2[i] = (float)i * 0.5f;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(l2.data(), 8 * 4, 8, 6);
    p.dstArray = al2;
    p.extent = make_cudaExtent(8, 6, 3);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcArray = al2;
    p.dstPtr = make_cudaPitchedPtr(l2b.data(), 8 * 4, 8, 6);
    p.extent = make_cudaExtent(8, 6, 3);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    EXPECT(l2 == l2b);

    // errors
    cudaArray_t bad = NULL;
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    err("three channels", cudaMallocArray(&bad, &three, 4, 4, 0));
    cudaChannelFormatDesc odd = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
    err("mixed channel sizes", cudaMallocArray(&bad, &odd, 4, 4, 0));
    cudaChannelFormatDesc f24 = cudaCreateChannelDesc(24, 0, 0, 0, cudaChannelFormatKindFloat);
    err("24-bit float", cudaMallocArray(&bad, &f24, 4, 4, 0));
    cudaChannelFormatDesc h8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
    err("8-bit float", cudaMallocArray(&bad, &h8, 4, 4, 0));
    err("null desc", cudaMallocArray(&bad, NULL, 4, 4, 0));
    err("zero width", cudaMallocArray(&bad, &f1, 0, 4, 0));
    err("huge width", cudaMallocArray(&bad, &f1, 1 << 30, 1, 0));
    err("3d zero height with depth", cudaMalloc3DArray(&bad, &f1, make_cudaExtent(4, 0, 4), 0));
    err("layered without layers", cudaMalloc3DArray(&bad, &f1, make_cudaExtent(4, 4, 0), cudaArrayLayered));
    err("bad flags", cudaMalloc3DArray(&bad, &f1, make_cudaExtent(4, 4, 4), 0x1000));
    err("copy past the width", cudaMemcpy2DToArray(a2, 4, 0, src.data(), W * 4, W * 4, 1, cudaMemcpyHostToDevice));
    err("copy past the height", cudaMemcpy2DToArray(a2, 0, 5, src.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    err("spitch below width", cudaMemcpy2DToArray(a2, 0, 0, src.data(), 8, 16, 2, cudaMemcpyHostToDevice));
    err("width not whole elements", cudaMemcpy2DToArray(a2, 0, 0, src.data(), W * 4, 6, 2, cudaMemcpyHostToDevice));
    err("offset not whole elements", cudaMemcpy2DToArray(a2, 2, 0, src.data(), W * 4, 8, 2, cudaMemcpyHostToDevice));
    err("1d copy past the end", cudaMemcpyToArray(a1, 0, 0, src.data(), 404, cudaMemcpyHostToDevice));
    err("null array", cudaMemcpy2DToArray(NULL, 0, 0, src.data(), W * 4, W * 4, 1, cudaMemcpyHostToDevice));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(s3.data(), X * 4, X, Y);
    p.srcArray = a3;
    p.dstArray = b3;
    p.extent = make_cudaExtent(1, 1, 1);
    p.kind = cudaMemcpyHostToDevice;
    err("3d both source pointer and array", cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcArray = a3;
    p.dstArray = b3;
    p.extent = make_cudaExtent(X, Y, Z + 1);
    p.kind = cudaMemcpyDeviceToDevice;
    err("3d past the depth", cudaMemcpy3D(&p));
    p.extent = make_cudaExtent(0, Y, Z);
    err("3d zero width", cudaMemcpy3D(&p));
    err("3d null", cudaMemcpy3D(NULL));
    memset(&p, 0, sizeof p);
    p.srcArray = a3;
    p.dstArray = a2;
    p.extent = make_cudaExtent(2, 2, 1);
    p.kind = cudaMemcpyDeviceToDevice;
    err("3d arrays of different formats", cudaMemcpy3D(&p));
    cudaChannelFormatDesc cd;
    cudaExtent ex;
    unsigned fl;
    err("info of null", cudaArrayGetInfo(&cd, &ex, &fl, NULL));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a2;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaTextureObject_t t;
    err("texture null resource", cudaCreateTextureObject(&t, NULL, &td, NULL));
    err("texture null desc", cudaCreateTextureObject(&t, &rd, NULL, NULL));
    err("texture null out", cudaCreateTextureObject(NULL, &rd, &td, NULL));
    td.addressMode[0] = (cudaTextureAddressMode)7;
    err("texture bad address mode", cudaCreateTextureObject(&t, &rd, &td, NULL));
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode)5;
    err("texture bad filter mode", cudaCreateTextureObject(&t, &rd, &td, NULL));
    td.filterMode = cudaFilterModePoint;
    rd.res.array.array = NULL;
    err("texture null array", cudaCreateTextureObject(&t, &rd, &td, NULL));
    rd.resType = (cudaResourceType)9;
    err("texture bad resource type", cudaCreateTextureObject(&t, &rd, &td, NULL));
    err("destroy texture 0", cudaDestroyTextureObject(0));
    err("destroy surface 0", cudaDestroySurfaceObject(0));
    err("surface null resource", cudaCreateSurfaceObject(&t, NULL));
    err("free null array", cudaFreeArray(NULL));

    CK(cudaFreeArray(a1));
    CK(cudaFreeArray(a2));
    CK(cudaFreeArray(a3));
    CK(cudaFreeArray(al1));
    CK(cudaFreeArray(al2));
    CK(cudaFreeArray(as));
    CK(cudaFreeArray(b2));
    CK(cudaFreeArray(b3));
    CK(cudaFree(dev));
    CK(cudaFree(dp.ptr));
    CK(cudaStreamDestroy(st));
    return finish();
}
