/* ptx_lex.c -- placeholder until implemented. */
typedef int ptx_lex_placeholder_;
