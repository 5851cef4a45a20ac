# emu/ -- the warp interpreter: decoder, dispatch loop, SIMT, instruction families.
noinst_LTLIBRARIES += libloomemu.la
libloomemu_la_SOURCES = \
	%D%/emu.h %D%/emu_internal.h %D%/emu_lanes.h %D%/emu_decode.c %D%/emu_exec.c %D%/emu_exec.h \
	%D%/emu_int.c %D%/emu_bits.c %D%/emu_float.c %D%/emu_half.c %D%/emu_cvt.c %D%/emu_cmp.c \
	%D%/emu_mem.c %D%/emu_atom.c %D%/emu_warp.c %D%/emu_ctrl.c %D%/emu_sreg.c %D%/emu_host.c \
	%D%/emu_video.c %D%/emu_tex.c %D%/emu_report.c %D%/emu_report.h %D%/emu_codegen.c \
	%D%/emu_mma.c %D%/emu_mma.h %D%/emu_mma_arith.c %D%/emu_async.c

# SIMT policies: the interface, PDOM's stack, the thread engine and its policies.
libloomemu_la_SOURCES += \
	%D%/simt/emu_simt.h %D%/simt/pdom.c %D%/simt/policy.c %D%/simt/steps.h %D%/simt/steps.c \
	%D%/simt/frontier.c %D%/simt/its.c %D%/simt/dwf.c %D%/simt/interweave.c
libloomemu_la_CFLAGS = $(AM_CFLAGS) $(EMU_OPT_CFLAGS)

# The instruction families once more for x86-64-v3 (AVX2, FMA, BMI2), their
# exported names renamed by emu_variant_v3.h; the decoder picks the copy the
# CPU runs (emu_decode.c). -ffp-contract=off: a*b+c must stay two roundings.
if EMU_V3
noinst_LTLIBRARIES += libloomemu_v3.la
libloomemu_v3_la_SOURCES = %D%/emu_variant_v3.h \
	%D%/emu_int.c %D%/emu_bits.c %D%/emu_float.c %D%/emu_half.c %D%/emu_cvt.c %D%/emu_cmp.c \
	%D%/emu_mem.c %D%/emu_atom.c %D%/emu_warp.c %D%/emu_ctrl.c %D%/emu_video.c
libloomemu_v3_la_CFLAGS = $(AM_CFLAGS) $(EMU_OPT_CFLAGS) $(EMU_V3_CFLAGS) -include $(top_srcdir)/%D%/emu_variant_v3.h
libloomemu_la_LIBADD = libloomemu_v3.la
endif

# Optional deeper checks (initcheck, racecheck): shadow state outside the handlers.
libloomemu_la_SOURCES += %D%/emu_check.c %D%/emu_check.h %D%/emu_obs.c %D%/emu_obs.h
