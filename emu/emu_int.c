/* emu_int.c -- placeholder until implemented. */
typedef int emu_int_placeholder_;
