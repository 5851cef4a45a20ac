#!/usr/bin/env python3
# gen.py -- writes affine.ptx and runs.txt: kernels on the edges of the lane-affine
# comparisons (ptx/ptx_uniform.c's ptx_lane_strides, emu/emu_cmp.c's ha_* handlers)
# and of bar.sync's release (emu/emu_ctrl.c). Outputs recorded on an H100 in expected/.
#   python3 tests/edge/affine/gen.py   (from the repository root)
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CMPS = ["eq", "ne", "lt", "le", "gt", "ge"]
TYPES = ["s32", "u32"]

HEAD = """// affine.ptx -- written by gen.py: comparisons of lane-affine values (lane l holds
// base + l) with uniform ones, which Loom decides from one subtraction when the
// warp's %tid.x is lane-affine and no lane's value wraps, and barriers released
// by their last arrival. Each kernel stores its results per thread.
.version 7.0
.target sm_75
.address_size 64
"""

# Every kernel's registers, and its out pointer made global.
REGS = """    .reg .pred %p<8>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<6>;
"""
OUTPTR = """    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
"""

# The linear thread index within the CTA and the global one (any block shape):
# %r1 = tid.x, %r20 = linear, %r21 = global linear.
PROLOGUE = """    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %tid.y;
    mov.u32 %r3, %tid.z;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %ntid.y;
    mov.u32 %r6, %ntid.z;
    mad.lo.u32 %r7, %r3, %r5, %r2;
    mad.lo.u32 %r20, %r7, %r4, %r1;
    mul.lo.u32 %r8, %r4, %r5;
    mul.lo.u32 %r8, %r8, %r6;
    mov.u32 %r9, %ctaid.x;
    mad.lo.u32 %r21, %r9, %r8, %r20;
"""


def cmp_kernel(name, source):
    """24 setp results (6 comparisons x s32/u32 x both operand orders) as bits of
    out[2 g], and the same 24 through setp + @p bra in out[2 g + 1]."""
    lines = [f".visible .entry {name}(.param .u64 out, .param .u32 off, .param .u32 b)", "{",
             "    .reg .pred %p<4>;", "    .reg .b32 %r<40>;", "    .reg .b64 %rd<6>;",
             "    ld.param.u64 %rd1, [out];", "    cvta.to.global.u64 %rd1, %rd1;",
             "    ld.param.u32 %r10, [off];", "    ld.param.u32 %r11, [b];", PROLOGUE.rstrip("\n")]
    if source == "tid":   # i = blockIdx.x * blockDim.x + threadIdx.x + off
        lines += ["    mad.lo.s32 %r12, %r9, %r4, %r1;", "    add.s32 %r12, %r12, %r10;"]
    elif source == "lane":
        lines += ["    mov.u32 %r13, %laneid;", "    add.s32 %r12, %r10, %r13;"]
    else:                 # stride 2: never decided from the mask formula
        lines += ["    shl.b32 %r13, %r1, 1;", "    add.s32 %r12, %r13, %r10;"]
    lines += ["    mov.u32 %r30, 0;", "    mov.u32 %r31, 0;"]
    bit = 0
    for order in range(2):
        a, b = ("%r12", "%r11") if order == 0 else ("%r11", "%r12")
        for t in TYPES:
            for c in CMPS:
                lines += [f"    setp.{c}.{t} %p1, {a}, {b};",
                          f"    selp.u32 %r14, {1 << bit}, 0, %p1;",
                          "    or.b32 %r30, %r30, %r14;",
                          f"    setp.{c}.{t} %p2, {a}, {b};",
                          f"    @%p2 bra B{bit};",
                          f"    or.b32 %r31, %r31, {1 << bit};",
                          f"B{bit}:"]
                bit += 1
    lines += ["    mul.wide.u32 %rd2, %r21, 8;", "    add.s64 %rd3, %rd1, %rd2;",
              "    st.global.v2.u32 [%rd3], {%r30, %r31};", "    ret;", "}", ""]
    return "\n".join(lines)


OTHERS = r"""
// Registers that hold %tid.x-like values but are not lane-affine where they
// are read: written under a divergent guard, inside a divergent branch, or
// with two different strides. Compared with a uniform bound.
.visible .entry not_affine(.param .u64 out, .param .u32 b)
{
REGS
OUTPTR
    ld.param.u32 %r11, [b];
PROLOGUE
    and.b32 %r12, %r1, 3;
    setp.eq.s32 %p1, %r12, 1;
    mov.u32 %r13, %tid.x;
    @%p1 add.s32 %r13, %r13, 9;
    mov.u32 %r14, %tid.x;
    @%p1 bra SKIP;
    add.s32 %r14, %r14, 5;
SKIP:
    mov.u32 %r15, %tid.x;
    setp.gt.u32 %p2, %r1, 40;
    @%p2 bra TWO;
    shl.b32 %r15, %r1, 1;
TWO:
    mov.u32 %r30, 0;
    setp.lt.s32 %p3, %r13, %r11;
    selp.u32 %r16, 1, 0, %p3;
    or.b32 %r30, %r30, %r16;
    setp.lt.s32 %p4, %r14, %r11;
    selp.u32 %r16, 2, 0, %p4;
    or.b32 %r30, %r30, %r16;
    setp.ge.u32 %p5, %r15, %r11;
    selp.u32 %r16, 4, 0, %p5;
    or.b32 %r30, %r30, %r16;
    setp.ge.u32 %p6, %r14, %r11;
    @%p6 bra END;
    or.b32 %r30, %r30, 8;
END:
    mul.wide.u32 %rd2, %r21, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r30;
    ret;
}

// Lane 0 of every warp (and every fourth lane) exits, then a uniform bound is
// computed and compared with the global index: the bound's row is never
// written in the exited lanes. out[g] = 1 + (g < b + 7) + 2 (b + 7 > g).
.visible .entry exit_then_cmp(.param .u64 out, .param .u32 b)
{
REGS
OUTPTR
    ld.param.u32 %r11, [b];
    mov.u32 %r1, %tid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r9, %ctaid.x;
    mad.lo.s32 %r12, %r9, %r4, %r1;
    mul.wide.u32 %rd2, %r12, 4;
    add.s64 %rd3, %rd1, %rd2;
    and.b32 %r13, %r1, 3;
    setp.eq.s32 %p1, %r13, 0;
    @%p1 exit;
    add.s32 %r14, %r11, 7;
    mov.u32 %r30, 1;
    setp.lt.s32 %p2, %r12, %r14;
    selp.u32 %r15, 1, 0, %p2;
    add.s32 %r30, %r30, %r15;
    setp.gt.u32 %p3, %r14, %r12;
    @!%p3 bra END;
    add.s32 %r30, %r30, 2;
END:
    st.global.u32 [%rd3], %r30;
    ret;
}

// A grid-stride loop: i starts at the global index and steps by the grid's
// thread count (a loop-carried lane-affine register), out[i] = 3 i + 1 for i < n.
.visible .entry grid_stride(.param .u64 out, .param .u32 n)
{
REGS
OUTPTR
    ld.param.u32 %r11, [n];
    mov.u32 %r1, %tid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r9, %ctaid.x;
    mov.u32 %r5, %nctaid.x;
    mad.lo.s32 %r12, %r9, %r4, %r1;
    mul.lo.s32 %r13, %r4, %r5;
    setp.ge.u32 %p1, %r12, %r11;
    @%p1 bra DONE;
LOOP:
    mad.lo.s32 %r14, %r12, 3, 1;
    mul.wide.u32 %rd2, %r12, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r14;
    add.s32 %r12, %r12, %r13;
    setp.lt.u32 %p2, %r12, %r11;
    @%p2 bra LOOP;
DONE:
    ret;
}

// One barrier used with a thread count, then without: warps 0-1 meet at
// `bar.sync 0, 64` and warps 2-3 at `bar.sync 1, 64`; then all 128 threads at
// `bar.sync 0`, after which each reads what a thread 64 places on wrote just
// before it. out[g] = s[(t + 64) % 128] * 1000 + t.
.visible .entry bar_counts(.param .u64 out)
{
REGS
    .shared .align 4 .b8 s[512];
OUTPTR
PROLOGUE
    mov.u32 %r10, s;
    shl.b32 %r11, %r20, 2;
    add.s32 %r12, %r10, %r11;
    st.shared.u32 [%r12], 7;
    setp.lt.u32 %p1, %r20, 64;
    @%p1 bra LOW;
    bar.sync 1, 64;
    bra.uni MEET;
LOW:
    bar.sync 0, 64;
MEET:
    add.s32 %r13, %r20, 1;
    st.shared.u32 [%r12], %r13;
    bar.sync 0;
    add.s32 %r14, %r20, 64;
    and.b32 %r14, %r14, 127;
    shl.b32 %r14, %r14, 2;
    add.s32 %r14, %r10, %r14;
    ld.shared.u32 %r15, [%r14];
    mad.lo.s32 %r16, %r15, 1000, %r20;
    mul.wide.u32 %rd2, %r21, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r16;
    ret;
}

// n rounds of: read the next thread's slot, barrier, write it back plus one,
// barrier (2 n barriers: the CTAs outlast the scheduler's slices).
// out[g] = s[t] at the end = ((t + n) % T) + n for a block of T threads.
.visible .entry bar_rounds(.param .u64 out, .param .u32 n)
{
REGS
    .shared .align 4 .b8 s[4096];
OUTPTR
    ld.param.u32 %r30, [n];
PROLOGUE
    mul.lo.u32 %r22, %r4, %r5;
    mul.lo.u32 %r22, %r22, %r6;
    mov.u32 %r10, s;
    shl.b32 %r11, %r20, 2;
    add.s32 %r12, %r10, %r11;
    st.shared.u32 [%r12], %r20;
    add.s32 %r13, %r20, 1;
    rem.u32 %r13, %r13, %r22;
    shl.b32 %r13, %r13, 2;
    add.s32 %r13, %r10, %r13;
    bar.sync 0;
    mov.u32 %r31, 0;
    setp.eq.s32 %p1, %r30, 0;
    @%p1 bra DONE;
LOOP:
    ld.shared.u32 %r14, [%r13];
    bar.sync 0;
    add.s32 %r14, %r14, 1;
    st.shared.u32 [%r12], %r14;
    bar.sync 0;
    add.s32 %r31, %r31, 1;
    setp.lt.u32 %p2, %r31, %r30;
    @%p2 bra LOOP;
DONE:
    ld.shared.u32 %r15, [%r12];
    mul.wide.u32 %rd2, %r21, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r15;
    ret;
}

// Shared-memory rows addressed through lane-affine registers (lane l at the
// first lane's address + 4 l: one run, decided at decode): stores by all lanes
// and by every other lane (a divergent branch), loads with an immediate
// offset and with a uniform one added. out[g] = s[t + 2] + 1000 s[t + off] +
// 1000000 s[t] at the end, s[t] = 7 t + 1 first (0 past the block), + 100
// for even t.
.visible .entry shared_run(.param .u64 out, .param .u32 off)
{
REGS
    .shared .align 4 .b8 s[1024];
OUTPTR
    ld.param.u32 %r30, [off];
PROLOGUE
    mov.u32 %r10, s;
    mov.u32 %r24, %r1;
ZERO:
    shl.b32 %r25, %r24, 2;
    add.s32 %r25, %r10, %r25;
    st.shared.u32 [%r25], 0;
    add.s32 %r24, %r24, %r4;
    setp.lt.u32 %p2, %r24, 256;
    @%p2 bra ZERO;
    bar.sync 0;
    shl.b32 %r11, %r1, 2;
    add.s32 %r12, %r10, %r11;
    mad.lo.s32 %r13, %r1, 7, 1;
    st.shared.u32 [%r12], %r13;
    bar.sync 0;
    ld.shared.u32 %r14, [%r12+8];
    shl.b32 %r15, %r30, 2;
    add.s32 %r16, %r12, %r15;
    ld.shared.u32 %r17, [%r16];
    bar.sync 0;
    and.b32 %r18, %r1, 1;
    setp.eq.s32 %p1, %r18, 1;
    @%p1 bra SKIP;
    add.s32 %r19, %r13, 100;
    st.shared.u32 [%r12], %r19;
SKIP:
    bar.sync 0;
    ld.shared.u32 %r20, [%r12];
    mad.lo.s32 %r23, %r17, 1000, %r14;
    mad.lo.s32 %r23, %r20, 1000000, %r23;
    mul.wide.u32 %rd2, %r21, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r23;
    ret;
}
""".replace("PROLOGUE\n", PROLOGUE).replace("REGS\n", REGS).replace("OUTPTR\n", OUTPTR)

# name, kernel, grid, block, out words, scalar args
CMP_RUNS = [
    ("b40", "0", "40", "2", "64"),
    ("b40_48", "0", "40", "2", "48"),
    ("b40_2d16", "0", "40", "2", "16,4"),
    ("b40_2d32", "0", "40", "2", "32,3"),
    ("b5_3d", "0", "5", "1", "8,4,2"),
    ("s32wrap", "0x7FFFFFF0", "0x7FFFFFF8", "2", "64"),
    ("s32edge", "0x7FFFFFE0", "0x7FFFFFFF", "1", "32"),
    ("s32edge1", "0x7FFFFFE1", "0x7FFFFFF0", "1", "32"),
    ("u32wrap", "0xFFFFFFF0", "5", "2", "64"),
    ("u32edge", "0xFFFFFFE0", "0xFFFFFFFF", "1", "32"),
    ("neg", "0xFFFFFF9C", "0xFFFFFFB0", "2", "64"),
    ("negsign", "0xFFFFFFF0", "0", "1", "64"),
    ("far_lo", "1000", "3", "1", "64"),
    ("far_hi", "3", "100000", "1", "64"),
    ("eq_each", "0", "31", "1", "64"),
]


def threads(block):
    n = 1
    for x in block.split(","):
        n *= int(x)
    return n


def main():
    text = HEAD
    for name, src in (("cmp_tid", "tid"), ("cmp_lane", "lane"), ("cmp_stride2", "stride2")):
        text += "\n" + cmp_kernel(name, src)
    text += OTHERS
    with open(os.path.join(HERE, "affine.ptx"), "w") as f:
        f.write(text)
    runs = ["# runs.txt -- written by gen.py: lane-affine comparisons and barrier releases",
            "# (affine.ptx). Outputs recorded on an H100 in expected/."]
    for kern in ("cmp_tid", "cmp_lane", "cmp_stride2"):
        for tag, off, b, grid, block in CMP_RUNS:
            if kern != "cmp_tid" and tag not in ("b40", "b40_2d16", "s32wrap", "u32wrap", "neg", "eq_each"):
                continue
            n = 2 * int(grid) * threads(block)
            name = f"{kern}_{tag}"
            runs.append(f"{name}: affine.ptx --kernel {kern} --grid {grid} --block {block} "
                        f"out:u32:{n}>OUT/{name}.bin u32:{off} u32:{b}")
    for tag, grid, block, b in (("64", "2", "64", "40"), ("2d16", "2", "16,4", "9"), ("48", "2", "48", "45")):
        n = int(grid) * threads(block)
        runs.append(f"not_affine_{tag}: affine.ptx --kernel not_affine --grid {grid} --block {block} "
                    f"out:u32:{n}>OUT/not_affine_{tag}.bin u32:{b}")
    for tag, block, off in (("64", "64", "5"), ("48", "48", "40"), ("96", "96", "100")):
        n = 2 * threads(block)
        runs.append(f"shared_run_{tag}: affine.ptx --kernel shared_run --grid 2 --block {block} "
                    f"out:u32:{n}>OUT/shared_run_{tag}.bin u32:{off}")
    runs.append("exit_then_cmp: affine.ptx --kernel exit_then_cmp --grid 3 --block 64 out:u32:192>OUT/exit_then_cmp.bin u32:70")
    runs.append("grid_stride: affine.ptx --kernel grid_stride --grid 3 --block 64 out:u32:1000>OUT/grid_stride.bin u32:997")
    runs.append("bar_counts: affine.ptx --kernel bar_counts --grid 2 --block 128 out:u32:256>OUT/bar_counts.bin")
    runs.append("bar_rounds: affine.ptx --kernel bar_rounds --grid 6 --block 96 out:u32:576>OUT/bar_rounds.bin u32:40001")
    runs.append("bar_rounds_1w: affine.ptx --kernel bar_rounds --grid 3 --block 32 out:u32:96>OUT/bar_rounds_1w.bin u32:70001")
    with open(os.path.join(HERE, "runs.txt"), "w") as f:
        f.write("\n".join(runs) + "\n")


if __name__ == "__main__":
    main()
