/* fuzz_run_args.c -- libFuzzer harness for `loom run`'s command-line parsing: the input,
 * split at NUL bytes into argv[1..], must parse without a crash, leak or undefined behaviour. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* A private NUL-terminated copy: the parser may keep pointers into it. */
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    size_t n = 2;
    for (size_t i = 0; i < size; i++)
        n += buf[i] == 0;
    char **argv = malloc((n + 1) * sizeof *argv);
    if (!argv) {
        free(buf);
        return 0;
    }
    int argc = 0;
    argv[argc++] = "run";
    for (char *p = buf; p <= buf + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    loom_cmd_run_parse(argc, argv);
    free(argv);
    free(buf);
    return 0;
}
