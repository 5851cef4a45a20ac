/* loom_dap_json.h -- the JSON that `loom dap` reads: a parser into a small tree, and the
 * look-ups the protocol needs (a member by key, typed). Writing goes through observe/json.h. */
#ifndef LOOM_DAP_JSON_H
#define LOOM_DAP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dap_json_type { DAP_JSON_NULL, DAP_JSON_BOOL, DAP_JSON_NUMBER, DAP_JSON_STRING, DAP_JSON_ARRAY,
                     DAP_JSON_OBJECT };

struct dap_json {
    enum dap_json_type type;
    bool boolean;
    double number;
    char *string;              /* STRING: decoded (UTF-8, NUL-terminated; an embedded NUL ends it) */
    size_t count;              /* ARRAY, OBJECT: items */
    struct dap_json *items;    /* ARRAY, OBJECT */
    char **keys;               /* OBJECT: keys[i] names items[i] */
};

/* Parses len bytes of text as one JSON value (surrounding white space allowed). NULL with
 * "offset N: what" in why when it is not JSON (or nests deeper than 64). */
struct dap_json *dap_json_parse(const char *text, size_t len, char *why, size_t whylen);
void dap_json_free(struct dap_json *v);

/* obj's member key (NULL when obj is no object or has none). */
const struct dap_json *dap_json_get(const struct dap_json *obj, const char *key);
/* The member as a string / integer / boolean: NULL / false when absent or of another type
 * (an integer must be a whole number). */
const char *dap_json_str(const struct dap_json *obj, const char *key);
bool dap_json_int(const struct dap_json *obj, const char *key, int64_t *out);
bool dap_json_bool(const struct dap_json *obj, const char *key, bool dflt);

#endif
