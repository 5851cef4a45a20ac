/* ptx_input.c -- reading PTX text from a file or a pipe, in bounded chunks, up to
 * PTX_MAX_INPUT_BYTES (so that /dev/zero or an endless pipe cannot take all memory). */
#include <stdlib.h>
#include <sys/stat.h>

#include "ptx/ptx_ir.h"

/* A regular file is judged by its size before any read; anything else (a pipe, a
 * device such as /dev/zero) is read until one byte past the limit at most. */
char *ptx_read_stream(FILE *f, size_t *out_len, bool *out_too_big)
{
    struct stat st;
    *out_len = 0;
    *out_too_big = false;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > PTX_MAX_INPUT_BYTES) {
        *out_too_big = true;
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) {
            if (!ferror(f))
                break;
            free(buf);
            return NULL;
        }
        if (len > PTX_MAX_INPUT_BYTES) {
            *out_too_big = true;
            free(buf);
            return NULL;
        }
        cap = cap > PTX_MAX_INPUT_BYTES / 2 ? PTX_MAX_INPUT_BYTES + 1 : cap * 2;
        char *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    *out_len = len;
    return buf;
}
