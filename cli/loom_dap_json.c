/* loom_dap_json.c -- a JSON parser (RFC 8259) into a tree, for the Debug Adapter Protocol's
 * messages: strings decoded to UTF-8 (\u escapes and surrogate pairs), numbers as doubles. */
#include "config.h"

#include "cli/loom_dap_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct json_reader {
    const char *p, *start, *end;
    char *why;
    size_t whylen;
    bool failed;
};

static void fail(struct json_reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    int n = snprintf(r->why, r->whylen, "offset %zu: ", (size_t)(r->p - r->start));
    if (n < 0 || (size_t)n >= r->whylen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why + n, r->whylen - (size_t)n, fmt, ap);
    va_end(ap);
}

static void skip_space(struct json_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool literal(struct json_reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return false;
    r->p += n;
    return true;
}

static int hex4(struct json_reader *r)
{
    if (r->end - r->p < 4) {
        fail(r, "a \\u escape needs four hex digits");
        return -1;
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *r->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else {
            fail(r, "a \\u escape needs four hex digits");
            return -1;
        }
    }
    return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string after its opening quote; the decoded text never outgrows the encoded one. */
static char *read_string(struct json_reader *r)
{
    const char *q = r->p;
    while (q < r->end && *q != '"')
        q += *q == '\\' && q + 1 < r->end ? 2 : 1;
    char *out = malloc((size_t)(q - r->p) + 1), *o = out;
    if (!out) {
        fail(r, "out of memory");
        return NULL;
    }
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p++;
        if (c < 0x20) {
            r->p--;
            fail(r, "a control character inside a string");
            break;
        }
        if (c != '\\') {
            *o++ = (char)c;
            continue;
        }
        if (r->p >= r->end) break;
        char e = *r->p++;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            int cp = hex4(r);
            if (cp < 0) break;
            /* a high surrogate and its low one make one code point; a lone one becomes U+FFFD */
            if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
                const char *back = r->p;
                r->p += 2;
                int lo = hex4(r);
                if (lo >= 0xdc00 && lo < 0xe000)
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                else
                    r->p = back, cp = 0xfffd;
            } else if (cp >= 0xd800 && cp < 0xe000) {
                cp = 0xfffd;
            }
            o += put_utf8(o, (unsigned)cp);
            break;
        }
        default:
            r->p--;
            fail(r, "unknown escape '\\%c' in a string", e);
        }
        if (r->failed) break;
    }
    *o = 0;
    if (!r->failed && r->p >= r->end)
        fail(r, "a string without its closing quote");
    if (r->failed) {
        free(out);
        return NULL;
    }
    r->p++;
    return out;
}

static bool read_number(struct json_reader *r, double *out)
{
    const char *s = r->p;
    if (r->p < r->end && *r->p == '-') r->p++;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9')
        return false;
    if (*r->p == '0') r->p++;
    else while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    if (r->p < r->end && *r->p == '.') {
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return false;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return false;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    }
    char buf[64];
    size_t n = (size_t)(r->p - s);
    if (n >= sizeof buf) {
        *out = strtod(s, NULL);   /* (a long number: the text after it is JSON, not digits) */
        return true;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    return true;
}

static bool read_value(struct json_reader *r, struct dap_json *v, unsigned depth);

/* The items of an array or object after its opening bracket, up to the closing one. */
static bool read_items(struct json_reader *r, struct dap_json *v, bool object, unsigned depth)
{
    size_t cap = 0;
    char close = object ? '}' : ']';
    skip_space(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return true;
    }
    for (;;) {
        if (v->count == cap) {
            cap = cap ? 2 * cap : 4;
            struct dap_json *items = realloc(v->items, cap * sizeof *items);
            char **keys = object ? realloc(v->keys, cap * sizeof *keys) : NULL;
            if (items) v->items = items;
            if (keys) v->keys = keys;
            if (!items || (object && !keys)) {
                fail(r, "out of memory");
                return false;
            }
        }
        skip_space(r);
        if (object) {
            if (r->p >= r->end || *r->p != '"') {
                fail(r, "a key (a string) expected in an object");
                return false;
            }
            r->p++;
            char *key = read_string(r);
            if (!key) return false;
            skip_space(r);
            if (r->p >= r->end || *r->p != ':') {
                free(key);
                fail(r, "':' expected after a key");
                return false;
            }
            r->p++;
            v->keys[v->count] = key;
        }
        memset(&v->items[v->count], 0, sizeof v->items[0]);
        v->count++;
        if (!read_value(r, &v->items[v->count - 1], depth + 1))
            return false;
        skip_space(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return true;
        }
        fail(r, "',' or '%c' expected", close);
        return false;
    }
}

static bool read_value(struct json_reader *r, struct dap_json *v, unsigned depth)
{
    if (depth > JSON_MAX_DEPTH) {
        fail(r, "nested deeper than %d", JSON_MAX_DEPTH);
        return false;
    }
    skip_space(r);
    if (r->p >= r->end) {
        fail(r, "a value expected, the text ended");
        return false;
    }
    switch (*r->p) {
    case '{':
    case '[':
        v->type = *r->p == '{' ? DAP_JSON_OBJECT : DAP_JSON_ARRAY;
        r->p++;
        return read_items(r, v, v->type == DAP_JSON_OBJECT, depth);
    case '"':
        r->p++;
        v->type = DAP_JSON_STRING;
        return (v->string = read_string(r)) != NULL;
    default:
        break;
    }
    if (literal(r, "true") || literal(r, "false")) {
        v->type = DAP_JSON_BOOL;
        v->boolean = r->p[-1] == 'e' && r->p[-2] == 'u';
        return true;
    }
    if (literal(r, "null")) {
        v->type = DAP_JSON_NULL;
        return true;
    }
    v->type = DAP_JSON_NUMBER;
    if (read_number(r, &v->number))
        return true;
    fail(r, "a value expected");
    return false;
}

static void free_items(struct dap_json *v)
{
    for (size_t i = 0; i < v->count; i++) {
        free_items(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

struct dap_json *dap_json_parse(const char *text, size_t len, char *why, size_t whylen)
{
    struct json_reader r = { .p = text, .start = text, .end = text + len, .why = why, .whylen = whylen };
    struct dap_json *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    if (read_value(&r, v, 0)) {
        skip_space(&r);
        if (r.p < r.end)
            fail(&r, "text after the value");
    }
    if (r.failed) {
        dap_json_free(v);
        return NULL;
    }
    return v;
}

void dap_json_free(struct dap_json *v)
{
    if (!v) return;
    free_items(v);
    free(v);
}

const struct dap_json *dap_json_get(const struct dap_json *obj, const char *key)
{
    if (!obj || obj->type != DAP_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

const char *dap_json_str(const struct dap_json *obj, const char *key)
{
    const struct dap_json *v = dap_json_get(obj, key);
    return v && v->type == DAP_JSON_STRING ? v->string : NULL;
}

bool dap_json_int(const struct dap_json *obj, const char *key, int64_t *out)
{
    const struct dap_json *v = dap_json_get(obj, key);
    if (!v || v->type != DAP_JSON_NUMBER || v->number != floor(v->number) || fabs(v->number) > 9007199254740992.0)
        return false;
    *out = (int64_t)v->number;
    return true;
}

bool dap_json_bool(const struct dap_json *obj, const char *key, bool dflt)
{
    const struct dap_json *v = dap_json_get(obj, key);
    return v && v->type == DAP_JSON_BOOL ? v->boolean : dflt;
}
