/* emu_exec.c -- placeholder until implemented. */
typedef int emu_exec_placeholder_;
