/* ptx_parse.c -- placeholder until implemented. */
typedef int ptx_parse_placeholder_;
