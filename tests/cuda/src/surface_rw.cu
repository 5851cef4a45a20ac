// surface_rw.cu -- surface objects: surf1D/2D/3D and layered reads and writes of 1, 2, 4, 8 and
// 16 bytes (scalars and vectors), byte x coordinates, and the clamp and zero boundary modes for
// reads and writes out of range; results read back by copies and by a texture.
#include "tex_common.h"

// Writes v(i) = base + i at each coordinate in turn from one thread (so clamped writes that land
// on the same texel land in a fixed order), with the given boundary mode.
template <typename T>
__global__ void write_seq(cudaSurfaceObject_t s, int dim, const int4 *c, int n, int base, int zero)
{
    cudaSurfaceBoundaryMode m = zero ? cudaBoundaryModeZero : cudaBoundaryModeClamp;
    for (int i = 0; i < n; i++) {
        int4 p = c[i];
        T v;
        memset(&v, 0, sizeof v);
        unsigned char *b = (unsigned char *)&v;
        for (int k = 0; k < (int)sizeof v; k++)
            b[k] = (unsigned char)(base + i * 7 + k * 3);
        switch (dim) {
        case 1: surf1Dwrite(v, s, p.x, m); break;
        case 2: surf2Dwrite(v, s, p.x, p.y, m); break;
        case 3: surf3Dwrite(v, s, p.x, p.y, p.z, m); break;
        case 4: surf1DLayeredwrite(v, s, p.x, p.w, m); break;
        default: surf2DLayeredwrite(v, s, p.x, p.y, p.w, m); break;
        }
    }
}

// Reads each coordinate with the given boundary mode.
template <typename T>
__global__ void read_all(cudaSurfaceObject_t s, int dim, const int4 *c, int n, T *out, int zero)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    cudaSurfaceBoundaryMode m = zero ? cudaBoundaryModeZero : cudaBoundaryModeClamp;
    int4 p = c[i];
    T v;
    switch (dim) {
    case 1: surf1Dread(&v, s, p.x, m); break;
    case 2: surf2Dread(&v, s, p.x, p.y, m); break;
    case 3: surf3Dread(&v, s, p.x, p.y, p.z, m); break;
    case 4: surf1DLayeredread(&v, s, p.x, p.w, m); break;
    default: surf2DLayeredread(&v, s, p.x, p.y, p.w, m); break;
    }
    out[i] = v;
}

static void print_bytes(const char *label, const unsigned char *b, size_t n)
{
    printf("%s:", label);
    for (size_t i = 0; i < n; i++)
        printf("%s%02x", i % 32 == 0 ? "\n  " : (i % 4 == 0 ? " " : ""), b[i]);
    printf("\n");
}

// One round: an array of the given shape and format, writes in both modes, reads in both modes,
// the array's bytes printed after each write round.
template <typename T>
static void round_trip(const char *name, int dim, cudaChannelFormatDesc cd, cudaExtent ext, unsigned flags)
{
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &cd, ext, flags | cudaArraySurfaceLoadStore));
    size_t w = ext.width, h = ext.height ? ext.height : 1, d = ext.depth ? ext.depth : 1;
    size_t es = sizeof(T), bytes = w * h * d * es;
    std::vector<unsigned char> zeros(bytes, 0xee);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(zeros.data(), w * es, w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    // coordinates: in range, one past each end, negative, far out
    std::vector<int4> cs;
    int hi[3] = {(int)w, (int)h, (int)d};
    for (int k = 0; k < 24; k++) {
        int q[3];
        for (int j = 0; j < 3; j++) {
            int r = (int)(lcg() % 10);
            q[j] = r < 6 ? (int)(lcg() % hi[j]) : r == 6 ? hi[j] : r == 7 ? -1 : r == 8 ? hi[j] + 1000 : -70000;
        }
        int x = q[0] * (int)es;
        if (dim == 4) // a 1-D layered array's layers are the depth of its extent
            cs.push_back(make_int4(x, 0, 0, q[2]));
        else if (dim == 5)
            cs.push_back(make_int4(x, q[1], 0, q[2]));
        else
            cs.push_back(make_int4(x, q[1], q[2], 0));
    }
    int4 *dc;
    CK(cudaMalloc(&dc, cs.size() * sizeof(int4)));
    CK(cudaMemcpy(dc, cs.data(), cs.size() * sizeof(int4), cudaMemcpyHostToDevice));
    std::vector<unsigned char> back(bytes);
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(back.data(), w * es, w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToHost;
    char label[96];
    for (int zero = 0; zero < 2; zero++) {
        write_seq<T><<<1, 1>>>(s, dim, dc, (int)cs.size(), zero ? 100 : 10, zero);
        CK(cudaGetLastError());
        CK(cudaMemcpy3D(&p));
        snprintf(label, sizeof label, "%s after %s writes", name, zero ? "zero" : "clamp");
        print_bytes(label, back.data(), bytes);
    }
    T *dout;
    CK(cudaMalloc(&dout, cs.size() * sizeof(T)));
    std::vector<T> out(cs.size());
    for (int zero = 0; zero < 2; zero++) {
        read_all<T><<<1, 32>>>(s, dim, dc, (int)cs.size(), dout, zero);
        CK(cudaMemcpy(out.data(), dout, cs.size() * sizeof(T), cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "%s %s reads", name, zero ? "zero" : "clamp");
        print_bytes(label, (unsigned char *)out.data(), cs.size() * sizeof(T));
    }
    CK(cudaDestroySurfaceObject(s));
    CK(cudaFree(dc));
    CK(cudaFree(dout));
    CK(cudaFreeArray(a));
}

int main()
{
    round_trip<unsigned char>("1d u8", 1, cudaCreateChannelDesc<unsigned char>(), make_cudaExtent(13, 0, 0), 0);
    round_trip<unsigned short>("2d u16", 2, cudaCreateChannelDesc<unsigned short>(), make_cudaExtent(5, 4, 0), 0);
    round_trip<int>("2d s32", 2, cudaCreateChannelDesc<int>(), make_cudaExtent(6, 3, 0), 0);
    round_trip<long long>("2d s64 as int2", 2, cudaCreateChannelDesc<int2>(), make_cudaExtent(4, 3, 0), 0);
    round_trip<float2>("2d float2", 2, cudaCreateChannelDesc<float2>(), make_cudaExtent(3, 3, 0), 0);
    round_trip<uchar4>("2d uchar4", 2, cudaCreateChannelDesc<uchar4>(), make_cudaExtent(5, 2, 0), 0);
    round_trip<ushort4>("3d ushort4", 3, cudaCreateChannelDesc<ushort4>(), make_cudaExtent(3, 2, 3), 0);
    round_trip<float4>("3d float4", 3, cudaCreateChannelDesc<float4>(), make_cudaExtent(2, 3, 2), 0);
    round_trip<int>("a1d s32", 4, cudaCreateChannelDesc<int>(), make_cudaExtent(7, 0, 3), cudaArrayLayered);
    round_trip<short2>("a2d short2", 5, cudaCreateChannelDesc<short2>(), make_cudaExtent(3, 4, 2), cudaArrayLayered);

    // written through a surface, read through a texture of the same array
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, 4, 4, cudaArraySurfaceLoadStore));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    std::vector<int4> cs;
    for (int i = 0; i < 16; i++)
        cs.push_back(make_int4((i % 4) * 4, i / 4, 0, 0));
    int4 *dc;
    CK(cudaMalloc(&dc, cs.size() * sizeof(int4)));
    CK(cudaMemcpy(dc, cs.data(), cs.size() * sizeof(int4), cudaMemcpyHostToDevice));
    write_seq<float><<<1, 1>>>(s, 2, dc, 16, 60, 0);
    CK(cudaGetLastError());
    cudaTextureObject_t t = make_tex(a, cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp,
                                     cudaFilterModeLinear, cudaReadModeElementType, 0);
    std::vector<float4> xs;
    for (int i = 0; i < 16; i++)
        xs.push_back(f4(0.7f + i * 0.2f, 0.6f + i * 0.17f));
    print_hex("texture after surface writes", sample<float4>(t, K2D, xs), 1);
    CK(cudaDestroyTextureObject(t));
    CK(cudaDestroySurfaceObject(s));
    CK(cudaFree(dc));
    // a surface over an array made without cudaArraySurfaceLoadStore
    cudaArray_t plain;
    CK(cudaMallocArray(&plain, &cd, 4, 4, 0));
    rd.res.array.array = plain;
    cudaError_t e = cudaCreateSurfaceObject(&s, &rd);
    printf("surface without the load-store flag: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        CK(cudaDestroySurfaceObject(s));
    cudaGetLastError();
    rd.resType = cudaResourceTypeLinear;
    e = cudaCreateSurfaceObject(&s, &rd);
    printf("surface over linear memory: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFreeArray(a));
    CK(cudaFreeArray(plain));
    return finish();
}
