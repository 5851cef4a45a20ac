/* emu_ctrl.c -- placeholder until implemented. */
typedef int emu_ctrl_placeholder_;
