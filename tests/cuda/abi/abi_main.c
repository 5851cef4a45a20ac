/* abi_main.c -- compares the two builds of abi_side.c and checks that every prototype
 * of runtime/rt_cuda.h agrees with NVIDIA's declaration (a compile-time check). */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#define RT_CUDA_TYPES_FROM_CUDA
#include "runtime/rt_cuda.h"

const long long *abi_table_nvidia(void);
const long long *abi_table_loom(void);

static const char *const names[] = {
#define ABI_SIZE(t) "sizeof(" #t ")",
#define ABI_FIELD(t, f) "offsetof(" #t ", " #f ")", "sizeof(" #t "." #f ")",
#define ABI_CONST(c) #c,
#include "abi_layout.def"
#define RT_ERROR(value, name, message) ABI_CONST(name)
#include "runtime/rt_errors.def"
};

int main(void)
{
    const long long *a = abi_table_nvidia(), *b = abi_table_loom();
    size_t n = sizeof names / sizeof names[0], bad = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            printf("FAIL %s: NVIDIA %lld, Loom %lld\n", names[i], a[i], b[i]);
            bad++;
        }
    printf("%s: %zu checks, %zu mismatches\n", bad ? "FAIL" : "PASS", n, bad);
    return bad ? 1 : 0;
}
