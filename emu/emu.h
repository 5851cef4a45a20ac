/* emu.h -- the warp interpreter: decoded programs, warps, CTAs, handlers.
 * Handlers execute one instruction for all lanes of a warp over rows of lanes. */
#ifndef LOOM_EMU_H
#define LOOM_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx_ir.h"

#define EMU_WARP_SIZE 32
#define EMU_GCACHE 4                    /* entries of emu_warp.gcache */
#define EMU_NOGUARD 0xFFFFu
#define EMU_NOREG 0xFFFFu

typedef uint32_t emu_mask;

struct emu_warp;
struct emu_inst;
struct emu_cta;
struct emu_program;

/* A handler runs one instruction for the lanes in `m` (active and guard-true).
 * It returns EMU_CONTINUE, or one of the stop codes; the dispatch loop has
 * already advanced w->pc to the next instruction, so branches overwrite it.
 * Handlers never know which threads occupy their lanes. */
enum emu_step {
    EMU_CONTINUE = 0,
    EMU_STOP_FAULT,      /* w->cta->fault holds the report */
    EMU_STOP_BARRIER,    /* warp waits at a barrier (w->wait describes it) */
    EMU_STOP_EXIT,       /* every lane of the warp has exited */
    EMU_STOP_YIELD,      /* warp polls memory or sleeps: let others run */
};
typedef int (*emu_fn)(struct emu_warp *w, const struct emu_inst *in, emu_mask m);

/* ---- Chained handlers --------------------------------------------------------
 * Unguarded instructions other than control flow that follow one another with
 * no reconvergence point between them form a straight-line run
 * (emu_inst.run). A run executes as a chain: each handler ends with
 * EMU_NEXT(), which calls the next instruction's handler in tail position (a
 * jump), so the dispatch loop makes one call per run and each handler's own
 * indirect jump predicts its successor. Only handlers marked EMU_CHAINED end
 * that way, and the decoder lets no other handler into a run: it knows them
 * by the section they are placed in. A handler that stops the warp (a fault)
 * returns its stop code instead, and the chain ends there.
 * A run that stops only because the next pc is a reconvergence point (emu_inst
 * .cont) goes on there through emu_chain_on when no split waits for it.
 * A run may end with an unguarded control instruction (EMU_CHAINED_FLOW).
 * A branch (bra, setp fused with @p bra) that every active lane takes the same
 * way goes on with the run at its destination (emu_chain_to, emu_lanes.h), so
 * a loop with uniform control runs as one chain until the warp's slice
 * (emu_warp.chain_left) is spent; a split goes back to the dispatch loop.
 * bar.sync, exit and ret end the chain and hand their stop to the loop. Such a
 * handler sets w->pc itself: a chain does not keep it. */
#define EMU_CHAINED __attribute__((section("loom_chain")))
#define EMU_CHAINED_FLOW __attribute__((section("loom_chainf")))
struct emu_warp;
struct emu_inst;
/* After the last instruction of a run marked cont: the run at the next pc, as
 * a uniform branch would go on (emu_chain_to, emu_lanes.h), unless a split
 * waits to reconverge there or the slice is spent (emu_exec.c). */
__attribute__((visibility("hidden"))) int emu_chain_on(struct emu_warp *w, const struct emu_inst *in);
#define EMU_NEXT() return in->run > 1 ? in[1].fn(w, in + 1, m) : in->cont ? emu_chain_on(w, in) : EMU_CONTINUE
/* The end of a handler whose work returned rc: its stop code, or the next instruction. */
#define EMU_NEXT_UNLESS_STOP(rc) do { \
        int next_rc_ = (rc); \
        if (next_rc_ != EMU_CONTINUE) return next_rc_; \
        EMU_NEXT(); \
    } while (0)
#define EMU_RUN_MAX 64u
/* Warp instructions a warp runs before the next warp's turn. */
#define EMU_SLICE 4096u
/* Passes of a CTA's warps that barrier releases chain through between two
 * visits of the dispatch loop (emu_ctrl.c's bar_last). */
#define EMU_BAR_PASSES 8u

/* One decoded instruction. Operand fields name rows in the register file the
 * handler implies: r32 rows for types up to 32 bits (8/16-bit values are kept
 * zero-extended in the low bits), r64 rows for 64-bit types, pred masks for
 * predicates. Immediates and uniform special registers are constant rows filled
 * at warp start, so handlers have no immediate variants. */
struct emu_inst {
    emu_fn fn;
    uint16_t d, a, b, c;     /* destination and up to three sources */
    uint16_t e;              /* second destination (setp p|q, carry-out ...), or EMU_NOREG */
    uint16_t guard;          /* predicate register, or EMU_NOGUARD */
    uint8_t guard_neg;
    uint8_t sub;             /* per-handler selector (comparison, boolean op, shuffle mode ...) */
    uint8_t sub2;
    uint8_t nv;              /* vector length for ld/st/mov vectors */
    uint8_t space;           /* memory ops: enum ptx_space of the access (NONE = generic) */
    uint8_t addr32;          /* memory ops: the address row a is an r32 row (else r64); EMU_ADDR32_RUN4
                              * when lane l's address is lane 0's + 4 l once %tid.x is lane-affine */
    uint8_t flow;            /* the handler may change pc, the active mask or the SIMT stack (control family) */
    uint8_t run;             /* length of the chained run from here (see above), 0 outside runs */
    uint8_t at_reconv;       /* this pc is the reconvergence point of some branch (mark_runs) */
    uint8_t cont;            /* last of a run that stops before a reconvergence point: go on there when no
                              * split waits for it (emu_chain_on) */
    uint8_t ukind;           /* a 32-bit scalar twin of add, sub or an immediate shift (EMU_UK_*), which a
                              * following uniform setp + bra may fuse with (emu_cmp.c) */
    uint8_t br;              /* bra or fused setp + bra: aux is &code[target] once decoding is done */
    uint16_t v[8];           /* vector element rows (ld/st .v2/.v4, mov pack/unpack) */
    int64_t imm;             /* address offset, literal that handlers need as such */
    uint32_t target;         /* branch target pc */
    uint32_t reconv;         /* reconvergence pc (immediate post-dominator) */
    const void *aux;         /* handler-specific data owned by the program */
    uint16_t aux_targets;    /* brx.idx: aux is a uint32_t[aux_targets] of target pcs */
    uint8_t aux_owned;       /* aux is freed with the program */
    uint8_t skind;           /* EMU_SK_*: what the thread engine of the SIMT policies does itself */
    uint32_t src;            /* index into program->locs */
};

#define EMU_ADDR32_RUN4 2

/* emu_inst.skind: instructions at which the thread engine (emu/simt/steps.c)
 * regroups a warp's lanes before it runs the handler. */
enum emu_skind {
    EMU_SK_NONE,
    EMU_SK_BAR,          /* bar/barrier .sync, .arrive, .red: every live lane of the warp first */
    EMU_SK_WSYNC,        /* shfl/vote/match/redux/elect .sync: the member mask (row v[0]) first */
    EMU_SK_WARPSYNC,     /* bar.warp.sync: the lanes of its mask (row a), at any bar.warp.sync */
    EMU_SK_RET,          /* ret (and the implicit one at a function's end) */
    EMU_SK_CALL,         /* call of a function body */
    EMU_SK_WARP,         /* activemask, legacy (non-.sync) warp instructions: the lanes of one static
                            warp at this pc, never another warp's or part of them */
};

/* in->reconv values: set by a selector to ask the decoder for the CFG's
 * immediate post-dominator; NONE when the branch reconverges only at exit. */
#define EMU_RECONV_FROM_CFG 0xFFFFFFFDu
#define EMU_RECONV_NONE 0xFFFFFFFEu

/* Where an instruction came from, for reports and the debugger. */
struct emu_loc {
    uint32_t ptx_line, ptx_col;
    uint32_t cu_file, cu_line;
    const struct ptx_instr *ir;
    uint8_t main;                        /* the PTX instruction's own (not a helper before or after it) */
};

/* emu_inst.ukind: the arithmetic of a 32-bit scalar twin that can head a fused
 * `op d; setp p, d, b; @p bra` (a loop's counter step, test and back-edge). */
enum { EMU_UK_NONE, EMU_UK_ADD, EMU_UK_SUB, EMU_UK_SHL, EMU_UK_SHRU, EMU_UK_SHRS, EMU_UK_COUNT_ };

/* Comparison codes for setp/set/slct handlers (inst.sub). */
enum emu_cmp {
    EMU_CMP_EQ, EMU_CMP_NE, EMU_CMP_LT, EMU_CMP_LE, EMU_CMP_GT, EMU_CMP_GE,
    EMU_CMP_EQU, EMU_CMP_NEU, EMU_CMP_LTU, EMU_CMP_LEU, EMU_CMP_GTU, EMU_CMP_GEU,
    EMU_CMP_NUM, EMU_CMP_NAN,
};
/* Boolean combining (inst.sub2): none, and, or, xor. */
enum emu_boolop { EMU_BOOL_NONE, EMU_BOOL_AND, EMU_BOOL_OR, EMU_BOOL_XOR };

/* An entry of the PDOM reconvergence stack. */
struct emu_simt_entry {
    uint32_t pc;         /* where this entry's lanes resume */
    uint32_t reconv;     /* pop when the top entry reaches this pc */
    emu_mask mask;
};

/* A call frame (calls to .func). */
struct emu_frame {
    uint32_t ret_pc;
    uint32_t local_sp;    /* local-memory stack pointer to restore */
    const struct emu_func *callee;
    uint32_t simt_depth;  /* SIMT stack depth at the call */
    const struct emu_inst *call;  /* the call instruction (its argument/result slots) */
    bool saved;           /* the callee's rows were spilled (recursion) */
    emu_mask mask;        /* lanes that made the call */
};

/* Why a warp is not running. */
enum emu_wait_kind { EMU_WAIT_NONE, EMU_WAIT_BARRIER, EMU_WAIT_WARPSYNC, EMU_WAIT_POLL, EMU_WAIT_SLEEP };
struct emu_wait {
    enum emu_wait_kind kind;
    uint32_t barrier;     /* barrier id */
    uint32_t count;       /* expected thread count (0 = all threads of the CTA) */
    uint32_t pc;          /* the waiting instruction */
    /* bar.red: where the reduction result goes once the barrier completes. */
    uint8_t red_op;       /* 0 none, 1 popc, 2 and, 3 or */
    uint8_t red_to_pred;  /* result is a predicate (and/or) */
    uint16_t red_dst;
    emu_mask red_mask;    /* lanes that receive the result */
};

struct emu_warp {
    /* Register files: rows of EMU_WARP_SIZE lanes. */
    uint32_t (*r32)[EMU_WARP_SIZE];
    uint64_t (*r64)[EMU_WARP_SIZE];
    emu_mask *pred;
    uint32_t cc[EMU_WARP_SIZE];          /* carry flag per lane for .cc / addc */
    /* Control. */
    uint32_t pc;
    emu_mask active;                     /* lanes executing now (top of SIMT stack) */
    emu_mask exited;                     /* lanes that executed exit/ret from the kernel */
    emu_mask valid;                      /* lanes that exist (last warp may be partial) */
    struct emu_simt_entry *stack;
    uint32_t sp, stack_cap;
    struct emu_frame *frames;
    uint32_t nframes, frames_cap;
    struct emu_wait wait;
    /* Identity. */
    struct emu_cta *cta;
    uint32_t id;                         /* warp index in the CTA */
    uint32_t tid[3][EMU_WARP_SIZE];      /* thread indices of each lane */
    /* Local memory: lane l's bytes start at local + l * local_stride. */
    uint8_t *local;
    uint64_t local_stride;
    uint32_t local_sp;                   /* current frame offset (grows up) */
    /* Register spill area for recursive calls (saved rows of re-entered functions). */
    uint8_t *spill;
    uint64_t spill_used, spill_cap;
    bool done;                           /* every lane has exited */
    bool tid_affine;                     /* lane l's %tid.x is lane 0's + l (ptx_lane_strides) */
    /* Global allocations that accesses hit lately, looked up in order (a hit
     * moves nothing: kernels alternate between a few arrays); a miss replaces
     * the entry after the one replaced last. */
    struct emu_gcache { uint64_t base, end; uint32_t flags; } gcache[EMU_GCACHE];
    uint32_t gcache_next;
    /* Counters (observers). */
    uint64_t n_inst, n_thread_inst, n_diverge, n_barrier;
    uint64_t n_reconv;                   /* PDOM stack pops at reconvergence points */
    uint32_t max_sp;                     /* deepest PDOM stack */
    uint64_t lane_hist[EMU_WARP_SIZE + 1]; /* warp instructions by active lanes (emu_count_lanes) */
    uint64_t hist_used;                  /* bit k: lane_hist[k] may be nonzero */
    uint64_t mark;                       /* n_inst when n_thread_inst was last brought up to date */
    uint64_t chain_left;                 /* instructions a chain may still run (warp_run's slice) */
};

/* A barrier's state inside a CTA. */
struct emu_barrier {
    uint32_t arrived;                    /* threads arrived so far */
    uint32_t waiting;                    /* bit i: warp i waits here (a CTA has at most 32 warps) */
    uint32_t expected_count;             /* thread count given by the instruction (0 = all live threads) */
    uint32_t red_popc;                   /* bar.red accumulators: threads with a true predicate */
    uint32_t red_and_fail;               /* threads with a false predicate */
    uint32_t red_or_any;                 /* threads with a true predicate (for .or) */
    bool red;                            /* a bar.red arrived (its waiters take results at release) */
};

/* Report of a kernel fault. */
struct emu_fault {
    int status;                          /* enum loom_status */
    uint32_t pc;
    uint32_t warp, lane;
    uint32_t tid[3];
    uint64_t addr;
    uint32_t size;
    char msg[2048];                      /* the whole report, ready to print (demangled names are long) */
};

struct emu_launch;
struct emu_simt_cfg;
struct emu_steps;
struct emu_race;
struct emu_check;
struct emu_async;
struct emu_obs;
struct emu_dbg;

struct emu_cta {
    const struct emu_launch *launch;
    uint32_t ctaid[3];
    uint32_t nthreads, nwarps;
    struct emu_warp *warps;
    uint8_t *shared;                     /* static + dynamic shared memory */
    uint64_t shared_size;
    struct emu_barrier bars[16];
    uint32_t bars_pending;               /* bit id: barrier id has arrivals (arrive sets, release clears) */
    uint32_t runnable;                   /* bit i: warp i has not finished and waits at no barrier */
    uint32_t cur;                        /* the warp running now (emu_exec.c's warp_run) */
    emu_mask cur_active;                 /* its active mask when its chain began */
    bool handed;                         /* a barrier handed over to cur (warp_run clears it) */
    uint32_t passes_left;                /* passes a barrier's release may still start before
                                            warp_run takes over again (EMU_BAR_PASSES) */
    uint32_t smid;
    struct emu_fault *fault;             /* non-NULL once a fault stopped the CTA */
    struct emu_fault fault_store;
    bool asserted;                       /* a device assert failed: fault_store holds the first,
                                            the CTA's other warps run on (emu_assert_fail) */
    uint32_t nexited_warps;
    uint32_t live_threads;               /* threads not exited, valid unless live_stale (emu_exec.c) */
    bool live_stale;
    struct emu_race *race;               /* racecheck shadow of shared memory (emu_check.c), or NULL */
    struct emu_async *async;             /* mbarriers and barrier.cluster (emu_async.c), or NULL */
    struct emu_steps *steps;             /* the thread engine's state (emu/simt/steps.c) when the
                                            launch's SIMT policy is not PDOM, else NULL */
    struct emu_obs_pc *obs_pc;           /* the counters observer's (emu_obs.h), or NULL */
    bool obs_trace;                      /* this is CTA (0,0,0): keep its warps' lane activity */
    uint32_t worker;                     /* the scheduler's worker that holds this context (observers) */
};

/* What warp w waits on now. A barrier's release leaves the wait records of
 * the warps it frees as they were, to be cleared when each runs again
 * (emu_ctrl.c's bar_last): a freed warp is runnable, so it waits no more. */
static inline enum emu_wait_kind emu_wait_kind(const struct emu_warp *w)
{
    enum emu_wait_kind k = w->wait.kind;
    return k == EMU_WAIT_BARRIER && (w->cta->runnable >> w->id & 1u) ? EMU_WAIT_NONE : k;
}

/* Everything a handler may need about the launch. */
struct emu_launch {
    const struct emu_program *prog;
    const struct emu_func *entry;
    uint32_t grid[3], block[3];
    uint64_t dyn_shared;
    const uint8_t *params;               /* kernel parameter buffer (ld.param of the entry) */
    uint64_t params_size;
    struct mem_space *mem;               /* device memory: allocations and checks */
    struct emu_host *host;               /* host services: printf, malloc, assert */
    bool check;                          /* memory checking on */
    uint32_t gridid;
    uint32_t nsm;
    uint32_t nwarpid;                    /* %nwarpid: warp slots per SM */
    uint64_t local_stride;               /* local bytes per thread (frames + stack) */
    bool zero_shared;                    /* clear shared memory for each CTA (deterministic mode) */
    uint64_t grid_workspace;             /* cooperative launches: zeroed device memory for grid barriers */
    bool initcheck, racecheck;           /* deeper checks (emu_check.h); both imply check */
    struct emu_check *checker;           /* initcheck shadow of the device's allocations */
    const struct emu_simt_cfg *simt;     /* the SIMT policy (emu/simt/emu_simt.h); NULL = PDOM */
    struct emu_dbg *dbg;                 /* the debugger's hook (emu_dbg.h), or NULL: every
                                            instruction runs one at a time, debugged */
    struct emu_obs *obs;                 /* the counters observer (emu_obs.h), or NULL: every
                                            instruction runs one at a time, observed */
};

/* A decoded function: a range of the program's instructions. */
struct emu_func {
    const struct ptx_func *ir;
    uint32_t entry_pc, end_pc;
    uint32_t frame_bytes;               /* local bytes per thread for one activation */
    uint32_t param_bytes;
    uint32_t rows32, nrows32, rows64, nrows64, rowsp, nrowsp;  /* its register rows */
    uint32_t nparams, nrets;
    uint32_t param_off[32], ret_off[8], param_size[32], ret_size[8]; /* in its own frame */
    bool recursive_hazard;              /* may be active twice on one warp: save rows on call */
    uint64_t shared_bytes;              /* entries: end of the static shared layout this kernel uses */
    uint32_t active;                    /* unused by handlers; reserved */
    /* Entries: registers whose only definition is an ld.param of a kernel
     * parameter at a fixed offset. The decoder drops those loads; each CTA
     * context fills the rows once per launch (emu_cta_create). */
    struct emu_param_row { uint16_t row; uint8_t wide; uint32_t off; } *param_rows;
    uint32_t nparam_rows;
    uint32_t nfolded;                   /* instructions folded away at decode (emu_decode.c) */
    uint8_t host_uses;                  /* EMU_USES_*: host services it or its callees may call */
    uint16_t *reg_row;                  /* [ir->nregs]: each PTX register's row in the file its type
                                           implies (pred, r64 for 64-bit types, else r32); the
                                           debugger reads registers by name through it */
};

/* The device services a function may reach (emu_func.host_uses): CUDA lets the printf
 * FIFO and heap sizes change only until a kernel that uses them has been launched. */
#define EMU_USES_PRINTF 1u
#define EMU_USES_MALLOC 2u
#define EMU_USES_ASSERT 4u

/* A decoded module: one flat instruction array for all functions. */
struct emu_program {
    const struct ptx_module *ir;
    struct emu_inst *code;
    struct emu_loc *locs;
    uint32_t ncode;
    struct emu_func *funcs;
    uint32_t nfuncs;
    uint32_t n32, n64, npred;            /* register rows, constant rows included */
    uint32_t nconst32, nconst64;         /* number of constant rows */
    uint32_t const32_base, const64_base; /* first constant row of each file */
    uint32_t *const32;                   /* values of the constant rows */
    uint64_t *const64;
    uint8_t *sreg_used;                  /* [PTX_SREG_COUNT_]: special rows to fill at warp start */
    uint64_t static_shared;              /* largest static shared layout of any entry */
    uint64_t dyn_shared_base;            /* offset of extern (dynamic) shared arrays */
    bool has_calls;                      /* calls to .func bodies exist: threads need a stack */
    /* For the thread engine (emu/simt/steps.c), built on first use: */
    struct emu_inst *steps;              /* code with its chained runs cut */
    uint32_t *prio;                      /* frontier priority of each pc */
};

/* ---- Decoding (emu_decode.c) ---------------------------------------------
 * The decoder walks each function's IR; for every instruction it asks the one
 * family selector that ptx_ops.def's family column names. A selector returns
 * EMU_SEL_OK when it filled *out, or EMU_SEL_UNSUPPORTED with dc->why set
 * ("unsupported instruction 'x.y.z'" is composed by the decoder); EMU_SEL_NO
 * (not its opcode) means the table and the family file disagree, an internal
 * error that the unit suite check_ops finds. */
enum emu_sel { EMU_SEL_NO, EMU_SEL_OK, EMU_SEL_UNSUPPORTED };

struct emu_decoder;

/* Operand helpers for selectors. Each returns a row index in the file that
 * matches the width (r32 for <= 32 bits, r64 for 64 bits); immediates, symbol
 * addresses and uniform special registers become constant rows. */
uint16_t emu_dec_reg32(struct emu_decoder *dc, const struct ptx_operand *op);
uint16_t emu_dec_reg64(struct emu_decoder *dc, const struct ptx_operand *op);
uint16_t emu_dec_pred(struct emu_decoder *dc, const struct ptx_operand *op);
/* Row for operand `op` read as a value of type t (chooses reg32 or reg64). */
uint16_t emu_dec_src(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t);
uint16_t emu_dec_dst(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t);
/* Marks the selection unsupported with a reason. */
enum emu_sel emu_dec_unsupported(struct emu_decoder *dc, const char *why);
const struct ptx_instr *emu_dec_instr(const struct emu_decoder *dc);
/* `twin` (a scalar twin, EMU_TWIN in emu_lanes.h) when it is not NULL and every
 * source of the instruction being selected is warp-uniform (ptx/ptx_uniform.c),
 * else `vec`. */
emu_fn emu_dec_twin(struct emu_decoder *dc, emu_fn vec, emu_fn twin);

/* Family selectors: one per instruction family file. */
enum emu_sel emu_sel_int(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_bits(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_float(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_half(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_cvt(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_cmp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_mem(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_atom(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_warp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_ctrl(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_video(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_mma(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_async(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);
enum emu_sel emu_sel_tex(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out);

/* ---- Lane-loop helpers for handlers ---------------------------------------
 * Row accessors and a masked write that the compiler turns into a blend. */
#define EMU_R32(w, r) ((w)->r32[(r)])
#define EMU_R64(w, r) ((w)->r64[(r)])
#define EMU_LANES(l) for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
#define EMU_ON(m, l) (((m) >> (l)) & 1u)

static inline float emu_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t emu_b32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double emu_f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static inline uint64_t emu_b64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }

/* ---- Memory access for handlers (emu_mem.c) --------------------------------
 * The address of lane l for a memory instruction: row a (r32 or r64 per
 * in->addr32) plus in->imm. Absolute and symbol addresses arrive as constant rows. */
static inline uint64_t emu_addr(const struct emu_warp *w, const struct emu_inst *in, unsigned l)
{
    /* 32-bit address arithmetic wraps at 32 bits. */
    return in->addr32 ? (uint64_t)(uint32_t)(w->r32[in->a][l] + (uint32_t)in->imm) : w->r64[in->a][l] + (uint64_t)in->imm;
}
/* Translates lane l's address in `space` (PTX_SPACE_NONE = generic) to a host
 * pointer for an access of `size` bytes. When checking is on it verifies bounds,
 * liveness, alignment and write permission; on a violation it records the fault
 * report and returns NULL (the handler then returns EMU_STOP_FAULT). */
void *emu_mem_ptr(struct emu_warp *w, const struct emu_inst *in, unsigned l, enum ptx_space space,
                  uint64_t addr, unsigned size, bool write);
/* The warp-wide fast path of emu_mem_ptr for handlers that access `bytes`
 * bytes per lane: when every lane in m lies inside one region that needs no
 * per-lane check (and is aligned), fills out_ptr[l] for all lanes and
 * returns true; otherwise the caller uses emu_mem_ptr lane by lane. */
bool emu_mem_direct(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned bytes, bool write,
                    void *out_ptr[EMU_WARP_SIZE]);

/* ---- Host services (emu_host.c) ------------------------------------------
 * printf FIFO, the in-kernel malloc heap and assert reports, per device. */
struct mem_space;
struct emu_host;
struct emu_host *emu_host_create(FILE *out, uint64_t fifo_bytes, uint64_t heap_bytes, struct mem_space *mem);
void emu_host_destroy(struct emu_host *h);
/* Formats one printf call as CUDA's device printf does: fmt is the format
 * string, args the packed argument buffer the PTX passed (each argument at its
 * natural alignment: 4 bytes for int/char/short, 8 for long/long long/double
 * (floats are promoted to double)/pointers, %s pointers are device addresses
 * that are host-readable). The text is appended to the FIFO; when the FIFO
 * (fifo_bytes) is full, later output is dropped as on the GPU. Returns the
 * number of arguments consumed, or -1 with *out_err set for a bad format or
 * unreadable argument (the caller turns it into a fault report). */
int emu_host_vprintf(struct emu_host *h, const char *fmt, const uint8_t *args, uint64_t args_size,
                     const char **out_err);
/* Writes and empties the FIFO (at synchronisation points). Thread-safe. */
void emu_host_flush(struct emu_host *h);
/* The printf FIFO's length now, and cutting it back to such a length (the debugger's
 * re-runs of a launch drop the output of the run they replace). */
uint64_t emu_host_fifo_mark(struct emu_host *h);
void emu_host_fifo_cut(struct emu_host *h, uint64_t mark);
/* In-kernel malloc/free on a device heap of heap_bytes (cudaLimitMallocHeapSize):
 * returns 0 when exhausted; free of 0 is a no-op; free of a pointer that is not
 * a live heap block returns -1. Thread-safe. */
uint64_t emu_host_malloc(struct emu_host *h, uint64_t size);
int emu_host_free(struct emu_host *h, uint64_t addr);
void emu_host_set_limits(struct emu_host *h, uint64_t fifo_bytes, uint64_t heap_bytes);

/* A device assert failed in lane `lane`: prints `line` (the GPU's own message) on
 * stderr and keeps the CTA's first, `what`, as its report; the CTA's other warps run on, as
 * on the GPU, and the CTA ends as faulted (LOOM_ERR_ASSERT) when they are done. */
void emu_assert_fail(struct emu_warp *w, const struct emu_inst *in, unsigned lane, const char *line,
                     const char *what);
/* Ends every lane of the warp (a trap of the whole warp): EMU_STOP_EXIT. */
int emu_warp_end(struct emu_warp *w);
/* Reports a fault from inside a handler: fills w->cta->fault with the standard
 * report (kernel, PTX line, CUDA line, block, thread, address) and returns
 * EMU_STOP_FAULT. `lane` is the first faulting lane. */
int emu_fault(struct emu_warp *w, const struct emu_inst *in, unsigned lane, int status,
              uint64_t addr, unsigned size, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#endif
