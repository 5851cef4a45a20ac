/* rt_unsupported.c -- one stub per runtime function Loom does not implement, so that every
 * program linked against libcudart.so.13 loads; a call says which function is missing. */
#include "runtime/rt_internal.h"

/* The stubs take no parameters: on the x86-64 and AArch64 C calling conventions
 * a caller's arguments are simply ignored, and every such function returns a
 * cudaError_t (an int) in the return register. */
#define RT_UNSUPPORTED(name)                                                                       \
    cudaError_t name(void);                                                                        \
    cudaError_t name(void) { return rt_unsupported(#name); }
#include "runtime/rt_unsupported.def"
#undef RT_UNSUPPORTED
