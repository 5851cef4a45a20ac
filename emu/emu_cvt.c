/* emu_cvt.c -- cvt and cvt.pack (in progress: nothing selected yet).
 * Conversions between integer and floating-point types with rounding and saturation. */
#include "emu/emu.h"

/* Family selector: refuses cvt until it is implemented. */
enum emu_sel emu_sel_cvt(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    (void)out;
    if (pi->op != PTX_OP_CVT)
        return EMU_SEL_NO;
    return emu_dec_unsupported(dc, "cvt is not implemented yet");
}
