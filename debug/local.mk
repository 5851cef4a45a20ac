# debug/ -- the front ends of the debugging API (include/loom/debug.h), part of libloom: the
# gdb-like prompt of `loom debug` and `loom exec --debug`, with GNU readline on a terminal.
libloom_la_SOURCES += %D%/prompt.h %D%/prompt.c %D%/prompt_run.c %D%/prompt_show.c
libloom_la_LIBADD += $(READLINE_LIBS)
