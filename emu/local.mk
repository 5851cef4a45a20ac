# emu/ -- the warp interpreter: decoder, dispatch loop, SIMT, instruction families.
noinst_LTLIBRARIES += libloomemu.la
libloomemu_la_SOURCES = \
	%D%/emu.h %D%/emu_internal.h %D%/emu_lanes.h %D%/emu_decode.c %D%/emu_exec.c %D%/emu_exec.h \
	%D%/emu_int.c %D%/emu_bits.c %D%/emu_float.c %D%/emu_half.c %D%/emu_cvt.c %D%/emu_cmp.c \
	%D%/emu_mem.c %D%/emu_atom.c %D%/emu_warp.c %D%/emu_ctrl.c %D%/emu_sreg.c %D%/emu_host.c \
	%D%/emu_video.c %D%/emu_report.c %D%/emu_report.h
libloomemu_la_CFLAGS = $(AM_CFLAGS) $(EMU_OPT_CFLAGS)
