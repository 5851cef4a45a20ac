/* emu_host.c -- placeholder until implemented. */
typedef int emu_host_placeholder_;
