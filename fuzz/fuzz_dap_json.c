/* fuzz_dap_json.c -- libFuzzer harness for loom dap's JSON reader (cli/loom_dap_json.c): any
 * bytes give a tree or a one-line reason, without a crash, leak, overread or undefined
 * behaviour; a tree's look-ups stay within it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_dap_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walks v: strings are terminated, counts match, every key is found again. */
static void walk(const struct dap_json *v, unsigned depth)
{
    if (depth > 70) abort();   /* the reader refuses nesting past 64 */
    if (v->type == DAP_JSON_STRING && (!v->string || strlen(v->string) > 4 * 1024 * 1024)) abort();
    for (size_t i = 0; (v->type == DAP_JSON_ARRAY || v->type == DAP_JSON_OBJECT) && i < v->count; i++) {
        walk(&v->items[i], depth + 1);
        if (v->type == DAP_JSON_OBJECT && !dap_json_get(v, v->keys[i])) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    memset(why, 0xA5, sizeof why);
    struct dap_json *v = dap_json_parse((const char *)data, size, why, sizeof why);
    if (!v) {
        if (!memchr(why, 0, sizeof why) || strncmp(why, "offset ", 7) != 0) abort();
        return 0;
    }
    walk(v, 0);
    int64_t n;
    dap_json_int(v, "seq", &n);
    dap_json_str(v, "command");
    dap_json_bool(v, "x", false);
    dap_json_free(v);
    return 0;
}
