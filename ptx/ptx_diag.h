/* ptx_diag.h -- GCC-style diagnostics collected by the front end.
 * Every message is "file:line:col: error: text"; nothing aborts. */
#ifndef LOOM_PTX_DIAG_H
#define LOOM_PTX_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ptx_severity { PTX_SEV_NOTE, PTX_SEV_WARNING, PTX_SEV_ERROR };

struct ptx_diag {
    enum ptx_severity sev;
    const char *file;
    uint32_t line, col;
    char *msg;
};

struct ptx_diags {
    struct ptx_diag *v;
    size_t n, cap;
    size_t nerrors;
    size_t limit;            /* stop recording after this many errors (0 = 100) */
};

void ptx_diags_init(struct ptx_diags *d);
void ptx_diags_free(struct ptx_diags *d);
void ptx_diag_add(struct ptx_diags *d, enum ptx_severity sev, const char *file, uint32_t line,
                  uint32_t col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ptx_diag_vadd(struct ptx_diags *d, enum ptx_severity sev, const char *file, uint32_t line,
                   uint32_t col, const char *fmt, va_list ap);
/* Prints every diagnostic, one per line, in the GCC format. */
void ptx_diags_print(const struct ptx_diags *d, FILE *out);

#endif
