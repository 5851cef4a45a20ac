/* ptx_ir.h -- the module IR that the PTX front end produces.
 * Everything downstream (checks, analysis, the emu/ decoder) reads only this. */
#ifndef LOOM_PTX_IR_H
#define LOOM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptx/ptx_diag.h"

/* Opcodes: one row each in ptx_ops.def. */
enum ptx_opcode {
#define PTX_OP(id, name, flags, types, shape, family, meaning) PTX_OP_##id,
#include "ptx/ptx_ops.def"
#undef PTX_OP
    PTX_OP_COUNT_
};

/* Opcode property flags (column 3 of ptx_ops.def). */
enum ptx_op_flag {
    PTX_OPF_WRITES   = 1u << 0, /* first operand is a destination */
    PTX_OPF_BRANCH   = 1u << 1, /* transfers control (bra, brx, call, ret, exit) */
    PTX_OPF_WARP     = 1u << 2, /* warp-wide: reads other lanes */
    PTX_OPF_MEMORY   = 1u << 3, /* reads or writes memory */
    PTX_OPF_BARRIER  = 1u << 4, /* synchronises threads */
    PTX_OPF_TENSOR   = 1u << 5, /* tensor-core family */
    PTX_OPF_TEXTURE  = 1u << 6, /* texture / surface */
    PTX_OPF_ASYNC    = 1u << 7, /* async / bulk copies */
    PTX_OPF_VIDEO    = 1u << 8, /* video instructions */
    PTX_OPF_NOOP     = 1u << 9, /* performance hint, no architectural effect */
    PTX_OPF_PURE     = 1u << 10, /* the result is a pure function of the operands (ptx_uniform.c) */
};

/* Instruction suffixes: one row each in ptx_mods.def (types excluded). */
enum ptx_mod {
    PTX_MOD_NONE_ = 0,
#define PTX_MOD(id, text, cat) PTX_MOD_##id,
#include "ptx/ptx_mods.def"
#undef PTX_MOD
    PTX_MOD_COUNT_
};

/* Category of a suffix: where the parser files it in struct ptx_instr. */
enum ptx_mod_cat {
    PTX_MC_FLAG,     /* boolean flag: .ftz .sat .cc .uni .volatile .nc .sync .aligned ... */
    PTX_MC_ROUND,    /* .rn .rz .rm .rp .rna .rs .rni .rzi .rmi .rpi */
    PTX_MC_CMP,      /* .eq .ne .lt ... .equ .nan .num */
    PTX_MC_BOOL,     /* .and .or .xor (predicate combining / bar.red / lop) */
    PTX_MC_SPACE,    /* .global .shared .shared::cta .local .const .param ... */
    PTX_MC_SEM,      /* .relaxed .acquire .release .acq_rel .sc .weak .mmio */
    PTX_MC_SCOPE,    /* .cta .cluster .gpu .sys */
    PTX_MC_VEC,      /* .v2 .v4 .v8 */
    PTX_MC_SUBOP,    /* operation selector: atom .add/.cas, shfl .bfly, vote .ballot, bar .arrive, mul .hi ... */
    PTX_MC_CACHE,    /* cache operators and eviction hints: .ca .cg .cs .lu .cv .wb .wt .L1::* .L2::* */
    PTX_MC_SHAPE,    /* tensor shapes and layouts: .m16n8k16 .row .col .x4 .trans ... */
    PTX_MC_OTHER,    /* anything else the ISA defines: kept in mods[] only */
};

/* Types, for instruction suffixes and declarations. */
enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
    PTX_T_F32, PTX_T_F64, PTX_T_F32X2,
    PTX_T_E4M3, PTX_T_E5M2, PTX_T_E4M3X2, PTX_T_E5M2X2,
    PTX_T_E2M3X2, PTX_T_E3M2X2, PTX_T_E2M1X2, PTX_T_UE8M0X2,
    PTX_T_U16X2, PTX_T_S16X2, PTX_T_U8X4, PTX_T_S8X4,
    PTX_T_TEXREF, PTX_T_SAMPLERREF, PTX_T_SURFREF,
    /* Sub-byte and narrow element types of the tensor-core instructions. */
    PTX_T_B1, PTX_T_S4, PTX_T_U4, PTX_T_E2M1, PTX_T_E2M3, PTX_T_E3M2, PTX_T_UE8M0, PTX_T_UE4M3,
    /* Packed quadruples of cvt.rs (PTX ISA 8.7+). */
    PTX_T_E4M3X4, PTX_T_E5M2X4, PTX_T_E2M3X4, PTX_T_E3M2X4, PTX_T_E2M1X4,
    PTX_T_COUNT_
};

/* Sets of types (bit t for enum ptx_type t): column 4 of ptx_ops.def. */
#define PTX_TY(t) (1ull << PTX_T_##t)
#define PTX_TY_INT (PTX_TY(B8) | PTX_TY(B16) | PTX_TY(B32) | PTX_TY(B64) | PTX_TY(U8) | PTX_TY(U16) | \
                    PTX_TY(U32) | PTX_TY(U64) | PTX_TY(S8) | PTX_TY(S16) | PTX_TY(S32) | PTX_TY(S64))
#define PTX_TY_FLT (PTX_TY(F32) | PTX_TY(F64))
#define PTX_TY_HLF (PTX_TY(F16) | PTX_TY(F16X2) | PTX_TY(BF16) | PTX_TY(BF16X2))
#define PTX_TY_I16X2 (PTX_TY(U16X2) | PTX_TY(S16X2))
#define PTX_TY_F32X2 PTX_TY(F32X2)
#define PTX_TY_PRED PTX_TY(PRED)
#define PTX_TY_ANY (~0ull)

/* State spaces. */
enum ptx_space {
    PTX_SPACE_NONE = 0, /* not given: generic for ld/st */
    PTX_SPACE_REG, PTX_SPACE_SREG,
    PTX_SPACE_CONST, PTX_SPACE_GLOBAL, PTX_SPACE_LOCAL, PTX_SPACE_PARAM,
    PTX_SPACE_SHARED, PTX_SPACE_SHARED_CLUSTER, PTX_SPACE_TEX,
    PTX_SPACE_GENERIC,
    PTX_SPACE_COUNT_
};

/* Source location: PTX file:line:col plus the CUDA line from the last .loc. */
struct ptx_loc {
    uint32_t line, col;      /* in the PTX text, 1-based */
    uint16_t cu_file;        /* .file index; 0 = none */
    uint32_t cu_line, cu_col;
};

/* Special registers (%tid.x ...). */
enum ptx_sreg {
    PTX_SREG_NONE = 0,
#define PTX_SREG(id, text) PTX_SREG_##id,
#include "ptx/ptx_sregs.def"
#undef PTX_SREG
    PTX_SREG_COUNT_
};

/* A declared register (after <N> ranges are expanded). */
struct ptx_reg {
    const char *name;        /* interned */
    enum ptx_type type;
    uint32_t decl_line;
    uint8_t vec;             /* 1, or 2/4 for ".reg .v4 .f32 %v" (components as %v.x ...) */
};

enum ptx_operand_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,        /* reg: index into ptx_func.regs */
    PTX_OPND_SREG,       /* sreg */
    PTX_OPND_IMM_INT,    /* ival (parsed with its literal's base; negative allowed) */
    PTX_OPND_IMM_F32,    /* 0fXXXXXXXX: fbits holds the bit pattern */
    PTX_OPND_IMM_F64,    /* 0dXXXXXXXXXXXXXXXX or decimal float: fbits holds the f64 pattern */
    PTX_OPND_SYM,        /* sym (+ ival offset): a variable or function used as a value */
    PTX_OPND_ADDR,       /* [base + ival]: base is reg, sym, or none (absolute) */
    PTX_OPND_VEC,        /* {a, b, c, d}: elems/nelems */
    PTX_OPND_LABEL,      /* label: index into ptx_func.labels */
    PTX_OPND_SINK,       /* _ */
    PTX_OPND_LIST,       /* (a, b, ...) argument / return list of call */
};

/* Operand layout of the irregular instructions:
 * - call: always ops[0] = LIST of return params (maybe empty), ops[1] = the callee (SYM of a
 *   function, or REG for an indirect call), ops[2] = LIST of arguments (maybe empty), and for an
 *   indirect call ops[3] = LABEL naming a .calltargets list or a .callprototype.
 * - brx.idx: ops[0] = index, ops[1] = LABEL of kind PTX_LABEL_BRANCHTARGETS.
 * - setp/... with "p|q": two destination operands ops[0], ops[1].
 * - ADDR with extra parts ("[tex, sampler, {x, y}]", "[tmap, {c0, c1}]"): the first part is the
 *   base (reg/sym/none + ival); the remaining comma-separated parts are in elems/nelems.
 * - vec_comp beyond .x/.y/.z/.w (1..4): 5..8 = video byte selectors .b0...b3, 9..10 = .h0/.h1,
 *   PTX_VCOMP_BSEL / PTX_VCOMP_HSEL = a video selector or mask of several digits (.b3210 .b7654
 *   .b10 .h10 .h32 ...); sel holds the digits of every video selector, single ones included. */

/* vec_comp of multi-digit video selectors (PTX ISA "SIMD Video Instructions"). */
#define PTX_VCOMP_BSEL 11
#define PTX_VCOMP_HSEL 12

struct ptx_symbol;
struct ptx_func;

struct ptx_operand {
    enum ptx_operand_kind kind;
    bool neg;                /* !%p as a source predicate */
    uint8_t vec_comp;        /* reg.x/.y/.z/.w component selector: 0 = none, 1..4 (video: above) */
    bool arith_neg;          /* -%r: a register source negated (vmad's a, b, c) */
    uint16_t sel;            /* video selector digits: ptx_sel_ndigits / ptx_sel_digit; 0 = none */
    int32_t reg;             /* REG; for ADDR: base register or -1 */
    enum ptx_sreg sreg;      /* SREG; (component folded into the enum: TID_X ...) */
    struct ptx_symbol *sym;  /* SYM, ADDR base symbol, or called function */
    int64_t ival;            /* IMM_INT value, SYM/ADDR offset */
    uint64_t fbits;          /* IMM_F32 / IMM_F64 bits */
    int32_t label;           /* LABEL */
    uint16_t nelems;         /* VEC, LIST */
    struct ptx_operand *elems;
    struct ptx_loc loc;
};

/* Digits of a video selector as written: .b3210 has 4, digit 0 being the last
 * written (the element 0 one: 0), digit 3 the first (3). Packed 3 bits a digit
 * from bit 0, the count in bits 12..14. */
static inline unsigned ptx_sel_ndigits(uint16_t sel) { return (sel >> 12) & 7u; }
static inline unsigned ptx_sel_digit(uint16_t sel, unsigned k) { return (sel >> (3 * k)) & 7u; }

/* Per-instruction flags decoded from PTX_MC_FLAG suffixes. */
enum ptx_iflag {
    PTX_IF_FTZ = 1u << 0, PTX_IF_SAT = 1u << 1, PTX_IF_APPROX = 1u << 2, PTX_IF_FULL = 1u << 3,
    PTX_IF_CC = 1u << 4, PTX_IF_UNI = 1u << 5, PTX_IF_VOLATILE = 1u << 6, PTX_IF_NC = 1u << 7,
    PTX_IF_SYNC = 1u << 8, PTX_IF_ALIGNED = 1u << 9, PTX_IF_RELU = 1u << 10, PTX_IF_NAN = 1u << 11,
    PTX_IF_XORSIGN = 1u << 12, PTX_IF_ABS = 1u << 13, PTX_IF_SHIFTAMT = 1u << 14, PTX_IF_CLAMP = 1u << 15,
    PTX_IF_WRAP = 1u << 16, PTX_IF_TO = 1u << 17, PTX_IF_NOFTZ = 1u << 18, PTX_IF_OOB = 1u << 19,
    PTX_IF_PACK = 1u << 20, PTX_IF_SATFINITE = 1u << 21, PTX_IF_RELAXED_ONLY_ = 1u << 22,
};

#define PTX_MAX_TYPES 4
#define PTX_MAX_MODS 16

struct ptx_instr {
    enum ptx_opcode op;
    uint8_t ntypes;
    enum ptx_type types[PTX_MAX_TYPES];   /* in the order written: cvt.f32.s32 -> {F32, S32} */
    /* Suffixes filed by category; PTX_MOD_NONE_ where absent. */
    enum ptx_mod round, cmp, boolop, sem, scope, subop, subop2;
    enum ptx_space space;                  /* from a SPACE suffix (ld/st/atom/cvta/...) */
    uint8_t vec;                           /* 1 (none), 2, 4, 8 */
    uint32_t flags;                        /* enum ptx_iflag */
    uint8_t nmods;                         /* every suffix as written, in order */
    enum ptx_mod mods[PTX_MAX_MODS];
    /* Guard predicate: @%p / @!%p; guard_reg = -1 when none. */
    int32_t guard_reg;
    bool guard_neg;
    uint8_t nops;
    struct ptx_operand *ops;
    struct ptx_loc loc;
};

/* Declared variables of every state space, functions and labels share one symbol type. */
enum ptx_sym_kind { PTX_SYM_VAR, PTX_SYM_FUNC, PTX_SYM_PARAM, PTX_SYM_LABEL };

enum ptx_linkage { PTX_LINK_NONE = 0, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON };

/* An initialiser element: a constant, or the address of a symbol (+ offset),
 * possibly wrapped in generic() or mask(). */
struct ptx_init {
    enum { PTX_INIT_INT, PTX_INIT_FLOAT, PTX_INIT_SYM } kind;
    uint64_t bits;           /* INT/FLOAT: the value as stored in the element type */
    struct ptx_symbol *sym;  /* SYM */
    int64_t offset;
    bool generic;            /* generic(sym) */
    uint64_t mask;           /* mask(sym, m): 0 when absent */
    uint8_t mask_shift;
};

struct ptx_symbol {
    const char *name;        /* interned */
    enum ptx_sym_kind kind;
    enum ptx_space space;    /* VAR/PARAM */
    enum ptx_type type;      /* element type */
    enum ptx_linkage linkage;
    uint32_t align;          /* bytes; 0 = natural */
    uint8_t vec;             /* .v2/.v4 declarations */
    uint32_t ndims;
    uint64_t dims[4];        /* 0 in dims[0] = [] (unsized, e.g. extern shared) */
    uint64_t size;           /* total bytes (elements x element size x vec) */
    bool is_ptr;             /* .param .ptr */
    enum ptx_space ptr_space;
    uint32_t ptr_align;
    uint32_t ninit;
    struct ptx_init *init;
    struct ptx_func *func;   /* FUNC: its definition (or declaration) */
    struct ptx_loc loc;
    /* Filled by analysis / loaders. */
    uint64_t offset;         /* offset inside its space's layout */
};

/* What a label names: code, or a list declared by a directive after it. */
enum ptx_label_kind {
    PTX_LABEL_CODE = 0,
    PTX_LABEL_BRANCHTARGETS, /* L: .branchtargets A, B;  targets = label indices */
    PTX_LABEL_CALLTARGETS,   /* L: .calltargets f, g;    funcs = function symbols */
    PTX_LABEL_PROTOTYPE,     /* L: .callprototype ...;   proto = params/rets only */
};

/* A label: the instruction index it names. */
struct ptx_label {
    const char *name;
    uint32_t instr;          /* index of the next instruction */
    struct ptx_loc loc;
    enum ptx_label_kind kind;
    uint32_t ntargets;       /* BRANCHTARGETS / CALLTARGETS */
    uint32_t *targets;       /* BRANCHTARGETS */
    struct ptx_symbol **funcs; /* CALLTARGETS */
    struct ptx_func *proto;  /* PROTOTYPE */
};

/* Basic block of the control-flow graph (ptx_cfg.c). */
struct ptx_block {
    uint32_t first, last;    /* instruction indices, inclusive */
    uint32_t nsucc;
    uint32_t succ[2];        /* more successors (brx.idx) in succ_ext */
    uint32_t *succ_ext;
    int32_t ipdom;           /* immediate post-dominator block; -1 = exit */
};

/* Performance directives of an entry. */
struct ptx_perf {
    uint32_t maxntid[3], reqntid[3];
    uint32_t minnctapersm, maxnctapersm, maxnreg, maxclusterrank;
    uint32_t reqnctapercluster[3];
    bool noreturn;
    bool explicitcluster;
};

struct ptx_func {
    const char *name;
    bool is_entry;           /* .entry (kernel) vs .func */
    bool is_decl;            /* prototype only (no body) */
    bool is_extern;
    enum ptx_linkage linkage;
    uint32_t nparams, nrets;
    struct ptx_symbol **params;     /* kernel / function parameters */
    struct ptx_symbol **rets;       /* .func return parameters */
    uint32_t nregs;
    struct ptx_reg *regs;
    uint32_t nlocals;               /* variables declared inside the body (.local/.shared/.param) */
    struct ptx_symbol **locals;
    uint32_t ninstrs;
    struct ptx_instr *instrs;
    uint32_t nlabels;
    struct ptx_label *labels;
    struct ptx_perf perf;
    struct ptx_loc loc;
    /* Analysis (ptx_cfg.c). */
    uint32_t nblocks;
    struct ptx_block *blocks;
    uint32_t *block_of;              /* instruction index -> block */
    uint32_t reg_count[PTX_T_COUNT_];/* declared registers by type */
    uint32_t est_regs;               /* registers ptxas would allocate (ptx_regalloc.c) */
    uint32_t barriers;               /* named barriers it uses (ptx_barriers_used) */
    uint64_t shared_bytes, local_bytes, param_bytes;
};

/* The .file table entry. */
struct ptx_file {
    uint32_t index;
    const char *path;
};

struct ptx_module {
    const char *path;        /* as given to the loader (for diagnostics) */
    uint32_t version_major, version_minor;
    char target[32];         /* "sm_90a" */
    uint32_t sm;             /* 90 */
    bool target_texmode_independent, target_debug, target_map_f64_to_f32;
    uint32_t address_size;   /* 32 or 64 */
    uint32_t nfuncs;
    struct ptx_func **funcs;
    uint32_t nglobals;       /* module-scope variables (.global .const .shared .local) */
    struct ptx_symbol **globals;
    uint32_t nfiles;
    struct ptx_file *files;
    struct ptx_arena *arena; /* owns every allocation above */
    struct ptx_interner *names;
};

/* The largest PTX text Loom reads (256 MiB, as much as the fatbinary reader takes
 * decompressed): the file readers and loom_module_load_text refuse more. */
#define PTX_MAX_INPUT_BYTES ((size_t)256 << 20)

/* Reads all of f, at most PTX_MAX_INPUT_BYTES (ptx_input.c). Returns the text (for the
 * caller to free; not NUL-terminated) and its length, or NULL: with *out_too_big set when
 * the input is larger than the limit, else after a read error or out of memory. */
char *ptx_read_stream(FILE *f, size_t *out_len, bool *out_too_big);

/* Module loading. Text need not be NUL-terminated. Diagnostics are appended to
 * *diags; the result is NULL when any error was reported. */
struct ptx_module *ptx_parse(const char *text, size_t len, const char *path, struct ptx_diags *diags);
void ptx_module_free(struct ptx_module *m);

/* Semantic checks and analysis; both append diagnostics and return false on error. */
bool ptx_check(struct ptx_module *m, struct ptx_diags *diags);
bool ptx_analyze(struct ptx_module *m, struct ptx_diags *diags);

/* Memory layout helpers (ptx_cfg.c), saturating at UINT64_MAX instead of wrapping:
 * v rounded up to a multiple of a; a variable's alignment (declared, else natural);
 * the size of a space of `size` bytes once s is placed after them. */
uint64_t ptx_align_up(uint64_t v, uint64_t a);
uint64_t ptx_sym_align(const struct ptx_symbol *s);
uint64_t ptx_place_after(uint64_t size, const struct ptx_symbol *s);

/* The sizes of the state spaces against the GPU's limits (ptx_limits.c; ptx_analyze runs
 * it): a kernel's static shared memory, the module's constant bank, a thread's local
 * memory, a kernel's parameters. Appends diagnostics; false on error. */
#define PTX_MAX_STATIC_SHARED 0xc000u        /* 48 KiB, as ptxas allows a kernel */
#define PTX_MAX_CONST_BANK 0x10000u          /* 64 KiB of .const per module */
#define PTX_MAX_LOCAL ((uint32_t)512 << 10)   /* 512 KiB of local memory per thread */
#define PTX_MAX_KERNEL_PARAMS 32764u         /* bytes of kernel parameters (Volta and later) */
bool ptx_check_limits(const struct ptx_module *m, struct ptx_diags *diags);

/* Divergence and lane-affine analysis (ptx_uniform.c) of an entry function,
 * per register of fn->regs: *uniform (true = the register holds the same
 * value in every lane of a warp wherever it is read) and the result, the
 * stride s when lane l holds base + s * l (mod 2^32) wherever it is read,
 * provided %tid.x does (0 when not). Both for the caller to free; both NULL
 * for a .func (its callers' lanes vary) or when memory runs out. Needs
 * ptx_analyze's CFG. */
int32_t *ptx_lane_strides(const struct ptx_func *fn, bool **uniform);
/* 1 for the special registers that count up across a warp (%laneid; %tid.x
 * where the launch makes it so), else 0. */
int32_t ptx_sreg_lane_stride(enum ptx_sreg s);
/* Whether a special register has one value across a warp (%ntid, %ctaid ...). */
bool ptx_sreg_uniform(enum ptx_sreg s);

/* Registers (ptx_regalloc.c). ptx_reg_pressure: the most 32-bit registers live at once
 * over fn's CFG (64-bit values two, predicates none; values ptxas keeps elsewhere or
 * recomputes left out; debug: code ptxas compiles without optimisation, nvcc -G).
 * ptx_estimate_regs: what ptxas would allocate per thread, its fixed overheads added,
 * capped by .maxnreg, .maxntid/.reqntid with .minnctapersm, and 255; ptx_analyze stores
 * it in est_regs. ptx_barriers_used: the named barriers ptxas reserves for fn (the
 * highest immediate barrier id + 1; 16 when an id is a register). 0 for declarations.
 * All need ptx_analyze's CFG. */
#define PTX_MAX_REGS 255u
#define PTX_MIN_REGS 8u
uint32_t ptx_reg_pressure(const struct ptx_func *fn, bool debug);
uint32_t ptx_estimate_regs(const struct ptx_func *fn, bool debug);
uint32_t ptx_barriers_used(const struct ptx_func *fn);

/* Lookups. */
struct ptx_func *ptx_find_func(const struct ptx_module *m, const char *name);
struct ptx_symbol *ptx_find_global(const struct ptx_module *m, const char *name);

/* Table queries. */
const char *ptx_opcode_name(enum ptx_opcode op);
uint32_t ptx_opcode_flags(enum ptx_opcode op);
/* The types the first type suffix of op may name (PTX_TY_* bits), and its operand shape
 * as ptx_ops.def spells it (NULL: irregular). */
uint64_t ptx_opcode_types(enum ptx_opcode op);
const char *ptx_opcode_shape(enum ptx_opcode op);
const char *ptx_mod_name(enum ptx_mod mod);
enum ptx_mod_cat ptx_mod_category(enum ptx_mod mod);
const char *ptx_type_name(enum ptx_type t);   /* ".b32" */
unsigned ptx_type_size(enum ptx_type t);   /* bytes; 0 for pred/none */
bool ptx_type_is_float(enum ptx_type t);
bool ptx_type_is_signed(enum ptx_type t);
const char *ptx_space_name(enum ptx_space s);
const char *ptx_sreg_name(enum ptx_sreg s);

/* Name lookups for the parser (text includes the leading '.' or '%'; not NUL-terminated).
 * Each returns the NONE value (PTX_OP_COUNT_ for opcodes) when the text is unknown. */
enum ptx_opcode ptx_opcode_lookup(const char *s, size_t len);
enum ptx_mod ptx_mod_lookup(const char *s, size_t len);
enum ptx_type ptx_type_lookup(const char *s, size_t len);
enum ptx_sreg ptx_sreg_lookup(const char *s, size_t len);

/* Writes the instruction's full name as written ("cvt.rn.f32.s32") into buf. */
void ptx_instr_name(const struct ptx_instr *in, char *buf, size_t size);

#endif
