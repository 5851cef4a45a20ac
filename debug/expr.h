/* expr.h -- the debugger's expressions: conditions of breakpoints and print's
 * values (loom/debug.h gives the syntax). Parsed once into a tree, evaluated per lane. */
#ifndef LOOM_DEBUG_EXPR_H
#define LOOM_DEBUG_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A value: an integer, or a floating-point number. */
struct dbg_val {
    bool is_float;
    int64_t i;
    double f;
};

struct dbg_expr;

/* Names' values for one lane: a register (%r5 ...) or a built-in name (threadIdx.x ...).
 * Returns false with err when the name means nothing there. */
typedef bool (*dbg_lookup_fn)(void *ctx, const char *name, struct dbg_val *out, char *err, size_t errlen);

/* Parses text; NULL with a one-line reason in err (the column of the trouble). `known`
 * says whether a name can be meant at all (checked at parse time), or NULL. */
struct dbg_expr *dbg_expr_parse(const char *text, bool (*known)(void *ctx, const char *name), void *known_ctx,
                                char *err, size_t errlen);
void dbg_expr_free(struct dbg_expr *e);
bool dbg_expr_eval(const struct dbg_expr *e, dbg_lookup_fn lookup, void *ctx, struct dbg_val *out, char *err,
                   size_t errlen);

#endif
