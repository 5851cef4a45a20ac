/* emu_internal.h -- decoder state and execution internals shared by emu/ files
 * (not by handlers' semantics, which need only emu.h). */
#ifndef LOOM_EMU_INTERNAL_H
#define LOOM_EMU_INTERNAL_H

#include "emu/emu.h"
#include "emu/simt/emu_simt.h"
#include "ptx/ptx_diag.h"

/* Row layout of every register file: special registers first (r32: one row per
 * enum ptx_sreg that is constant for the warp's life), then constants, then the
 * registers of every function. Entry functions share one register base (only
 * one entry runs per launch). */
#define EMU_SREG_ROWS ((uint32_t)PTX_SREG_COUNT_)

/* Tagged value of a function symbol used as a value (function pointers). */
#define EMU_FUNC_TAG 0xF00D000000000000ull

/* Call sites: where the arguments and results live in the caller's frame. */
struct emu_call_info {
    const struct emu_func *callee;      /* NULL for an indirect call */
    int32_t host;                       /* enum emu_host_fn for extern host functions, else -1 */
    uint16_t ptr_row;                   /* indirect: r64 row holding the function pointer */
    uint32_t nargs, nrets;
    uint32_t arg_off[32], arg_size[32]; /* offsets of argument slots in the caller's frame */
    uint32_t ret_off[8], ret_size[8];
};

enum emu_host_fn { EMU_HOST_VPRINTF, EMU_HOST_MALLOC, EMU_HOST_FREE, EMU_HOST_ASSERTFAIL, EMU_HOST_COUNT_ };

/* Symbol addresses the loader assigns before decoding. */
struct emu_symbols {
    void *ctx;
    /* Device address of a module-scope .global/.const variable; false if unknown. */
    bool (*global_addr)(void *ctx, const struct ptx_symbol *sym, uint64_t *out_addr);
};

struct emu_const_slot { uint64_t value; uint16_t row; bool used; };

struct emu_decoder {
    struct emu_program *prog;
    const struct ptx_module *mod;
    const struct ptx_func *fn;
    struct emu_func *efn;
    const struct ptx_instr *pi;
    uint32_t pc;                       /* pc of the instruction being selected */
    const struct emu_symbols *syms;
    struct ptx_diags *diags;
    bool failed;
    char why[256];
    /* Register rows of the current function: ptx reg index -> row. */
    uint16_t *reg_row;
    /* Constant pools (open addressing) per file. */
    struct emu_const_slot *c32, *c64;
    uint32_t c32_cap, c64_cap;
    uint32_t *const32; uint32_t nconst32;
    uint64_t *const64; uint32_t nconst64;
    /* Instructions to emit before / after the selected one (width adaptation,
     * dynamic special registers, local symbol addresses). */
    struct emu_inst pre[8], post[8];
    uint32_t npre, npost;
    /* Scratch rows allocated for the current instruction. */
    uint32_t next32, next64;
    uint32_t scratch32_base, scratch64_base, nscratch32, nscratch64;
    /* Frame layout of the current function: symbol -> frame offset. */
    const struct ptx_symbol **frame_syms;
    uint32_t *frame_offs;
    uint32_t nframe;
    /* Output. */
    struct emu_inst *code; struct emu_loc *locs;
    uint32_t ncode, cap;
    uint32_t *pc_of;                   /* ptx instr index -> first pc of its expansion */
    uint64_t sreg_used;                /* bitset over r32 special rows in use (first 64) */
    uint8_t *sreg_used_all;
    struct emu_codegen *codegen;       /* emu_codegen.c's facts about the current function */
    bool fuse;                         /* fuse setp + bra (off with LOOM_FOLD=0) */
    const bool *uniform;               /* per register of the current function: warp-uniform (or NULL) */
    const int32_t *strides;            /* per register: lane-affine stride, 0 if none (or NULL) */
};

/* Whether source operand op is uniform (*stride 0: a uniform register, an
 * immediate, a uniform special register) or lane-affine (*stride s: lane l
 * holds base + s * l once %tid.x is lane-affine, ptx_lane_strides). */
bool emu_dec_stride(const struct emu_decoder *dc, const struct ptx_operand *op, int32_t *stride);

/* The fused setp + conditional-branch handler for a fast setp handler, or
 * NULL (emu_cmp.c; the control selector fuses). */
emu_fn emu_setp_fused(emu_fn setp);
/* The handler of `op d; setp p, d, c; @p bra` for a fused uniform setp + bra
 * `fused` after a twin of arithmetic kind ukind (EMU_UK_*), or NULL (emu_cmp.c). */
emu_fn emu_setp_fused3(emu_fn fused, unsigned ukind);

/* The copy of the instruction handlers that programs built now use:
 * "x86-64-v3" (AVX2, FMA, BMI2) or "baseline"; LOOM_SIMD=baseline forces the latter. */
const char *emu_simd_variant(void);

/* Decodes a module. Returns NULL and appends diagnostics when something is unsupported. */
struct emu_program *emu_program_build(const struct ptx_module *m, const struct emu_symbols *syms,
                                      struct ptx_diags *diags);
/* The same; plain: no launch-constant folding and no fusion, so that every PTX instruction
 * runs and every register keeps its own row (the debugger's modules). */
struct emu_program *emu_program_build_plain(const struct ptx_module *m, const struct emu_symbols *syms,
                                            struct ptx_diags *diags, bool plain);
void emu_program_free(struct emu_program *p);
/* Whether the interpreter runs every instruction of a checked and analysed module:
 * decodes it as a load would (any address for module-scope variables) and appends
 * the same diagnostics, "unsupported instruction ..." ones included. `loom check`
 * reports through this, so that what it accepts is what `loom run` runs. */
bool emu_program_check(const struct ptx_module *m, struct ptx_diags *diags);
const struct emu_func *emu_program_find(const struct emu_program *p, const char *name);

/* Frame offset of a symbol of the current function (func params, locals, call-site params). */
bool emu_dec_frame_offset(struct emu_decoder *dc, const struct ptx_symbol *sym, uint32_t *out_off);
/* Kernel parameter offset when sym is a parameter of an entry. */
bool emu_dec_kernel_param(struct emu_decoder *dc, const struct ptx_symbol *sym, uint32_t *out_off);
/* Adds a constant row. */
uint16_t emu_dec_const32(struct emu_decoder *dc, uint32_t v);
uint16_t emu_dec_const64(struct emu_decoder *dc, uint64_t v);
uint16_t emu_dec_scratch32(struct emu_decoder *dc);
uint16_t emu_dec_scratch64(struct emu_decoder *dc);
/* Appends an instruction to run before / after the selected one. */
struct emu_inst *emu_dec_pre(struct emu_decoder *dc);
struct emu_inst *emu_dec_post(struct emu_decoder *dc);
/* Address operand [base + off] of a memory instruction: fills out->a, addr32, imm, space. */
bool emu_dec_address(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_space space,
                     struct emu_inst *out);
/* Copies of a row between files (used for width adaptation). */
int emu_h_mov32_from64(struct emu_warp *w, const struct emu_inst *in, emu_mask m);
int emu_h_zext64_from32(struct emu_warp *w, const struct emu_inst *in, emu_mask m);
int emu_h_sext64_from32(struct emu_warp *w, const struct emu_inst *in, emu_mask m);
int emu_h_local_addr(struct emu_warp *w, const struct emu_inst *in, emu_mask m);
int emu_h_implicit_ret(struct emu_warp *w, const struct emu_inst *in, emu_mask m);
int emu_h_local_addr32(struct emu_warp *w, const struct emu_inst *in, emu_mask m);

/* ---- What the code generator does (emu_codegen.c) ------------------------------
 * ptxas effects on results that the selectors reproduce. A mul and an add/sub
 * that ptxas fuses into fma(+-a, b, +-c): emu_dec_contract is true for the
 * add/sub (and for the mul too when at_mul: the fma is computed in the mul's
 * place, into its register, and the add/sub copies it). */
struct emu_contract {
    const struct ptx_instr *mul, *add;
    const struct ptx_operand *a, *b, *c;
    bool neg_ab, neg_c, at_mul;
};
bool emu_dec_contract(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_contract *out);
/* Selects an add/sub/mul that ptxas contracts (returns false for the others):
 * fma[sat] is the fma.rn handler of type t for the instruction's .ftz. */
bool emu_dec_contracted(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                        enum ptx_type t, const emu_fn fma[2]);
/* Whether register operand x of instruction `at` holds a value defined later in
 * the program than y's (which of two NaN operands an f64 operation returns). */
bool emu_dec_defined_later(struct emu_decoder *dc, const struct ptx_instr *at, const struct ptx_operand *x,
                           const struct ptx_operand *y);
/* Whether ptxas computes the mad.hi.sat.s32 pi together with a mul.lo of the
 * same operands, without saturation (what mad.hi.s32 gives). */
bool emu_dec_madhisat_unsaturated(struct emu_decoder *dc, const struct ptx_instr *pi);
/* Emits a pre-instruction negating row (a value of type t; f64 NaN kept as is)
 * into a scratch row, and returns that row. */
uint16_t emu_dec_negate(struct emu_decoder *dc, uint16_t row, enum ptx_type t);
struct emu_codegen;
void emu_codegen_free(struct emu_codegen *cg);

/* Runtime services handlers may use (emu_exec.c). */
struct emu_warp_file {
    uint32_t (*r32)[EMU_WARP_SIZE];
    uint64_t (*r64)[EMU_WARP_SIZE];
    emu_mask *pred;
};
/* shfl.sync or vote.sync instructions ins[0..n-1], one operation, run as one for the lanes
 * masks[i] each (emu_warp.c): EMU_CONTINUE, a stop code, or -1 when they cannot. */
int emu_warp_joint(struct emu_warp *w, const struct emu_inst *const *ins, const emu_mask *masks, unsigned n);
#if defined(LOOM_EMU_V3) && !defined(LOOM_EMU_VARIANT_V3_H)
/* The x86-64-v3 copy's (emu_variant_v3.h), for programs decoded with its handlers. */
int emu_warp_joint_v3(struct emu_warp *w, const struct emu_inst *const *ins, const emu_mask *masks, unsigned n);
#endif
/* CTA barriers (emu_exec.c): release barrier id, or every pending one, when each
 * thread it expects has arrived; a barrier deadlock's report (the CTA's fault). */
void emu_barrier_try_release(struct emu_cta *cta, uint32_t id);
void emu_barriers_try_release(struct emu_cta *cta);
void emu_report_deadlock(struct emu_cta *cta);
/* The asynchronous barriers' state of a CTA (emu_async.c): cleared for its next block,
 * freed with it. */
void emu_async_reset(struct emu_cta *cta);
void emu_async_free(struct emu_cta *cta);
int emu_barrier_arrive(struct emu_warp *w, const struct emu_inst *in, uint32_t id, uint32_t count,
                       emu_mask m);

#endif
