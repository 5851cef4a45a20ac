/* emu_bits.c -- placeholder until implemented. */
typedef int emu_bits_placeholder_;
