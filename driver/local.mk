# driver/ -- libcuda.so.1 stand-in (the CUDA driver API, issue 22) over the runtime stand-in's
# device: a program using both APIs sees one device (docs/INTERNALS.md, "One device for both APIs").

# Installed in $(pkglibdir) beside libcudart so that it never shadows a real driver;
# -version-info 1:0:0 makes libtool name it libcuda.so.1.0.0 with soname libcuda.so.1.
pkglib_LTLIBRARIES += driver/libcuda.la
driver_libcuda_la_SOURCES = %D%/drv_cuda.h %D%/drv_internal.h %D%/drv_state.c %D%/drv_device.c \
	%D%/drv_module.c %D%/drv_memory.c %D%/drv_stream.c %D%/drv_link.c %D%/drv_handles.c %D%/drv_ptds.c %D%/drv_unsupported.c runtime/rt_driver.h
driver_libcuda_la_CFLAGS = $(AM_CFLAGS) -pthread
driver_libcuda_la_LIBADD = runtime/libcudart.la runtime/librtfatbin.la libloom.la -ldl -lpthread
driver_libcuda_la_LDFLAGS = $(AM_LDFLAGS) -version-info 1:0:0 \
	-Wl,--version-script=$(srcdir)/%D%/libcuda.map
EXTRA_driver_libcuda_la_DEPENDENCIES = $(srcdir)/%D%/libcuda.map
EXTRA_DIST += %D%/libcuda.map %D%/drv_attrs.def %D%/drv_errors.def %D%/drv_versions.def %D%/drv_unsupported.def
