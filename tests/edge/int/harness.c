/* harness.c -- runs the forms of forms.txt through emu_sel_int/bits/cmp and their
 * handlers directly, with a stub decoder, and compares with expected-model/. */
/*
 * Stand-alone on purpose: it defines the emu_dec_* operand helpers itself, so
 * it links with emu_int.c, emu_bits.c and emu_cmp.c only (harness.sh builds
 * and runs it). Each form's instruction lines are parsed here (a small subset
 * of PTX: registers by this generator's naming, immediates, !p, p|q) into
 * struct ptx_instr, selected and executed for 32 lanes at a time: once with
 * every lane on, once with a partial mask, where lanes that are off must keep
 * their old values. It also checks that selectors refuse what they should.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"

#define NROWS 64
#define MAXLINES 8

/* ---- Stub decoder ------------------------------------------------------------ */
struct emu_decoder {
    struct emu_warp *w;
    const struct ptx_instr *pi;
    const char *why;
    unsigned nconst32, nconst64, npconst;
};

/* Register rows: r32 rows 0..39 registers, 40.. constants; r64 likewise;
 * predicates 0..15 registers, 16.. constants. */
enum { REG32_END = 40, REG64_END = 40, PREG_END = 16 };

struct reg { const char *name; int file; int row; };   /* file: 0 r32, 1 r64, 2 pred */
static const struct reg regs[] = {
    { "%a16", 0, 0 }, { "%b16", 0, 1 }, { "%c16", 0, 2 }, { "%h0", 0, 3 }, { "%h1", 0, 4 }, { "%h2", 0, 5 },
    { "%h3", 0, 6 }, { "%a32", 0, 7 }, { "%b32", 0, 8 }, { "%c32", 0, 9 }, { "%ah32", 0, 10 },
    { "%bh32", 0, 11 }, { "%ch32", 0, 12 }, { "%t0", 0, 13 }, { "%t1", 0, 14 }, { "%t2", 0, 15 },
    { "%t3", 0, 16 }, { "%a64", 1, 0 }, { "%b64", 1, 1 }, { "%c64", 1, 2 }, { "%w0", 1, 3 },
    { "%w1", 1, 4 }, { "%w2", 1, 5 }, { "%w3", 1, 6 }, { "%pa", 2, 0 }, { "%pb", 2, 1 }, { "%pc", 2, 2 },
    { "%p0", 2, 3 }, { "%p1", 2, 4 }, { "%p2", 2, 5 }, { "%p3", 2, 6 },
};

static const struct reg *find_reg(const char *name)
{
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        if (strcmp(regs[i].name, name) == 0)
            return &regs[i];
    return NULL;
}

static unsigned type_bits(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    case PTX_T_PRED: return 1;
    default: return 32;
    }
}

/* Operand rows; registers live at fixed rows, immediates get constant rows. */
static uint16_t row_of(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t)
{
    if (op->kind == PTX_OPND_REG)
        return (uint16_t)op->reg;
    if (op->kind != PTX_OPND_IMM_INT) {
        fprintf(stderr, "harness: unexpected operand kind %d\n", op->kind);
        exit(2);
    }
    if (type_bits(t) == 64) {
        uint16_t r = (uint16_t)(REG64_END + dc->nconst64++);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
            dc->w->r64[r][l] = (uint64_t)op->ival;
        return r;
    }
    uint16_t r = (uint16_t)(REG32_END + dc->nconst32++);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        dc->w->r32[r][l] = (uint32_t)op->ival;
    return r;
}
uint16_t emu_dec_reg32(struct emu_decoder *dc, const struct ptx_operand *op) { return row_of(dc, op, PTX_T_B32); }
uint16_t emu_dec_reg64(struct emu_decoder *dc, const struct ptx_operand *op) { return row_of(dc, op, PTX_T_B64); }
uint16_t emu_dec_src(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t) { return row_of(dc, op, t); }
uint16_t emu_dec_dst(struct emu_decoder *dc, const struct ptx_operand *op, enum ptx_type t) { return row_of(dc, op, t); }
uint16_t emu_dec_pred(struct emu_decoder *dc, const struct ptx_operand *op)
{
    if (op->kind == PTX_OPND_REG)
        return (uint16_t)op->reg;
    uint16_t r = (uint16_t)(PREG_END + dc->npconst++);
    dc->w->pred[r] = op->ival ? ~0u : 0u;
    return r;
}
enum emu_sel emu_dec_unsupported(struct emu_decoder *dc, const char *why)
{
    dc->why = why;
    return EMU_SEL_UNSUPPORTED;
}
const struct ptx_instr *emu_dec_instr(const struct emu_decoder *dc) { return dc->pi; }

/* ---- A PTX line parser for the generator's forms ----------------------------------- */
static const struct { const char *name; enum ptx_opcode op; } opnames[] = {
#define PTX_OP(id, name, flags, types, shape, family, meaning) { name, PTX_OP_##id },
#include "ptx/ptx_ops.def"
#undef PTX_OP
};
static const struct { const char *text; enum ptx_mod mod; enum ptx_mod_cat cat; } modnames[] = {
#define PTX_MOD(id, text, cat) { text, PTX_MOD_##id, cat },
#include "ptx/ptx_mods.def"
#undef PTX_MOD
};
static const struct { const char *text; enum ptx_type t; } typenames[] = {
    { ".pred", PTX_T_PRED }, { ".b16", PTX_T_B16 }, { ".b32", PTX_T_B32 }, { ".b64", PTX_T_B64 },
    { ".u16", PTX_T_U16 }, { ".u32", PTX_T_U32 }, { ".u64", PTX_T_U64 }, { ".s16", PTX_T_S16 },
    { ".s32", PTX_T_S32 }, { ".s64", PTX_T_S64 }, { ".f16", PTX_T_F16 }, { ".f16x2", PTX_T_F16X2 },
    { ".bf16", PTX_T_BF16 }, { ".bf16x2", PTX_T_BF16X2 }, { ".f32", PTX_T_F32 }, { ".f64", PTX_T_F64 },
    { ".u16x2", PTX_T_U16X2 }, { ".s16x2", PTX_T_S16X2 }, { ".u8", PTX_T_U8 }, { ".s8", PTX_T_S8 },
};
static const struct { enum ptx_mod mod; uint32_t flag; } flagmods[] = {
    { PTX_MOD_FTZ, PTX_IF_FTZ }, { PTX_MOD_SAT, PTX_IF_SAT }, { PTX_MOD_CC, PTX_IF_CC },
    { PTX_MOD_RELU, PTX_IF_RELU }, { PTX_MOD_SHIFTAMT, PTX_IF_SHIFTAMT }, { PTX_MOD_CLAMP, PTX_IF_CLAMP },
    { PTX_MOD_WRAP, PTX_IF_WRAP }, { PTX_MOD_APPROX, PTX_IF_APPROX },
};

/* One parsed line; operands point into ops/elems. */
struct line {
    struct ptx_instr pi;
    struct ptx_operand ops[8];
    struct ptx_operand elems[8][2];
    char text[160];
};

static void parse_operand(char *s, struct ptx_operand *op, struct ptx_operand *elems)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    memset(op, 0, sizeof *op);
    char *bar = strchr(s, '|');
    if (bar) {
        *bar = 0;
        parse_operand(s, &elems[0], NULL);
        parse_operand(bar + 1, &elems[1], NULL);
        op->kind = PTX_OPND_VEC;
        op->nelems = 2;
        op->elems = elems;
        return;
    }
    if (*s == '!') {
        op->neg = true;
        s++;
    }
    if (*s == '%') {
        const struct reg *r = find_reg(s);
        if (!r) {
            fprintf(stderr, "harness: unknown register %s\n", s);
            exit(2);
        }
        op->kind = PTX_OPND_REG;
        op->reg = r->row;
        return;
    }
    if (*s == '_') {
        op->kind = PTX_OPND_SINK;
        return;
    }
    op->kind = PTX_OPND_IMM_INT;
    op->ival = strtoll(s, NULL, 0);
}

/* Parses "opcode.suffixes operands;" into l->pi; false on an unknown word. */
static bool parse_line(const char *text, struct line *l)
{
    char buf[160], *ops;
    snprintf(l->text, sizeof l->text, "%s", text);
    snprintf(buf, sizeof buf, "%s", text);
    char *semi = strchr(buf, ';');
    if (semi) *semi = 0;
    ops = buf;
    while (*ops && !isspace((unsigned char)*ops)) ops++;
    if (*ops) *ops++ = 0;
    memset(&l->pi, 0, sizeof l->pi);
    l->pi.guard_reg = -1;
    char *dot = strchr(buf, '.');
    if (dot) *dot = 0;
    bool found = false;
    for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
        if (strcmp(opnames[i].name, buf) == 0) {
            l->pi.op = opnames[i].op;
            found = true;
        }
    if (!found)
        return false;
    while (dot) {
        char *next = strchr(dot + 1, '.');
        if (next) *next = 0;
        char suf[32];
        snprintf(suf, sizeof suf, ".%s", dot + 1);
        bool known = false;
        for (size_t i = 0; i < sizeof typenames / sizeof typenames[0] && !known; i++)
            if (strcmp(typenames[i].text, suf) == 0) {
                l->pi.types[l->pi.ntypes++] = typenames[i].t;
                known = true;
            }
        for (size_t i = 0; i < sizeof modnames / sizeof modnames[0] && !known; i++)
            if (strcmp(modnames[i].text, suf) == 0) {
                enum ptx_mod md = modnames[i].mod;
                l->pi.mods[l->pi.nmods++] = md;
                switch (modnames[i].cat) {
                case PTX_MC_CMP: l->pi.cmp = md; break;
                case PTX_MC_BOOL: l->pi.boolop = md; break;
                case PTX_MC_ROUND: l->pi.round = md; break;
                case PTX_MC_SUBOP:
                    if (l->pi.subop == PTX_MOD_NONE_) l->pi.subop = md;
                    else l->pi.subop2 = md;
                    break;
                case PTX_MC_FLAG:
                    for (size_t k = 0; k < sizeof flagmods / sizeof flagmods[0]; k++)
                        if (flagmods[k].mod == md) l->pi.flags |= flagmods[k].flag;
                    break;
                default: break;
                }
                known = true;
            }
        if (!known)
            return false;
        if (next) *next = '.';
        dot = next;
    }
    /* Operands: split at commas. */
    l->pi.ops = l->ops;
    char *p = ops;
    while (*p && l->pi.nops < 8) {
        char *comma = strchr(p, ',');
        if (comma) *comma = 0;
        parse_operand(p, &l->ops[l->pi.nops], l->elems[l->pi.nops]);
        l->pi.nops++;
        if (!comma) break;
        p = comma + 1;
    }
    return true;
}

/* Selects like the decoder: each family in turn. */
static enum emu_sel select_inst(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    enum emu_sel (*const sels[])(struct emu_decoder *, const struct ptx_instr *, struct emu_inst *) = {
        emu_sel_int, emu_sel_bits, emu_sel_cmp,
    };
    int claimed = 0;
    enum emu_sel res = EMU_SEL_NO;
    for (size_t i = 0; i < sizeof sels / sizeof sels[0]; i++) {
        struct emu_inst tmp = { .d = EMU_NOREG, .a = EMU_NOREG, .b = EMU_NOREG, .c = EMU_NOREG,
                                .e = EMU_NOREG, .guard = EMU_NOGUARD };
        dc->nconst32 = dc->nconst64 = dc->npconst = 0;
        enum emu_sel r = sels[i](dc, pi, &tmp);
        if (r != EMU_SEL_NO) {
            claimed++;
            res = r;
            *out = tmp;
        }
    }
    if (claimed > 1)
        fprintf(stderr, "harness: instruction claimed by %d selectors\n", claimed);
    return claimed > 1 ? EMU_SEL_UNSUPPORTED : res;
}

/* ---- Running forms ---------------------------------------------------------------- */
static void *xmalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        perror("calloc");
        exit(2);
    }
    return p;
}

static void *load(const char *dir, const char *name, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    void *buf = xmalloc(size);
    size_t got = fread(buf, 1, size, f);
    fclose(f);
    if (got != size) {
        fprintf(stderr, "harness: %s: %zu bytes, expected %zu\n", path, got, size);
        exit(2);
    }
    return buf;
}

/* Fills the input registers of lanes from vectors base .. base+31. */
static void set_inputs(struct emu_warp *w, uint64_t *in[3], unsigned base)
{
    static const char *names[3][4] = { { "%a64", "%a32", "%ah32", "%a16" }, { "%b64", "%b32", "%bh32", "%b16" },
                                       { "%c64", "%c32", "%ch32", "%c16" } };
    for (unsigned x = 0; x < 3; x++)
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint64_t v = in[x][base + l];
            w->r64[find_reg(names[x][0])->row][l] = v;
            w->r32[find_reg(names[x][1])->row][l] = (uint32_t)v;
            w->r32[find_reg(names[x][2])->row][l] = (uint32_t)(v >> 32);
            w->r32[find_reg(names[x][3])->row][l] = (uint32_t)(v & 0xFFFF);
        }
    emu_mask pa = 0, pb = 0, pc = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t c = in[2][base + l];
        pa |= (emu_mask)(c & 1) << l;
        pb |= (emu_mask)((c >> 1) & 1) << l;
        pc |= (emu_mask)((c >> 2) & 1) << l;
    }
    w->pred[find_reg("%pa")->row] = pa;
    w->pred[find_reg("%pb")->row] = pb;
    w->pred[find_reg("%pc")->row] = pc;
}

static uint64_t result(const struct emu_warp *w, const struct reg *r, unsigned l)
{
    if (r->file == 0) return w->r32[r->row][l];
    if (r->file == 1) return w->r64[r->row][l];
    return (w->pred[r->row] >> l) & 1;
}

static const uint64_t SENT64 = 0xDEADBEEFCAFEF00Dull;

/* Scratch registers (%h0-3, %t0-3, %w0-3, %p0-3) get a sentinel so that a
 * lane left off is recognisable; the carry flags start clear. */
static void scribble(struct emu_warp *w)
{
    static const char *const scratch[] = { "%h0", "%h1", "%h2", "%h3", "%t0", "%t1", "%t2", "%t3",
                                           "%w0", "%w1", "%w2", "%w3", "%p0", "%p1", "%p2", "%p3" };
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) {
        const struct reg *r = find_reg(scratch[i]);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            if (r->file == 0) w->r32[r->row][l] = (uint32_t)SENT64;
            if (r->file == 1) w->r64[r->row][l] = SENT64;
        }
        if (r->file == 2) w->pred[r->row] = 0x3C3C3C3Cu;
    }
    memset(w->cc, 0, sizeof w->cc);
}

static int failures, passes;

/* Runs one form over all vectors; returns true when every lane matched. */
static bool run_form(struct emu_warp *w, const char *kernel, const char *fname, const char *kind,
                     const char *resname, char lines[][160], unsigned nlines, uint64_t *in[3], unsigned n)
{
    struct line parsed[MAXLINES];
    struct emu_inst insts[MAXLINES];
    struct emu_decoder dc = { .w = w };
    for (unsigned i = 0; i < nlines; i++) {
        if (!parse_line(lines[i], &parsed[i])) {
            printf("FAIL %s.%s: cannot parse '%s'\n", kernel, fname, lines[i]);
            return false;
        }
    }
    const struct reg *res = find_reg(resname);
    unsigned bytes = strcmp(kind, "r64") == 0 ? 8 : strcmp(kind, "r16") == 0 ? 2 : 4;
    char file[256];
    snprintf(file, sizeof file, "%s.%s.bin", kernel, fname);
    uint8_t *exp = load("expected-model", file, (size_t)n * bytes);
    bool ok = true;
    for (unsigned base = 0; base < n && ok; base += EMU_WARP_SIZE) {
        for (int pass = 0; pass < 2 && ok; pass++) {
            emu_mask m = pass == 0 ? ~0u : 0x5AC3A53Cu ^ (base * 0x9E3779B9u);
            scribble(w);
            set_inputs(w, in, base);
            /* Constant rows are (re)filled by selection, as warp start would. */
            for (unsigned i = 0; i < nlines; i++) {
                dc.pi = &parsed[i].pi;
                dc.why = NULL;
                enum emu_sel r = select_inst(&dc, &parsed[i].pi, &insts[i]);
                if (r != EMU_SEL_OK) {
                    printf("FAIL %s.%s: '%s' not selected (%s)\n", kernel, fname, lines[i],
                           r == EMU_SEL_NO ? "no selector" : dc.why ? dc.why : "?");
                    ok = false;
                    break;
                }
                insts[i].fn(w, &insts[i], m);
            }
            for (unsigned l = 0; l < EMU_WARP_SIZE && ok; l++) {
                uint64_t want = 0, got = result(w, res, l);
                memcpy(&want, exp + (size_t)(base + l) * bytes, bytes);
                if (bytes == 2 && res->file == 0)
                    got &= 0xFFFFFFFFu;       /* the row value itself must be zero-extended */
                bool on = (m >> l) & 1;
                uint64_t sentinel = res->file == 2 ? (0x3C3C3C3Cu >> l) & 1 : res->file == 1 ? SENT64 : (uint32_t)SENT64;
                if (on ? got != want : got != sentinel) {
                    printf("FAIL %s.%s: vector %u (%s lane): a=%016" PRIx64 " b=%016" PRIx64 " c=%016" PRIx64
                           " got %" PRIx64 ", want %" PRIx64 "\n", kernel, fname, base + l, on ? "active" : "inactive",
                           in[0][base + l], in[1][base + l], in[2][base + l], got, on ? want : sentinel);
                    ok = false;
                }
            }
        }
    }
    free(exp);
    return ok;
}

/* Instructions the selectors must refuse by name (EMU_SEL_UNSUPPORTED). */
static const char *const refused[] = {
    "lop3.or.b32 %t0|%p0, %a32, %b32, %c32, 0x96, %pa;",
    "add.sat.u32 %t0, %a32, %b32;",
    "add.cc.u16 %h0, %a16, %b16;",
    "mul.wide.u64 %w0, %a64, %b64;",
    "mul.u32 %t0, %a32, %b32;",
    "mad.lo.sat.s32 %t0, %a32, %b32, %c32;",
    "mad24.lo.sat.s32 %t0, %a32, %b32, %c32;",
    "abs.u32 %t0, %a32;",
    "max.relu.u32 %t0, %a32, %b32;",
    "sub.u16x2 %t0, %a32, %b32;",
    "shf.l.b32 %t0, %a32, %b32, %c32;",
    "bmsk.b32 %t0, %a32, %b32;",
    "setp.lo.s32 %p0, %a32, %b32;",
    "setp.lt.b32 %p0, %a32, %b32;",
    "setp.equ.s32 %p0, %a32, %b32;",
    "setp.eq.ftz.s32 %p0, %a32, %b32;",
    "setp.eq.ftz.f64 %p0, %a64, %b64;",
    "slct.ftz.s32.s32 %t0, %a32, %b32, %c32;",
    "add.u8 %h0, %a16, %b16;",
    "popc.b16 %t0, %a16;",
    "prmt.b32.f4e.b4e %t0, %a32, %b32, %c32;",
};
/* Instructions no family of these three may claim. */
static const char *const not_ours[] = {
    "add.f32 %t0, %a32, %b32;",
    "min.f64 %w0, %a64, %b64;",
    "neg.f16 %h0, %a16;",
    "mul.rn.f32 %t0, %a32, %b32;",
    "abs.bf16x2 %t0, %a32;",
    "mov.b32 %t0, %a32;",
};

static void check_refusals(struct emu_warp *w)
{
    struct line l;
    struct emu_inst inst;
    struct emu_decoder dc = { .w = w };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        if (!parse_line(refused[i], &l)) {
            printf("FAIL cannot parse '%s'\n", refused[i]);
            failures++;
            continue;
        }
        dc.pi = &l.pi;
        dc.why = NULL;
        enum emu_sel r = select_inst(&dc, &l.pi, &inst);
        if (r != EMU_SEL_UNSUPPORTED || !dc.why) {
            printf("FAIL '%s' should be refused, got %d\n", refused[i], r);
            failures++;
        } else {
            passes++;
        }
    }
    for (size_t i = 0; i < sizeof not_ours / sizeof not_ours[0]; i++) {
        if (!parse_line(not_ours[i], &l)) {
            printf("FAIL cannot parse '%s'\n", not_ours[i]);
            failures++;
            continue;
        }
        dc.pi = &l.pi;
        enum emu_sel r = select_inst(&dc, &l.pi, &inst);
        if (r != EMU_SEL_NO) {
            printf("FAIL '%s' claimed (%d) by an integer/bit/compare selector\n", not_ours[i], r);
            failures++;
        } else {
            passes++;
        }
    }
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    FILE *spec = fopen("forms.txt", "r");
    if (!spec) {
        perror("forms.txt (run from tests/edge/int after gen.py)");
        return 2;
    }
    struct emu_warp w;
    memset(&w, 0, sizeof w);
    w.r32 = xmalloc(sizeof(*w.r32) * NROWS);
    w.r64 = xmalloc(sizeof(*w.r64) * NROWS);
    w.pred = xmalloc(sizeof(*w.pred) * 64);
    check_refusals(&w);

    char line[256], kernel[64] = "", inset[16] = "";
    unsigned n = 1024;
    uint64_t *in[3] = { NULL, NULL, NULL };
    while (fgets(line, sizeof line, spec)) {
        if (line[0] == '#')
            continue;
        if (strncmp(line, "kernel ", 7) == 0) {
            unsigned nf;
            if (sscanf(line + 7, "%63s %15s %u", kernel, inset, &nf) != 3)
                return 2;
            for (int x = 0; x < 3; x++) {
                char name[64];
                free(in[x]);
                snprintf(name, sizeof name, "%s_%c.bin", inset, 'a' + x);
                in[x] = load("inputs", name, n * sizeof(uint64_t));
            }
            continue;
        }
        if (strncmp(line, "form ", 5) == 0) {
            char fname[96], kind[8], res[16], lines[MAXLINES][160];
            unsigned nl;
            if (sscanf(line + 5, "%95s %7s %15s %u", fname, kind, res, &nl) != 4 || nl > MAXLINES)
                return 2;
            for (unsigned i = 0; i < nl; i++) {
                if (!fgets(lines[i], sizeof lines[i], spec))
                    return 2;
                char *s = lines[i];
                while (*s == ' ') s++;
                memmove(lines[i], s, strlen(s) + 1);
                lines[i][strcspn(lines[i], "\n")] = 0;
            }
            if (only && !strstr(kernel, only) && !strstr(fname, only))
                continue;
            if (run_form(&w, kernel, fname, kind, res, lines, nl, in, n))
                passes++;
            else
                failures++;
        }
    }
    fclose(spec);
    for (int x = 0; x < 3; x++)
        free(in[x]);
    free(w.r32);
    free(w.r64);
    free(w.pred);
    printf("%d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
