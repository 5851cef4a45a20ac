/* ptx_lex.h -- the hand-written PTX tokenizer: one pass over the text, no
 * allocation per token; identifiers and .words are interned as they are read. */
#ifndef LOOM_PTX_LEX_H
#define LOOM_PTX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_interner;

/* Token kinds: a punctuation token's kind is its character (';', '{', ...). */
enum ptx_tok_kind {
    PTX_TK_EOF = 256,
    PTX_TK_IDENT,    /* foo, %r1, %tid.x, $L__BB0_1, _ : id set */
    PTX_TK_DOTWORD,  /* .b32, .shared::cta, .m16n8k16, .2d : id set */
    PTX_TK_INT,      /* ival; is_unsigned when written with a U suffix */
    PTX_TK_F32,      /* 0fXXXXXXXX: ival holds the bits */
    PTX_TK_F64,      /* 0dXXXXXXXXXXXXXXXX or a decimal float: ival holds f64 bits */
    PTX_TK_STRING,   /* "..." : p/len exclude the quotes */
    PTX_TK_SHL,      /* << */
    PTX_TK_SHR,      /* >> */
    PTX_TK_COLONCOLON, /* :: outside a .word */
    PTX_TK_ERROR,    /* bad character or malformed literal: err says why */
};

struct ptx_token {
    int kind;
    bool is_unsigned;
    bool decimal_float;      /* F64 written in decimal (1.5, 2e3) */
    uint32_t id;             /* IDENT / DOTWORD: interned id */
    uint32_t line, col;
    const char *p;           /* text of the token */
    uint32_t len;
    uint64_t ival;
    const char *err;         /* ERROR: static message */
};

struct ptx_lexer {
    const char *p, *end, *line_start;
    uint32_t line;
    struct ptx_interner *names;
};

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len, struct ptx_interner *names);
void ptx_lex_next(struct ptx_lexer *lx, struct ptx_token *out);

#endif
