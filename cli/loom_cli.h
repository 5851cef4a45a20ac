/* loom_cli.h -- subcommands of the `loom` command; each takes argv with argv[0] = its name
 * and returns the process exit status. */
#ifndef LOOM_CLI_H
#define LOOM_CLI_H

int loom_cmd_check(int argc, char **argv);
int loom_cmd_info(int argc, char **argv);
int loom_cmd_run(int argc, char **argv);
/* `loom run`'s command-line parsing alone (for the fuzzing harness): the exit status that
 * parsing gives (0 when the line is valid); prints the same messages; runs nothing. */
int loom_cmd_run_parse(int argc, char **argv);
int loom_cmd_exec(int argc, char **argv);
/* `loom debug FILE.ptx [loom run's arguments] [--batch FILE] [-ex CMD]...` (loom_cmd_debug.c). */
int loom_cmd_debug(int argc, char **argv);
/* `loom dap`: a Debug Adapter Protocol server on stdin/stdout (cli/loom_cmd_dap.c). */
int loom_cmd_dap(int argc, char **argv);
/* `loom run`'s arguments (argv[0] = "run" or the caller's name) run on a device debugged by d
 * (loom/debug.h): `loom debug` and `loom dap`. Same exit statuses as loom_cmd_run. */
struct loom_debug;
int loom_cmd_run_debug(int argc, char **argv, struct loom_debug *d);

/* ---- What run and exec share for showing a run (loom_cli_obs.c) ------------------------- */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
/* --simt A[:K=V,...],B,...: a policy's options are KEY=VALUE items, so an item without '='
 * starts the next policy. Each is checked (loom_simt_check); out gets *n strings (for the
 * caller to free). False with one line in why. */
bool loom_cli_split_simt(const char *spec, char **out, unsigned max, unsigned *n, char *why, size_t size);
/* Creates (truncates) an output file before anything runs; NULL with "cannot write the WHAT
 * to 'PATH': REASON" in why. */
FILE *loom_cli_create(const char *path, const char *what, char *why, size_t size);
/* One statistics document (loom-stats/1) with the runs of the n documents docs[k] (lens[k]
 * bytes each, as loom_stats_write_json wrote it; one that holds none adds nothing). */
bool loom_cli_merge_stats(FILE *out, char *const *docs, const size_t *lens, unsigned n, const char *program,
                          const char *simt);

#endif
