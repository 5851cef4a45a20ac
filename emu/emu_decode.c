/* emu_decode.c -- decode once: PTX module IR -> one flat program of handlers
 * with dense register rows, constant rows, resolved branch targets and
 * reconvergence PCs. Execution never looks at the IR again. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

#define EMU_SCRATCH 16
#define EMU_MAX_ROWS 65000u

/* ---- A pointer-keyed hash map (symbol -> offset) ------------------------- */
struct ptrmap { const void **k; uint64_t *v; uint32_t cap, n; };

static uint32_t ptr_hash(const void *p) { uint64_t x = (uint64_t)(uintptr_t)p; x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; return (uint32_t)x; }

static bool ptrmap_put(struct ptrmap *m, const void *k, uint64_t v)
{
    if (2 * (m->n + 1) > m->cap) {
        uint32_t ncap = m->cap ? 2 * m->cap : 64;
        const void **nk = calloc(ncap, sizeof *nk);
        uint64_t *nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) { free(nk); free(nv); return false; }
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->k[i]) {
                uint32_t j = ptr_hash(m->k[i]) & (ncap - 1);
                while (nk[j]) j = (j + 1) & (ncap - 1);
                nk[j] = m->k[i]; nv[j] = m->v[i];
            }
        free(m->k); free(m->v);
        m->k = nk; m->v = nv; m->cap = ncap;
    }
    uint32_t j = ptr_hash(k) & (m->cap - 1);
    while (m->k[j] && m->k[j] != k) j = (j + 1) & (m->cap - 1);
    if (!m->k[j]) m->n++;
    m->k[j] = k; m->v[j] = v;
    return true;
}

static bool ptrmap_get(const struct ptrmap *m, const void *k, uint64_t *out)
{
    if (!m->cap) return false;
    uint32_t j = ptr_hash(k) & (m->cap - 1);
    while (m->k[j]) {
        if (m->k[j] == k) { *out = m->v[j]; return true; }
        j = (j + 1) & (m->cap - 1);
    }
    return false;
}

static void ptrmap_free(struct ptrmap *m) { free(m->k); free(m->v); memset(m, 0, sizeof *m); }

typedef enum emu_sel (*emu_selector)(struct emu_decoder *, const struct ptx_instr *, struct emu_inst *);

/* Program-wide decoding context beyond struct emu_decoder. */
struct emu_build {
    struct emu_decoder dc;
    struct ptrmap shared_off;     /* .shared symbol -> CTA offset */
    struct ptrmap frame_off;      /* symbol -> frame offset (current function) */
    struct ptrmap func_index;     /* ptx_func -> index in prog->funcs */
    const emu_selector *selectors; /* the family selectors of the handler copy in use */
    bool uniform;                  /* scalar twins for uniform instructions (LOOM_UNIFORM=0: none) */
};

static struct emu_build *build_of(struct emu_decoder *dc) { return (struct emu_build *)dc; }

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

static bool is64(enum ptx_type t)
{
    return t == PTX_T_B64 || t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_F64;
}

/* ---- Diagnostics ----------------------------------------------------------- */
static void dec_error(struct emu_decoder *dc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dec_error(struct emu_decoder *dc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const struct ptx_loc *loc = dc->pi ? &dc->pi->loc : &dc->fn->loc;
    ptx_diag_vadd(dc->diags, PTX_SEV_ERROR, dc->mod->path ? dc->mod->path : "<ptx>", loc->line, loc->col, fmt, ap);
    va_end(ap);
    dc->failed = true;
}

enum emu_sel emu_dec_unsupported(struct emu_decoder *dc, const char *why)
{
    snprintf(dc->why, sizeof dc->why, "%s", why ? why : "");
    return EMU_SEL_UNSUPPORTED;
}

const struct ptx_instr *emu_dec_instr(const struct emu_decoder *dc) { return dc->pi; }

/* ---- Rows ------------------------------------------------------------------ */
static uint16_t const_row(struct emu_decoder *dc, uint64_t v, bool wide)
{
    struct emu_const_slot **tab = wide ? &dc->c64 : &dc->c32;
    uint32_t *cap = wide ? &dc->c64_cap : &dc->c32_cap;
    uint32_t n = wide ? dc->nconst64 : dc->nconst32;
    if (2 * (n + 1) > *cap) {
        uint32_t ncap = *cap ? 2 * *cap : 256;
        struct emu_const_slot *nt = calloc(ncap, sizeof *nt);
        if (!nt) { dc->failed = true; return 0; }
        for (uint32_t i = 0; i < *cap; i++)
            if ((*tab)[i].used) {
                uint32_t j = (uint32_t)((*tab)[i].value * 0x9E3779B97F4A7C15ull >> 40) & (ncap - 1);
                while (nt[j].used) j = (j + 1) & (ncap - 1);
                nt[j] = (*tab)[i];
            }
        free(*tab);
        *tab = nt; *cap = ncap;
    }
    uint32_t j = (uint32_t)(v * 0x9E3779B97F4A7C15ull >> 40) & (*cap - 1);
    while ((*tab)[j].used) {
        if ((*tab)[j].value == v) return (*tab)[j].row;
        j = (j + 1) & (*cap - 1);
    }
    uint32_t base = wide ? dc->prog->nconst64 : dc->prog->nconst32;   /* first constant row */
    uint32_t row = base + n;
    if (row >= EMU_MAX_ROWS) { dec_error(dc, "too many distinct constants in the module"); return 0; }
    if (wide) {
        uint64_t *g = realloc(dc->const64, (n + 1) * sizeof *g);
        if (!g) { dc->failed = true; return 0; }
        dc->const64 = g; g[n] = v; dc->nconst64++;
    } else {
        uint32_t *g = realloc(dc->const32, (n + 1) * sizeof *g);
        if (!g) { dc->failed = true; return 0; }
        dc->const32 = g; g[n] = (uint32_t)v; dc->nconst32++;
    }
    (*tab)[j] = (struct emu_const_slot){ .value = v, .row = (uint16_t)row, .used = true };
    return (uint16_t)row;
}

uint16_t emu_dec_const32(struct emu_decoder *dc, uint32_t v) { return const_row(dc, v, false); }
uint16_t emu_dec_const64(struct emu_decoder *dc, uint64_t v) { return const_row(dc, v, true); }

uint16_t emu_dec_scratch32(struct emu_decoder *dc)
{
    if (dc->nscratch32 >= EMU_SCRATCH) { dec_error(dc, "internal: out of scratch rows"); return 0; }
    return (uint16_t)(dc->scratch32_base + dc->nscratch32++);
}

uint16_t emu_dec_scratch64(struct emu_decoder *dc)
{
    if (dc->nscratch64 >= EMU_SCRATCH) { dec_error(dc, "internal: out of scratch rows"); return 0; }
    return (uint16_t)(dc->scratch64_base + dc->nscratch64++);
}

struct emu_inst *emu_dec_pre(struct emu_decoder *dc)
{
    if (dc->npre >= 8) { dec_error(dc, "internal: too many helper instructions"); return &dc->pre[7]; }
    struct emu_inst *i = &dc->pre[dc->npre++];
    memset(i, 0, sizeof *i);
    i->guard = EMU_NOGUARD; i->e = EMU_NOREG; i->target = i->reconv = UINT32_MAX;
    return i;
}

struct emu_inst *emu_dec_post(struct emu_decoder *dc)
{
    if (dc->npost >= 8) { dec_error(dc, "internal: too many helper instructions"); return &dc->post[7]; }
    struct emu_inst *i = &dc->post[dc->npost++];
    memset(i, 0, sizeof *i);
    i->guard = EMU_NOGUARD; i->e = EMU_NOREG; i->target = i->reconv = UINT32_MAX;
    return i;
}

/* ---- Width-adaptation and address helpers (tiny handlers) ----------------- */
int emu_h_mov32_from64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d]; const uint64_t *a = w->r64[in->a];
    EMU_EACH(l) EMU_BLEND32(d, m, l, (uint32_t)a[l]);
    return EMU_CONTINUE;
}

int emu_h_zext64_from32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d]; const uint32_t *a = w->r32[in->a];
    EMU_EACH(l) EMU_PUT64(d, m, l, (uint64_t)a[l]);
    return EMU_CONTINUE;
}

int emu_h_sext64_from32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d]; const uint32_t *a = w->r32[in->a];
    unsigned sh = 64 - in->sub;   /* in->sub: source width in bits */
    EMU_EACH(l) EMU_PUT64(d, m, l, (uint64_t)((int64_t)((uint64_t)a[l] << sh) >> sh));
    return EMU_CONTINUE;
}

/* Address of a local-space symbol in the current frame (uniform). */
int emu_h_local_addr(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d];
    uint64_t v = (uint64_t)w->local_sp + (uint64_t)in->imm;
    EMU_EACH(l) EMU_PUT64(d, m, l, v);
    return EMU_CONTINUE;
}

int emu_h_local_addr32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    uint32_t v = w->local_sp + (uint32_t)in->imm;
    EMU_EACH(l) EMU_BLEND32(d, m, l, v);
    return EMU_CONTINUE;
}

/* ---- Operands --------------------------------------------------------------- */
static enum ptx_type reg_type(const struct emu_decoder *dc, int32_t reg)
{
    return dc->fn->regs[reg].type;
}

static bool reg_is64(const struct emu_decoder *dc, int32_t reg) { return is64(reg_type(dc, reg)); }

static unsigned type_bits(enum ptx_type t) { return 8 * ptx_type_size(t); }

/* Converts an immediate operand to the bit pattern of type t. */
static uint64_t imm_bits(const struct ptx_operand *op, enum ptx_type t)
{
    bool f = ptx_type_is_float(t);
    unsigned sz = ptx_type_size(t);
    if (op->kind == PTX_OPND_IMM_INT) {
        if (!f) return (uint64_t)op->ival;
        if (t == PTX_T_F32) return emu_b32((float)op->ival);
        if (t == PTX_T_F64) return emu_b64((double)op->ival);
        return (uint64_t)op->ival;              /* f16 etc.: written as raw bits */
    }
    if (op->kind == PTX_OPND_IMM_F32) {
        if (t == PTX_T_F64) return emu_b64((double)emu_f32((uint32_t)op->fbits));
        if (!f && sz == 8) return op->fbits;
        return op->fbits;
    }
    /* IMM_F64 */
    if (t == PTX_T_F32) return emu_b32((float)emu_f64(op->fbits));
    return op->fbits;
}

/* Value of a symbol used as an operand (its address in its space). Returns
 * false (with a diagnostic) when it has no fixed value; *out_local is set for
 * local/frame symbols whose address depends on the frame. */
static bool sym_value(struct emu_decoder *dc, const struct ptx_symbol *sym, uint64_t *out, bool *out_local)
{
    struct emu_build *b = build_of(dc);
    uint64_t v;
    *out_local = false;
    if (sym->kind == PTX_SYM_FUNC) {
        if (!ptrmap_get(&b->func_index, sym->func, &v)) { dec_error(dc, "function '%s' has no body", sym->name); return false; }
        *out = EMU_FUNC_TAG | v;
        return true;
    }
    switch (sym->space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER:
        if (ptrmap_get(&b->shared_off, sym, &v)) { *out = v; return true; }
        break;
    case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST:
        if (dc->syms && dc->syms->global_addr && dc->syms->global_addr(dc->syms->ctx, sym, out)) return true;
        break;
    case PTX_SPACE_PARAM: {
        uint32_t off;
        if (emu_dec_kernel_param(dc, sym, &off)) { *out = off; return true; }
        if (emu_dec_frame_offset(dc, sym, &off)) { *out = off; *out_local = true; return true; }
        break;
    }
    case PTX_SPACE_LOCAL: {
        uint32_t off;
        if (emu_dec_frame_offset(dc, sym, &off)) { *out = off; *out_local = true; return true; }
        break;
    }
    default:
        break;
    }
    dec_error(dc, "symbol '%s' has no address here", sym->name);
    return false;
}

/* Row of the special register for reading. Stable ones are rows filled at warp
 * start; the clock-like ones are produced by a helper instruction. */
extern int emu_sreg_dynamic(struct emu_decoder *dc, enum ptx_sreg s, bool wide, uint16_t *out_row);

static uint16_t sreg_row(struct emu_decoder *dc, enum ptx_sreg s, bool wide)
{
    uint16_t row;
    if (emu_sreg_dynamic(dc, s, wide, &row))
        return row;
    dc->sreg_used_all[s] = 1;
    if (!wide)
        return (uint16_t)s;
    uint16_t r64 = emu_dec_scratch64(dc);
    struct emu_inst *p = emu_dec_pre(dc);
    p->fn = emu_h_zext64_from32; p->d = r64; p->a = (uint16_t)s;
    return r64;
}

uint16_t emu_dec_src(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t)
{
    bool want64 = is64(t);
    switch (op->kind) {
    case PTX_OPND_REG: {
        uint16_t row = dc->reg_row[op->reg];
        bool have64 = reg_is64(dc, op->reg);
        if (reg_type(dc, op->reg) == PTX_T_PRED) { dec_error(dc, "predicate register used as a value"); return 0; }
        if (have64 == want64) return row;
        if (have64) {                      /* read the low bits of a wider register */
            uint16_t s = emu_dec_scratch32(dc);
            struct emu_inst *p = emu_dec_pre(dc);
            p->fn = emu_h_mov32_from64; p->d = s; p->a = row;
            return s;
        }
        uint16_t s = emu_dec_scratch64(dc);  /* widen a narrower register */
        struct emu_inst *p = emu_dec_pre(dc);
        bool sgn = ptx_type_is_signed(reg_type(dc, op->reg));
        p->fn = sgn ? emu_h_sext64_from32 : emu_h_zext64_from32; p->d = s; p->a = row;
        p->sub = (uint8_t)type_bits(reg_type(dc, op->reg));
        return s;
    }
    case PTX_OPND_IMM_INT: case PTX_OPND_IMM_F32: case PTX_OPND_IMM_F64: {
        uint64_t v = imm_bits(op, t);
        unsigned bits = type_bits(t);
        if (bits && bits < 64) v &= (1ull << bits) - 1;
        return want64 ? emu_dec_const64(dc, v) : emu_dec_const32(dc, (uint32_t)v);
    }
    case PTX_OPND_SYM: {
        uint64_t v; bool local;
        if (!sym_value(dc, op->sym, &v, &local)) return 0;
        v += (uint64_t)op->ival;
        if (local) {
            uint16_t s = want64 ? emu_dec_scratch64(dc) : emu_dec_scratch32(dc);
            struct emu_inst *p = emu_dec_pre(dc);
            p->fn = want64 ? emu_h_local_addr : emu_h_local_addr32; p->d = s; p->imm = (int64_t)v;
            return s;
        }
        return want64 ? emu_dec_const64(dc, v) : emu_dec_const32(dc, (uint32_t)v);
    }
    case PTX_OPND_SREG:
        return sreg_row(dc, op->sreg, want64);
    default:
        dec_error(dc, "unexpected operand kind for a value");
        return 0;
    }
}

uint16_t emu_dec_dst(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t)
{
    bool want64 = is64(t);
    if (op->kind == PTX_OPND_SINK)
        return want64 ? emu_dec_scratch64(dc) : emu_dec_scratch32(dc);
    if (op->kind != PTX_OPND_REG) { dec_error(dc, "destination must be a register"); return 0; }
    uint16_t row = dc->reg_row[op->reg];
    bool have64 = reg_is64(dc, op->reg);
    if (reg_type(dc, op->reg) == PTX_T_PRED) { dec_error(dc, "predicate register used as a value"); return 0; }
    if (have64 == want64) return row;
    if (have64) {   /* narrower result into a wider register: extend afterwards */
        uint16_t s = emu_dec_scratch32(dc);
        struct emu_inst *p = emu_dec_post(dc);
        bool sgn = ptx_type_is_signed(t);
        p->fn = sgn ? emu_h_sext64_from32 : emu_h_zext64_from32; p->d = row; p->a = s;
        p->sub = (uint8_t)(type_bits(t) ? type_bits(t) : 32);
        return s;
    }
    uint16_t s = emu_dec_scratch64(dc);  /* wider result into a narrower register: truncate */
    struct emu_inst *p = emu_dec_post(dc);
    p->fn = emu_h_mov32_from64; p->d = row; p->a = s;
    return s;
}

uint16_t emu_dec_reg32(struct emu_decoder *dc, const struct ptx_operand *op) { return emu_dec_src(dc, op, PTX_T_B32); }
uint16_t emu_dec_reg64(struct emu_decoder *dc, const struct ptx_operand *op) { return emu_dec_src(dc, op, PTX_T_B64); }

uint16_t emu_dec_pred(struct emu_decoder *dc, const struct ptx_operand *op)
{
    if (op->kind == PTX_OPND_SINK)
        return (uint16_t)(dc->prog->npred - 1);   /* the sink predicate row */
    if (op->kind != PTX_OPND_REG || reg_type(dc, op->reg) != PTX_T_PRED) {
        dec_error(dc, "expected a predicate register");
        return 0;
    }
    return dc->reg_row[op->reg];
}

bool emu_dec_kernel_param(struct emu_decoder *dc, const struct ptx_symbol *sym, uint32_t *out_off)
{
    if (!dc->fn->is_entry) return false;
    for (uint32_t i = 0; i < dc->fn->nparams; i++)
        if (dc->fn->params[i] == sym) { *out_off = (uint32_t)sym->offset; return true; }
    return false;
}

bool emu_dec_frame_offset(struct emu_decoder *dc, const struct ptx_symbol *sym, uint32_t *out_off)
{
    uint64_t v;
    if (!ptrmap_get(&build_of(dc)->frame_off, sym, &v)) return false;
    *out_off = (uint32_t)v;
    return true;
}

/* Whether register reg is uniform (*stride 0) or lane-affine (*stride s). */
static bool dec_reg_stride(const struct emu_decoder *dc, int32_t reg, int32_t *stride)
{
    if (!dc->uniform || !dc->strides) return false;
    *stride = dc->uniform[reg] ? 0 : dc->strides[reg];
    return dc->uniform[reg] || *stride != 0;
}

bool emu_dec_address(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_space space,
                     struct emu_inst *out)
{
    out->space = (uint8_t)space;
    if (op->kind != PTX_OPND_ADDR) { dec_error(dc, "expected an address operand [...]"); return false; }
    if (op->reg >= 0) {
        out->addr32 = !reg_is64(dc, op->reg);
        int32_t stride;
        if (out->addr32 && dec_reg_stride(dc, op->reg, &stride) && stride == 4) out->addr32 = EMU_ADDR32_RUN4;
        out->a = dc->reg_row[op->reg];
        out->imm = op->ival;
        if (op->sym) { dec_error(dc, "address with both a register and a symbol"); return false; }
        return true;
    }
    uint64_t base = 0;
    if (op->sym) {
        bool local;
        if (!sym_value(dc, op->sym, &base, &local)) return false;
        if (local) {   /* frame-relative: the address is local_sp + offset */
            uint16_t s = emu_dec_scratch64(dc);
            struct emu_inst *p = emu_dec_pre(dc);
            p->fn = emu_h_local_addr; p->d = s; p->imm = (int64_t)base;
            out->a = s; out->addr32 = 0; out->imm = op->ival;
            return true;
        }
    }
    out->addr32 = 0;
    out->a = emu_dec_const64(dc, base);
    out->imm = op->ival;
    return true;
}

/* ---- Layout ------------------------------------------------------------------ */

/* Offsets of every .shared variable in the CTA's shared window. Module-scope
 * variables and those of .func bodies come first; then each entry's own
 * variables, all entries starting at the same offset (only one entry runs in
 * a launch). Extern (unsized) shared arrays start after the largest static
 * layout. An entry's static size is its own end of the layout. */
static bool place_shared(struct emu_build *b, const struct ptx_symbol *s, uint64_t *off, uint64_t *maxalign)
{
    if (s->space != PTX_SPACE_SHARED && s->space != PTX_SPACE_SHARED_CLUSTER) return true;
    if (s->size == 0 && s->linkage == PTX_LINK_EXTERN) return true;
    uint64_t a = s->align ? s->align : (ptx_type_size(s->type) ? ptx_type_size(s->type) : 1);
    if (a > *maxalign) *maxalign = a;
    *off = align_up(*off, a);
    if (!ptrmap_put(&b->shared_off, s, *off)) return false;
    *off += s->size;
    return true;
}

static bool layout_shared(struct emu_build *b, const struct ptx_module *m, struct emu_program *p)
{
    uint64_t off = 0, maxalign = 16;
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (!place_shared(b, m->globals[i], &off, &maxalign)) return false;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!m->funcs[f]->is_entry)
            for (uint32_t i = 0; i < m->funcs[f]->nlocals; i++)
                if (!place_shared(b, m->funcs[f]->locals[i], &off, &maxalign)) return false;
    uint64_t common = off, most = off;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (!m->funcs[f]->is_entry) continue;
        uint64_t eoff = common;
        for (uint32_t i = 0; i < m->funcs[f]->nlocals; i++)
            if (!place_shared(b, m->funcs[f]->locals[i], &eoff, &maxalign)) return false;
        p->funcs[f].shared_bytes = eoff;
        if (eoff > most) most = eoff;
    }
    p->static_shared = most;
    uint64_t dyn = align_up(most, maxalign > 16 ? maxalign : 16);
    for (uint32_t i = 0; i < m->nglobals; i++) {
        const struct ptx_symbol *s = m->globals[i];
        if ((s->space == PTX_SPACE_SHARED || s->space == PTX_SPACE_SHARED_CLUSTER) && s->size == 0 &&
            s->linkage == PTX_LINK_EXTERN && !ptrmap_put(&b->shared_off, s, dyn))
            return false;
    }
    p->dyn_shared_base = dyn;
    return true;
}

/* Frame of a function: incoming params, return params, local variables and
 * call-site params, each at its alignment. */
static uint32_t layout_frame(struct emu_build *b, const struct ptx_func *fn, struct emu_func *ef)
{
    uint64_t off = 0;
    ptrmap_free(&b->frame_off);
#define FRAME(sym) do { \
        const struct ptx_symbol *s_ = (sym); \
        uint64_t a_ = s_->align ? s_->align : 8; \
        off = align_up(off, a_); \
        ptrmap_put(&b->frame_off, s_, off); \
        off += s_->size ? s_->size : 8; \
    } while (0)
    if (!fn->is_entry) {
        ef->nparams = fn->nparams < 32 ? fn->nparams : 32;
        ef->nrets = fn->nrets < 8 ? fn->nrets : 8;
        for (uint32_t i = 0; i < fn->nparams; i++) {
            FRAME(fn->params[i]);
            if (i < 32) { ef->param_size[i] = (uint32_t)fn->params[i]->size; ef->param_off[i] = (uint32_t)(off - fn->params[i]->size); }
        }
        for (uint32_t i = 0; i < fn->nrets; i++) {
            FRAME(fn->rets[i]);
            if (i < 8) { ef->ret_size[i] = (uint32_t)fn->rets[i]->size; ef->ret_off[i] = (uint32_t)(off - fn->rets[i]->size); }
        }
    }
    for (uint32_t i = 0; i < fn->nlocals; i++) {
        const struct ptx_symbol *s = fn->locals[i];
        if (s->space == PTX_SPACE_LOCAL || s->space == PTX_SPACE_PARAM) FRAME(s);
    }
#undef FRAME
    return (uint32_t)align_up(off, 16);
}

/* ---- Emission ----------------------------------------------------------------- */
static bool emit(struct emu_decoder *dc, const struct emu_inst *in)
{
    if (dc->ncode == dc->cap) {
        uint32_t ncap = dc->cap ? 2 * dc->cap : 1024;
        struct emu_inst *nc = realloc(dc->code, ncap * sizeof *nc);
        struct emu_loc *nl = realloc(dc->locs, ncap * sizeof *nl);
        if (nc) dc->code = nc;
        if (nl) dc->locs = nl;
        if (!nc || !nl) { dc->failed = true; return false; }
        dc->cap = ncap;
    }
    struct emu_inst c = *in;
    c.src = dc->ncode;
    dc->code[dc->ncode] = c;
    dc->locs[dc->ncode] = (struct emu_loc){
        .ptx_line = dc->pi ? dc->pi->loc.line : 0, .ptx_col = dc->pi ? dc->pi->loc.col : 0,
        .cu_file = dc->pi ? dc->pi->loc.cu_file : 0, .cu_line = dc->pi ? dc->pi->loc.cu_line : 0,
        .ir = dc->pi,
    };
    dc->ncode++;
    return true;
}

/* ---- Handler selection -------------------------------------------------------------
 * ptx_ops.def's family column names the one selector that decodes an opcode: an index
 * into the selector arrays below (the baseline copy of the family files and the
 * x86-64-v3 one). ARITH opcodes go to the integer, float or half family by their type.
 * A family without a selector refuses its opcodes with its family's line. Adding a
 * family file: a row in enum emu_family, its selector in both arrays (declared with
 * EMU_DECLARE_V3 when the file is compiled twice), and its opcodes' family column. */
enum emu_family {
    EMU_FAM_NONE, EMU_FAM_CTRL, EMU_FAM_MEM, EMU_FAM_INT, EMU_FAM_BITS, EMU_FAM_CMP, EMU_FAM_FLOAT,
    EMU_FAM_HALF, EMU_FAM_CVT, EMU_FAM_ATOM, EMU_FAM_WARP, EMU_FAM_VIDEO, EMU_FAM_ASYNC, EMU_FAM_MMA,
    EMU_FAM_TEX, EMU_FAM_COUNT_,
    EMU_FAM_ARITH = EMU_FAM_COUNT_,   /* resolved by type (family_of) */
};

static const uint8_t op_family[PTX_OP_COUNT_] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) [PTX_OP_##id] = EMU_FAM_##family,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

/* Why a family without a selector refuses (NONE: the opcode's own name is given). */
static const char *const family_refusal[EMU_FAM_COUNT_] = {
};

static const emu_selector selectors_baseline[EMU_FAM_COUNT_] = {
    [EMU_FAM_CTRL] = emu_sel_ctrl, [EMU_FAM_MEM] = emu_sel_mem, [EMU_FAM_INT] = emu_sel_int,
    [EMU_FAM_BITS] = emu_sel_bits, [EMU_FAM_CMP] = emu_sel_cmp, [EMU_FAM_FLOAT] = emu_sel_float,
    [EMU_FAM_HALF] = emu_sel_half, [EMU_FAM_CVT] = emu_sel_cvt, [EMU_FAM_ATOM] = emu_sel_atom,
    [EMU_FAM_WARP] = emu_sel_warp, [EMU_FAM_VIDEO] = emu_sel_video, [EMU_FAM_ASYNC] = emu_sel_async,
    [EMU_FAM_MMA] = emu_sel_mma, [EMU_FAM_TEX] = emu_sel_tex,
};

#ifdef LOOM_EMU_V3
/* The x86-64-v3 copy of the family files (emu_variant_v3.h renames them). */
#define EMU_DECLARE_V3(fam) \
    enum emu_sel emu_sel_##fam##_v3(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
EMU_DECLARE_V3(ctrl) EMU_DECLARE_V3(mem) EMU_DECLARE_V3(int) EMU_DECLARE_V3(bits) EMU_DECLARE_V3(cmp)
EMU_DECLARE_V3(float) EMU_DECLARE_V3(half) EMU_DECLARE_V3(cvt) EMU_DECLARE_V3(atom) EMU_DECLARE_V3(warp)
EMU_DECLARE_V3(video)
#undef EMU_DECLARE_V3
static const emu_selector selectors_v3[EMU_FAM_COUNT_] = {
    [EMU_FAM_CTRL] = emu_sel_ctrl_v3, [EMU_FAM_MEM] = emu_sel_mem_v3, [EMU_FAM_INT] = emu_sel_int_v3,
    [EMU_FAM_BITS] = emu_sel_bits_v3, [EMU_FAM_CMP] = emu_sel_cmp_v3, [EMU_FAM_FLOAT] = emu_sel_float_v3,
    [EMU_FAM_HALF] = emu_sel_half_v3, [EMU_FAM_CVT] = emu_sel_cvt_v3, [EMU_FAM_ATOM] = emu_sel_atom_v3,
    [EMU_FAM_WARP] = emu_sel_warp_v3, [EMU_FAM_VIDEO] = emu_sel_video_v3, [EMU_FAM_ASYNC] = emu_sel_async,
    [EMU_FAM_MMA] = emu_sel_mma, [EMU_FAM_TEX] = emu_sel_tex,
};
#endif

/* The family that decodes pi. */
static enum emu_family family_of(const struct ptx_instr *pi)
{
    enum emu_family f = (enum emu_family)op_family[pi->op];
    if (pi->op == PTX_OP_BARRIER)   /* barrier.cluster: the asynchronous barriers' family */
        for (unsigned k = 0; k < pi->nmods; k++)
            if (pi->mods[k] == PTX_MOD_CLUSTER) return EMU_FAM_ASYNC;
    if (f != EMU_FAM_ARITH)
        return f;
    enum ptx_type t = pi->ntypes ? pi->types[0] : PTX_T_NONE;
    if (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F32X2)
        return EMU_FAM_FLOAT;
    if (t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2)
        return EMU_FAM_HALF;
    return EMU_FAM_INT;
}

/* Which copy of the handlers a program gets: the x86-64-v3 one when it was
 * built and the CPU has AVX2, FMA and BMI2, unless LOOM_SIMD=baseline. Both
 * give bit-identical results; only speed differs. */
const char *emu_simd_variant(void)
{
#ifdef LOOM_EMU_V3
    const char *env = getenv("LOOM_SIMD");
    if (env && strcmp(env, "baseline") == 0) return "baseline";
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
        return "x86-64-v3";
#endif
    return "baseline";
}

static void decode_instr(struct emu_decoder *dc, uint32_t idx)
{
    const struct ptx_instr *pi = &dc->fn->instrs[idx];
    dc->pi = pi;
    dc->npre = dc->npost = 0;
    dc->nscratch32 = dc->nscratch64 = 0;
    dc->why[0] = 0;
    dc->pc_of[idx] = dc->ncode;
    char name[128];
    ptx_instr_name(pi, name, sizeof name);
    enum emu_family fam = family_of(pi);
    emu_selector sel = build_of(dc)->selectors[fam];
    if (!sel) {
        if (family_refusal[fam]) dec_error(dc, "unsupported instruction '%s' (%s)", name, family_refusal[fam]);
        else dec_error(dc, "unsupported instruction '%s' (%s is not supported yet)", name, ptx_opcode_name(pi->op));
        return;
    }
    struct emu_inst out;
    memset(&out, 0, sizeof out);
    out.guard = EMU_NOGUARD; out.e = EMU_NOREG; out.target = out.reconv = UINT32_MAX;
    enum emu_sel r = sel(dc, pi, &out);
    out.flow = fam == EMU_FAM_CTRL;   /* the only family that changes the SIMT state */
    if (r != EMU_SEL_OK && out.aux_owned) {   /* a selector that refused after allocating */
        free((void *)out.aux);
        out.aux = NULL;
        out.aux_owned = 0;
    }
    if (r == EMU_SEL_NO) {   /* ptx_ops.def names a family whose selector does not know the opcode */
        dec_error(dc, "internal: no handler for '%s' in its family's selector", name);
        return;
    }
    if (r == EMU_SEL_UNSUPPORTED) {
        if (dc->why[0]) dec_error(dc, "unsupported instruction '%s' (%s)", name, dc->why);
        else dec_error(dc, "unsupported instruction '%s'", name);
        return;
    }
    if (!out.fn) { dec_error(dc, "internal: no handler for '%s'", name); return; }
    uint16_t guard = EMU_NOGUARD;
    if (pi->guard_reg >= 0) {
        if (reg_type(dc, pi->guard_reg) != PTX_T_PRED) { dec_error(dc, "guard must be a predicate"); return; }
        guard = dc->reg_row[pi->guard_reg];
    }
    for (uint32_t i = 0; i < dc->npre; i++) {
        dc->pre[i].guard = guard; dc->pre[i].guard_neg = pi->guard_neg;
        emit(dc, &dc->pre[i]);
    }
    out.guard = guard; out.guard_neg = pi->guard_neg;
    if (emit(dc, &out)) dc->locs[dc->ncode - 1].main = 1;
    for (uint32_t i = 0; i < dc->npost; i++) {
        dc->post[i].guard = guard; dc->post[i].guard_neg = pi->guard_neg;
        emit(dc, &dc->post[i]);
    }
}

/* Reconvergence pc for a branch at PTX instruction idx: the first instruction
 * of its block's immediate post-dominator. */
static uint32_t reconv_of(const struct emu_decoder *dc, uint32_t idx)
{
    const struct ptx_func *fn = dc->fn;
    if (!fn->block_of || !fn->blocks) return EMU_RECONV_NONE;
    int32_t ip = fn->blocks[fn->block_of[idx]].ipdom;
    if (ip < 0 || (uint32_t)ip >= fn->nblocks) return EMU_RECONV_NONE;
    return dc->pc_of[fn->blocks[ip].first];
}


/* ---- Scalar twins ------------------------------------------------------------------
 * Whether every source operand of the instruction being selected is warp-uniform
 * (ptx/ptx_uniform.c): then a selector may give it its handler's scalar twin
 * (EMU_TWIN, emu_lanes.h). */
static bool dec_uniform(const struct emu_decoder *dc)
{
    const struct ptx_instr *pi = dc->pi;
    if (!dc->uniform || !pi) return false;
    for (uint32_t k = 1; k < pi->nops; k++) {
        const struct ptx_operand *op = &pi->ops[k];
        bool u;
        switch (op->kind) {
        case PTX_OPND_REG: u = dc->uniform[op->reg]; break;
        case PTX_OPND_SREG: u = ptx_sreg_uniform(op->sreg); break;
        case PTX_OPND_IMM_INT: case PTX_OPND_IMM_F32: case PTX_OPND_IMM_F64: u = true; break;
        default: u = false; break;   /* addresses, vectors, symbols: no twin reads them */
        }
        if (!u) return false;
    }
    return true;
}

emu_fn emu_dec_twin(struct emu_decoder *dc, emu_fn vec, emu_fn twin)
{
    return twin && dec_uniform(dc) ? twin : vec;
}

bool emu_dec_stride(const struct emu_decoder *dc, const struct ptx_operand *op, int32_t *stride)
{
    if (!dc->uniform || !dc->strides) return false;
    switch (op->kind) {
    case PTX_OPND_REG:
        return !op->vec_comp && !op->neg && !op->arith_neg && !op->sel && dec_reg_stride(dc, op->reg, stride);
    case PTX_OPND_SREG:
        *stride = ptx_sreg_uniform(op->sreg) ? 0 : ptx_sreg_lane_stride(op->sreg);
        return ptx_sreg_uniform(op->sreg) || *stride != 0;
    case PTX_OPND_IMM_INT:
        *stride = 0;
        return true;
    default:
        return false;
    }
}

/* ---- Launch-constant folding ------------------------------------------------------
 * nvcc's kernels open with loads of their parameters, moves of %tid/%ntid/%ctaid
 * and cvta.to.global of parameter pointers: values that cannot change while a
 * CTA runs. A register whose only definition (unguarded) is one of these needs
 * no instruction: a move of a constant, a symbol's address or a per-CTA special
 * register, or a move or cvta.to.global of another such register, makes the
 * register an alias of the source's row; an ld.param of a kernel parameter at a
 * fixed offset makes its row one that each CTA context fills once per launch.
 * Every read then sees the value the instruction would have written, so results
 * are unchanged; only the dropped instructions are no longer executed (nor
 * counted in --stats). LOOM_FOLD=0 turns folding off, and the fusion of setp
 * with a following conditional bra (emu_ctrl.c) too. */

static bool env_on(const char *name)
{
    const char *e = getenv(name);
    return !(e && strcmp(e, "0") == 0);
}
static bool fold_enabled(void) { return env_on("LOOM_FOLD"); }

/* Special registers whose row is filled per warp or per CTA and never changes while it runs. */
static bool sreg_is_cta_constant(enum ptx_sreg s)
{
    switch (s) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z:
    case PTX_SREG_NTID_X: case PTX_SREG_NTID_Y: case PTX_SREG_NTID_Z:
    case PTX_SREG_CTAID_X: case PTX_SREG_CTAID_Y: case PTX_SREG_CTAID_Z:
    case PTX_SREG_NCTAID_X: case PTX_SREG_NCTAID_Y: case PTX_SREG_NCTAID_Z:
    case PTX_SREG_LANEID: case PTX_SREG_NSMID:
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE: case PTX_SREG_LANEMASK_LT:
    case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
    case PTX_SREG_DYNAMIC_SMEM_SIZE: case PTX_SREG_TOTAL_SMEM_SIZE:
        return true;
    default:
        return false;
    }
}

/* Counts, per register, the instructions that may write it. Over-counting
 * only folds less: every register in a destination position (operand 0, the
 * second of a p|q pair is always a predicate), in any vector operand, and in
 * any operand of a call counts. */
static void count_defs(const struct ptx_func *fn, uint32_t *defs)
{
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const struct ptx_instr *pi = &fn->instrs[i];
        for (uint32_t k = 0; k < pi->nops; k++) {
            const struct ptx_operand *op = &pi->ops[k];
            bool all = pi->op == PTX_OP_CALL || op->kind == PTX_OPND_VEC || op->kind == PTX_OPND_LIST;
            if (op->kind == PTX_OPND_REG && (k == 0 || pi->op == PTX_OP_CALL)) defs[op->reg]++;
            if (all)
                for (uint32_t e = 0; e < op->nelems; e++)
                    if (op->elems[e].kind == PTX_OPND_REG) defs[op->elems[e].reg]++;
        }
    }
}

static bool fold_width_ok(const struct emu_decoder *dc, int32_t reg, enum ptx_type t)
{
    unsigned sz = ptx_type_size(t), rsz = ptx_type_size(reg_type(dc, reg));
    return (sz == 4 || sz == 8) && sz == rsz && reg_type(dc, reg) != PTX_T_PRED;
}

/* Decides which instructions of the current function fold away (folded[i])
 * and redirects the rows of the registers they define. */
static void fold_constants(struct emu_build *b, bool *folded)
{
    struct emu_decoder *dc = &b->dc;
    const struct ptx_func *fn = dc->fn;
    struct emu_func *ef = dc->efn;
    uint32_t *defs = calloc(fn->nregs + 1, sizeof *defs);
    bool *lc = calloc(fn->nregs + 1, sizeof *lc);   /* the register holds a launch constant */
    if (!defs || !lc) { free(defs); free(lc); return; }
    count_defs(fn, defs);
    for (bool changed = true; changed;) {   /* chains (cvta of a folded load) may run backwards */
        changed = false;
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const struct ptx_instr *pi = &fn->instrs[i];
            if (folded[i] || pi->guard_reg >= 0 || pi->nops != 2 || pi->ntypes != 1) continue;
            const struct ptx_operand *d = &pi->ops[0], *a = &pi->ops[1];
            if (d->kind != PTX_OPND_REG || defs[d->reg] != 1 || d->vec_comp || a->vec_comp) continue;
            enum ptx_type t = pi->types[0];
            if (!fold_width_ok(dc, d->reg, t)) continue;
            bool wide = ptx_type_size(t) == 8;
            int32_t r = d->reg;
            dc->pi = pi;
            if (pi->op == PTX_OP_MOV || (pi->op == PTX_OP_CVTA && (pi->space == PTX_SPACE_GLOBAL || pi->space == PTX_SPACE_CONST))) {
                if (a->kind == PTX_OPND_REG) {
                    if (!lc[a->reg] || !fold_width_ok(dc, a->reg, t)) continue;
                    dc->reg_row[r] = dc->reg_row[a->reg];
                } else if (pi->op != PTX_OP_MOV) {
                    continue;
                } else if (a->kind == PTX_OPND_IMM_INT || a->kind == PTX_OPND_IMM_F32 || a->kind == PTX_OPND_IMM_F64) {
                    dc->reg_row[r] = emu_dec_src(dc, a, t);
                } else if (a->kind == PTX_OPND_SREG) {
                    if (wide || !sreg_is_cta_constant(a->sreg)) continue;
                    dc->sreg_used_all[a->sreg] = 1;
                    dc->reg_row[r] = (uint16_t)a->sreg;
                } else if (a->kind == PTX_OPND_SYM && a->sym->kind == PTX_SYM_VAR &&
                           (a->sym->space == PTX_SPACE_SHARED || a->sym->space == PTX_SPACE_GLOBAL ||
                            a->sym->space == PTX_SPACE_CONST)) {
                    uint64_t v;
                    bool known = a->sym->space == PTX_SPACE_SHARED
                                     ? ptrmap_get(&b->shared_off, a->sym, &v)
                                     : dc->syms && dc->syms->global_addr && dc->syms->global_addr(dc->syms->ctx, a->sym, &v);
                    if (!known) continue;
                    v += (uint64_t)a->ival;
                    dc->reg_row[r] = wide ? emu_dec_const64(dc, v) : emu_dec_const32(dc, (uint32_t)v);
                } else {
                    continue;
                }
            } else if (pi->op == PTX_OP_LD && pi->space == PTX_SPACE_PARAM && fn->is_entry && pi->vec <= 1 &&
                       !(pi->flags & PTX_IF_VOLATILE) && pi->sem == PTX_MOD_NONE_ && a->kind == PTX_OPND_ADDR &&
                       a->reg < 0 && a->sym && !a->nelems) {
                uint32_t off;
                if (!emu_dec_kernel_param(dc, a->sym, &off) || a->ival < 0 ||
                    (uint64_t)a->ival + ptx_type_size(t) > a->sym->size || ((off + (uint64_t)a->ival) & (ptx_type_size(t) - 1)))
                    continue;
                struct emu_param_row *nr = realloc(ef->param_rows, (ef->nparam_rows + 1) * sizeof *nr);
                if (!nr) continue;
                ef->param_rows = nr;
                nr[ef->nparam_rows++] = (struct emu_param_row){ .row = dc->reg_row[r], .wide = wide,
                                                               .off = off + (uint32_t)a->ival };
            } else {
                continue;
            }
            folded[i] = true;
            lc[r] = true;
            ef->nfolded++;
            changed = true;
        }
    }
    dc->pi = NULL;
    free(defs);
    free(lc);
}

static void decode_func(struct emu_build *b, uint32_t fi, bool fold)
{
    struct emu_decoder *dc = &b->dc;
    struct emu_program *p = dc->prog;
    struct emu_func *ef = &p->funcs[fi];
    const struct ptx_func *fn = ef->ir;
    dc->fn = fn; dc->efn = ef; dc->pi = NULL;
    ef->frame_bytes = layout_frame(b, fn, ef);
    ef->entry_pc = dc->ncode;
    if (fn->is_decl) { ef->end_pc = dc->ncode; return; }
    dc->pc_of = calloc(fn->ninstrs + 1, sizeof *dc->pc_of);
    if (!dc->pc_of) { dc->failed = true; return; }
    uint32_t first = dc->ncode;
    bool *folded = calloc(fn->ninstrs + 1, sizeof *folded);
    if (!folded) { dc->failed = true; return; }
    if (fold) fold_constants(b, folded);
    bool *uniform = NULL;
    int32_t *strides = b->uniform ? ptx_lane_strides(fn, &uniform) : NULL;
    dc->uniform = uniform;
    dc->strides = strides;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        if (folded[i]) dc->pc_of[i] = dc->ncode;   /* nothing to run: targets go to the next instruction */
        else decode_instr(dc, i);
    }
    free(folded);
    dc->uniform = NULL;
    dc->strides = NULL;
    free(uniform);
    free(strides);
    dc->pc_of[fn->ninstrs] = dc->ncode;
    /* A function that falls off its end returns (kernels exit). */
    dc->pi = NULL;
    struct emu_inst tail = { .guard = EMU_NOGUARD, .e = EMU_NOREG, .target = UINT32_MAX, .reconv = UINT32_MAX };
    tail.fn = emu_h_implicit_ret;
    tail.skind = EMU_SK_RET;
    tail.flow = 1;
    emit(dc, &tail);
    /* Resolve targets (PTX instruction indices) and reconvergence points. */
    for (uint32_t pc = first; pc < dc->ncode; pc++) {
        struct emu_inst *in = &dc->code[pc];
        const struct ptx_instr *ir = dc->locs[pc].ir;
        if (in->target != UINT32_MAX && in->target <= fn->ninstrs) in->target = dc->pc_of[in->target];
        if (in->reconv == EMU_RECONV_FROM_CFG && ir) in->reconv = reconv_of(dc, (uint32_t)(ir - fn->instrs));
        if (in->aux_targets) {   /* brx.idx tables hold PTX indices too */
            uint32_t *t = (uint32_t *)in->aux;
            for (uint32_t k = 0; k < in->aux_targets; k++) t[k] = t[k] <= fn->ninstrs ? dc->pc_of[t[k]] : t[k];
        }
    }
    ef->end_pc = dc->ncode;
    free(dc->pc_of); dc->pc_of = NULL;
}

/* The host services a call instruction reaches directly: a bit per service for a call
 * of vprintf, malloc or free, or __assertfail; 0 for other callees. */
static uint8_t call_uses(const struct ptx_instr *pi, const struct ptx_func **out_callee, bool *out_indirect)
{
    *out_callee = NULL;
    *out_indirect = false;
    if (pi->op != PTX_OP_CALL || pi->nops < 2) return 0;
    const struct ptx_operand *t = &pi->ops[1];
    if (t->kind == PTX_OPND_REG) { *out_indirect = true; return 0; }
    if (t->kind != PTX_OPND_SYM || t->sym->kind != PTX_SYM_FUNC || !t->sym->func) return 0;
    const struct ptx_func *f = t->sym->func;
    if (!f->is_decl) { *out_callee = f; return 0; }
    if (!strcmp(f->name, "vprintf")) return EMU_USES_PRINTF;
    if (!strcmp(f->name, "__assertfail")) return EMU_USES_ASSERT;
    return !strcmp(f->name, "malloc") || !strcmp(f->name, "free") ? EMU_USES_MALLOC : 0;
}

/* Fills emu_func.host_uses: a function uses what its calls of host services use and
 * what its callees use, to a fixed point (recursion included). An indirect call may
 * reach any function of the module, so it counts as every service the module calls. */
static void host_uses(const struct ptx_module *m, const struct ptrmap *func_index, struct emu_program *p)
{
    uint8_t any = 0;
    const struct ptx_func *callee;
    bool indirect;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t i = 0; i < m->funcs[f]->ninstrs; i++)
            any |= call_uses(&m->funcs[f]->instrs[i], &callee, &indirect);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            uint8_t u = p->funcs[f].host_uses;
            for (uint32_t i = 0; i < m->funcs[f]->ninstrs; i++) {
                u |= call_uses(&m->funcs[f]->instrs[i], &callee, &indirect);
                if (indirect) u |= any;
                uint64_t g;
                if (callee && ptrmap_get(func_index, callee, &g)) u |= p->funcs[g].host_uses;
            }
            if (u != p->funcs[f].host_uses) { p->funcs[f].host_uses = u; changed = true; }
        }
    }
}

/* Assigns register rows: functions get disjoint rows; entries share a base. */
static bool assign_rows(struct emu_build *b, const struct ptx_module *m, struct emu_program *p,
                        uint16_t **out_rows)
{
    uint32_t n32 = EMU_SREG_ROWS, n64 = 0, npred = 0;
    uint32_t e32 = 0, e64 = 0, epred = 0;
    for (int pass = 0; pass < 2; pass++) {     /* .func first, then entries overlapping */
        uint32_t b32 = n32, b64 = n64, bpred = npred;
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const struct ptx_func *fn = m->funcs[f];
            if ((pass == 0) == fn->is_entry) continue;
            uint32_t c32 = pass ? b32 : n32, c64 = pass ? b64 : n64, cp = pass ? bpred : npred;
            uint16_t *rows = calloc(fn->nregs + 1, sizeof *rows);
            if (!rows) return false;
            for (uint32_t r = 0; r < fn->nregs; r++) {
                enum ptx_type t = fn->regs[r].type;
                if (t == PTX_T_PRED) rows[r] = (uint16_t)cp++;
                else if (is64(t)) rows[r] = (uint16_t)c64++;
                else rows[r] = (uint16_t)c32++;
            }
            out_rows[f] = rows;
            p->funcs[f].rows32 = pass ? b32 : n32; p->funcs[f].rows64 = pass ? b64 : n64;
            p->funcs[f].rowsp = pass ? bpred : npred;
            p->funcs[f].nrows32 = c32 - p->funcs[f].rows32; p->funcs[f].nrows64 = c64 - p->funcs[f].rows64;
            p->funcs[f].nrowsp = cp - p->funcs[f].rowsp;
            if (pass) { if (c32 > e32) e32 = c32; if (c64 > e64) e64 = c64; if (cp > epred) epred = cp; }
            else { n32 = c32; n64 = c64; npred = cp; }
        }
        if (pass) { if (e32 > n32) n32 = e32; if (e64 > n64) n64 = e64; if (epred > npred) npred = epred; }
    }
    b->dc.scratch32_base = n32; b->dc.scratch64_base = n64;
    p->nconst32 = n32 + EMU_SCRATCH;   /* first constant row, temporarily */
    p->nconst64 = n64 + EMU_SCRATCH;
    p->npred = npred + 1;              /* + a sink row for `_` predicate destinations */
    return n32 < EMU_MAX_ROWS && n64 < EMU_MAX_ROWS && npred < EMU_MAX_ROWS;
}

/* The chained handlers (EMU_CHAINED, EMU_CHAINED_FLOW): the linker brackets
 * their sections. */
extern const char __start_loom_chain[] __attribute__((weak));
extern const char __stop_loom_chain[] __attribute__((weak));
extern const char __start_loom_chainf[] __attribute__((weak));
extern const char __stop_loom_chainf[] __attribute__((weak));

/* 0: no member of a run; 1: a member; 2: a member that ends its run (a control
 * instruction: a branch, bar.sync, exit, ret). */
static int chain_role(const struct emu_inst *in)
{
    const char *f = (const char *)(uintptr_t)in->fn;
    if (in->guard != EMU_NOGUARD) return 0;
    if (!in->flow) return __start_loom_chain && f >= __start_loom_chain && f < __stop_loom_chain;
    return __start_loom_chainf && f >= __start_loom_chainf && f < __stop_loom_chainf ? 2 : 0;
}

/* Chained runs (emu_inst.run, emu.h): from each pc, how many instructions run
 * as one chain. A run stops before a reconvergence point, where the dispatch
 * loop must pop the SIMT stack when a split waits there (the run's last
 * instruction is marked cont, to go on when none does), and after EMU_RUN_MAX
 * instructions, which bounds the stack a chain can use where a handler's tail
 * call is not a jump.
 * LOOM_CHAIN=0 leaves every run out (one dispatch per instruction). */
static bool mark_runs(struct emu_program *p)
{
    bool on = env_on("LOOM_CHAIN");
    uint8_t *is_reconv = calloc(p->ncode + 1, 1);
    if (!is_reconv) return false;
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        if (p->code[pc].reconv < p->ncode) is_reconv[p->code[pc].reconv] = 1;
    uint32_t next = 0;   /* run of pc + 1 */
    for (uint32_t pc = p->ncode; pc-- > 0;) {
        struct emu_inst *in = &p->code[pc];
        uint32_t run = 0;
        int role = on ? chain_role(in) : 0;
        bool before_reconv = pc + 1 < p->ncode && is_reconv[pc + 1];
        if (role == 2) run = 1;
        else if (role == 1) run = (pc + 1 < p->ncode && !before_reconv && next < EMU_RUN_MAX) ? next + 1 : 1;
        in->run = (uint8_t)run;
        in->cont = role == 1 && before_reconv && next > 0;
        in->at_reconv = is_reconv[pc];
        /* Branches reach their target's instruction directly (the array is final now;
         * ptx_check guarantees every label names an instruction of the function). */
        if (in->br) in->aux = &p->code[in->target < p->ncode ? in->target : p->ncode - 1];
        next = run;
    }
    free(is_reconv);
    return true;
}

struct emu_program *emu_program_build(const struct ptx_module *m, const struct emu_symbols *syms,
                                      struct ptx_diags *diags)
{
    return emu_program_build_plain(m, syms, diags, false);
}

struct emu_program *emu_program_build_plain(const struct ptx_module *m, const struct emu_symbols *syms,
                                            struct ptx_diags *diags, bool plain)
{
    struct emu_program *p = calloc(1, sizeof *p);
    struct emu_build *b = calloc(1, sizeof *b);
    uint16_t **rows = calloc(m->nfuncs + 1, sizeof *rows);
    if (!p || !b || !rows) { free(p); free(b); free(rows); return NULL; }
    struct emu_decoder *dc = &b->dc;
    dc->prog = p; dc->mod = m; dc->syms = syms; dc->diags = diags;
    b->selectors = selectors_baseline;
#ifdef LOOM_EMU_V3
    if (strcmp(emu_simd_variant(), "baseline") != 0) b->selectors = selectors_v3;
#endif
    dc->sreg_used_all = calloc(EMU_SREG_ROWS + 1, 1);
    p->ir = m;
    p->nfuncs = m->nfuncs;
    p->funcs = calloc(m->nfuncs + 1, sizeof *p->funcs);
    bool ok = p->funcs && dc->sreg_used_all;
    for (uint32_t f = 0; ok && f < m->nfuncs; f++) {
        p->funcs[f].ir = m->funcs[f];
        ok = ptrmap_put(&b->func_index, m->funcs[f], f);
    }
    ok = ok && layout_shared(b, m, p);
    if (ok && !assign_rows(b, m, p, rows)) {
        ptx_diag_add(diags, PTX_SEV_ERROR, m->path ? m->path : "<ptx>", 1, 1, "module uses too many registers");
        ok = false;
    }
    bool fold = !plain && fold_enabled();
    dc->fuse = fold;
    b->uniform = env_on("LOOM_UNIFORM");
    for (uint32_t f = 0; ok && f < m->nfuncs; f++) {
        dc->reg_row = rows[f];
        decode_func(b, f, fold);
    }
    /* Constant rows follow the registers and scratch rows. */
    uint32_t c32 = p->nconst32, c64 = p->nconst64;
    p->const32_base = c32; p->const64_base = c64;
    p->n32 = c32 + dc->nconst32; p->n64 = c64 + dc->nconst64;
    p->nconst32 = dc->nconst32; p->nconst64 = dc->nconst64;
    p->const32 = dc->const32; p->const64 = dc->const64;
    p->code = dc->code; p->locs = dc->locs; p->ncode = dc->ncode;
    p->sreg_used = dc->sreg_used_all;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        if (p->funcs) p->funcs[f].reg_row = rows[f];   /* (the debugger's register names) */
        else free(rows[f]);
    }
    free(rows);
    free(dc->c32); free(dc->c64);
    emu_codegen_free(dc->codegen);
    if (ok && !dc->failed) host_uses(m, &b->func_index, p);
    ptrmap_free(&b->shared_off); ptrmap_free(&b->frame_off); ptrmap_free(&b->func_index);
    bool failed = dc->failed || !ok;
    free(b);
    if (failed) { emu_program_free(p); return NULL; }
    if (!mark_runs(p)) { emu_program_free(p); return NULL; }
    return p;
}

/* Any module-scope variable has some address: emu_program_check needs no device. */
static bool check_global_addr(void *ctx, const struct ptx_symbol *sym, uint64_t *out_addr)
{
    (void)ctx;
    *out_addr = 0x10000000u + (uint64_t)((uintptr_t)sym & 0xffff0u);
    return true;
}

bool emu_program_check(const struct ptx_module *m, struct ptx_diags *diags)
{
    static const struct emu_symbols any = { NULL, check_global_addr };
    size_t before = diags->nerrors;
    struct emu_program *p = emu_program_build(m, &any, diags);
    emu_program_free(p);
    return p && diags->nerrors == before;
}

void emu_program_free(struct emu_program *p)
{
    if (!p) return;
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        if (p->code[pc].aux_owned) free((void *)p->code[pc].aux);
    for (uint32_t f = 0; p->funcs && f < p->nfuncs; f++) {
        free(p->funcs[f].param_rows);
        free(p->funcs[f].reg_row);
    }
    free(p->code); free(p->locs); free(p->funcs);
    free(p->steps); free(p->prio);                /* (the thread engine's, emu/simt/steps.c) */
    free(p->const32); free(p->const64); free(p->sreg_used);
    free(p);
}

const struct emu_func *emu_program_find(const struct emu_program *p, const char *name)
{
    for (uint32_t f = 0; f < p->nfuncs; f++)
        if (p->funcs[f].ir && strcmp(p->funcs[f].ir->name, name) == 0) return &p->funcs[f];
    return NULL;
}
