/* emu_half.c -- placeholder until implemented. */
typedef int emu_half_placeholder_;
