# runtime/ -- libcudart.so.13 stand-in (see issue 4): nvcc programs built with
# --cudart shared load it instead of NVIDIA's runtime (loom exec arranges that).

# The fatbinary reader and the PTX device linker: pure code, also linked by the unit tests.
noinst_LTLIBRARIES += runtime/librtfatbin.la
runtime_librtfatbin_la_SOURCES = %D%/rt_fatbin.c %D%/rt_fatbin.h %D%/rt_link.c %D%/rt_link.h
runtime_librtfatbin_la_CFLAGS = $(AM_CFLAGS) -fPIC $(ZSTD_CFLAGS) $(LZ4_CFLAGS)
runtime_librtfatbin_la_LIBADD = $(ZSTD_LIBS) $(LZ4_LIBS)

# Installed in $(pkglibdir) so that it never shadows a real CUDA runtime;
# -version-info 13:0:0 makes libtool name it libcudart.so.13.0.0 with soname libcudart.so.13.
pkglib_LTLIBRARIES += runtime/libcudart.la
runtime_libcudart_la_SOURCES = %D%/rt_cuda.h %D%/rt_internal.h %D%/rt_state.c %D%/rt_register.c \
	%D%/rt_launch.c %D%/rt_memory.c %D%/rt_texture.c %D%/rt_stream.c %D%/rt_device.c %D%/rt_unsupported.c
runtime_libcudart_la_CFLAGS = $(AM_CFLAGS) -pthread
runtime_libcudart_la_LIBADD = runtime/librtfatbin.la libloom.la -lpthread
runtime_libcudart_la_LDFLAGS = $(AM_LDFLAGS) -version-info 13:0:0 \
	-Wl,--version-script=$(srcdir)/%D%/libcudart.map
EXTRA_runtime_libcudart_la_DEPENDENCIES = $(srcdir)/%D%/libcudart.map
EXTRA_DIST += %D%/libcudart.map %D%/rt_errors.def %D%/rt_unsupported.def

# `loom exec` (cli/loom_cmd_exec.c) finds the stand-in through these paths, known only to
# make; its source joins the loom program here.
loom_SOURCES += cli/loom_cmd_exec.c
loom_CPPFLAGS = $(AM_CPPFLAGS) -DLOOM_PKGLIBDIR='"$(pkglibdir)"' -DLOOM_LIBDIR='"$(libdir)"' \
	-DLOOM_BUILDDIR='"$(abs_top_builddir)"'
