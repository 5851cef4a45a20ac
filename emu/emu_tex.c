/* emu_tex.c -- texture and surface instructions over texture and surface objects (unified
 * mode: the object is a .u64 handle in a register): tex, tld4, txq, suld.b, sust.b, suq. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"
#include "include/loom/loom.h"
#include "memory/mem.h"
#include "memory/mem_tex.h"

/* in->sub: the geometry named by the instruction. */
enum tex_shape { SH_1D, SH_2D, SH_3D, SH_A1D, SH_A2D };
/* in->sub2 for tex and tld4: the coordinates are integers (tex.*.s32). */
#define TX_INT_COORDS 1u
/* in->imm for suld/sust: bytes per element | boundary mode << 8. */
enum su_mode { SU_TRAP, SU_CLAMP, SU_ZERO };
/* in->imm for txq/suq: the attribute asked for. */
enum tex_query { Q_WIDTH, Q_HEIGHT, Q_DEPTH, Q_ARRAY_SIZE, Q_NORMALIZED, Q_FILTER, Q_ADDR0, Q_ADDR1, Q_ADDR2,
                 Q_LEVELS, Q_SAMPLES };

/* ---- Objects ------------------------------------------------------------------------ */

/* The texture (magic MEM_TEXOBJ_MAGIC) or surface object whose handle lane l holds, checked:
 * a live object of that kind whose texels are live memory. Faults otherwise. */
static const struct mem_texobj *object(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t h,
                                       uint32_t magic)
{
    struct mem_space *mem = w->cta->launch->mem;
    const struct mem_alloc *a = mem_find(mem, h, sizeof(struct mem_texobj));
    const struct mem_texobj *o = (const struct mem_texobj *)(uintptr_t)h;
    const char *what = magic == MEM_TEXOBJ_MAGIC ? "texture" : "surface";
    if (!a || a->base != h || !(a->flags & MEM_TEXOBJ) || o->magic != magic) {
        emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, h, 0, "0x%" PRIx64 " is not a live %s object", h, what);
        return NULL;
    }
    if (!mem_find(mem, o->data, o->span)) {
        emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, o->data, 0,
                  "%s object 0x%" PRIx64 " reads %s at 0x%" PRIx64 ", which was freed", what, h,
                  o->array ? "an array" : "memory", o->array ? o->array : o->data);
        return NULL;
    }
    return o;
}

/* ---- Texels ------------------------------------------------------------------------- */

/* sRGB to linear of each 8-bit value as an H100 returns it (recorded: tests/cuda
 * tex_readmode, "u8 all srgb"; the GPU's table has about 8 significant bits). */
static const uint32_t srgb_linear[256] = {
    0x00000000, 0x39a00000, 0x3a200000, 0x3a700000, 0x3aa00000, 0x3ac80000, 0x3af00000, 0x3b0c0000,
    0x3b200000, 0x3b340000, 0x3b480000, 0x3b5c0000, 0x3b700000, 0x3b840000, 0x3b900000, 0x3b9c0000,
    0x3baa0000, 0x3bb80000, 0x3bc60000, 0x3bd60000, 0x3be60000, 0x3bf60000, 0x3c030000, 0x3c0c0000,
    0x3c160000, 0x3c1f0000, 0x3c290000, 0x3c340000, 0x3c3e0000, 0x3c490000, 0x3c550000, 0x3c600000,
    0x3c6c0000, 0x3c7a0000, 0x3c830000, 0x3c8a0000, 0x3c910000, 0x3c980000, 0x3c9f0000, 0x3ca60000,
    0x3cae0000, 0x3cb60000, 0x3cbe0000, 0x3cc60000, 0x3cce0000, 0x3cd70000, 0x3ce00000, 0x3ce90000,
    0x3cf20000, 0x3cfc0000, 0x3d030000, 0x3d080000, 0x3d0d0000, 0x3d120000, 0x3d170000, 0x3d1c0000,
    0x3d220000, 0x3d280000, 0x3d2d0000, 0x3d330000, 0x3d390000, 0x3d3f0000, 0x3d450000, 0x3d4c0000,
    0x3d520000, 0x3d580000, 0x3d600000, 0x3d660000, 0x3d6c0000, 0x3d740000, 0x3d7a0000, 0x3d810000,
    0x3d850000, 0x3d880000, 0x3d8c0000, 0x3d900000, 0x3d940000, 0x3d980000, 0x3d9c0000, 0x3da00000,
    0x3da40000, 0x3da90000, 0x3dad0000, 0x3db10000, 0x3db60000, 0x3dba0000, 0x3dbf0000, 0x3dc30000,
    0x3dc80000, 0x3dcd0000, 0x3dd10000, 0x3dd60000, 0x3ddb0000, 0x3de00000, 0x3de50000, 0x3dea0000,
    0x3df00000, 0x3df40000, 0x3dfa0000, 0x3e000000, 0x3e020000, 0x3e050000, 0x3e080000, 0x3e0b0000,
    0x3e0e0000, 0x3e110000, 0x3e140000, 0x3e170000, 0x3e1a0000, 0x3e1d0000, 0x3e200000, 0x3e230000,
    0x3e260000, 0x3e290000, 0x3e2c0000, 0x3e300000, 0x3e330000, 0x3e360000, 0x3e3a0000, 0x3e3d0000,
    0x3e400000, 0x3e440000, 0x3e470000, 0x3e4b0000, 0x3e4e0000, 0x3e520000, 0x3e560000, 0x3e590000,
    0x3e5d0000, 0x3e610000, 0x3e650000, 0x3e680000, 0x3e6c0000, 0x3e700000, 0x3e740000, 0x3e780000,
    0x3e7c0000, 0x3e800000, 0x3e820000, 0x3e840000, 0x3e860000, 0x3e880000, 0x3e8a0000, 0x3e8d0000,
    0x3e8f0000, 0x3e910000, 0x3e930000, 0x3e950000, 0x3e980000, 0x3e9a0000, 0x3e9c0000, 0x3e9e0000,
    0x3ea10000, 0x3ea30000, 0x3ea50000, 0x3ea80000, 0x3eaa0000, 0x3ead0000, 0x3eaf0000, 0x3eb20000,
    0x3eb40000, 0x3eb60000, 0x3eb90000, 0x3ebc0000, 0x3ebe0000, 0x3ec10000, 0x3ec30000, 0x3ec60000,
    0x3ec80000, 0x3ecb0000, 0x3ece0000, 0x3ed10000, 0x3ed30000, 0x3ed60000, 0x3ed90000, 0x3edb0000,
    0x3ede0000, 0x3ee10000, 0x3ee40000, 0x3ee70000, 0x3eea0000, 0x3eed0000, 0x3ef00000, 0x3ef20000,
    0x3ef60000, 0x3ef80000, 0x3efc0000, 0x3efe0000, 0x3f010000, 0x3f020000, 0x3f040000, 0x3f050000,
    0x3f070000, 0x3f090000, 0x3f0a0000, 0x3f0c0000, 0x3f0d0000, 0x3f0f0000, 0x3f110000, 0x3f120000,
    0x3f140000, 0x3f160000, 0x3f170000, 0x3f190000, 0x3f1b0000, 0x3f1c0000, 0x3f1e0000, 0x3f200000,
    0x3f210000, 0x3f230000, 0x3f250000, 0x3f270000, 0x3f290000, 0x3f2a0000, 0x3f2c0000, 0x3f2e0000,
    0x3f300000, 0x3f320000, 0x3f330000, 0x3f350000, 0x3f370000, 0x3f390000, 0x3f3b0000, 0x3f3d0000,
    0x3f3f0000, 0x3f410000, 0x3f430000, 0x3f450000, 0x3f470000, 0x3f490000, 0x3f4b0000, 0x3f4d0000,
    0x3f4f0000, 0x3f510000, 0x3f530000, 0x3f550000, 0x3f570000, 0x3f590000, 0x3f5b0000, 0x3f5d0000,
    0x3f5f0000, 0x3f610000, 0x3f630000, 0x3f650000, 0x3f680000, 0x3f6a0000, 0x3f6c0000, 0x3f6e0000,
    0x3f700000, 0x3f720000, 0x3f740000, 0x3f760000, 0x3f7a0000, 0x3f7c0000, 0x3f7e0000, 0x3f800000,
};

/* An 8/16-bit integer channel's value v read as normalised: the float, or with `fixed` the
 * 16-bit fixed-point value that linear filtering weighs (unsigned: v * 65535 / max; signed:
 * v * 32767 / max rounded, -128 and -32768 included). */
static uint32_t normalised(const struct mem_texobj *o, int32_t v, bool fixed)
{
    bool sgn = o->kind == MEM_TEX_SIGNED;
    if (fixed) {
        if (o->bits == 16) return (uint32_t)v;
        if (!sgn) return (uint32_t)v * 257u;
        return (uint32_t)(v * 258 + (v * 2 + (v < 0 ? -127 : 127)) / 254);
    }
    float scale = o->bits == 8 ? (sgn ? 127.0f : 255.0f) : (sgn ? 32767.0f : 65535.0f);
    float f = (float)v / scale;
    return emu_b32(f < -1.0f ? -1.0f : f);
}

/* Channel c of the texel at p as the instruction returns it: float bits for float formats
 * and normalised reads (fixed: see normalised), else the integer sign- or zero-extended. */
static uint32_t channel(const struct mem_texobj *o, const uint8_t *p, unsigned c, bool fixed)
{
    uint32_t v = 0;
    unsigned bytes = o->bits / 8u;
    memcpy(&v, p + c * bytes, bytes);
    if (o->kind == MEM_TEX_FLOAT) return o->bits == 16 ? emu_f16_to_f32(v) : v;
    bool sgn = o->kind == MEM_TEX_SIGNED;
    if (o->bits < 32 && sgn) v = (uint32_t)((int32_t)(v << (32 - o->bits)) >> (32 - o->bits));
    if (!o->read_normalized) return v;
    if (o->srgb && o->bits == 8 && !sgn && c < 3) return srgb_linear[v];
    return normalised(o, (int32_t)v, fixed);
}

/* Whether the texture returns floats (else integers). */
static bool returns_float(const struct mem_texobj *o)
{
    return o->kind == MEM_TEX_FLOAT || o->read_normalized;
}

/* The four channels of texel (x, y, z), already in range; channels the format lacks read 0
 * (alpha too, on an H100). */
static void texel(const struct mem_texobj *o, int64_t x, int64_t y, int64_t z, bool fixed, uint32_t out[4])
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)(o->data + (uint64_t)z * o->slice + (uint64_t)y * o->pitch +
                                                   (uint64_t)x * o->channels * (o->bits / 8u));
    for (unsigned c = 0; c < 4; c++)
        out[c] = c < o->channels ? channel(o, p, c, fixed) : 0;
}

/* Index i of an axis of n texels under an address mode; false when it falls on the border. */
static bool address(int64_t i, int64_t n, unsigned mode, int64_t *out)
{
    switch (mode) {
    case MEM_TEX_WRAP: i %= n; *out = i < 0 ? i + n : i; return true;
    case MEM_TEX_MIRROR: {
        int64_t p = i % (2 * n);
        if (p < 0) p += 2 * n;
        *out = p < n ? p : 2 * n - 1 - p;
        return true;
    }
    case MEM_TEX_BORDER: *out = i; return i >= 0 && i < n;
    default: *out = i < 0 ? 0 : i >= n ? n - 1 : i; return true;
    }
}

/* Coordinate x of an axis of n texels in texels. Normalised coordinates wrap or mirror as
 * normalised values first (x - floor(x); mirrored about 1 every 2), then scale by n; the
 * texel indices then wrap or mirror once more at the edges (address). Unnormalised ones
 * only clamp or take the border: wrap and mirror clamp there, as on an H100. */
static float texel_coord(const struct mem_texobj *o, unsigned axis, float x, int64_t n)
{
    if (!o->coords_normalized) return x;
    if (o->address[axis] == MEM_TEX_WRAP) x -= floorf(x);
    else if (o->address[axis] == MEM_TEX_MIRROR) {
        x -= 2.0f * floorf(x * 0.5f);
        if (x > 1.0f) x = 2.0f - x;
    }
    return x * (float)n;
}

/* The address mode of an axis as used: wrap and mirror need normalised coordinates. */
static unsigned axis_mode(const struct mem_texobj *o, unsigned axis)
{
    unsigned m = o->address[axis];
    return !o->coords_normalized && (m == MEM_TEX_WRAP || m == MEM_TEX_MIRROR) ? MEM_TEX_CLAMP : m;
}

/* floor of a float coordinate as an integer, saturated far outside any texture. */
static int64_t floor_index(float x)
{
    if (!(x == x)) return 0;
    float f = floorf(x);
    return f < -1e9f ? -1000000000 : f > 1e9f ? 1000000000 : (int64_t)f;
}

/* The texel coordinates of a point sample: (ix, iy, iz) and the layer. */
struct tex_at { int64_t i[3]; int64_t layer; };

/* Whether linear filtering weighs channel c in 16-bit fixed point (normalised 8/16-bit
 * integers, but sRGB colour channels). */
static bool fixed_channel(const struct mem_texobj *o, unsigned c)
{
    return o->read_normalized && !(o->srgb && o->bits == 8 && o->kind == MEM_TEX_UNSIGNED && c < 3);
}

/* The border colour's channel c as fetch returns it. Under normalised reads of integers the
 * colour is first stored in the texel format (nearest value, ties down, as on an H100). */
static uint32_t border_channel(const struct mem_texobj *o, unsigned c, bool fixed)
{
    if (o->resource == MEM_TEX_LINEAR || c >= o->channels) return 0;
    if (o->read_normalized && !(o->srgb && o->bits == 8 && c < 3)) {
        bool sgn = o->kind == MEM_TEX_SIGNED;
        float hi = o->bits == 8 ? (sgn ? 127.0f : 255.0f) : (sgn ? 32767.0f : 65535.0f);
        float v = ceilf(o->border[c] * hi - 0.5f);
        v = v > hi ? hi : v < (sgn ? -hi : 0.0f) ? (sgn ? -hi : 0.0f) : v;
        return normalised(o, (int32_t)v, fixed);
    }
    return returns_float(o) ? emu_b32(o->border[c]) : (uint32_t)(int32_t)o->border[c];
}

/* The texel at integer coordinates q (axes beyond dims ignored) after addressing: its
 * channels (fixed: as linear filtering weighs them), or the border colour. */
static void fetch(const struct mem_texobj *o, const int64_t q[3], int64_t layer, bool fixed, uint32_t out[4])
{
    int64_t n[3] = { o->width, o->height, o->depth }, r[3] = { 0, 0, 0 };
    unsigned axes = o->dims == 1 && o->resource == MEM_TEX_ARRAY ? 2 : o->dims;   /* see sample */
    for (unsigned k = 0; k < axes; k++)
        if (!address(q[k], n[k], o->resource == MEM_TEX_LINEAR ? MEM_TEX_BORDER : axis_mode(o, k), &r[k])) {
            for (unsigned c = 0; c < 4; c++) out[c] = border_channel(o, c, fixed);
            return;
        }
    if (o->layered) {   /* layers are slices; the index is unsigned, clamped to the last */
        uint64_t top = o->depth - 1u;
        r[2] = (int64_t)((uint32_t)layer > top ? top : (uint32_t)layer);
    }
    texel(o, r[0], r[1], r[2], fixed, out);
}

/* The filtering weight of a coordinate in texels: its texel below (i) and the fraction
 * toward the next as the GPU keeps it, 8 fractional bits (0..256). */
static int weight(float u, int64_t *out_i)
{
    float b = (u == u ? u : 0.0f) - 0.5f;   /* NaN samples at 0, as on an H100 */
    int64_t i = floor_index(b);
    float frac = isfinite(b) ? b - floorf(b) : 0.0f;
    *out_i = i;
    return (int)floorf(frac * 256.0f + 0.5f);
}

/* The float nearest x, ties away from zero: how the GPU's filter rounds its sum. */
static float round_ties_away(long double x)
{
    float f = (float)x;
    if ((long double)f != x && isfinite(f)) {
        float other = nextafterf(f, x > (long double)f ? INFINITY : -INFINITY);
        if (x - (long double)f == (long double)other - x && fabsf(other) > fabsf(f)) f = other;
    }
    return f;
}

/* A filtered channel as the GPU rounds it: normalised integers to the nearest 16-bit
 * fixed-point value, then to float (signed ones no lower than -1); halves to the nearest
 * half; floats to the nearest float, ties away from zero. */
static uint32_t filtered(const struct mem_texobj *o, unsigned ch, long double v)
{
    if (fixed_channel(o, ch)) {
        long double k = floorl(v + 0.5L);
        if (o->kind == MEM_TEX_SIGNED) {
            float f = round_ties_away(k / 32767.0L);
            return emu_b32(f < -1.0f ? -1.0f : f);
        }
        return emu_b32(round_ties_away(k / 65535.0L));
    }
    uint32_t f = emu_b32(round_ties_away(v));
    return o->kind == MEM_TEX_FLOAT && o->bits == 16 ? emu_f16_to_f32(emu_f32_to_f16_rn(f)) : f;
}

/* Samples texture o at float coordinates c (x, y, z) and a layer. Linear filtering weighs
 * the 2, 4 or 8 texels around the point as an H100 does (PTX ISA "Texture Filtering", and
 * recordings): each axis's weight toward the upper texel is its fraction in 8 bits (0..256,
 * ties up); a corner's weight is the product of its axes' weights, rounded back to 8 bits
 * (ties to even) after each axis (in 3-D taken x, z, y, the first product's ties to odd:
 * the H100's own rule there is not known yet, this fits 94% of the weights that
 * tests/cuda/src/tex_probe.cu recorded); the weighted sum is exact and
 * rounded once (filtered). A 1-D array is sampled as a 2-D one of height 1 at y = 0: its
 * row and the row above it (the border colour under a border mode) weigh half each. */
static void sample(const struct mem_texobj *o, const float c[3], int64_t layer, uint32_t out[4])
{
    int64_t n[3] = { o->width, o->height, o->depth };
    bool flat = o->dims == 1 && o->resource == MEM_TEX_ARRAY;
    unsigned axes = o->dims;
    float u[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < axes; k++) u[k] = texel_coord(o, k, c[k], n[k]);
    if (!o->linear || !returns_float(o)) {
        int64_t q[3] = { 0, 0, 0 };
        for (unsigned k = 0; k < axes; k++) q[k] = floor_index(u[k]);
        fetch(o, q, layer, false, out);
        return;
    }
    int64_t i0[3] = { 0, 0, 0 };
    unsigned wt[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < axes; k++) wt[k] = (unsigned)weight(u[k], &i0[k]);
    if (flat) i0[1] = -1, wt[1] = 128;
    unsigned corners = 1u << (axes + flat);
    long double acc[4] = { 0, 0, 0, 0 };
    for (unsigned corner = 0; corner < corners; corner++) {
        int64_t q[3] = { 0, 0, 0 };
        unsigned wc = 256;
        static const unsigned order[3] = { 0, 2, 1 };   /* x, z, y: the nearest fit to an H100 in 3-D */
        for (unsigned a = 0; a < axes + flat; a++) {
            unsigned k = axes == 3 ? order[a] : a;
            unsigned up = corner >> k & 1u, wk = up ? wt[k] : 256 - wt[k];
            unsigned p = wc * wk;
            /* ties to even; in 3-D the first product (x by z) ties to odd, which fits more */
            unsigned odd = axes == 3 && a == 1;
            wc = flat && k == 1 ? p : (p + 127 + ((p >> 8 & 1u) ^ odd)) >> 8;
            q[k] = i0[k] + up;
        }
        if (wc == 0) continue;
        uint32_t t[4];
        fetch(o, q, layer, true, t);
        for (unsigned ch = 0; ch < 4; ch++)
            acc[ch] += (long double)wc * (fixed_channel(o, ch) ? (long double)(int32_t)t[ch] : emu_f32(t[ch]));
    }
    long double scale = flat ? 65536.0L : 256.0L;
    for (unsigned ch = 0; ch < 4; ch++) out[ch] = filtered(o, ch, acc[ch] / scale);
}

/* ---- tex and tld4 --------------------------------------------------------------------- */

/* Coordinate row k (x, y, z) of lane l as a float, and the layer. */
static void lane_coords(const struct emu_warp *w, const struct emu_inst *in, unsigned l, float c[3],
                        int64_t *layer)
{
    for (unsigned k = 0; k < 3; k++) {
        uint16_t r = in->v[4 + k];
        uint32_t b = r == EMU_NOREG ? 0 : w->r32[r][l];
        c[k] = (in->sub2 & TX_INT_COORDS) ? (float)(int32_t)b : emu_f32(b);
    }
    *layer = in->v[7] == EMU_NOREG ? 0 : (int32_t)w->r32[in->v[7]][l];
}

/* tex: a sample of each lane's texture at its coordinates into four registers. Integer
 * coordinates (tex.1d.*.s32: tex1Dfetch) name texels, with no filtering. */
static int h_tex(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const struct mem_texobj *o = NULL;
    uint64_t last = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        if (!EMU_ON(m, l)) continue;
        uint64_t h = w->r64[in->a][l];
        if (!o || h != last) {
            if (!(o = object(w, in, l, h, MEM_TEXOBJ_MAGIC))) return EMU_STOP_FAULT;
            last = h;
        }
        float c[3];
        int64_t layer;
        lane_coords(w, in, l, c, &layer);
        uint32_t t[4];
        if (in->sub2 & TX_INT_COORDS) {
            int64_t q[3] = { (int32_t)w->r32[in->v[4]][l], 0, 0 };
            for (unsigned k = 1; k < 3; k++)
                if (in->v[4 + k] != EMU_NOREG) q[k] = (int32_t)w->r32[in->v[4 + k]][l];
            fetch(o, q, layer, false, t);
        } else {
            sample(o, c, layer, t);
        }
        for (unsigned k = 0; k < 4; k++)
            if (in->v[k] != EMU_NOREG) w->r32[in->v[k]][l] = t[k];
    }
    return EMU_CONTINUE;
}

/* tld4: one channel (in->imm) of the four texels that linear filtering of a 2-D texture
 * weighs, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) (PTX ISA "tld4"). */
static int h_tld4(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const struct mem_texobj *o = NULL;
    uint64_t last = 0;
    static const unsigned dx[4] = { 0, 1, 1, 0 }, dy[4] = { 1, 1, 0, 0 };
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        if (!EMU_ON(m, l)) continue;
        uint64_t h = w->r64[in->a][l];
        if (!o || h != last) {
            if (!(o = object(w, in, l, h, MEM_TEXOBJ_MAGIC))) return EMU_STOP_FAULT;
            last = h;
        }
        float c[3];
        int64_t layer, i[2] = { 0, 0 };
        lane_coords(w, in, l, c, &layer);
        weight(texel_coord(o, 0, c[0], o->width), &i[0]);
        weight(texel_coord(o, 1, c[1], o->height), &i[1]);
        for (unsigned k = 0; k < 4; k++) {
            int64_t q[3] = { i[0] + dx[k], i[1] + dy[k], 0 };
            uint32_t t[4];
            fetch(o, q, layer, false, t);
            if (in->v[k] != EMU_NOREG) w->r32[in->v[k]][l] = t[in->imm];
        }
    }
    return EMU_CONTINUE;
}

/* ---- Surfaces ------------------------------------------------------------------------- */

/* The byte address of lane l's surface access of `size` bytes, after the boundary mode;
 * NULL with *out_skip set when the access is out of range under .zero; NULL and a fault
 * under .trap. */
static uint8_t *surface_at(struct emu_warp *w, const struct emu_inst *in, unsigned l, const struct mem_texobj *o,
                           unsigned size, bool write, bool *out_skip)
{
    unsigned mode = (unsigned)(in->imm >> 8);
    int64_t q[4] = { 0, 0, 0, 0 };   /* x in bytes, y, z, layer */
    for (unsigned k = 0; k < 4; k++)
        if (in->v[4 + k] != EMU_NOREG) q[k] = (int32_t)w->r32[in->v[4 + k]][l];
    int64_t n[4] = { (int64_t)o->width * o->channels * (o->bits / 8), o->height, o->depth, 1 };
    if (o->layered) {
        n[3] = o->depth;
        n[o->dims] = 1;
        q[o->dims] = 0;
    }
    /* a layer index is unsigned, as for textures: a negative one lies past the last layer */
    if (o->layered) q[3] = (int64_t)(uint32_t)q[3];
    *out_skip = false;
    bool out = q[0] < 0 || q[0] + (int64_t)size > n[0];
    for (unsigned k = 1; k < 4; k++) out |= q[k] < 0 || q[k] >= n[k];
    if (out && mode == SU_TRAP) {
        emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, o->data, size,
                  "out-of-range surface %s of %u bytes at x %" PRId64 " bytes, y %" PRId64 ", z %" PRId64
                  ", layer %" PRId64 "\n  the surface has %" PRId64 " bytes x %" PRId64 " x %" PRId64 " x %" PRId64
                  " layers", write ? "write" : "read", size, q[0], q[1], q[2], q[3], n[0], n[1], n[2], n[3]);
        return NULL;
    }
    if (out && mode == SU_ZERO) {
        *out_skip = true;
        return NULL;
    }
    q[0] = q[0] < 0 ? 0 : q[0] + (int64_t)size > n[0] ? n[0] - (int64_t)size : q[0];
    for (unsigned k = 1; k < 4; k++) q[k] = q[k] < 0 ? 0 : q[k] >= n[k] ? n[k] - 1 : q[k];
    q[0] -= q[0] % size;
    int64_t z = o->layered ? q[3] : q[2];
    return (uint8_t *)(uintptr_t)(o->data + (uint64_t)z * o->slice + (uint64_t)q[1] * o->pitch + (uint64_t)q[0]);
}

/* suld.b and sust.b: nv elements of in->imm & 0xff bytes each at the surface coordinates. */
static int h_surface(struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool write)
{
    unsigned es = (unsigned)(in->imm & 0xff), size = es * in->nv;
    const struct mem_texobj *o = NULL;
    uint64_t last = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        if (!EMU_ON(m, l)) continue;
        uint64_t h = w->r64[in->a][l];
        if (!o || h != last) {
            if (!(o = object(w, in, l, h, MEM_SURFOBJ_MAGIC))) return EMU_STOP_FAULT;
            last = h;
        }
        bool skip;
        uint8_t *p = surface_at(w, in, l, o, size, write, &skip);
        if (!p && !skip) return EMU_STOP_FAULT;
        for (unsigned k = 0; k < in->nv; k++) {
            uint64_t v = 0;
            if (write) {
                if (skip) continue;
                v = es == 8 ? w->r64[in->v[k]][l] : w->r32[in->v[k]][l];
                memcpy(p + k * es, &v, es);
                continue;
            }
            if (!skip) memcpy(&v, p + k * es, es);
            if (es == 8) w->r64[in->v[k]][l] = v;
            else w->r32[in->v[k]][l] = (uint32_t)v;
        }
    }
    return EMU_CONTINUE;
}

static int h_suld(struct emu_warp *w, const struct emu_inst *in, emu_mask m) { return h_surface(w, in, m, false); }
static int h_sust(struct emu_warp *w, const struct emu_inst *in, emu_mask m) { return h_surface(w, in, m, true); }

/* txq and suq: an attribute of each lane's object. */
static int h_query(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t magic = in->sub2 ? MEM_SURFOBJ_MAGIC : MEM_TEXOBJ_MAGIC;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        if (!EMU_ON(m, l)) continue;
        const struct mem_texobj *o = object(w, in, l, w->r64[in->a][l], magic);
        if (!o) return EMU_STOP_FAULT;
        uint32_t v = 0;
        switch (in->imm) {
        case Q_WIDTH: v = o->width; break;
        case Q_HEIGHT: v = o->dims >= 2 ? o->height : 1; break;
        case Q_DEPTH: v = o->dims == 3 && !o->layered ? o->depth : 1; break;
        case Q_ARRAY_SIZE: v = o->layered ? o->depth : 0; break;
        case Q_NORMALIZED: v = o->coords_normalized; break;
        case Q_FILTER: v = o->linear; break;
        case Q_ADDR0: case Q_ADDR1: case Q_ADDR2: v = o->address[in->imm - Q_ADDR0]; break;
        case Q_LEVELS: v = 1; break;
        default: v = 0; break;
        }
        w->r32[in->d][l] = v;
    }
    return EMU_CONTINUE;
}

/* ---- Selection ------------------------------------------------------------------------ */

static bool has_mod(const struct ptx_instr *pi, enum ptx_mod mod)
{
    for (unsigned k = 0; k < pi->nmods; k++)
        if (pi->mods[k] == mod) return true;
    return false;
}

/* The geometry suffix, or -1 with dc->why set. */
static int shape_of(struct emu_decoder *dc, const struct ptx_instr *pi)
{
    static const struct { enum ptx_mod mod; int shape; } shapes[] = {
        { PTX_MOD_1D, SH_1D }, { PTX_MOD_2D, SH_2D }, { PTX_MOD_3D, SH_3D },
        { PTX_MOD_A1D, SH_A1D }, { PTX_MOD_A2D, SH_A2D },
    };
    for (unsigned k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        if (has_mod(pi, shapes[k].mod)) return shapes[k].shape;
    emu_dec_unsupported(dc, has_mod(pi, PTX_MOD_CUBE) || has_mod(pi, PTX_MOD_ACUBE)
                                ? "cube-map textures are not supported yet"
                                : "multisample and other texture geometries are not supported yet");
    return -1;
}

/* The handle and coordinate operand [h, {c...}]: fills out->a and v[4..7] (x, y, z,
 * layer; EMU_NOREG where absent). Texture references and samplers are refused. */
static bool coordinates(struct emu_decoder *dc, const struct ptx_operand *op, int shape, struct emu_inst *out)
{
    if (op->kind != PTX_OPND_ADDR || op->reg < 0 || op->nelems != 1) {
        emu_dec_unsupported(dc, "texture references and separate samplers are not supported yet "
                                "(only texture and surface objects in a register)");
        return false;
    }
    struct ptx_operand h = { .kind = PTX_OPND_REG, .reg = op->reg, .loc = op->loc };
    out->a = emu_dec_src(dc, &h, PTX_T_U64);
    const struct ptx_operand *c = &op->elems[0];
    unsigned n = c->kind == PTX_OPND_VEC ? c->nelems : 1;
    static const unsigned need[] = { [SH_1D] = 1, [SH_2D] = 2, [SH_3D] = 3, [SH_A1D] = 2, [SH_A2D] = 3 };
    if (n < need[shape]) { emu_dec_unsupported(dc, "too few texture coordinates"); return false; }
    bool layered = shape == SH_A1D || shape == SH_A2D;
    for (unsigned k = 4; k < 8; k++) out->v[k] = EMU_NOREG;
    for (unsigned k = 0; k < need[shape]; k++) {
        const struct ptx_operand *e = c->kind == PTX_OPND_VEC ? &c->elems[k] : c;
        uint16_t row = emu_dec_src(dc, e, PTX_T_B32);
        if (layered && k == 0) out->v[7] = row;
        else out->v[4 + k - layered] = row;
    }
    return true;
}

/* The four destinations {d0, d1, d2, d3} (r32 rows; sinks allowed). */
static bool four_dsts(struct emu_decoder *dc, const struct ptx_operand *op, struct emu_inst *out)
{
    if (op->kind != PTX_OPND_VEC || op->nelems != 4) {
        emu_dec_unsupported(dc, "texture results go to a vector of four registers");
        return false;
    }
    for (unsigned k = 0; k < 4; k++) out->v[k] = emu_dec_dst(dc, &op->elems[k], PTX_T_B32);
    return true;
}

static enum emu_sel sel_tex(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out, bool tld4)
{
    int shape = shape_of(dc, pi);
    if (shape < 0) return EMU_SEL_UNSUPPORTED;
    if (pi->ntypes != 2 || pi->vec != 4 || pi->nops < 2)
        return emu_dec_unsupported(dc, "only .v4 texture fetches of 32-bit results are supported");
    enum ptx_type dt = pi->types[0], ct = pi->types[1];
    if (dt != PTX_T_F32 && dt != PTX_T_S32 && dt != PTX_T_U32)
        return emu_dec_unsupported(dc, "texture results other than .f32, .s32 and .u32 are not supported yet");
    if (ct != PTX_T_F32 && ct != PTX_T_S32) return emu_dec_unsupported(dc, "texture coordinates are .f32 or .s32");
    bool level = has_mod(pi, PTX_MOD_LEVEL), grad = has_mod(pi, PTX_MOD_GRAD);
    /* Loom's textures have one mipmap level: .level and .grad read level 0, which their
     * level-of-detail operands cannot change. */
    unsigned extra = level ? 1 : grad ? 2 : 0;
    if (pi->nops != 2 + extra)
        return emu_dec_unsupported(dc, "texture offsets, depth compares and sparse results are not supported yet");
    if (tld4) {
        if (shape != SH_2D) return emu_dec_unsupported(dc, "tld4 is supported for .2d textures");
        out->imm = has_mod(pi, PTX_MOD_R) ? 0 : has_mod(pi, PTX_MOD_G) ? 1 : has_mod(pi, PTX_MOD_B) ? 2 : 3;
    }
    if (!four_dsts(dc, &pi->ops[0], out) || !coordinates(dc, &pi->ops[1], shape, out)) return EMU_SEL_UNSUPPORTED;
    out->sub = (uint8_t)shape;
    out->sub2 = ct == PTX_T_S32 ? TX_INT_COORDS : 0;
    out->fn = tld4 ? h_tld4 : h_tex;
    return EMU_SEL_OK;
}

static enum emu_sel sel_surface(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out, bool store)
{
    if (has_mod(pi, PTX_MOD_P)) return emu_dec_unsupported(dc, "formatted surface stores (.p) are not supported yet");
    int shape = shape_of(dc, pi);
    if (shape < 0) return EMU_SEL_UNSUPPORTED;
    if (pi->ntypes != 1 || pi->nops != 2) return emu_dec_unsupported(dc, "malformed surface access");
    unsigned es = ptx_type_size(pi->types[0]), nv = pi->vec ? pi->vec : 1;
    if (es == 0 || es > 8 || nv * es > 16) return emu_dec_unsupported(dc, "surface access of more than 16 bytes");
    unsigned mode = has_mod(pi, PTX_MOD_ZERO) ? SU_ZERO : has_mod(pi, PTX_MOD_CLAMP) || (pi->flags & PTX_IF_CLAMP)
                                                             ? SU_CLAMP : SU_TRAP;
    const struct ptx_operand *vals = store ? &pi->ops[1] : &pi->ops[0];
    unsigned n = vals->kind == PTX_OPND_VEC ? vals->nelems : 1;
    if (n != nv) return emu_dec_unsupported(dc, "surface vector size mismatch");
    if (!coordinates(dc, store ? &pi->ops[0] : &pi->ops[1], shape, out)) return EMU_SEL_UNSUPPORTED;
    enum ptx_type rt = es == 8 ? PTX_T_B64 : PTX_T_B32;
    for (unsigned k = 0; k < nv; k++) {
        const struct ptx_operand *e = vals->kind == PTX_OPND_VEC ? &vals->elems[k] : vals;
        out->v[k] = store ? emu_dec_src(dc, e, rt) : emu_dec_dst(dc, e, rt);
    }
    out->nv = (uint8_t)nv;
    out->sub = (uint8_t)shape;
    out->imm = (int64_t)(es | mode << 8);
    out->fn = store ? h_sust : h_suld;
    return EMU_SEL_OK;
}

static enum emu_sel sel_query(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out, bool surf)
{
    static const struct { enum ptx_mod mod; int q; } fields[] = {
        { PTX_MOD_WIDTH, Q_WIDTH }, { PTX_MOD_HEIGHT, Q_HEIGHT }, { PTX_MOD_DEPTH, Q_DEPTH },
        { PTX_MOD_ARRAY_SIZE, Q_ARRAY_SIZE }, { PTX_MOD_NORMALIZED_COORDS, Q_NORMALIZED },
        { PTX_MOD_FILTER_MODE, Q_FILTER }, { PTX_MOD_ADDR_MODE_0, Q_ADDR0 }, { PTX_MOD_ADDR_MODE_1, Q_ADDR1 },
        { PTX_MOD_ADDR_MODE_2, Q_ADDR2 }, { PTX_MOD_NUM_MIPMAP_LEVELS, Q_LEVELS },
        { PTX_MOD_NUM_SAMPLES, Q_SAMPLES },
    };
    int q = -1;
    for (unsigned k = 0; k < sizeof fields / sizeof fields[0] && q < 0; k++)
        if (has_mod(pi, fields[k].mod)) q = fields[k].q;
    if (q < 0) return emu_dec_unsupported(dc, "this texture or surface attribute is not supported yet");
    if (pi->nops != 2 || has_mod(pi, PTX_MOD_LEVEL))
        return emu_dec_unsupported(dc, "queries of mipmap levels are not supported yet");
    const struct ptx_operand *op = &pi->ops[1];
    if (op->kind != PTX_OPND_ADDR || op->reg < 0 || op->nelems != 0)
        return emu_dec_unsupported(dc, "texture references are not supported yet (only objects in a register)");
    struct ptx_operand h = { .kind = PTX_OPND_REG, .reg = op->reg, .loc = op->loc };
    out->a = emu_dec_src(dc, &h, PTX_T_U64);
    out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_B32);
    out->imm = q;
    out->sub2 = surf;
    out->fn = h_query;
    return EMU_SEL_OK;
}

/* The texture family's selector: the decoder asks it about every PTX_OPF_TEXTURE opcode. */
enum emu_sel emu_sel_tex(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_TEX: return sel_tex(dc, pi, out, false);
    case PTX_OP_TLD4: return sel_tex(dc, pi, out, true);
    case PTX_OP_SULD: return sel_surface(dc, pi, out, false);
    case PTX_OP_SUST: return sel_surface(dc, pi, out, true);
    case PTX_OP_TXQ: return sel_query(dc, pi, out, false);
    case PTX_OP_SUQ: return sel_query(dc, pi, out, true);
    case PTX_OP_SURED: return emu_dec_unsupported(dc, "surface reductions are not supported yet");
    default: return EMU_SEL_NO;
    }
}
