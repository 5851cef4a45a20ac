/* emu_internal.h */
