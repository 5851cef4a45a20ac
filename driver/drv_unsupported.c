/* drv_unsupported.c -- one stub per entry point of NVIDIA's libcuda.so.1 that Loom does not
 * implement, so that every program linked against it loads; a call returns
 * CUDA_ERROR_NOT_SUPPORTED and names itself under LOOM_LOG. */
#include "driver/drv_internal.h"

/* The stubs take no parameters: on the x86-64 and AArch64 C calling conventions a caller's
 * arguments are simply ignored, and every such function returns a CUresult (an int). */
#define DRV_UNSUPPORTED(name)                                                                      \
    CUresult name(void);                                                                           \
    CUresult name(void) { return drv_unsupported(#name); }
#include "driver/drv_unsupported.def"
#undef DRV_UNSUPPORTED
