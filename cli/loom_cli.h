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

#endif
