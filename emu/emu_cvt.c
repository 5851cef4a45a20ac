/* emu_cvt.c -- placeholder until implemented. */
typedef int emu_cvt_placeholder_;
