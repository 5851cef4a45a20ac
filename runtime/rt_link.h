/* rt_link.h -- joins the PTX texts of an -rdc program (one per translation unit)
 * into one module text: resolves .extern symbols across texts, renames clashing internals. */
#ifndef RT_LINK_H
#define RT_LINK_H

#include <stdbool.h>
#include <stddef.h>

struct rt_link_text {
    const char *text;
    size_t len;
    const char *name;   /* for messages */
    bool optional;      /* a library (the device runtime): included only when it defines
                         * a symbol that an included text declares .extern */
};

/* Links texts in[0..n) into one PTX module text (malloc'd, NUL-terminated).
 * With one included text the result is that text unchanged. Returns 0, or -1
 * with one line in err (duplicate definitions, unterminated statements). */
int rt_link_ptx(const struct rt_link_text *in, unsigned n, char **out_text, size_t *out_len,
                char *err, size_t err_len);

/* Whether text defines (not merely declares) a module-scope symbol named sym. */
bool rt_link_defines(const char *text, size_t len, const char *sym);

/* Whether texts in[0..n) leave `included` as the set rt_link_ptx would load:
 * out_included[i] says whether in[i] is part of the link. Returns 0 or -1 (err). */
int rt_link_select(const struct rt_link_text *in, unsigned n, bool *out_included, char *err, size_t err_len);

#endif
