/* loom_cli.h -- subcommands of the `loom` command; each takes argv with argv[0] = its name
 * and returns the process exit status. */
#ifndef LOOM_CLI_H
#define LOOM_CLI_H

int loom_cmd_check(int argc, char **argv);
int loom_cmd_info(int argc, char **argv);
int loom_cmd_run(int argc, char **argv);
int loom_cmd_exec(int argc, char **argv);

#endif
