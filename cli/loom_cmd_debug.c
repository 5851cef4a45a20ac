/* loom_cmd_debug.c -- `loom debug FILE.ptx [loom run's arguments] [--batch FILE] [-ex CMD]...`:
 * loom run's kernel under the gdb-like prompt of loom/debug.h (debug/prompt.c). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/loom_cli.h"
#include "loom/debug.h"
#include "loom/loom.h"

static int usage_error(const char *fmt, const char *arg)
{
    fputs("loom debug: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see 'loom help debug')\n", stderr);
    return 2;
}

int loom_cmd_debug(int argc, char **argv)
{
    /* loom run's arguments, less the debugger's own; no progress line or watchdog report
     * while the kernel stands at the prompt */
    char **run_argv = calloc((size_t)argc + 5, sizeof *run_argv);
    const char **ex = calloc((size_t)argc + 1, sizeof *ex);
    if (!run_argv || !ex) {
        free(run_argv);
        free(ex);
        fprintf(stderr, "loom debug: out of memory\n");
        return 2;
    }
    int run_argc = 0, rc = 2;
    unsigned nex = 0;
    const char *batch = NULL;
    bool watchdog = false;
    run_argv[run_argc++] = "debug";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--batch") == 0 || strcmp(a, "-ex") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                rc = usage_error("%s needs a value", a);
                goto out;
            }
            if (a[1] == 'e')
                ex[nex++] = argv[++i];
            else
                batch = argv[++i];
        } else if (strncmp(a, "--batch=", 8) == 0 && a[8]) {
            batch = a + 8;
        } else {
            watchdog |= strncmp(a, "--watchdog", 10) == 0;
            run_argv[run_argc++] = argv[i];
        }
    }
    if (run_argc < 2) {
        rc = usage_error("%s", "which PTX file?");
        goto out;
    }
    run_argv[run_argc++] = "--quiet";
    if (!watchdog) {
        run_argv[run_argc++] = "--watchdog";
        run_argv[run_argc++] = "0";
    }
    /* a wrong command line stops here, before the prompt */
    rc = loom_cmd_run_parse(run_argc, run_argv);
    if (rc)
        goto out;
    struct loom_debug_prompt_config cfg = { .batch = batch, .ex = ex, .nex = nex };
    struct loom_debug *d = NULL;
    enum loom_status st = loom_debug_prompt_create(&cfg, &d);
    if (st != LOOM_OK) {
        if (st == LOOM_ERR_IO)
            fprintf(stderr, "loom debug: cannot read the batch file '%s': %s\n", batch, strerror(errno));
        else
            fprintf(stderr, "loom debug: cannot start the debugger: %s\n", loom_status_string(st));
        rc = 2;
        goto out;
    }
    rc = 0;
    if (loom_debug_prompt_begin(d))
        rc = loom_cmd_run_debug(run_argc, run_argv, d);
    loom_debug_prompt_end(d, rc);
    loom_debug_destroy(d);
out:
    free(run_argv);
    free(ex);
    return rc;
}
