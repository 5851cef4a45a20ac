#!/usr/bin/env python3
"""tl_dot.py -- compiles a Triton tl.dot matmul to PTX for sm_80 (mma.sync + ldmatrix, and with
num_stages 3 cp.async: what Triton emits before Hopper) without a GPU, and writes its fp16 inputs. The PTX and inputs are
committed; rerun with Triton from PyPI (3.x) installed: python3 tl_dot.py"""
import random
import struct

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def main():
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    src = triton.compiler.ASTSource(fn=matmul, signature=sig, constexprs={"BM": 64, "BN": 64, "BK": 32},
                                    attrs={(i,): [["tt.divisibility", 16]] for i in range(6)})
    # num_stages 1: plain loads into shared memory; 3: the cp.async software pipeline
    for name, stages in (("tl_dot.ptx", 1), ("pipe/tl_dot_pipe.ptx", 3)):
        k = triton.compile(src, target=GPUTarget("cuda", 80, 32), options={"num_warps": 4, "num_stages": stages})
        print(name, "shared bytes:", k.metadata.shared)
        with open(name, "w") as f:
            f.write(k.asm["ptx"])
    # fp16 inputs: A (128 x 64) and B (64 x 128), exponents from 2^-8 to 2^7 so the f32 sums round
    rnd = random.Random(15)

    def half():
        return struct.pack("<e", rnd.choice((-1, 1)) * rnd.uniform(1, 2) * 2.0 ** rnd.randint(-8, 7))
    for name, n in (("a.bin", 128 * 64), ("b.bin", 64 * 128)):
        with open(name, "wb") as f:
            f.write(b"".join(half() for _ in range(n)))


if __name__ == "__main__":
    main()
