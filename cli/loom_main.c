/* loom_main.c -- the `loom` command: dispatch to subcommands. */
int main(void) { return 0; }
