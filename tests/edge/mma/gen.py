#!/usr/bin/env python3
"""gen.py -- writes mma_ops.cuh: one kernel per mma.sync shape/type of the edge tests.

Each kernel fills its fragments from gen.h's generator (tile, lane, register), runs one
mma.sync per tile and writes the D registers: out[(tile * 32 + lane) * ND + i]."""

# name, instruction, NA, NB, NC, ND (32-bit registers), kinds of A, B, C
OPS = [
    ("f16_k16_f32", "m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, 4, "F16", "F16", "F32"),
    ("f16_k16_f16", "m16n8k16.row.col.f16.f16.f16.f16", 4, 2, 2, 2, "F16", "F16", "F16"),
    ("f16_k8_f32", "m16n8k8.row.col.f32.f16.f16.f32", 2, 1, 4, 4, "F16", "F16", "F32"),
    ("f16_k8_f16", "m16n8k8.row.col.f16.f16.f16.f16", 2, 1, 2, 2, "F16", "F16", "F16"),
    ("bf16_k16", "m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 4, 4, "BF16", "BF16", "F32"),
    ("bf16_k8", "m16n8k8.row.col.f32.bf16.bf16.f32", 2, 1, 4, 4, "BF16", "BF16", "F32"),
    ("tf32_k8", "m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, 4, "TF32", "TF32", "F32"),
    ("tf32_k4", "m16n8k4.row.col.f32.tf32.tf32.f32", 2, 1, 4, 4, "TF32", "TF32", "F32"),
    ("f64_k4", "m8n8k4.row.col.f64.f64.f64.f64", 2, 2, 4, 4, "F64", "F64", "F64"),
    ("s8_k32", "m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 4, 4, "S8", "S8", "S32"),
    ("u8_k32", "m16n8k32.row.col.s32.u8.u8.s32", 4, 2, 4, 4, "U8", "U8", "S32"),
    ("s8u8_k32", "m16n8k32.row.col.s32.s8.u8.s32", 4, 2, 4, 4, "S8", "U8", "S32"),
    ("u8s8_k32_sat", "m16n8k32.row.col.satfinite.s32.u8.s8.s32", 4, 2, 4, 4, "U8", "S8", "S32"),
    ("s8_k32_sat", "m16n8k32.row.col.satfinite.s32.s8.s8.s32", 4, 2, 4, 4, "S8", "S8", "S32"),
    ("s8_k16", "m16n8k16.row.col.s32.s8.s8.s32", 2, 1, 4, 4, "S8", "S8", "S32"),
    ("u8_k16_sat", "m16n8k16.row.col.satfinite.s32.u8.u8.s32", 2, 1, 4, 4, "U8", "U8", "S32"),
    ("s4_k64", "m16n8k64.row.col.s32.s4.s4.s32", 4, 2, 4, 4, "S4", "S4", "S32"),
    ("u4_k64_sat", "m16n8k64.row.col.satfinite.s32.u4.u4.s32", 4, 2, 4, 4, "U4", "U4", "S32"),
    ("s4u4_k32", "m16n8k32.row.col.s32.s4.u4.s32", 2, 1, 4, 4, "S4", "U4", "S32"),
    ("s4_k32_sat", "m16n8k32.row.col.satfinite.s32.s4.s4.s32", 2, 1, 4, 4, "S4", "S4", "S32"),
    ("b1_k256_and", "m16n8k256.row.col.s32.b1.b1.s32.and.popc", 4, 2, 4, 4, "B1", "B1", "S32"),
    ("b1_k256_xor", "m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 4, 2, 4, 4, "B1", "B1", "S32"),
    ("b1_k128_xor", "m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 2, 1, 4, 4, "B1", "B1", "S32"),
    ("f16_m8k4_f32", "m8n8k4.row.col.f32.f16.f16.f32", 2, 2, 8, 8, "F16", "F16", "F32"),
    ("f16_m8k4_f16", "m8n8k4.col.row.f16.f16.f16.f16", 2, 2, 4, 4, "F16", "F16", "F16"),
]


def kernel(name, inst, na, nb, nc, nd, ka, kb, kc):
    f64 = ka == "F64"
    n = 0
    groups = []
    for cnt in (nd, na, nb, nc):
        regs = cnt // 2 if f64 else cnt
        groups.append("{" + ", ".join("%%%d" % (n + i) for i in range(regs)) + "}")
        n += regs
    asm = "mma.sync.aligned.%s %s, %s, %s, %s;" % (inst, *groups)
    if f64:
        outs = ", ".join('"=d"(dd[%d])' % i for i in range(nd // 2))
        ins = ", ".join(['"d"(__hiloint2double(a[%d], a[%d]))' % (2 * i + 1, 2 * i) for i in range(na // 2)]
                        + ['"d"(__hiloint2double(b[%d], b[%d]))' % (2 * i + 1, 2 * i) for i in range(nb // 2)]
                        + ['"d"(__hiloint2double(c[%d], c[%d]))' % (2 * i + 1, 2 * i) for i in range(nc // 2)])
        store = ("        double dd[%d];\n" % (nd // 2), "        for (int i = 0; i < %d; i++) {\n"
                 "            d[2 * i] = __double2loint(dd[i]);\n"
                 "            d[2 * i + 1] = __double2hiint(dd[i]);\n        }\n" % (nd // 2))
    else:
        outs = ", ".join('"=r"(d[%d])' % i for i in range(nd))
        ins = ", ".join(['"r"(a[%d])' % i for i in range(na)] + ['"r"(b[%d])' % i for i in range(nb)]
                        + ['"r"(c[%d])' % i for i in range(nc)])
        store = ("", "")
    return f"""
extern "C" __global__ void mma_{name}(uint32_t *out, uint32_t ntiles)
{{
    uint32_t lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    uint32_t nw = (gridDim.x * blockDim.x) >> 5;
    for (uint32_t t = w; t < ntiles; t += nw) {{
        uint32_t a[{na}], b[{nb}], c[{nc}], d[{nd}];
{store[0]}        for (int i = 0; i < {na}; i++)
            a[i] = gen_reg(G_{ka}, t, lane, i, 0);
        for (int i = 0; i < {nb}; i++)
            b[i] = gen_reg(G_{kb}, t, lane, i, 1);
        for (int i = 0; i < {nc}; i++)
            c[i] = gen_reg(G_{kc}, t, lane, i, 2);
        asm volatile("{asm}"
                     : {outs}
                     : {ins});
{store[1]}        for (int i = 0; i < {nd}; i++)
            out[(t * 32 + lane) * {nd} + i] = d[i];
    }}
}}
"""


# m8n8k4 .f16 (Volta's quad-pair form) in a module of its own, m8n8k4/
for name, ops in (("mma_ops.cuh", [o for o in OPS if "m8k4" not in o[0]]), ("mma_m8n8k4.cuh", [o for o in OPS if "m8k4" in o[0]])):
    with open(name, "w") as f:
        f.write("// %s -- written by gen.py: one kernel per mma.sync shape/type (see gen.py).\n" % name)
        for op in ops:
            f.write(kernel(*op))
