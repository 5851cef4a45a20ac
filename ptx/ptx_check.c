/* ptx_check.c -- placeholder until implemented. */
typedef int ptx_check_placeholder_;
