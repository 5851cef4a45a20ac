/* loom_cli_obs.c -- what `loom run` and `loom exec` share for showing a run: the list of
 * SIMT policies of --simt A,B,..., the statistics' JSON of several runs as one document,
 * and the output files, made before anything runs. */
#define _GNU_SOURCE   /* memmem */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_cli.h"
#include "loom/loom.h"

bool loom_cli_split_simt(const char *spec, char **out, unsigned max, unsigned *n, char *why, size_t size)
{
    *n = 0;
    const char *p = spec;
    while (*p) {
        /* A policy's options are KEY=VALUE items, so an item without '=' starts the next. */
        const char *end = p;
        for (;;) {
            const char *c = strchr(end, ',');
            if (!c) { end += strlen(end); break; }
            const char *next = c + 1, *nc = strchr(next, ',');
            size_t len = nc ? (size_t)(nc - next) : strlen(next);
            if (!memchr(next, '=', len)) { end = c; break; }
            end = nc ? nc : next + len;
            if (!nc) break;
        }
        if (*n == max) {
            snprintf(why, size, "--simt: at most %u policies", max);
            goto fail;
        }
        char *one = strndup(p, (size_t)(end - p));
        if (!one || !*one) {
            snprintf(why, size, "--simt: an empty policy name in '%s'", spec);
            free(one);
            goto fail;
        }
        if (loom_simt_check(one, why, size) != LOOM_OK) {
            free(one);
            goto fail;
        }
        out[(*n)++] = one;
        p = *end ? end + 1 : end;
    }
    if (*n) return true;
    snprintf(why, size, "--simt needs a policy");
fail:
    while (*n) free(out[--*n]);
    return false;
}

FILE *loom_cli_create(const char *path, const char *what, char *why, size_t size)
{
    FILE *f = fopen(path, "w");
    if (!f) snprintf(why, size, "cannot write the %s to '%s': %s", what, path, strerror(errno));
    return f;
}

/* The run objects of a document that loom_stats_write_json wrote: what lies between its
 * "runs" bracket and the closing one. */
static bool runs_of(const char *doc, size_t len, const char **from, size_t *n)
{
    static const char open[] = "\"runs\": [\n", close[] = "\n ]\n}\n";
    const char *a = doc ? memmem(doc, len, open, sizeof open - 1) : NULL;
    size_t cl = sizeof close - 1;
    if (!a || len < cl || memcmp(doc + len - cl, close, cl) != 0) return false;
    *from = a + sizeof open - 1;
    *n = (size_t)(doc + len - cl - *from);
    return (size_t)(*from - doc) <= len - cl;
}

/* The "device" of a document (len bytes), copied into buf. */
static void device_of(const char *doc, size_t len, char *buf, size_t size)
{
    static const char key[] = "\"device\": \"";
    const char *d = doc ? memmem(doc, len, key, sizeof key - 1) : NULL;
    buf[0] = 0;
    if (!d) return;
    d += sizeof key - 1;
    const char *e = memchr(d, '"', (size_t)(doc + len - d));
    if (e) snprintf(buf, size, "%.*s", (int)(e - d), d);
}

bool loom_cli_merge_stats(FILE *out, char *const *docs, const size_t *lens, unsigned n, const char *program,
                          const char *simt)
{
    char device[256] = "";
    for (unsigned k = 0; k < n && !device[0]; k++) device_of(docs[k], lens[k], device, sizeof device);
    loom_stats_json_begin(out, program, device, simt);
    bool first = true;
    for (unsigned k = 0; k < n; k++) {
        const char *from;
        size_t len;
        if (!runs_of(docs[k], lens[k], &from, &len)) continue;   /* (a run that wrote none) */
        if (!first) fputs(",\n", out);
        fwrite(from, 1, len, out);
        first = false;
    }
    fputs("\n ]\n}\n", out);
    return !ferror(out);
}
