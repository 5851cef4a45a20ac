/* emu_decode.c -- placeholder until implemented. */
typedef int emu_decode_placeholder_;
