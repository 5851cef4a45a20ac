/* loom_cmd_info.c -- placeholder until implemented. */
typedef int loom_cmd_info_placeholder_;
