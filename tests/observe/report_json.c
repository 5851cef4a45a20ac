/* report_json.c -- test and benchmark driver of observe/report.c: writes the HTML lab
 * report of a stats JSON file, as `report_json STATS.json OUT.html` ('-' for stdin/stdout). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/report.h"

/* Reads all of f into a malloc'ed buffer; NULL on a read error or when out of memory. */
static char *read_all(FILE *f, size_t *out_len)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            return NULL;
        }
        buf = more;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        return NULL;
    }
    *out_len = len;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: report_json STATS.json OUT.html ('-' for stdin or stdout)\n");
        return 2;
    }
    const char *in_name = argv[1], *out_name = argv[2];
    FILE *in = strcmp(in_name, "-") == 0 ? stdin : fopen(in_name, "rb");
    if (!in) {
        fprintf(stderr, "report_json: %s: %s\n", in_name, strerror(errno));
        return 1;
    }
    size_t len = 0;
    char *json = read_all(in, &len);
    if (in != stdin)
        fclose(in);
    if (!json) {
        fprintf(stderr, "report_json: %s: cannot read it\n", in_name);
        return 1;
    }
    FILE *out = strcmp(out_name, "-") == 0 ? stdout : fopen(out_name, "wb");
    if (!out) {
        fprintf(stderr, "report_json: %s: %s\n", out_name, strerror(errno));
        free(json);
        return 1;
    }
    char err[256];
    int rc = loom_report_html(out, json, len, err, sizeof err);
    free(json);
    if (out != stdout && fclose(out) != 0 && rc == 0) {
        snprintf(err, sizeof err, "cannot write the report: %s", strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        /* a JSON error starts with LINE:COL, which belongs after the file name */
        fprintf(stderr, "report_json: %s%s%s\n", err[0] >= '0' && err[0] <= '9' ? in_name : "",
                err[0] >= '0' && err[0] <= '9' ? ":" : "", err);
        return 1;
    }
    return 0;
}
