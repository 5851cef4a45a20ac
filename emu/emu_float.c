/* emu_float.c -- placeholder until implemented. */
typedef int emu_float_placeholder_;
