/* emu_half.c -- f16, f16x2, bf16 and bf16x2 arithmetic (in progress: nothing selected yet).
 * Values live in the low 16 bits (scalar) or all 32 bits (packed pairs) of r32 rows. */
#include "emu/emu.h"

/* Family selector: refuses the half-precision forms until they are implemented. */
enum emu_sel emu_sel_half(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    (void)out;
    if (pi->ntypes < 1)
        return EMU_SEL_NO;
    switch (pi->types[0]) {
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
        break;
    default:
        return EMU_SEL_NO;
    }
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_NEG:
    case PTX_OP_ABS: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_EX2: case PTX_OP_TANH:
        return emu_dec_unsupported(dc, "half-precision arithmetic is not implemented yet");
    default:
        return EMU_SEL_NO;
    }
}
