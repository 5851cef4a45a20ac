/* drv_check.h -- what the driver API test programs share: CK(call) stops the program with the
 * call's CUresult name when it fails, and the PTX of drv_kernels.cu read from a file. */
#ifndef DRV_CHECK_H
#define DRV_CHECK_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

static inline const char *drv_name(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "(unnamed)";
    return s;
}

#define CK(call) do { \
        CUresult ck_r_ = (call); \
        if (ck_r_ != CUDA_SUCCESS) { \
            printf("FAIL: %s = %s (line %d)\n", #call, drv_name(ck_r_), __LINE__); \
            exit(1); \
        } \
    } while (0)

#define EXPECT(cond) do { \
        if (!(cond)) { \
            printf("FAIL: %s (line %d)\n", #cond, __LINE__); \
            exit(1); \
        } \
    } while (0)

/* Reads a whole text file (the PTX); NUL terminated. */
static inline char *drv_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        printf("FAIL: cannot read %s\n", path);
        exit(1);
    }
    buf[n] = 0;
    fclose(f);
    return buf;
}

#endif
