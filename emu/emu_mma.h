/* emu_mma.h -- the tensor-core family shared by emu_mma.c (decoding, fragments, handlers)
 * and emu_mma_arith.c (the arithmetic of one dot product as the H100 computes it). */
#ifndef LOOM_EMU_MMA_H
#define LOOM_EMU_MMA_H

#include <stdint.h>

/* Element formats of the multiplicands and accumulators. */
enum emu_mma_fmt {
    EMU_MMA_F16, EMU_MMA_BF16, EMU_MMA_TF32, EMU_MMA_F32, EMU_MMA_F64,
    EMU_MMA_S8, EMU_MMA_U8, EMU_MMA_S4, EMU_MMA_U4, EMU_MMA_B1, EMU_MMA_S32,
};

/* The longest floating-point dot product of one mma (m16n8k16 f16/bf16). */
#define EMU_MMA_MAXDOT 16

/* d = c + sum of n products a[i] * b[i] (n <= EMU_MMA_MAXDOT) of floating-point elements in
 * format ab (their bits, zero-extended), with c and the result in format cd (EMU_MMA_F32 or
 * EMU_MMA_F16), as the H100's tensor cores compute it (docs/INTERNALS.md, "Tensor cores"). */
uint32_t emu_mma_dot(enum emu_mma_fmt ab, enum emu_mma_fmt cd, unsigned n, const uint32_t *a, const uint32_t *b,
                     uint32_t c);
/* d = c + sum of the 4 products of f16 elements of mma.m8n8k4 .f16, with c and d in
 * format cd (EMU_MMA_F32 or EMU_MMA_F16): f32 fmas in k order (emu_mma_arith.c). */
uint32_t emu_mma_dot_qp(enum emu_mma_fmt cd, const uint32_t *a, const uint32_t *b, uint32_t c);
/* d = c + sum of n products of f64 elements (mma .f64): fused multiply-adds in k order. */
uint64_t emu_mma_dot_f64(unsigned n, const uint64_t *a, const uint64_t *b, uint64_t c);

#endif
