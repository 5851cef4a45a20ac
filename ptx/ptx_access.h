/* ptx_access.h -- how a kernel reaches global memory through each pointer parameter: a
 * static, conservative analysis of an entry's PTX for the concurrent-kernel schedulers.
 * A launch touches, in the allocation each parameter's value falls in, at most
 * ptx_access_param_mode of that parameter; the module's variables when `globals` is
 * nonzero; and any memory when `other` is. */
#ifndef LOOM_PTX_ACCESS_H
#define LOOM_PTX_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx/ptx_ir.h"

/* Access bits; PTX_ACCESS_READ | PTX_ACCESS_WRITE (3) = read and write. */
enum { PTX_ACCESS_READ = 1, PTX_ACCESS_WRITE = 2, PTX_ACCESS_RW = 3 };

struct ptx_param_access {
    unsigned mode;   /* PTX_ACCESS_* of global/generic accesses through addresses derived from
                      * the parameter's value */
    bool escapes;    /* the value (or one derived from it) is stored to memory, its address
                      * taken, or passed to a callee the analysis cannot follow: anything may
                      * happen through it (ptx_access_param_mode counts it as read-write) */
};

struct ptx_kernel_access {
    unsigned nparams;                /* the entry's .param count, in declaration order */
    struct ptx_param_access *params; /* malloc'd (NULL when nparams is 0) */
    unsigned globals;                /* on module-scope .global/.const variables, by symbol */
    unsigned other;                  /* through addresses derived from none of the above:
                                      * pointers loaded from memory, absolute or unknown generic
                                      * addresses, surfaces, textures, tensor maps, callees
                                      * the analysis cannot follow */
};

/* Analyses the entry `entry` of m (parsed; ptx_check need not have run) into *out, which the
 * caller frees with ptx_access_free. Over-approximates: an access the analysis cannot place
 * lands in `other`, never nowhere. Returns 0, or -1 with a one-line reason in err (not an
 * entry, a declaration only, out of memory) and *out zeroed. */
int ptx_access_analyze(const struct ptx_module *m, const struct ptx_func *entry, struct ptx_kernel_access *out,
                       char *err, size_t errlen);
void ptx_access_free(struct ptx_kernel_access *a);

/* "none", "read", "write", "read-write" for a mode's two bits. */
const char *ptx_access_mode_name(unsigned mode);

/* What a scheduler must assume of one parameter: its mode, read-write when it escapes. */
unsigned ptx_access_param_mode(const struct ptx_param_access *p);

/* Writes one line of a's findings for entry (which it was made from) into out (size bytes,
 * NUL included, truncated to fit): each parameter by its name less the "<entry>_" prefix,
 * "x read, y read-write escapes, n (value)" (no access and no escape: a value), then
 * "; globals MODE" and "; other MODE" when nonzero. `loom check --verbose` prints it. */
void ptx_access_describe(const struct ptx_func *entry, const struct ptx_kernel_access *a, char *out, size_t size);

#endif
