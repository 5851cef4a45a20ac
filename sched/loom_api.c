/* loom_api.c -- placeholder until implemented. */
typedef int loom_api_placeholder_;
