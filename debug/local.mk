# debug/ -- the kernel debugger (loom/debug.h): its core, run by the device (debug.c), the
# expressions of conditions and print (expr.c).
libloom_la_SOURCES += %D%/debug.c %D%/debug_int.h %D%/expr.c %D%/expr.h
