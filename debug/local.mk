# debug/ -- the kernel debugger (loom/debug.h), part of libloom: its core, run by the device
# (debug.c), the expressions of conditions and print (expr.c), and the gdb-like prompt of
# `loom debug` and `loom exec --debug` (prompt*.c), with GNU readline on a terminal.
libloom_la_SOURCES += %D%/debug.c %D%/debug_int.h %D%/expr.c %D%/expr.h
libloom_la_SOURCES += %D%/prompt.h %D%/prompt.c %D%/prompt_run.c %D%/prompt_show.c
libloom_la_LIBADD += $(READLINE_LIBS)
