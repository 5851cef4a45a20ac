/* ptx_lex.h */
