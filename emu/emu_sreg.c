/* emu_sreg.c -- placeholder until implemented. */
typedef int emu_sreg_placeholder_;
