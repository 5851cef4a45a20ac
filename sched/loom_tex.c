/* loom_tex.c -- the public API of CUDA arrays and texture and surface objects: each lives
 * in device memory (memory/mem_tex.h), so handles are device addresses that kernels read. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "memory/mem_tex.h"
#include "sched/sched.h"

/* The GPU's largest arrays (an H100's, as cudaGetDeviceProperties gives them). */
#define TEX_MAX_1D 131072u
#define TEX_MAX_2D_W 131072u
#define TEX_MAX_2D_H 65536u
#define TEX_MAX_3D 16384u
#define TEX_MAX_LAYERED_W 32768u
#define TEX_MAX_LAYERS 2048u

static enum loom_status tex_fail(enum loom_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static enum loom_status tex_fail(enum loom_status s, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sched_api_fail(s, msg);
}

/* A texel format Loom keeps: 1, 2 or 4 channels of 8, 16 or 32 bits, floats of 16 or 32. */
static bool format_ok(unsigned channels, unsigned bits, enum loom_channel_kind kind)
{
    if (channels != 1 && channels != 2 && channels != 4) return false;
    if (bits != 8 && bits != 16 && bits != 32) return false;
    if (kind == LOOM_CHANNEL_FLOAT) return bits != 8;
    return kind == LOOM_CHANNEL_UNSIGNED || kind == LOOM_CHANNEL_SIGNED;
}

/* Whether an array of this shape fits the GPU's limits. */
static bool shape_ok(const struct loom_array_desc *d)
{
    bool layered = d->flags & LOOM_ARRAY_LAYERED;
    if (d->width == 0 || (d->height == 0 && d->depth > 0 && !layered)) return false;
    if (layered)
        return d->depth > 0 && d->depth <= TEX_MAX_LAYERS && d->width <= TEX_MAX_LAYERED_W &&
               d->height <= TEX_MAX_LAYERED_W;
    if (d->depth > 0) return d->width <= TEX_MAX_3D && d->height <= TEX_MAX_3D && d->depth <= TEX_MAX_3D;
    if (d->height > 0) return d->width <= TEX_MAX_2D_W && d->height <= TEX_MAX_2D_H;
    return d->width <= TEX_MAX_1D;
}

enum loom_status loom_array_create(struct loom_device *dev, const struct loom_array_desc *desc,
                                   uint64_t *out_array)
{
    if (!dev || !desc || !out_array) return tex_fail(LOOM_ERR_INVALID_VALUE, "loom_array_create: NULL argument");
    if (!format_ok(desc->channels, desc->bits, desc->kind))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "an array of %u channels of %u bits of kind %d is not a texel format",
                        desc->channels, desc->bits, (int)desc->kind);
    if (desc->flags & ~(LOOM_ARRAY_LAYERED | LOOM_ARRAY_SURFACE))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "array flags 0x%x are not LOOM_ARRAY_* flags", desc->flags);
    if (!shape_ok(desc))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "an array of %zu x %zu x %zu%s is not a shape the GPU allows",
                        desc->width, desc->height, desc->depth, desc->flags & LOOM_ARRAY_LAYERED ? " (layered)" : "");
    uint64_t pitch = (uint64_t)desc->width * desc->channels * desc->bits / 8;
    uint64_t slice = pitch * (desc->height ? desc->height : 1);
    uint64_t bytes = slice * (desc->depth ? desc->depth : 1);
    uint64_t base;
    if (mem_alloc(dev->mem, MEM_ARRAY_HEADER + bytes, MEM_ARRAY, "CUDA array", &base) != 0)
        return tex_fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory allocating an array of %llu bytes",
                        (unsigned long long)bytes);
    struct mem_array *a = (struct mem_array *)(uintptr_t)base;
    *a = (struct mem_array){ .magic = MEM_ARRAY_MAGIC, .channels = (uint8_t)desc->channels,
                             .bits = (uint8_t)desc->bits, .kind = (uint8_t)desc->kind, .flags = (uint8_t)desc->flags,
                             .width = desc->width, .height = desc->height, .depth = desc->depth,
                             .data = base + MEM_ARRAY_HEADER, .pitch = pitch, .slice = slice };
    *out_array = base;
    return LOOM_OK;
}

/* The live allocation at h when it is one of `flags` (MEM_ARRAY, MEM_TEXOBJ) and h is its
 * base, copied into out (size bytes from h); false otherwise. */
static bool lookup(struct loom_device *dev, uint64_t h, uint32_t flags, void *out, size_t size)
{
    if (!h) return false;
    mem_read_begin(dev->mem);
    const struct mem_alloc *a = mem_find(dev->mem, h, size);
    bool ok = a && a->base == h && (a->flags & flags);
    if (ok) memcpy(out, (const void *)(uintptr_t)h, size);
    mem_read_end(dev->mem);
    return ok;
}

static bool array_of(struct loom_device *dev, uint64_t array, struct mem_array *out)
{
    return lookup(dev, array, MEM_ARRAY, out, sizeof *out) && out->magic == MEM_ARRAY_MAGIC;
}

enum loom_status loom_array_destroy(struct loom_device *dev, uint64_t array)
{
    struct mem_array a;
    if (!dev || !array_of(dev, array, &a) || mem_free(dev->mem, array) != 0)
        return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live array", (unsigned long long)array);
    return LOOM_OK;
}

enum loom_status loom_array_info(struct loom_device *dev, uint64_t array, struct loom_array_desc *out_desc,
                                 uint64_t *out_data, size_t *out_pitch, size_t *out_slice)
{
    struct mem_array a;
    if (!dev || !array_of(dev, array, &a))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live array", (unsigned long long)array);
    if (out_desc)
        *out_desc = (struct loom_array_desc){ .channels = a.channels, .bits = a.bits,
                                              .kind = (enum loom_channel_kind)a.kind, .width = a.width,
                                              .height = a.height, .depth = a.depth, .flags = a.flags };
    if (out_data) *out_data = a.data;
    if (out_pitch) *out_pitch = a.pitch;
    if (out_slice) *out_slice = a.slice;
    return LOOM_OK;
}

/* Fills o's resource fields from an array. */
static void texobj_from_array(struct mem_texobj *o, uint64_t handle, const struct mem_array *a)
{
    bool layered = a->flags & LOOM_ARRAY_LAYERED;
    o->channels = a->channels, o->bits = a->bits, o->kind = a->kind;
    o->resource = MEM_TEX_ARRAY;
    o->layered = layered;
    o->dims = layered ? (a->height ? 2 : 1) : a->depth ? 3 : a->height ? 2 : 1;
    o->width = (uint32_t)a->width;
    o->height = a->height ? (uint32_t)a->height : 1;
    o->depth = a->depth ? (uint32_t)a->depth : 1;
    o->data = a->data, o->pitch = a->pitch, o->slice = a->slice;
    o->span = a->slice * o->depth;
    o->array = handle;
}

/* Fills o's resource fields from memory: the range must lie in one live allocation. */
static enum loom_status texobj_from_memory(struct loom_device *dev, struct mem_texobj *o,
                                           const struct loom_texture_desc *d)
{
    if (!format_ok(d->channels, d->bits, d->kind))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "%u channels of %u bits of kind %d are not a texel format",
                        d->channels, d->bits, (int)d->kind);
    uint64_t elem = (uint64_t)d->channels * d->bits / 8;
    bool pitched = d->pitch != 0;
    if (d->width == 0 || (pitched && (d->height == 0 || d->pitch < d->width * elem)) ||
        (!pitched && d->height > 1))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "a texture of %zu x %zu texels with pitch %zu does not fit",
                        d->width, d->height, d->pitch);
    o->channels = (uint8_t)d->channels, o->bits = (uint8_t)d->bits, o->kind = (uint8_t)d->kind;
    o->resource = pitched ? MEM_TEX_PITCH2D : MEM_TEX_LINEAR;
    o->dims = pitched ? 2 : 1;
    o->width = (uint32_t)d->width;
    o->height = pitched ? (uint32_t)d->height : 1;
    o->depth = 1;
    o->data = d->addr;
    o->pitch = pitched ? d->pitch : d->width * elem;
    o->slice = o->pitch * o->height;
    o->span = pitched ? d->pitch * (d->height - 1) + d->width * elem : d->width * elem;
    mem_read_begin(dev->mem);
    bool live = mem_find(dev->mem, d->addr, o->span) != NULL;
    mem_read_end(dev->mem);
    if (!live)
        return tex_fail(LOOM_ERR_INVALID_VALUE, "texture memory 0x%llx + %llu bytes is not in one live allocation",
                        (unsigned long long)d->addr, (unsigned long long)o->span);
    return LOOM_OK;
}

/* Stores o in a new read-only allocation: its address is the handle. */
static enum loom_status texobj_store(struct loom_device *dev, const struct mem_texobj *o, uint64_t *out)
{
    uint64_t h;
    if (mem_alloc(dev->mem, sizeof *o, MEM_TEXOBJ | MEM_READONLY, "texture object", &h) != 0)
        return tex_fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory for a texture object");
    memcpy((void *)(uintptr_t)h, o, sizeof *o);
    *out = h;
    return LOOM_OK;
}

enum loom_status loom_texture_create(struct loom_device *dev, const struct loom_texture_desc *desc,
                                     uint64_t *out_tex)
{
    if (!dev || !desc || !out_tex) return tex_fail(LOOM_ERR_INVALID_VALUE, "loom_texture_create: NULL argument");
    struct mem_texobj o = { .magic = MEM_TEXOBJ_MAGIC };
    for (int i = 0; i < 3; i++) {
        if ((unsigned)desc->address[i] > LOOM_ADDRESS_BORDER)
            return tex_fail(LOOM_ERR_INVALID_VALUE, "address mode %d is not a loom_address_mode",
                            (int)desc->address[i]);
        o.address[i] = (uint8_t)desc->address[i];
    }
    if (desc->array) {
        struct mem_array a;
        if (!array_of(dev, desc->array, &a))
            return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live array", (unsigned long long)desc->array);
        texobj_from_array(&o, desc->array, &a);
    } else {
        enum loom_status st = texobj_from_memory(dev, &o, desc);
        if (st != LOOM_OK) return st;
    }
    o.linear = desc->linear_filter;
    o.read_normalized = desc->read_normalized && o.kind != MEM_TEX_FLOAT && o.bits < 32;
    o.coords_normalized = desc->coords_normalized;
    o.srgb = desc->srgb;
    memcpy(o.border, desc->border, sizeof o.border);
    return texobj_store(dev, &o, out_tex);
}

enum loom_status loom_surface_create(struct loom_device *dev, uint64_t array, uint64_t *out_surf)
{
    if (!dev || !out_surf) return tex_fail(LOOM_ERR_INVALID_VALUE, "loom_surface_create: NULL argument");
    struct mem_array a;
    if (!array_of(dev, array, &a))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live array", (unsigned long long)array);
    struct mem_texobj o = { .magic = MEM_SURFOBJ_MAGIC };
    texobj_from_array(&o, array, &a);
    return texobj_store(dev, &o, out_surf);
}

static bool texobj_of(struct loom_device *dev, uint64_t tex, struct mem_texobj *out)
{
    return lookup(dev, tex, MEM_TEXOBJ, out, sizeof *out) &&
           (out->magic == MEM_TEXOBJ_MAGIC || out->magic == MEM_SURFOBJ_MAGIC);
}

enum loom_status loom_texture_destroy(struct loom_device *dev, uint64_t tex)
{
    struct mem_texobj o;
    if (!dev || !texobj_of(dev, tex, &o) || mem_free(dev->mem, tex) != 0)
        return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live texture or surface object",
                        (unsigned long long)tex);
    return LOOM_OK;
}

enum loom_status loom_texture_info(struct loom_device *dev, uint64_t tex, struct loom_texture_desc *out_desc,
                                   bool *out_surface)
{
    struct mem_texobj o;
    if (!dev || !texobj_of(dev, tex, &o))
        return tex_fail(LOOM_ERR_INVALID_VALUE, "0x%llx is not a live texture or surface object",
                        (unsigned long long)tex);
    if (out_surface) *out_surface = o.magic == MEM_SURFOBJ_MAGIC;
    if (!out_desc) return LOOM_OK;
    bool memory = o.resource != MEM_TEX_ARRAY;
    *out_desc = (struct loom_texture_desc){
        .array = o.array, .addr = memory ? o.data : 0, .width = memory ? o.width : 0,
        .height = o.resource == MEM_TEX_PITCH2D ? o.height : 0, .pitch = o.resource == MEM_TEX_PITCH2D ? o.pitch : 0,
        .channels = o.channels, .bits = o.bits, .kind = (enum loom_channel_kind)o.kind,
        .linear_filter = o.linear, .read_normalized = o.read_normalized, .coords_normalized = o.coords_normalized,
        .srgb = o.srgb,
    };
    for (int i = 0; i < 3; i++) out_desc->address[i] = (enum loom_address_mode)o.address[i];
    memcpy(out_desc->border, o.border, sizeof o.border);
    return LOOM_OK;
}
