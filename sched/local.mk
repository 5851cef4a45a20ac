# sched/ -- devices, streams, the worker pool; implements the public API (include/loom/).
lib_LTLIBRARIES += libloom.la
loomincludedir = $(includedir)/loom
loominclude_HEADERS = include/loom/loom.h include/loom/debug.h include/loom/hints.h
libloom_la_SOURCES = %D%/sched.h %D%/loom_api.c %D%/loom_stats.c %D%/loom_tex.c %D%/sched_pool.c %D%/sched_policy.c %D%/sched_vtrace.c %D%/sched_watch.c
libloom_la_LIBADD = libloomemu.la libloommem.la libloomptx.la $(HWLOC_LIBS) $(FFI_LIBS) $(OPENMP_CFLAGS) -lm
libloom_la_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(FFI_CFLAGS)
libloom_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0
libloom_la_SOURCES += %D%/sched_preset.h %D%/sched_preset.c %D%/sched_cpus.h %D%/sched_cpus.c
# The virtual-time schedule simulator (issue 19, docs/SCHEDULING.md "Virtual time")
libloom_la_SOURCES += %D%/sched_vtime.h %D%/sched_vtime.c
