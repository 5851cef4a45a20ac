# memory/ -- the device address space: allocations, checks, spaces.
noinst_LTLIBRARIES += libloommem.la
libloommem_la_SOURCES = %D%/mem.h %D%/mem_tex.h %D%/mem_space.c
