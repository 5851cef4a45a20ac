/* rt_texture.c -- CUDA arrays (cudaMallocArray, cudaMalloc3DArray), copies to and from them
 * (2-D, the deprecated 1-D forms, cudaMemcpy3D), 3-D pitched memory, and texture and surface
 * objects, over libloom's arrays and objects (loom_array_*, loom_texture_*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_internal.h"

/* What CUDA checks of a texture over memory (an H100's cudaDeviceProp). */
#define RT_TEXTURE_ALIGN 512u
#define RT_TEXTURE_PITCH_ALIGN 32u

/* The layouts that nvcc-built programs hand over, byte for byte (CUDA 13's headers; the
 * tests/cuda/abi check compares every field). */
_Static_assert(sizeof(struct cudaExtent) == 24 && sizeof(struct cudaPos) == 24, "cudaExtent, cudaPos");
_Static_assert(sizeof(struct cudaPitchedPtr) == 32, "cudaPitchedPtr");
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160 && offsetof(struct cudaMemcpy3DParms, dstArray) == 64 &&
                   offsetof(struct cudaMemcpy3DParms, extent) == 128 && offsetof(struct cudaMemcpy3DParms, kind) == 152,
               "cudaMemcpy3DParms");
_Static_assert(sizeof(struct cudaResourceDesc) == 144 &&
                   offsetof(struct cudaResourceDesc, res.linear.sizeInBytes) == 40 &&
                   offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56 &&
                   offsetof(struct cudaResourceDesc, flags) == 136,
               "cudaResourceDesc");
_Static_assert(sizeof(struct cudaTextureDesc) == 72 && offsetof(struct cudaTextureDesc, borderColor) == 24 &&
                   offsetof(struct cudaTextureDesc, normalizedCoords) == 40 &&
                   offsetof(struct cudaTextureDesc, seamlessCubemap) == 68,
               "cudaTextureDesc");
_Static_assert(sizeof(struct cudaResourceViewDesc) == 112, "cudaResourceViewDesc");

static uint64_t handle_of(cudaArray_const_t a) { return (uint64_t)(uintptr_t)a; }

/* ---- Channel formats and arrays ---- */

/* A channel descriptor as Loom's texel format: 1, 2 or 4 equal channels of 8, 16 or 32 bits,
 * named from x on; floats of 16 or 32 bits. */
static cudaError_t channel_format(const struct cudaChannelFormatDesc *d, unsigned *out_channels,
                                  unsigned *out_bits, enum loom_channel_kind *out_kind)
{
    if (!d) return cudaErrorInvalidValue;
    int c[4] = { d->x, d->y, d->z, d->w };
    unsigned n = 0;
    while (n < 4 && c[n] != 0) n++;
    for (unsigned k = n; k < 4; k++)
        if (c[k] != 0) return cudaErrorInvalidChannelDescriptor;
    for (unsigned k = 1; k < n; k++)
        if (c[k] != c[0]) return cudaErrorInvalidChannelDescriptor;
    if (n == 0 || n == 3 || (c[0] != 8 && c[0] != 16 && c[0] != 32)) return cudaErrorInvalidChannelDescriptor;
    switch (d->f) {
    case cudaChannelFormatKindSigned: *out_kind = LOOM_CHANNEL_SIGNED; break;
    case cudaChannelFormatKindUnsigned: *out_kind = LOOM_CHANNEL_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
        if (c[0] == 8) return cudaErrorInvalidChannelDescriptor;
        *out_kind = LOOM_CHANNEL_FLOAT;
        break;
    default: return cudaErrorInvalidChannelDescriptor;
    }
    *out_channels = n;
    *out_bits = (unsigned)c[0];
    return cudaSuccess;
}

static struct cudaChannelFormatDesc channel_desc(unsigned channels, unsigned bits, enum loom_channel_kind kind)
{
    int b = (int)bits;
    enum cudaChannelFormatKind f = kind == LOOM_CHANNEL_FLOAT    ? cudaChannelFormatKindFloat
                                   : kind == LOOM_CHANNEL_SIGNED ? cudaChannelFormatKindSigned
                                                                 : cudaChannelFormatKindUnsigned;
    return cudaCreateChannelDesc(b, channels > 1 ? b : 0, channels > 2 ? b : 0, channels > 3 ? b : 0, f);
}

static cudaError_t malloc_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext,
                                unsigned flags)
{
    if (!array || !desc) return cudaErrorInvalidValue;
    if (flags & cudaArrayCubemap) return rt_unsupported("cudaMalloc3DArray of a cube map");
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather))
        return cudaErrorInvalidValue;
    struct loom_array_desc d = { .width = ext.width, .height = ext.height, .depth = ext.depth };
    cudaError_t e = channel_format(desc, &d.channels, &d.bits, &d.kind);
    if (e != cudaSuccess) return e;
    d.flags = (flags & cudaArrayLayered ? LOOM_ARRAY_LAYERED : 0) |
              (flags & cudaArraySurfaceLoadStore ? LOOM_ARRAY_SURFACE : 0);
    if ((e = rt_enter()) != cudaSuccess) return e;
    uint64_t h;
    enum loom_status st = loom_array_create(rt.dev, &d, &h);
    if (st == LOOM_ERR_INVALID_VALUE) return cudaErrorInvalidValue;
    if (st != LOOM_OK) return rt_check(st);
    *array = (cudaArray_t)(uintptr_t)h;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags)
{
    struct cudaExtent ext = { width, height, 0 };
    return rt_return(malloc_array(array, desc, ext, flags & ~(unsigned)cudaArrayLayered),
                     "cudaMallocArray(%zu, %zu, 0x%x)", width, height, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags)
{
    return rt_return(malloc_array(array, desc, extent, flags), "cudaMalloc3DArray(%zu, %zu, %zu, 0x%x)",
                     extent.width, extent.height, extent.depth, flags);
}

/* The array behind a handle, after rt_enter: a null or foreign one is an invalid resource
 * handle, as on an H100. */
static cudaError_t array_info(cudaArray_const_t a, struct loom_array_desc *out_desc, char **out_data,
                              size_t *out_pitch, size_t *out_slice)
{
    uint64_t data;
    if (!a || loom_array_info(rt.dev, handle_of(a), out_desc, &data, out_pitch, out_slice) != LOOM_OK)
        return cudaErrorInvalidResourceHandle;
    if (out_data) *out_data = (char *)(uintptr_t)data;
    return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && array && loom_array_destroy(rt.dev, handle_of(array)) != LOOM_OK)
        e = cudaErrorInvalidResourceHandle;
    return rt_return(e, "cudaFreeArray(%p)", (void *)array);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array)
{
    struct loom_array_desc d;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = array_info(array, &d, NULL, NULL, NULL);
    if (e == cudaSuccess) {
        if (desc) *desc = channel_desc(d.channels, d.bits, d.kind);
        if (extent) *extent = (struct cudaExtent){ d.width, d.height, d.depth };
        if (flags)
            *flags = (d.flags & LOOM_ARRAY_LAYERED ? cudaArrayLayered : 0) |
                     (d.flags & LOOM_ARRAY_SURFACE ? cudaArraySurfaceLoadStore : 0);
    }
    return rt_return(e, "cudaArrayGetInfo(%p)", (void *)array);
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    struct loom_array_desc d;
    cudaError_t e = desc ? rt_enter() : cudaErrorInvalidValue;
    if (e == cudaSuccess) e = array_info(array, &d, NULL, NULL, NULL);
    if (e == cudaSuccess) *desc = channel_desc(d.channels, d.bits, d.kind);
    return rt_return(e, "cudaGetChannelDesc(%p)", (const void *)array);
}

/* ---- Copies ---- */

/* One side of a copy: texels or bytes at base, rows pitch apart, slices slice apart. For an
 * array, elem is the texel size and w, h, d its extent in texels (at least 1 each). */
struct side {
    char *base;
    size_t pitch, slice, elem;
    size_t w, h, d;
    bool array;
};

static cudaError_t array_side(cudaArray_const_t a, struct side *s)
{
    struct loom_array_desc d;
    cudaError_t e = array_info(a, &d, &s->base, &s->pitch, &s->slice);
    if (e != cudaSuccess) return e;
    s->elem = (size_t)d.channels * d.bits / 8;
    s->w = d.width;
    s->h = d.height ? d.height : 1;
    s->d = d.depth ? d.depth : 1;
    s->array = true;
    return cudaSuccess;
}

/* Whether a box at (x, y, z) (x in bytes) of wb bytes x h x d lies in array side s. */
static bool in_array(const struct side *s, size_t x, size_t y, size_t z, size_t wb, size_t h, size_t d)
{
    size_t wbytes = s->w * s->elem;
    return x <= wbytes && wb <= wbytes - x && y <= s->h && h <= s->h - y && z <= s->d && d <= s->d - z;
}

/* A box of wb bytes x h rows x d slices from (sx, sy, sz) of src to (dx, dy, dz) of dst (x in
 * bytes, which need not be whole texels, as on an H100), slice by slice as 2-D copies on the
 * stream; array sides are checked against their extents first. An empty box is no error. */
static cudaError_t copy_box(const struct side *dst, size_t dx, size_t dy, size_t dz, const struct side *src,
                            size_t sx, size_t sy, size_t sz, size_t wb, size_t h, size_t d, enum cudaMemcpyKind kind,
                            cudaStream_t stream, bool per_thread, bool async)
{
    if ((dst->array && !in_array(dst, dx, dy, dz, wb, h, d)) || (src->array && !in_array(src, sx, sy, sz, wb, h, d)))
        return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    if (wb == 0 || h == 0 || d == 0) return e;
    for (size_t z = 0; z < d && e == cudaSuccess; z++)
        e = rt_copy_2d(dst->base + (dz + z) * dst->slice + dy * dst->pitch + dx, dst->pitch,
                       src->base + (sz + z) * src->slice + sy * src->pitch + sx, src->pitch, wb, h, kind, stream,
                       per_thread, true);
    if (e == cudaSuccess && !async) e = rt_stream_wait(stream, per_thread);
    return e;
}

/* A linear side: memory at p with rows of pitch bytes (and slices of rows). */
static struct side linear_side(const void *p, size_t pitch, size_t rows)
{
    return (struct side){ .base = (char *)(uintptr_t)p, .pitch = pitch, .slice = pitch * rows, .elem = 1 };
}

static cudaError_t to_array(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    struct side d, s = linear_side(src, spitch, height);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = array_side(dst, &d);
    if (e == cudaSuccess && !src) e = cudaErrorInvalidValue;
    if (e == cudaSuccess && width > spitch) e = cudaErrorInvalidPitchValue;
    if (e == cudaSuccess) e = copy_box(&d, wo, ho, 0, &s, 0, 0, 0, width, height, 1, kind, stream, per_thread, async);
    return e;
}

static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wo, size_t ho, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread,
                              bool async)
{
    struct side s, d = linear_side(dst, dpitch, height);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = array_side(src, &s);
    if (e == cudaSuccess && !dst) e = cudaErrorInvalidValue;
    if (e == cudaSuccess && width > dpitch) e = cudaErrorInvalidPitchValue;
    if (e == cudaSuccess) e = copy_box(&d, 0, 0, 0, &s, wo, ho, 0, width, height, 1, kind, stream, per_thread, async);
    return e;
}

static cudaError_t array_to_array(cudaArray_t dst, size_t dwo, size_t dho, cudaArray_const_t src, size_t swo,
                                  size_t sho, size_t width, size_t height, enum cudaMemcpyKind kind, bool per_thread)
{
    struct side d, s;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = array_side(dst, &d);
    if (e == cudaSuccess) e = array_side(src, &s);
    if (e == cudaSuccess)
        e = copy_box(&d, dwo, dho, 0, &s, swo, sho, 0, width, height, 1, kind, NULL, per_thread, false);
    return e;
}

/* The deprecated 1-D forms: count bytes from (wo, ho), running on into the next rows (an
 * array's rows are contiguous here as they are in CUDA's view of them). */
static cudaError_t linear_in_array(cudaArray_const_t a, size_t wo, size_t ho, size_t count, char **out_p)
{
    struct side s;
    cudaError_t e = array_side(a, &s);
    if (e != cudaSuccess) return e;
    size_t total = s.pitch * s.h * s.d, at = ho * s.pitch + wo;
    if (wo > s.pitch || ho > s.h * s.d || at > total || count > total - at)
        return cudaErrorInvalidValue;
    *out_p = s.base + at;
    return cudaSuccess;
}

static cudaError_t to_array_1d(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count,
                               enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    char *p;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = linear_in_array(dst, wo, ho, count, &p);
    if (e == cudaSuccess) e = rt_copy_2d(p, count, src, count, count, 1, kind, stream, per_thread, async);
    return e;
}

static cudaError_t from_array_1d(void *dst, cudaArray_const_t src, size_t wo, size_t ho, size_t count,
                                 enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    char *p;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = linear_in_array(src, wo, ho, count, &p);
    if (e == cudaSuccess) e = rt_copy_2d(dst, count, p, count, count, 1, kind, stream, per_thread, async);
    return e;
}

static cudaError_t array_to_array_1d(cudaArray_t dst, size_t dwo, size_t dho, cudaArray_const_t src, size_t swo,
                                     size_t sho, size_t count, enum cudaMemcpyKind kind, bool per_thread)
{
    char *d, *s;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = linear_in_array(dst, dwo, dho, count, &d);
    if (e == cudaSuccess) e = linear_in_array(src, swo, sho, count, &s);
    if (e == cudaSuccess) e = rt_copy_2d(d, count, s, count, count, 1, kind, NULL, per_thread, false);
    return e;
}

/* cudaMemcpy3D: each side an array (positions and the extent's width in texels) or pitched
 * memory (x in bytes); exactly one of the two per side. */
static cudaError_t copy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool per_thread, bool async)
{
    if (!p || !p->srcArray == !p->srcPtr.ptr || !p->dstArray == !p->dstPtr.ptr) return cudaErrorInvalidValue;
    cudaError_t e = rt_enter();
    if (e != cudaSuccess) return e;
    struct side s, d;
    if (p->srcArray) e = array_side(p->srcArray, &s);
    else s = linear_side(p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.ysize);
    if (e == cudaSuccess && p->dstArray) e = array_side(p->dstArray, &d);
    else if (e == cudaSuccess) d = linear_side(p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.ysize);
    if (e != cudaSuccess) return e;
    if (s.array && d.array && s.elem != d.elem) return cudaErrorInvalidValue;
    size_t elem = s.array ? s.elem : d.elem;
    /* positions and the width count texels when either side is an array (CUDA's documentation
     * says bytes for memory; an H100 counts texels there too) */
    size_t unit = s.array || d.array ? elem : 1;
    size_t sx = p->srcPos.x * unit, dx = p->dstPos.x * unit;
    size_t wb = p->extent.width * elem;
    if ((!s.array && p->extent.depth > 1 && !p->srcPtr.ysize) || (!d.array && p->extent.depth > 1 && !p->dstPtr.ysize))
        return cudaErrorInvalidValue;
    return copy_box(&d, dx, p->dstPos.y, p->dstPos.z, &s, sx, p->srcPos.y, p->srcPos.z, wb, p->extent.height,
                    p->extent.depth, p->kind, stream, per_thread, async);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, NULL, false, false),
                     "cudaMemcpy2DToArray(%p, %zu, %zu, %p, %zu, %zu, %zu)", (void *)dst, wOffset, hOffset, src,
                     spitch, width, height);
}

cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, NULL, true, false),
                     "cudaMemcpy2DToArray(%p, %zu, %zu, %p, %zu, %zu, %zu)", (void *)dst, wOffset, hOffset, src,
                     spitch, width, height);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
    return rt_return(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, false, true),
                     "cudaMemcpy2DToArrayAsync(%p, %zu, %zu, %p, %zu, %zu, %zu)", (void *)dst, wOffset, hOffset,
                     src, spitch, width, height);
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                          cudaStream_t stream)
{
    return rt_return(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true, true),
                     "cudaMemcpy2DToArrayAsync(%p, %zu, %zu, %p, %zu, %zu, %zu)", (void *)dst, wOffset, hOffset,
                     src, spitch, width, height);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, NULL, false, false),
                     "cudaMemcpy2DFromArray(%p, %zu, %p, %zu, %zu, %zu, %zu)", dst, dpitch, (const void *)src,
                     wOffset, hOffset, width, height);
}

cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, NULL, true, false),
                     "cudaMemcpy2DFromArray(%p, %zu, %p, %zu, %zu, %zu, %zu)", dst, dpitch, (const void *)src,
                     wOffset, hOffset, width, height);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    return rt_return(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, false, true),
                     "cudaMemcpy2DFromArrayAsync(%p, %zu, %p, %zu, %zu, %zu, %zu)", dst, dpitch,
                     (const void *)src, wOffset, hOffset, width, height);
}

cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    return rt_return(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, true, true),
                     "cudaMemcpy2DFromArrayAsync(%p, %zu, %p, %zu, %zu, %zu, %zu)", dst, dpitch,
                     (const void *)src, wOffset, hOffset, width, height);
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind)
{
    return rt_return(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind,
                                    false),
                     "cudaMemcpy2DArrayToArray(%p, %p, %zu, %zu)", (void *)dst, (const void *)src, width, height);
}

cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                          size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind,
                                    true),
                     "cudaMemcpy2DArrayToArray(%p, %p, %zu, %zu)", (void *)dst, (const void *)src, width, height);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind)
{
    return rt_return(to_array_1d(dst, wOffset, hOffset, src, count, kind, NULL, false, false),
                     "cudaMemcpyToArray(%p, %zu, %zu, %p, %zu)", (void *)dst, wOffset, hOffset, src, count);
}

cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    return rt_return(to_array_1d(dst, wOffset, hOffset, src, count, kind, NULL, true, false),
                     "cudaMemcpyToArray(%p, %zu, %zu, %p, %zu)", (void *)dst, wOffset, hOffset, src, count);
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(to_array_1d(dst, wOffset, hOffset, src, count, kind, stream, false, true),
                     "cudaMemcpyToArrayAsync(%p, %zu, %zu, %p, %zu)", (void *)dst, wOffset, hOffset, src, count);
}

cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(to_array_1d(dst, wOffset, hOffset, src, count, kind, stream, true, true),
                     "cudaMemcpyToArrayAsync(%p, %zu, %zu, %p, %zu)", (void *)dst, wOffset, hOffset, src, count);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind)
{
    return rt_return(from_array_1d(dst, src, wOffset, hOffset, count, kind, NULL, false, false),
                     "cudaMemcpyFromArray(%p, %p, %zu, %zu, %zu)", dst, (const void *)src, wOffset, hOffset, count);
}

cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind)
{
    return rt_return(from_array_1d(dst, src, wOffset, hOffset, count, kind, NULL, true, false),
                     "cudaMemcpyFromArray(%p, %p, %zu, %zu, %zu)", dst, (const void *)src, wOffset, hOffset, count);
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                     size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(from_array_1d(dst, src, wOffset, hOffset, count, kind, stream, false, true),
                     "cudaMemcpyFromArrayAsync(%p, %p, %zu, %zu, %zu)", dst, (const void *)src, wOffset, hOffset,
                     count);
}

cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(from_array_1d(dst, src, wOffset, hOffset, count, kind, stream, true, true),
                     "cudaMemcpyFromArrayAsync(%p, %p, %zu, %zu, %zu)", dst, (const void *)src, wOffset, hOffset,
                     count);
}

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    return rt_return(array_to_array_1d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind, false),
                     "cudaMemcpyArrayToArray(%p, %p, %zu)", (void *)dst, (const void *)src, count);
}

cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                        cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                                        enum cudaMemcpyKind kind)
{
    return rt_return(array_to_array_1d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind, true),
                     "cudaMemcpyArrayToArray(%p, %p, %zu)", (void *)dst, (const void *)src, count);
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return rt_return(copy_3d(p, NULL, false, false), "cudaMemcpy3D(%p)", (const void *)p);
}

cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    return rt_return(copy_3d(p, NULL, true, false), "cudaMemcpy3D(%p)", (const void *)p);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_return(copy_3d(p, stream, false, true), "cudaMemcpy3DAsync(%p, %p)", (const void *)p, (void *)stream);
}

cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return rt_return(copy_3d(p, stream, true, true), "cudaMemcpy3DAsync(%p, %p)", (const void *)p, (void *)stream);
}

/* ---- 3-D pitched memory ---- */

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    cudaError_t e = pitchedDevPtr ? rt_enter() : cudaErrorInvalidValue;
    size_t pitch = (extent.width + 511) / 512 * 512, rows = extent.height * extent.depth;
    uint64_t a = 0;
    if (e == cudaSuccess && pitch && rows && pitch > SIZE_MAX / rows) e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && pitch * rows > 0) e = rt_check(loom_malloc(rt.dev, pitch * rows, &a));
    if (e == cudaSuccess)
        *pitchedDevPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)a, pitch, extent.width, extent.height };
    return rt_return(e, "cudaMalloc3D(%zu, %zu, %zu)", extent.width, extent.height, extent.depth);
}

static cudaError_t set_3d(struct cudaPitchedPtr p, int value, struct cudaExtent ext, cudaStream_t stream,
                          bool per_thread, bool async)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && ext.depth > 1 && p.ysize < ext.height) e = cudaErrorInvalidValue;
    for (size_t z = 0; z < ext.depth && e == cudaSuccess; z++)
        e = rt_set_2d((char *)p.ptr + z * p.pitch * p.ysize, p.pitch, value, ext.width, ext.height, stream,
                      per_thread, true);
    if (e == cudaSuccess && !async) e = rt_stream_wait(stream, per_thread);
    return e;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_return(set_3d(pitchedDevPtr, value, extent, NULL, false, false), "cudaMemset3D(%p, %d)",
                     pitchedDevPtr.ptr, value);
}

cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return rt_return(set_3d(pitchedDevPtr, value, extent, NULL, true, false), "cudaMemset3D(%p, %d)",
                     pitchedDevPtr.ptr, value);
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    return rt_return(set_3d(pitchedDevPtr, value, extent, stream, false, true), "cudaMemset3DAsync(%p, %d)",
                     pitchedDevPtr.ptr, value);
}

cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                   cudaStream_t stream)
{
    return rt_return(set_3d(pitchedDevPtr, value, extent, stream, true, true), "cudaMemset3DAsync(%p, %d)",
                     pitchedDevPtr.ptr, value);
}

/* ---- Texture and surface objects ---- */

/* The descriptors each live object was made from, to give them back as they were given. */
struct rt_texdesc {
    uint64_t handle;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    struct rt_texdesc *next;
};
static struct rt_texdesc *texdescs;
static pthread_mutex_t tex_lock = PTHREAD_MUTEX_INITIALIZER;

/* Records (or, with res NULL, forgets) the descriptors of handle h. */
static void remember(uint64_t h, const struct cudaResourceDesc *res, const struct cudaTextureDesc *tex)
{
    pthread_mutex_lock(&tex_lock);
    struct rt_texdesc **pp = &texdescs;
    while (*pp && (*pp)->handle != h) pp = &(*pp)->next;
    if (*pp && !res) {
        struct rt_texdesc *dead = *pp;
        *pp = dead->next;
        free(dead);
    } else if (res) {
        struct rt_texdesc *d = *pp ? *pp : calloc(1, sizeof *d);
        if (d) {
            if (!*pp) {
                d->next = texdescs;
                texdescs = d;
            }
            d->handle = h;
            d->res = *res;
            if (tex) d->tex = *tex;
        }
    }
    pthread_mutex_unlock(&tex_lock);
}

static bool recall(uint64_t h, struct cudaResourceDesc *res, struct cudaTextureDesc *tex)
{
    pthread_mutex_lock(&tex_lock);
    struct rt_texdesc *d = texdescs;
    while (d && d->handle != h) d = d->next;
    if (d && res) *res = d->res;
    if (d && tex) *tex = d->tex;
    pthread_mutex_unlock(&tex_lock);
    return d != NULL;
}

/* The resource of a texture object as Loom's description (sampling fields left alone). */
static cudaError_t resource(const struct cudaResourceDesc *r, struct loom_texture_desc *d)
{
    cudaError_t e;
    switch (r->resType) {
    case cudaResourceTypeArray:
        d->array = handle_of(r->res.array.array);
        return d->array && loom_array_info(rt.dev, d->array, NULL, NULL, NULL, NULL) == LOOM_OK
                   ? cudaSuccess
                   : cudaErrorInvalidResourceHandle;
    case cudaResourceTypeMipmappedArray: return rt_unsupported("a texture over a mipmapped array");
    case cudaResourceTypeLinear:
        if ((e = channel_format(&r->res.linear.desc, &d->channels, &d->bits, &d->kind)) != cudaSuccess) return e;
        d->addr = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        if (!d->addr || d->addr % RT_TEXTURE_ALIGN) return cudaErrorInvalidValue;
        d->width = r->res.linear.sizeInBytes / (d->channels * d->bits / 8);
        return d->width ? cudaSuccess : cudaErrorInvalidValue;
    case cudaResourceTypePitch2D:
        if ((e = channel_format(&r->res.pitch2D.desc, &d->channels, &d->bits, &d->kind)) != cudaSuccess) return e;
        d->addr = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        d->width = r->res.pitch2D.width;
        d->height = r->res.pitch2D.height;
        d->pitch = r->res.pitch2D.pitchInBytes;
        if (!d->addr || d->addr % RT_TEXTURE_PITCH_ALIGN || d->pitch % RT_TEXTURE_PITCH_ALIGN || !d->width ||
            !d->height)
            return cudaErrorInvalidValue;
        return cudaSuccess;
    default: return cudaErrorInvalidValue;
    }
}

static cudaError_t create_texture(cudaTextureObject_t *out, const struct cudaResourceDesc *r,
                                  const struct cudaTextureDesc *t, const struct cudaResourceViewDesc *v)
{
    if (!out || !r) return cudaErrorInvalidValue;
    if (!t) return cudaErrorInvalidResourceHandle;   /* what an H100 says */
    if (v) return rt_unsupported("cudaCreateTextureObject with a resource view");
    cudaError_t e = rt_enter();
    if (e != cudaSuccess) return e;
    struct loom_texture_desc d = { 0 };
    if ((e = resource(r, &d)) != cudaSuccess) return e;
    for (int i = 0; i < 3; i++) {
        if ((unsigned)t->addressMode[i] > cudaAddressModeBorder) return cudaErrorInvalidValue;
        d.address[i] = (enum loom_address_mode)t->addressMode[i];
    }
    if ((unsigned)t->filterMode > cudaFilterModeLinear || (unsigned)t->readMode > cudaReadModeNormalizedFloat)
        return cudaErrorInvalidValue;
    if (d.array) {
        struct loom_array_desc a;
        loom_array_info(rt.dev, d.array, &a, NULL, NULL, NULL);
        d.channels = a.channels, d.bits = a.bits, d.kind = a.kind;
    }
    /* Linear filtering needs float results (a normalised read of 8/16-bit integers); a
     * normalised read needs 8/16-bit integers. An H100 checks the filter first. */
    bool int_format = d.kind != LOOM_CHANNEL_FLOAT;
    d.read_normalized = t->readMode == cudaReadModeNormalizedFloat;
    if (t->filterMode == cudaFilterModeLinear && int_format && (!d.read_normalized || d.bits == 32))
        return cudaErrorInvalidFilterSetting;
    if (d.read_normalized && (!int_format || d.bits == 32)) return cudaErrorInvalidNormSetting;
    d.linear_filter = t->filterMode == cudaFilterModeLinear;
    d.coords_normalized = t->normalizedCoords != 0;
    d.srgb = t->sRGB != 0;
    memcpy(d.border, t->borderColor, sizeof d.border);
    uint64_t h;
    enum loom_status st = loom_texture_create(rt.dev, &d, &h);
    if (st == LOOM_ERR_INVALID_VALUE) return cudaErrorInvalidValue;
    if (st != LOOM_OK) return rt_check(st);
    remember(h, r, t);
    *out = h;
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc)
{
    return rt_return(create_texture(pTexObject, pResDesc, pTexDesc, pResViewDesc), "cudaCreateTextureObject(%p, %p)",
                     (const void *)pResDesc, (const void *)pTexDesc);
}

/* Destroys a texture (surface false) or surface object; 0 is no object and no error. */
static cudaError_t destroy_object(uint64_t h, bool surface)
{
    cudaError_t e = rt_enter();
    bool is_surface;
    if (e != cudaSuccess || !h) return e;
    if (loom_texture_info(rt.dev, h, NULL, &is_surface) != LOOM_OK || is_surface != surface ||
        loom_texture_destroy(rt.dev, h) != LOOM_OK)
        return cudaErrorInvalidValue;
    remember(h, NULL, NULL);
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return rt_return(destroy_object(texObject, false), "cudaDestroyTextureObject(0x%llx)", texObject);
}

/* The descriptors of a live object of the given kind. */
static cudaError_t object_descs(uint64_t h, bool surface, struct cudaResourceDesc *res, struct cudaTextureDesc *tex)
{
    cudaError_t e = rt_enter();
    bool is_surface;
    if (e != cudaSuccess) return e;
    if (loom_texture_info(rt.dev, h, NULL, &is_surface) != LOOM_OK || is_surface != surface ||
        !recall(h, res, tex))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    cudaError_t e = pResDesc ? object_descs(texObject, false, pResDesc, NULL) : cudaErrorInvalidValue;
    return rt_return(e, "cudaGetTextureObjectResourceDesc(0x%llx)", texObject);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    cudaError_t e = pTexDesc ? object_descs(texObject, false, NULL, pTexDesc) : cudaErrorInvalidValue;
    return rt_return(e, "cudaGetTextureObjectTextureDesc(0x%llx)", texObject);
}

cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                 cudaTextureObject_t texObject)
{
    cudaError_t e = pResViewDesc ? object_descs(texObject, false, NULL, NULL) : cudaErrorInvalidValue;
    if (e == cudaSuccess) memset(pResViewDesc, 0, sizeof *pResViewDesc);
    return rt_return(e, "cudaGetTextureObjectResourceViewDesc(0x%llx)", texObject);
}

static cudaError_t create_surface(cudaSurfaceObject_t *out, const struct cudaResourceDesc *r)
{
    if (!out || !r) return cudaErrorInvalidValue;
    if (r->resType == cudaResourceTypeLinear || r->resType == cudaResourceTypePitch2D) {
        /* an H100 checks the format first: surfaces over memory are not allowed */
        unsigned ch, bits;
        enum loom_channel_kind kind;
        cudaError_t fe = channel_format(&r->res.linear.desc, &ch, &bits, &kind);
        return fe != cudaSuccess ? fe : cudaErrorInvalidValue;
    }
    if (r->resType != cudaResourceTypeArray) return cudaErrorInvalidValue;
    if (!r->res.array.array) return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_enter();
    if (e != cudaSuccess) return e;
    uint64_t h;
    enum loom_status st = loom_surface_create(rt.dev, handle_of(r->res.array.array), &h);
    if (st == LOOM_ERR_INVALID_VALUE) return cudaErrorInvalidValue;
    if (st != LOOM_OK) return rt_check(st);
    remember(h, r, NULL);
    *out = h;
    return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    return rt_return(create_surface(pSurfObject, pResDesc), "cudaCreateSurfaceObject(%p)", (const void *)pResDesc);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return rt_return(destroy_object(surfObject, true), "cudaDestroySurfaceObject(0x%llx)", surfObject);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    cudaError_t e = pResDesc ? object_descs(surfObject, true, pResDesc, NULL) : cudaErrorInvalidValue;
    return rt_return(e, "cudaGetSurfaceObjectResourceDesc(0x%llx)", surfObject);
}
