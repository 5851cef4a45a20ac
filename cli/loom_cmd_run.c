/* loom_cmd_run.c -- placeholder until implemented. */
typedef int loom_cmd_run_placeholder_;
