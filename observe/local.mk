# observe/ -- observers of a device's work: the Chrome trace recorder (--trace), part of libloom.
libloom_la_SOURCES += %D%/trace.h %D%/trace.c
