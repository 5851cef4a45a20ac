/* emu_warp.c -- placeholder until implemented. */
typedef int emu_warp_placeholder_;
