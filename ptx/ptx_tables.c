/* ptx_tables.c -- name, category and size queries over ptx_ops.def, ptx_mods.def,
 * ptx_sregs.def and the type list, plus sorted-array lookups by name for the parser. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

static const char *const ptx_op_names[] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) name,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

static const uint32_t ptx_op_flagtab[] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) (flags),
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

_Static_assert(PTX_T_COUNT_ <= 64, "a type set (ptx_ops.def's types) is a 64-bit mask");
static const uint64_t ptx_op_typetab[] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) (types),
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

static const char *const ptx_op_shapes[] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) shape,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

static const char *const ptx_mod_names[] = {
    "",
#define PTX_MOD(id, text, cat) text,
#include "ptx/ptx_mods.def"
#undef PTX_MOD
};

static const unsigned char ptx_mod_cats[] = {
    PTX_MC_OTHER,
#define PTX_MOD(id, text, cat) cat,
#include "ptx/ptx_mods.def"
#undef PTX_MOD
};

static const char *const ptx_sreg_names[] = {
    "",
#define PTX_SREG(id, text) text,
#include "ptx/ptx_sregs.def"
#undef PTX_SREG
};

struct ptx_type_info {
    const char *name;
    unsigned char size;
    bool is_float, is_signed;
};

static const struct ptx_type_info ptx_types[PTX_T_COUNT_] = {
    [PTX_T_NONE] = { "", 0, false, false },
    [PTX_T_PRED] = { ".pred", 0, false, false },
    [PTX_T_B8] = { ".b8", 1, false, false },
    [PTX_T_B16] = { ".b16", 2, false, false },
    [PTX_T_B32] = { ".b32", 4, false, false },
    [PTX_T_B64] = { ".b64", 8, false, false },
    [PTX_T_B128] = { ".b128", 16, false, false },
    [PTX_T_U8] = { ".u8", 1, false, false },
    [PTX_T_U16] = { ".u16", 2, false, false },
    [PTX_T_U32] = { ".u32", 4, false, false },
    [PTX_T_U64] = { ".u64", 8, false, false },
    [PTX_T_S8] = { ".s8", 1, false, true },
    [PTX_T_S16] = { ".s16", 2, false, true },
    [PTX_T_S32] = { ".s32", 4, false, true },
    [PTX_T_S64] = { ".s64", 8, false, true },
    [PTX_T_F16] = { ".f16", 2, true, true },
    [PTX_T_F16X2] = { ".f16x2", 4, true, true },
    [PTX_T_BF16] = { ".bf16", 2, true, true },
    [PTX_T_BF16X2] = { ".bf16x2", 4, true, true },
    [PTX_T_TF32] = { ".tf32", 4, true, true },
    [PTX_T_F32] = { ".f32", 4, true, true },
    [PTX_T_F64] = { ".f64", 8, true, true },
    [PTX_T_F32X2] = { ".f32x2", 8, true, true },
    [PTX_T_E4M3] = { ".e4m3", 1, true, true },
    [PTX_T_E5M2] = { ".e5m2", 1, true, true },
    [PTX_T_E4M3X2] = { ".e4m3x2", 2, true, true },
    [PTX_T_E5M2X2] = { ".e5m2x2", 2, true, true },
    [PTX_T_E2M3X2] = { ".e2m3x2", 2, true, true },
    [PTX_T_E3M2X2] = { ".e3m2x2", 2, true, true },
    [PTX_T_E2M1X2] = { ".e2m1x2", 1, true, true },
    [PTX_T_UE8M0X2] = { ".ue8m0x2", 2, true, false },
    [PTX_T_U16X2] = { ".u16x2", 4, false, false },
    [PTX_T_S16X2] = { ".s16x2", 4, false, true },
    [PTX_T_U8X4] = { ".u8x4", 4, false, false },
    [PTX_T_S8X4] = { ".s8x4", 4, false, true },
    [PTX_T_TEXREF] = { ".texref", 8, false, false },
    [PTX_T_SAMPLERREF] = { ".samplerref", 8, false, false },
    [PTX_T_SURFREF] = { ".surfref", 8, false, false },
    [PTX_T_B1] = { ".b1", 1, false, false },
    [PTX_T_S4] = { ".s4", 1, false, true },
    [PTX_T_U4] = { ".u4", 1, false, false },
    [PTX_T_E2M1] = { ".e2m1", 1, true, true },
    [PTX_T_E2M3] = { ".e2m3", 1, true, true },
    [PTX_T_E3M2] = { ".e3m2", 1, true, true },
    [PTX_T_UE8M0] = { ".ue8m0", 1, true, false },
    [PTX_T_UE4M3] = { ".ue4m3", 1, true, false },
    [PTX_T_E4M3X4] = { ".e4m3x4", 4, true, true },
    [PTX_T_E5M2X4] = { ".e5m2x4", 4, true, true },
    [PTX_T_E2M3X4] = { ".e2m3x4", 4, true, true },
    [PTX_T_E3M2X4] = { ".e3m2x4", 4, true, true },
    [PTX_T_E2M1X4] = { ".e2m1x4", 2, true, true },
};

static const char *const ptx_space_names[PTX_SPACE_COUNT_] = {
    [PTX_SPACE_NONE] = "",
    [PTX_SPACE_REG] = ".reg",
    [PTX_SPACE_SREG] = ".sreg",
    [PTX_SPACE_CONST] = ".const",
    [PTX_SPACE_GLOBAL] = ".global",
    [PTX_SPACE_LOCAL] = ".local",
    [PTX_SPACE_PARAM] = ".param",
    [PTX_SPACE_SHARED] = ".shared",
    [PTX_SPACE_SHARED_CLUSTER] = ".shared::cluster",
    [PTX_SPACE_TEX] = ".tex",
    [PTX_SPACE_GENERIC] = "generic",
};

const char *ptx_opcode_name(enum ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT_ ? ptx_op_names[op] : "?";
}

uint32_t ptx_opcode_flags(enum ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT_ ? ptx_op_flagtab[op] : 0;
}

uint64_t ptx_opcode_types(enum ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT_ ? ptx_op_typetab[op] : 0;
}

const char *ptx_opcode_shape(enum ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT_ ? ptx_op_shapes[op] : NULL;
}

const char *ptx_mod_name(enum ptx_mod mod)
{
    return (unsigned)mod < PTX_MOD_COUNT_ ? ptx_mod_names[mod] : "?";
}

enum ptx_mod_cat ptx_mod_category(enum ptx_mod mod)
{
    return (unsigned)mod < PTX_MOD_COUNT_ ? (enum ptx_mod_cat)ptx_mod_cats[mod] : PTX_MC_OTHER;
}

const char *ptx_type_name(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT_ ? ptx_types[t].name : "?";
}

unsigned ptx_type_size(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT_ ? ptx_types[t].size : 0;
}

bool ptx_type_is_float(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT_ && ptx_types[t].is_float;
}

bool ptx_type_is_signed(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT_ && ptx_types[t].is_signed;
}

const char *ptx_space_name(enum ptx_space s)
{
    return (unsigned)s < PTX_SPACE_COUNT_ ? ptx_space_names[s] : "?";
}

const char *ptx_sreg_name(enum ptx_sreg s)
{
    return (unsigned)s < PTX_SREG_COUNT_ ? ptx_sreg_names[s] : "?";
}

/* Sorted (name, value) indexes, built once. */
struct ptx_name_ix {
    const char *name;
    uint16_t len;
    uint16_t value;
};

#define PTX_NMODS_ (PTX_MOD_COUNT_ - 1)
#define PTX_NSREGS_ (PTX_SREG_COUNT_ - 1)
#define PTX_NTYPES_ (PTX_T_COUNT_ - 1)

static struct ptx_name_ix ptx_ix_ops[PTX_OP_COUNT_];
static struct ptx_name_ix ptx_ix_mods[PTX_NMODS_];
static struct ptx_name_ix ptx_ix_sregs[PTX_NSREGS_];
static struct ptx_name_ix ptx_ix_types[PTX_NTYPES_];
static pthread_once_t ptx_ix_once = PTHREAD_ONCE_INIT;

static int ptx_cmp_name(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = memcmp(a, b, n);
    if (c)
        return c;
    return alen < blen ? -1 : alen > blen;
}

static int ptx_ix_cmp(const void *pa, const void *pb)
{
    const struct ptx_name_ix *a = pa, *b = pb;
    return ptx_cmp_name(a->name, a->len, b->name, b->len);
}

static void ptx_ix_fill(struct ptx_name_ix *ix, size_t n, const char *(*name)(unsigned), unsigned first)
{
    for (size_t i = 0; i < n; i++) {
        ix[i].name = name(first + (unsigned)i);
        ix[i].len = (uint16_t)strlen(ix[i].name);
        ix[i].value = (uint16_t)(first + i);
    }
    qsort(ix, n, sizeof *ix, ptx_ix_cmp);
}

static const char *ptx_ix_op(unsigned i) { return ptx_op_names[i]; }
static const char *ptx_ix_mod(unsigned i) { return ptx_mod_names[i]; }
static const char *ptx_ix_sreg(unsigned i) { return ptx_sreg_names[i]; }
static const char *ptx_ix_type(unsigned i) { return ptx_types[i].name; }

static void ptx_ix_build(void)
{
    ptx_ix_fill(ptx_ix_ops, PTX_OP_COUNT_, ptx_ix_op, 0);
    ptx_ix_fill(ptx_ix_mods, PTX_NMODS_, ptx_ix_mod, 1);
    ptx_ix_fill(ptx_ix_sregs, PTX_NSREGS_, ptx_ix_sreg, 1);
    ptx_ix_fill(ptx_ix_types, PTX_NTYPES_, ptx_ix_type, 1);
}

/* Binary search; returns the value or `none`. */
static unsigned ptx_ix_find(const struct ptx_name_ix *ix, size_t n, const char *s, size_t len,
                            unsigned none)
{
    pthread_once(&ptx_ix_once, ptx_ix_build);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = ptx_cmp_name(ix[mid].name, ix[mid].len, s, len);
        if (c == 0)
            return ix[mid].value;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return none;
}

enum ptx_opcode ptx_opcode_lookup(const char *s, size_t len)
{
    return (enum ptx_opcode)ptx_ix_find(ptx_ix_ops, PTX_OP_COUNT_, s, len, PTX_OP_COUNT_);
}

enum ptx_mod ptx_mod_lookup(const char *s, size_t len)
{
    return (enum ptx_mod)ptx_ix_find(ptx_ix_mods, PTX_NMODS_, s, len, PTX_MOD_NONE_);
}

enum ptx_type ptx_type_lookup(const char *s, size_t len)
{
    return (enum ptx_type)ptx_ix_find(ptx_ix_types, PTX_NTYPES_, s, len, PTX_T_NONE);
}

enum ptx_sreg ptx_sreg_lookup(const char *s, size_t len)
{
    return (enum ptx_sreg)ptx_ix_find(ptx_ix_sregs, PTX_NSREGS_, s, len, PTX_SREG_NONE);
}

/* Appends s to buf at *pos, truncating at size. */
static void ptx_append(char *buf, size_t size, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + 1 >= size)
        return;
    if (n > size - 1 - *pos)
        n = size - 1 - *pos;
    memcpy(buf + *pos, s, n);
    *pos += n;
    buf[*pos] = 0;
}

void ptx_instr_name(const struct ptx_instr *in, char *buf, size_t size)
{
    size_t pos = 0;
    if (!size)
        return;
    buf[0] = 0;
    ptx_append(buf, size, &pos, ptx_opcode_name(in->op));
    for (unsigned i = 0; i < in->nmods; i++)
        ptx_append(buf, size, &pos, ptx_mod_name(in->mods[i]));
    for (unsigned i = 0; i < in->ntypes; i++)
        ptx_append(buf, size, &pos, ptx_type_name(in->types[i]));
}
