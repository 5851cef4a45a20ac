/* loom_cmd_check.c -- placeholder until implemented. */
typedef int loom_cmd_check_placeholder_;
