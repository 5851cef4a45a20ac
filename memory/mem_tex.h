/* mem_tex.h -- CUDA arrays and texture and surface objects as device memory: the layouts
 * that the API writes (sched/loom_tex.c) and the texture instructions read (emu/emu_tex.c). */
#ifndef LOOM_MEM_TEX_H
#define LOOM_MEM_TEX_H

#include <stdint.h>

/* A channel's number format (values of enum loom_channel_kind). */
enum mem_tex_kind { MEM_TEX_UNSIGNED, MEM_TEX_SIGNED, MEM_TEX_FLOAT };
/* Addressing modes (values of enum loom_address_mode and cudaTextureAddressMode). */
enum mem_tex_address { MEM_TEX_WRAP, MEM_TEX_CLAMP, MEM_TEX_MIRROR, MEM_TEX_BORDER };
/* What a texture object reads. */
enum mem_tex_resource { MEM_TEX_ARRAY, MEM_TEX_LINEAR, MEM_TEX_PITCH2D };

#define MEM_ARRAY_MAGIC 0x4c4d4152u    /* "LMAR" */
#define MEM_TEXOBJ_MAGIC 0x4c4d5458u   /* "LMTX" */
#define MEM_SURFOBJ_MAGIC 0x4c4d5346u  /* "LMSF" */
/* Texels start this far into an array's allocation (after its struct mem_array). */
#define MEM_ARRAY_HEADER 256u

/* The head of a CUDA array's allocation (MEM_ARRAY); its handle is the allocation's
 * address. Texel (x, y, z) of 1 to 4 channels of bits each lies at
 * data + z * slice + y * pitch + x * channels * bits / 8; layers are slices. */
struct mem_array {
    uint32_t magic;
    uint8_t channels, bits, kind;      /* 1, 2 or 4 channels; 8, 16 or 32 bits; enum mem_tex_kind */
    uint8_t flags;                     /* LOOM_ARRAY_* as created */
    uint64_t width, height, depth;     /* as created: height 0 for 1-D, depth 0 unless 3-D or layered */
    uint64_t data, pitch, slice;
};

/* A texture or surface object (MEM_TEXOBJ): its handle is the allocation's address. */
struct mem_texobj {
    uint32_t magic;                    /* MEM_TEXOBJ_MAGIC or MEM_SURFOBJ_MAGIC */
    uint8_t channels, bits, kind;      /* the texels' format, as in struct mem_array */
    uint8_t resource;                  /* enum mem_tex_resource */
    uint8_t dims;                      /* 1, 2 or 3 (a layered array counts its layers apart) */
    uint8_t layered;
    uint8_t address[3];                /* enum mem_tex_address per axis */
    uint8_t linear;                    /* linear filtering (else point) */
    uint8_t read_normalized;           /* 8/16-bit integers read as floats in [0,1] or [-1,1] */
    uint8_t coords_normalized;         /* coordinates in [0,1) across each axis */
    uint8_t srgb;                      /* sRGB to linear on 8-bit normalised reads */
    uint32_t width, height, depth;     /* texels per axis (1 when absent); depth = layers when layered */
    uint64_t data, pitch, slice;       /* texel (0,0,0) and the row and slice strides in bytes */
    uint64_t span;                     /* bytes from data that the object reads */
    uint64_t array;                    /* the array read (its handle), or 0 for memory */
    float border[4];                   /* border colour */
};

#endif
