#!/usr/bin/env python3
# gen.py -- generates the code-generation edge tests: PTX whose result on a GPU
# depends on what ptxas makes of it, not on one instruction's definition alone:
#  - contract_*: mul followed by add/sub, neither with a rounding modifier, which
#    the PTX ISA lets the code generator contract into one fused multiply-add
#    ("add", "mul": "... may be optimized aggressively by the code generator");
#    forms vary the number of uses, modifiers, blocks and operand order.
#  - nan_*: f64 add/sub/mul/fma/min/max on two NaN operands, whose result
#    payload depends on the operand order ptxas gives the hardware; kernels vary
#    register numbering (declaration order) against load order.
#  - madsat_*: mad.hi.sat.s32 near the saturation bounds, alone and after a
#    mad.hi.s32 of the same operands, from sm_75 and sm_90 PTX;
#  - madsat_mul*, madsat_madlo: mad.hi.sat.s32 in a kernel with one other use
#    of the product a*b. Beside a mul.lo of the same operands ptxas (13.0, for
#    sm_90) emits one IMAD.WIDE a*b + (c << 32) for both, and the mad.hi.sat
#    loses its saturation (emu_codegen.c).
# Every kernel reads three input arrays (thread i reads element i) and writes
# one output array per form, named KERNEL.N.bin; expected/ holds what an H100
# computed (tests/record-gpu.sh). Run: python3 gen.py
import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1024
BLOCK = 128
rng = random.Random(20260412)


def f32b(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f16b(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def rfloat(lo=-6, hi=6):
    return rng.choice((-1.0, 1.0)) * rng.uniform(1.0, 2.0) * 2.0 ** rng.randint(lo, hi)


# ------------------------------------------------------------------ inputs
F64_NANS = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF0000000000005,
            0x7FF4000000000000, 0x7FF8000000012345, 0x7FFFFFFFFFFFFFFF, 0xFFF8000000000001]


def inputs():
    sets = {}
    # f32 values whose product and sum round differently fused and unfused.
    a, b, c = [], [], []
    for i in range(N):
        x, y = rfloat(), rfloat()
        z = -x * y * rng.uniform(0.5, 1.5) if i % 3 == 0 else rfloat()
        a.append(f32b(x)); b.append(f32b(y)); c.append(f32b(z))
    sets["f32"] = ("u32", a, b, c)
    a, b, c = [], [], []
    for i in range(N):
        if i < 64:
            x = F64_NANS[i % 8] if i % 2 else f64b(rfloat())
            y = F64_NANS[(i // 8) % 8] if i % 3 else f64b(rfloat())
            z = F64_NANS[(i * 5) % 8] if i % 4 == 0 else f64b(rfloat())
        else:
            xv, yv = rfloat(), rfloat()
            zv = -xv * yv * rng.uniform(0.5, 1.5) if i % 3 == 0 else rfloat()
            x, y, z = f64b(xv), f64b(yv), f64b(zv)
        a.append(x); b.append(y); c.append(z)
    sets["f64"] = ("u64", a, b, c)
    # Halves: f16 pairs in u32 words (low half for the scalar forms); bf16 likewise.
    a, b, c = [], [], []
    for i in range(N):
        w = []
        for _ in range(3):
            lo, hi = f16b(rfloat(-4, 4)), f16b(rfloat(-4, 4))
            w.append(lo | hi << 16)
        a.append(w[0]); b.append(w[1]); c.append(w[2])
    sets["h16"] = ("u32", a, b, c)
    a, b, c = [], [], []
    for i in range(N):
        w = []
        for _ in range(3):
            lo, hi = f32b(rfloat()) >> 16, f32b(rfloat()) >> 16
            w.append(lo | hi << 16)
        a.append(w[0]); b.append(w[1]); c.append(w[2])
    sets["bf16"] = ("u32", a, b, c)
    # NaN pairs: every ordered pair of F64_NANS, NaN against numbers, numbers.
    a, b, c = [], [], []
    for i in range(N):
        if i < 64:
            x, y, z = F64_NANS[i % 8], F64_NANS[i // 8], f64b(-1.0)
        elif i < 128:
            x, y, z = F64_NANS[i % 8], F64_NANS[(i // 8) % 8], F64_NANS[(i + 3) % 8]
        elif i < 192:
            x, y, z = F64_NANS[i % 8], f64b(rfloat()), F64_NANS[(i // 8) % 8]
        elif i < 256:
            x, y, z = f64b(rfloat()), F64_NANS[i % 8], F64_NANS[(i // 8) % 8]
        else:
            x, y, z = f64b(rfloat()), f64b(rfloat()), f64b(rfloat())
        a.append(x); b.append(y); c.append(z)
    sets["nan"] = ("u64", a, b, c)
    # mad.hi.sat.s32: hi(a*b) + c near and past the bounds.
    a, b, c = [], [], []
    fixed = [(-1000000007, 32, -0x7FFFFFFF), (-0x7FFFFFFF, 2, -0x80000000), (0x7FFFFFFF, 0xFF, 0x7FFFFFFF)]
    for i in range(N):
        if i < len(fixed):
            x, y, z = fixed[i]
        else:
            kind = i % 4
            if kind == 0:
                x = rng.randint(-2 ** 31, 2 ** 31 - 1)
                y = rng.choice([2, 3, 16, 32, 64, 0x7FFF, 0x8000, -1, -2, -32, rng.randint(-2 ** 31, 2 ** 31 - 1)])
            elif kind == 1:
                x = rng.randint(-2 ** 31, -1)
                y = rng.randint(1, 1 << rng.randint(1, 31))
            elif kind == 2:
                x = rng.randint(-2 ** 31, 2 ** 31 - 1)
                y = rng.randint(-2 ** 31, 2 ** 31 - 1)
            else:
                x = rng.randint(1, 2 ** 31 - 1)
                y = rng.randint(1, 1 << rng.randint(1, 31))
            h = (x * y) >> 32
            k = rng.choice([0, 1, 2, 7, 31, 1000, rng.randint(0, 2 ** 20)])
            z = (-2 ** 31 - h - k) if (i // 4) % 2 else (2 ** 31 - 1 - h + k)
            z = max(-2 ** 31, min(2 ** 31 - 1, z))
        a.append(x & 0xFFFFFFFF); b.append(y & 0xFFFFFFFF); c.append(z & 0xFFFFFFFF)
    sets["madsat"] = ("u32", a, b, c)
    return sets


# ------------------------------------------------------------------ kernels
class Kernel:
    """A kernel over inputs a, b, c of one element type: `regs` declares the value
    registers, `loads` says in which order a, b, c are loaded, forms append PTX."""

    def __init__(self, name, inset, vtype, target="sm_90", version="8.0", regdecl=None, loads="abc",
                 names=None):
        self.name, self.inset, self.vtype, self.target, self.version = name, inset, vtype, target, version
        self.names = names or {"a": "%a", "b": "%b", "c": "%c"}
        self.regdecl = regdecl
        self.loads = loads
        self.body = []
        self.nout = 0

    def form(self, lines, result, comment):
        self.body.append("    // form %d: %s" % (self.nout, comment))
        self.body += ["    " + s for s in lines]
        self.store(result)

    def store(self, reg):
        w = 8 if self.vtype in ("f64", "b64") else 4
        st = {"f64": "f64", "b64": "b64", "f32": "f32"}.get(self.vtype, "b32")
        self.body += ["    ld.param.u64 %%base, [out_%d];" % self.nout, "    cvta.to.global.u64 %base, %base;",
                      "    add.s64 %%addr, %%base, %s;" % ("%off8" if w == 8 else "%off4"),
                      "    st.global.%s [%%addr], %s;" % (st, reg)]
        self.nout += 1

    def ptx(self):
        params = ",\n".join(["    .param .u64 in_a", "    .param .u64 in_b", "    .param .u64 in_c"] +
                            ["    .param .u64 out_%d" % k for k in range(self.nout)])
        vt = self.vtype
        ldt = {"f64": "f64", "f32": "f32", "b64": "b64"}.get(vt, "b32")
        w = "%off8" if vt in ("f64", "b64") else "%off4"
        lines = [".version %s" % self.version, ".target %s" % self.target, ".address_size 64", "",
                 ".visible .entry %s(\n%s\n)" % (self.name, params), "{",
                 "    .reg .pred %pz, %pa;",
                 "    .reg .b32 %i, %r<3>;",
                 "    .reg .b64 %base, %addr, %off4, %off8;"]
        lines += ["    " + s for s in (self.regdecl or [])]
        lines += ["    mov.u32 %r0, %ctaid.x;", "    mov.u32 %r1, %ntid.x;", "    mov.u32 %r2, %tid.x;",
                  "    mad.lo.s32 %i, %r0, %r1, %r2;", "    setp.ge.u32 %%pz, %%i, %d;" % N, "    @%pz ret;",
                  "    and.b32 %r0, %i, 1;", "    setp.ne.u32 %pa, %r0, 0;",
                  "    mul.wide.u32 %off4, %i, 4;", "    mul.wide.u32 %off8, %i, 8;"]
        for x in self.loads:
            lines += ["    ld.param.u64 %%base, [in_%s];" % x, "    cvta.to.global.u64 %base, %base;",
                      "    add.s64 %%addr, %%base, %s;" % w, "    ld.global.%s %s, [%%addr];" % (ldt, self.names[x])]
        lines += self.body + ["    ret;", "}", ""]
        return "\n".join(lines)


def contract_f32():
    k = Kernel("contract_f32", "f32", "f32",
               regdecl=[".reg .f32 %a, %b, %c, %d, %p, %q, %t, %n;"])
    mul, add = "mul.f32 %p, %a, %b;", "add.f32 %d, %p, %c;"
    k.form([mul, add], "%d", "mul; add p+c")
    k.form([mul, "add.f32 %d, %c, %p;"], "%d", "mul; add c+p")
    k.form([mul, "sub.f32 %d, %p, %c;"], "%d", "mul; sub p-c")
    k.form([mul, "sub.f32 %d, %c, %p;"], "%d", "mul; sub c-p")
    k.form([mul, add], "%d", "mul; add; the product stored too (next form)")
    k.store("%p")
    k.form(["mul.rn.f32 %p, %a, %b;", add], "%d", "mul.rn; add")
    k.form([mul, "add.rn.f32 %d, %p, %c;"], "%d", "mul; add.rn")
    k.form(["mul.ftz.f32 %p, %a, %b;", add], "%d", "mul.ftz; add")
    k.form([mul, "add.ftz.f32 %d, %p, %c;"], "%d", "mul; add.ftz")
    k.form(["mul.ftz.f32 %p, %a, %b;", "add.ftz.f32 %d, %p, %c;"], "%d", "mul.ftz; add.ftz")
    k.form([mul, "add.sat.f32 %d, %p, %c;"], "%d", "mul; add.sat")
    k.form(["mul.sat.f32 %p, %a, %b;", add], "%d", "mul.sat; add")
    k.form([mul, "bra.uni CF%d;" % k.nout, "CF%d:" % k.nout, add], "%d", "mul; bra; add (two blocks)")
    k.form([mul, "@%%pa bra CF%d;" % k.nout, "mov.f32 %c, %c;", "CF%d:" % k.nout, add], "%d",
           "mul; conditional branch; add")
    k.form([mul, "mul.f32 %q, %c, %a;", "add.f32 %d, %p, %q;"], "%d", "two products: a*b + c*a")
    k.form(["mul.f32 %p, %a, 0f3DCCCCCD;", add], "%d", "mul by an immediate; add")
    k.form([mul, "mov.f32 %t, %p;", "add.f32 %d, %t, %c;"], "%d", "mul; mov; add")
    k.form(["mov.f32 %t, %a;", "mul.f32 %p, %t, %b;", "add.f32 %t, %t, 0f3F800000;", add, "add.f32 %d, %d, %t;"],
           "%d", "mul; a source redefined; add")
    k.form([mul, "neg.f32 %n, %p;", "add.f32 %d, %n, %c;"], "%d", "mul; neg; add")
    k.form([mul, "add.f32 %d, %p, %p;"], "%d", "mul; add p+p")
    k.form([mul, "mov.f32 %d, 0f00000000;", "@%pa add.f32 %d, %p, %c;"], "%d", "mul; predicated add")
    k.form(["@%pa mul.f32 %p, %a, %b;", "@!%pa mov.f32 %p, %b;", add], "%d", "predicated mul; add")
    k.form([mul, "add.f32 %q, %p, %c;", "add.f32 %d, %q, %a;"], "%d", "mul; add; add")
    k.form(["mul.f32 %p, %a, %b;", "mul.f32 %q, %p, %c;", "add.f32 %d, %q, %a;"], "%d", "mul; mul; add")
    return k


def contract_f64():
    k = Kernel("contract_f64", "f64", "f64", regdecl=[".reg .f64 %a, %b, %c, %d, %p, %q;"])
    mul, add = "mul.f64 %p, %a, %b;", "add.f64 %d, %p, %c;"
    k.form([mul, add], "%d", "mul; add p+c")
    k.form([mul, "add.f64 %d, %c, %p;"], "%d", "mul; add c+p")
    k.form([mul, "sub.f64 %d, %p, %c;"], "%d", "mul; sub p-c")
    k.form([mul, "sub.f64 %d, %c, %p;"], "%d", "mul; sub c-p")
    k.form([mul, add], "%d", "mul; add; the product stored too (next form)")
    k.store("%p")
    k.form(["mul.rn.f64 %p, %a, %b;", add], "%d", "mul.rn; add")
    k.form([mul, "add.rn.f64 %d, %p, %c;"], "%d", "mul; add.rn")
    k.form([mul, "bra.uni CD%d;" % k.nout, "CD%d:" % k.nout, add], "%d", "mul; bra; add (two blocks)")
    k.form([mul, "mul.f64 %q, %c, %a;", "add.f64 %d, %p, %q;"], "%d", "two products: a*b + c*a")
    k.form(["mul.f64 %p, %b, %a;", "sub.f64 %d, %c, %p;"], "%d", "mul b*a; sub c-p")
    return k


def contract_half():
    k = Kernel("contract_half", "h16", "b32", regdecl=[".reg .b32 %a, %b, %c, %d, %p, %q;",
                                                       ".reg .b16 %ha, %hb, %hc, %hd, %hp;"])
    unpack = ["mov.b32 {%ha, %hq}, %a;", "mov.b32 {%hb, %hq}, %b;", "mov.b32 {%hc, %hq}, %c;"]
    k.regdecl.append(".reg .b16 %hq;")
    k.form(unpack + ["mul.f16 %hp, %ha, %hb;", "add.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d", "f16 mul; add")
    k.form(["mul.f16 %hp, %ha, %hb;", "sub.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d", "f16 mul; sub p-c")
    k.form(["mul.f16 %hp, %ha, %hb;", "sub.f16 %hd, %hc, %hp;", "cvt.u32.u16 %d, %hd;"], "%d", "f16 mul; sub c-p")
    k.form(["mul.f16 %hp, %ha, %hb;", "add.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d",
           "f16 mul; add; the product stored too (next form)")
    k.form(["cvt.u32.u16 %d, %hp;"], "%d", "(the product)")
    k.form(["mul.ftz.f16 %hp, %ha, %hb;", "add.ftz.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d",
           "f16 mul.ftz; add.ftz")
    k.form(["mul.f16 %hp, %ha, %hb;", "add.sat.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d", "f16 mul; add.sat")
    k.form(["mul.rn.f16 %hp, %ha, %hb;", "add.f16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d", "f16 mul.rn; add")
    k.form(["mul.f16x2 %p, %a, %b;", "add.f16x2 %d, %p, %c;"], "%d", "f16x2 mul; add")
    k.form(["mul.f16x2 %p, %a, %b;", "sub.f16x2 %d, %c, %p;"], "%d", "f16x2 mul; sub c-p")
    return k


def contract_bf16():
    k = Kernel("contract_bf16", "bf16", "b32", regdecl=[".reg .b32 %a, %b, %c, %d, %p;",
                                                         ".reg .b16 %ha, %hb, %hc, %hd, %hp, %hq;"])
    unpack = ["mov.b32 {%ha, %hq}, %a;", "mov.b32 {%hb, %hq}, %b;", "mov.b32 {%hc, %hq}, %c;"]
    k.form(unpack + ["mul.bf16 %hp, %ha, %hb;", "add.bf16 %hd, %hp, %hc;", "cvt.u32.u16 %d, %hd;"], "%d",
           "bf16 mul; add")
    k.form(["mul.bf16 %hp, %ha, %hb;", "sub.bf16 %hd, %hc, %hp;", "cvt.u32.u16 %d, %hd;"], "%d", "bf16 mul; sub c-p")
    k.form(["mul.bf16x2 %p, %a, %b;", "add.bf16x2 %d, %p, %c;"], "%d", "bf16x2 mul; add")
    return k


def nan_kernel(name, numbered_ab, loads):
    """numbered_ab: a has the lower register number; loads: order of the loads."""
    names = {"a": "%fd1", "b": "%fd2", "c": "%fd3"} if numbered_ab else {"a": "%fd2", "b": "%fd1", "c": "%fd3"}
    k = Kernel(name, "nan", "f64", regdecl=[".reg .f64 %fd<8>;"], loads=loads, names=names)
    A, B, C = names["a"], names["b"], names["c"]
    for op in ("add", "sub", "mul", "min", "max"):
        k.form(["%s.f64 %%fd5, %s, %s;" % (op, A, B)], "%fd5", "%s a, b" % op)
        k.form(["%s.f64 %%fd5, %s, %s;" % (op, B, A)], "%fd5", "%s b, a" % op)
    k.form(["fma.rn.f64 %%fd5, %s, %s, %s;" % (A, B, C)], "%fd5", "fma a, b, c")
    k.form(["fma.rn.f64 %%fd5, %s, %s, %s;" % (B, A, C)], "%fd5", "fma b, a, c")
    k.form(["fma.rn.f64 %%fd5, %s, %s, %s;" % (A, C, B)], "%fd5", "fma a, c, b")
    k.form(["add.rz.f64 %%fd5, %s, %s;" % (A, B)], "%fd5", "add.rz a, b")
    k.form(["mul.rp.f64 %%fd5, %s, %s;" % (A, B)], "%fd5", "mul.rp a, b")
    k.form(["fma.rm.f64 %%fd5, %s, %s, %s;" % (A, B, C)], "%fd5", "fma.rm a, b, c")
    k.form(["div.rn.f64 %%fd5, %s, %s;" % (A, B)], "%fd5", "div a, b")
    return k


def madsat_kernel(name, target, version, ctx):
    k = Kernel(name, "madsat", "b32", target=target, version=version, regdecl=[".reg .b32 %a, %b, %c, %d, %e;"])
    if ctx:
        k.form(["mad.hi.s32 %e, %a, %b, %c;"], "%e", "mad.hi.s32")
        k.form(["mad.hi.u32 %e, %a, %b, %c;"], "%e", "mad.hi.u32")
    k.form(["mad.hi.sat.s32 %d, %a, %b, %c;"], "%d", "mad.hi.sat.s32")
    if ctx:
        k.form(["mul.hi.s32 %e, %a, %b;", "add.sat.s32 %d, %e, %c;"], "%d", "mul.hi.s32; add.sat.s32")
    return k


def madsat_mul_kernel(name, *extras, before=False, target="sm_75", version="9.0"):
    """mad.hi.sat.s32 d, a, b, c in one kernel with other uses of the product
    a*b (each of `extras` one form, its result in %e), before or after it."""
    k = Kernel(name, "madsat", "b32", target=target, version=version,
               regdecl=[".reg .b32 %a, %b, %c, %d, %e, %f;", ".reg .b64 %w, %c64;"])
    mad = (["mad.hi.sat.s32 %d, %a, %b, %c;"], "%d", "mad.hi.sat.s32")
    others = [(x, "%e", "; ".join(i.split(" ")[0] for i in x)) for x in extras]
    for f in (others + [mad] if before else [mad] + others):
        k.form(*f)
    return k


MULLO = ["mul.lo.u32 %e, %a, %b;"]
WIDE_HI = ["mul.wide.s32 %w, %a, %b;", "mov.b64 {%f, %e}, %w;"]
MADSAT_MUL = [
    madsat_mul_kernel("madsat_mullo_u", MULLO),
    madsat_mul_kernel("madsat_mullo_u_first", MULLO, before=True),
    madsat_mul_kernel("madsat_mullo_s", ["mul.lo.s32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_ba", ["mul.lo.u32 %e, %b, %a;"]),
    madsat_mul_kernel("madsat_mullo_90", MULLO, target="sm_90", version="8.0"),
    madsat_mul_kernel("madsat_madlo", ["mad.lo.s32 %e, %a, %b, %c;"]),
    madsat_mul_kernel("madsat_mulwide", WIDE_HI),
    madsat_mul_kernel("madsat_mulwide_lo", ["mul.wide.s32 %w, %a, %b;", "mov.b64 {%e, %f}, %w;"]),
    madsat_mul_kernel("madsat_mulhi", ["mul.hi.s32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_blocks", ["bra.uni MB0;", "MB0:", "mul.lo.u32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_guard", ["mov.u32 %e, 0;", "@%pa mul.lo.u32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_ac", ["mul.lo.u32 %e, %a, %c;"]),
    # a mul.lo beside other products of a and b (tests/edge/int/int_mul_1 has them all)
    madsat_mul_kernel("madsat_mullo_wides", MULLO, WIDE_HI),
    madsat_mul_kernel("madsat_mullo_wides_first", MULLO, WIDE_HI, before=True),
    madsat_mul_kernel("madsat_mullo_wideu", MULLO, ["mul.wide.u32 %w, %a, %b;", "mov.b64 {%f, %e}, %w;"]),
    madsat_mul_kernel("madsat_mullo_madwides", MULLO, ["cvt.s64.s32 %c64, %c;", "mad.wide.s32 %w, %a, %b, %c64;",
                                                       "mov.b64 {%f, %e}, %w;"]),
    madsat_mul_kernel("madsat_mullo_madhi", MULLO, ["mad.hi.s32 %e, %a, %b, %c;"]),
    madsat_mul_kernel("madsat_mullo_mulhi", MULLO, ["mul.hi.s32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_mulhiu", MULLO, ["mul.hi.u32 %e, %a, %b;"]),
    madsat_mul_kernel("madsat_mullo_madlo", MULLO, ["mad.lo.s32 %e, %a, %b, %c;"]),
    madsat_mul_kernel("madsat_mullo_two", MULLO, ["add.s32 %f, %c, 1;", "mad.hi.sat.s32 %e, %a, %b, %f;"]),
    madsat_mul_kernel("madsat_mullo_mullo", MULLO, ["mul.lo.s32 %e, %b, %a;"]),
]
C64 = "cvt.s64.s32 %c64, %c;"
U_ALL = [MULLO, ["mul.hi.u32 %e, %a, %b;"], ["mul.wide.u32 %w, %a, %b;", "mov.b64 {%f, %e}, %w;"],
         ["mad.lo.u32 %e, %a, %b, %c;"], ["mad.hi.u32 %e, %a, %b, %c;"],
         [C64, "mad.wide.u32 %w, %a, %b, %c64;", "mov.b64 {%f, %e}, %w;"]]
S_ALL = [["mul.lo.s32 %e, %a, %b;"], ["mul.hi.s32 %e, %a, %b;"], WIDE_HI, ["mad.lo.s32 %e, %a, %b, %c;"],
         ["mad.hi.s32 %e, %a, %b, %c;"], [C64, "mad.wide.s32 %w, %a, %b, %c64;", "mov.b64 {%f, %e}, %w;"]]
MADSAT_MUL += [
    madsat_mul_kernel("madsat_probe_all", *(U_ALL + S_ALL), before=True),
    madsat_mul_kernel("madsat_probe_u", *U_ALL, before=True),
    madsat_mul_kernel("madsat_probe_s", MULLO, *S_ALL, before=True),
    madsat_mul_kernel("madsat_probe_madwideu", MULLO, U_ALL[5], before=True),
    madsat_mul_kernel("madsat_probe_madlou", MULLO, U_ALL[3], before=True),
    madsat_mul_kernel("madsat_probe_madhiu", MULLO, U_ALL[4], before=True),
    madsat_mul_kernel("madsat_probe_mulhiu", MULLO, U_ALL[1], before=True),
    madsat_mul_kernel("madsat_probe_wideu", MULLO, U_ALL[2], before=True),
]

KERNELS = [contract_f32(), contract_f64(), contract_half(), contract_bf16(),
           nan_kernel("nan_num_ab_load_ab", True, "abc"), nan_kernel("nan_num_ab_load_ba", True, "cba"),
           nan_kernel("nan_num_ba_load_ab", False, "abc"), nan_kernel("nan_num_ba_load_ba", False, "cba"),
           madsat_kernel("madsat_90", "sm_90", "8.0", False), madsat_kernel("madsat_75", "sm_75", "9.0", False),
           madsat_kernel("madsat_75_ctx", "sm_75", "9.0", True)] + MADSAT_MUL


def write(path, fmt, vals):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))


def main():
    os.makedirs(os.path.join(HERE, "inputs"), exist_ok=True)
    sets = inputs()
    for s, (t, a, b, c) in sets.items():
        for nm, v in (("a", a), ("b", b), ("c", c)):
            write(os.path.join(HERE, "inputs", "%s_%s.bin" % (s, nm)), "Q" if t == "u64" else "I", v)
    runs = ["# runs.txt -- code-generation edge kernels (generated by gen.py; see its header)."]
    for k in KERNELS:
        assert k.nout <= 40, k.name
        with open(os.path.join(HERE, k.name + ".ptx"), "w") as f:
            f.write(k.ptx())
        t = sets[k.inset][0]
        args = ["in:%s:%d=@inputs/%s_%s.bin" % (t, N, k.inset, x) for x in "abc"]
        ot = "u64" if k.vtype in ("f64", "b64") else "u32"
        args += ["out:%s:%d>OUT/%s.%d.bin" % (ot, N, k.name, j) for j in range(k.nout)]
        runs.append("%s: %s.ptx --kernel %s --grid %d --block %d %s" % (k.name, k.name, k.name, N // BLOCK, BLOCK,
                                                                      " ".join(args)))
    with open(os.path.join(HERE, "runs.txt"), "w") as f:
        f.write("\n".join(runs) + "\n")


if __name__ == "__main__":
    main()
