/* ptx_diag.c -- placeholder until implemented. */
typedef int ptx_diag_placeholder_;
