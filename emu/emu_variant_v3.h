/* emu_variant_v3.h -- forced-included (-include) into the x86-64-v3 copy of the
 * instruction-family files: renames every symbol they export, so both copies link. */
#ifndef LOOM_EMU_VARIANT_V3_H
#define LOOM_EMU_VARIANT_V3_H

#define emu_sel_ctrl emu_sel_ctrl_v3
#define emu_sel_mem emu_sel_mem_v3
#define emu_sel_int emu_sel_int_v3
#define emu_sel_bits emu_sel_bits_v3
#define emu_sel_cmp emu_sel_cmp_v3
#define emu_sel_float emu_sel_float_v3
#define emu_sel_half emu_sel_half_v3
#define emu_sel_cvt emu_sel_cvt_v3
#define emu_sel_atom emu_sel_atom_v3
#define emu_sel_warp emu_sel_warp_v3
#define emu_sel_video emu_sel_video_v3
#define emu_mem_ptr emu_mem_ptr_v3
#define emu_mem_direct emu_mem_direct_v3
#define emu_h_implicit_ret emu_h_implicit_ret_v3
#define emu_setp_fused emu_setp_fused_v3
#define emu_setp_fused3 emu_setp_fused3_v3
#define emu_warp_joint emu_warp_joint_v3

#endif
