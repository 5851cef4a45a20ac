/* ptx_diag.c -- collection and printing of GCC-style diagnostics
 * ("file:line:col: error: text"); the front end never aborts on bad input. */
#include "ptx/ptx_diag.h"

#include <stdlib.h>
#include <string.h>

void ptx_diags_init(struct ptx_diags *d)
{
    memset(d, 0, sizeof *d);
}

void ptx_diags_free(struct ptx_diags *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i].msg);
    free(d->v);
    d->v = NULL;
    d->n = d->cap = d->nerrors = 0;
}

void ptx_diag_vadd(struct ptx_diags *d, enum ptx_severity sev, const char *file, uint32_t line,
                   uint32_t col, const char *fmt, va_list ap)
{
    size_t limit = d->limit ? d->limit : 100;
    if (sev == PTX_SEV_ERROR)
        d->nerrors++;
    /* Past the limit errors are counted but not stored; one note says so. */
    if (sev == PTX_SEV_ERROR && d->nerrors > limit)
        return;
    if (d->n == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 16;
        struct ptx_diag *nv = realloc(d->v, ncap * sizeof *nv);
        if (!nv)
            return;
        d->v = nv;
        d->cap = ncap;
    }
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (len < 0)
        len = 0;
    /* The file name is copied behind the message (one block, freed with msg):
     * diagnostics outlive the module whose path they name. */
    const char *fname = file ? file : "<input>";
    size_t flen = strlen(fname);
    char *msg = malloc((size_t)len + 1 + flen + 1);
    if (!msg)
        return;
    vsnprintf(msg, (size_t)len + 1, fmt, ap);
    memcpy(msg + len + 1, fname, flen + 1);
    d->v[d->n++] = (struct ptx_diag){ sev, msg + len + 1, line, col, msg };
}

void ptx_diag_add(struct ptx_diags *d, enum ptx_severity sev, const char *file, uint32_t line,
                  uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

void ptx_diags_print(const struct ptx_diags *d, FILE *out)
{
    static const char *const sevname[] = { "note", "warning", "error" };
    for (size_t i = 0; i < d->n; i++) {
        const struct ptx_diag *g = &d->v[i];
        if (g->line)
            fprintf(out, "%s:%u:%u: %s: %s\n", g->file, g->line, g->col, sevname[g->sev], g->msg);
        else
            fprintf(out, "%s: %s: %s\n", g->file, sevname[g->sev], g->msg);
    }
    size_t limit = d->limit ? d->limit : 100;
    if (d->nerrors > limit)
        fprintf(out, "%s: note: %zu more errors not shown\n", d->n ? d->v[0].file : "<input>",
                d->nerrors - limit);
}
