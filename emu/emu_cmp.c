/* emu_cmp.c -- placeholder until implemented. */
typedef int emu_cmp_placeholder_;
