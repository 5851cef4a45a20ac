/* abi_side.c -- compiled twice: against NVIDIA's headers (ABI_NVIDIA) and against
 * runtime/rt_cuda.h; each build lists the sizes, offsets and constants of abi_layout.def. */
#include <stddef.h>
#ifdef ABI_NVIDIA
#include <cuda_runtime_api.h>
#define ABI_TABLE abi_table_nvidia
#else
#include "runtime/rt_cuda.h"
#define ABI_TABLE abi_table_loom
#endif

const long long *ABI_TABLE(void);

const long long *ABI_TABLE(void)
{
    static const long long table[] = {
#define ABI_SIZE(t) (long long)sizeof(t),
#define ABI_FIELD(t, f) (long long)offsetof(t, f), (long long)sizeof(((t *)0)->f),
#define ABI_CONST(c) (long long)(c),
#include "abi_layout.def"
#define RT_ERROR(value, name, message) ABI_CONST(name)
#include "runtime/rt_errors.def"
        -1,
    };
    return table;
}
