/* emu_mem.c -- placeholder until implemented. */
typedef int emu_mem_placeholder_;
