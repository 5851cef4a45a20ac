/* ptx_lex.c -- PTX tokenizer (PTX ISA "Syntax": comments, identifiers,
 * constants); table-driven character classes, straight-line scanning. */
#include "ptx/ptx_lex.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_arena.h"

enum {
    CC_SPACE = 1,   /* blank, tab, CR, FF, VT */
    CC_NL = 2,
    CC_IDSTART = 4, /* A-Z a-z _ $ % */
    CC_IDCHAR = 8,  /* A-Z a-z 0-9 _ $ */
    CC_DIGIT = 16,
    CC_HEX = 32,
};

static const unsigned char ptx_cc[256] = {
    [0] = CC_SPACE, [' '] = CC_SPACE, ['\t'] = CC_SPACE, ['\r'] = CC_SPACE, ['\f'] = CC_SPACE, ['\v'] = CC_SPACE,
    ['\n'] = CC_NL,
    ['_'] = CC_IDSTART | CC_IDCHAR, ['$'] = CC_IDSTART | CC_IDCHAR, ['%'] = CC_IDSTART,
#define D(c) [c] = CC_IDCHAR | CC_DIGIT | CC_HEX
    D('0'), D('1'), D('2'), D('3'), D('4'), D('5'), D('6'), D('7'), D('8'), D('9'),
#undef D
#define H(c) [c] = CC_IDSTART | CC_IDCHAR | CC_HEX
    H('a'), H('b'), H('c'), H('d'), H('e'), H('f'), H('A'), H('B'), H('C'), H('D'), H('E'), H('F'),
#undef H
#define L(c) [c] = CC_IDSTART | CC_IDCHAR
    L('g'), L('h'), L('i'), L('j'), L('k'), L('l'), L('m'), L('n'), L('o'), L('p'), L('q'), L('r'),
    L('s'), L('t'), L('u'), L('v'), L('w'), L('x'), L('y'), L('z'),
    L('G'), L('H'), L('I'), L('J'), L('K'), L('L'), L('M'), L('N'), L('O'), L('P'), L('Q'), L('R'),
    L('S'), L('T'), L('U'), L('V'), L('W'), L('X'), L('Y'), L('Z'),
#undef L
};

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len, struct ptx_interner *names)
{
    lx->p = text;
    lx->end = text + len;
    lx->line_start = text;
    lx->line = 1;
    lx->names = names;
}

static int ptx_hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Skips blanks, newlines and both comment forms. */
static void ptx_lex_skip(struct ptx_lexer *lx)
{
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && (ptx_cc[(unsigned char)*p] & CC_SPACE))
            p++;
        if (p >= end)
            break;
        if (*p == '\n') {
            p++;
            lx->line++;
            lx->line_start = p;
            continue;
        }
        if (*p == '/' && p + 1 < end && p[1] == '/') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end;
            continue;
        }
        if (*p == '/' && p + 1 < end && p[1] == '*') {
            p += 2;
            while (p < end && !(*p == '*' && p + 1 < end && p[1] == '/')) {
                if (*p == '\n') {
                    lx->line++;
                    lx->line_start = p + 1;
                }
                p++;
            }
            p = p < end ? p + 2 : end;
            continue;
        }
        break;
    }
    lx->p = p;
}

/* Numbers: 0f/0d bit patterns, 0x/0b/0 (octal)/decimal integers with an optional
 * U suffix, and decimal floats (digits '.' digits, exponent). */
static void ptx_lex_number(struct ptx_lexer *lx, struct ptx_token *t)
{
    const char *p = lx->p, *end = lx->end;
    uint64_t v = 0;
    bool overflow = false;
    t->kind = PTX_TK_INT;
    if (*p == '0' && p + 1 < end && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int want = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        const char *q = p + 2;
        int n = 0;
        while (q < end && (ptx_cc[(unsigned char)*q] & CC_HEX)) {
            v = v << 4 | (uint64_t)ptx_hexval((unsigned char)*q);
            q++;
            n++;
        }
        t->kind = want == 8 ? PTX_TK_F32 : PTX_TK_F64;
        if (n != want) {
            t->kind = PTX_TK_ERROR;
            t->err = want == 8 ? "malformed float literal: 0f needs 8 hex digits"
                               : "malformed double literal: 0d needs 16 hex digits";
        }
        p = q;
    } else if (*p == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')) {
        const char *q = p + 2;
        while (q < end && (ptx_cc[(unsigned char)*q] & CC_HEX)) {
            if (v >> 60)
                overflow = true;
            v = v << 4 | (uint64_t)ptx_hexval((unsigned char)*q);
            q++;
        }
        if (q == p + 2) {
            t->kind = PTX_TK_ERROR;
            t->err = "malformed hexadecimal literal";
        }
        p = q;
    } else if (*p == '0' && p + 1 < end && (p[1] == 'b' || p[1] == 'B')) {
        const char *q = p + 2;
        while (q < end && (*q == '0' || *q == '1')) {
            if (v >> 63)
                overflow = true;
            v = v << 1 | (uint64_t)(*q - '0');
            q++;
        }
        if (q == p + 2) {
            t->kind = PTX_TK_ERROR;
            t->err = "malformed binary literal";
        }
        p = q;
    } else {
        const char *q = p;
        while (q < end && (ptx_cc[(unsigned char)*q] & CC_DIGIT))
            q++;
        bool isfloat = false;
        const char *r = q;
        if (r < end && *r == '.' && r + 1 <= end) {
            isfloat = true;
            r++;
            while (r < end && (ptx_cc[(unsigned char)*r] & CC_DIGIT))
                r++;
        }
        if (r < end && (*r == 'e' || *r == 'E')) {
            const char *s = r + 1;
            if (s < end && (*s == '+' || *s == '-'))
                s++;
            if (s < end && (ptx_cc[(unsigned char)*s] & CC_DIGIT)) {
                isfloat = true;
                while (s < end && (ptx_cc[(unsigned char)*s] & CC_DIGIT))
                    s++;
                r = s;
            }
        }
        if (isfloat) {
            char buf[128];
            size_t n = (size_t)(r - p);
            if (n >= sizeof buf)
                n = sizeof buf - 1;
            memcpy(buf, p, n);
            buf[n] = 0;
            double d = strtod(buf, NULL);
            memcpy(&v, &d, sizeof v);
            t->kind = PTX_TK_F64;
            t->decimal_float = true;
            p = r;
        } else if (*p == '0' && q - p > 1) {
            for (const char *s = p + 1; s < q; s++) {
                if (*s > '7') {
                    t->kind = PTX_TK_ERROR;
                    t->err = "invalid digit in octal literal";
                }
                if (v >> 61)
                    overflow = true;
                v = v << 3 | (uint64_t)(*s - '0');
            }
            p = q;
        } else {
            for (const char *s = p; s < q; s++) {
                uint64_t d = (uint64_t)(*s - '0');
                if (v > (UINT64_MAX - d) / 10)
                    overflow = true;
                v = v * 10 + d;
            }
            p = q;
        }
    }
    if (t->kind == PTX_TK_INT && p < end && (*p == 'U' || *p == 'u')) {
        t->is_unsigned = true;
        p++;
    }
    if (overflow && t->kind == PTX_TK_INT) {
        t->kind = PTX_TK_ERROR;
        t->err = "integer literal does not fit in 64 bits";
    }
    if (t->kind != PTX_TK_ERROR && p < end && (ptx_cc[(unsigned char)*p] & CC_IDCHAR)) {
        while (p < end && (ptx_cc[(unsigned char)*p] & CC_IDCHAR))
            p++;
        t->kind = PTX_TK_ERROR;
        t->err = "malformed numeric literal";
    }
    t->ival = v;
    lx->p = p;
}

/* Length of a vector-component or video byte/half selector after a %name
 * ("%tid.x", "%r1.b0", "%r1.b3210", "%r1.h10"), or 0. */
static size_t ptx_lex_component(const char *p, const char *end)
{
    if (p + 1 >= end || *p != '.')
        return 0;
    unsigned char c = (unsigned char)p[1];
    size_t n = 0;
    if (strchr("xyzwrgba", c) && c)
        n = 2;
    /* Video selectors and masks: .b with 1-4 digits 0-7, .h with 1-2 digits 0-3
     * (the parser says which forms are valid). */
    char top = c == 'b' ? '7' : '3';
    size_t most = c == 'b' ? 4 : 2;
    for (size_t k = 2; (c == 'b' || c == 'h') && p + k < end && k - 2 < most && p[k] >= '0' && p[k] <= top; k++)
        n = k + 1;
    if (n && p + n < end && (ptx_cc[(unsigned char)p[n]] & CC_IDCHAR))
        return 0;
    return n;
}

void ptx_lex_next(struct ptx_lexer *lx, struct ptx_token *t)
{
    ptx_lex_skip(lx);
    const char *p = lx->p, *end = lx->end;
    t->line = lx->line;
    t->col = (uint32_t)(p - lx->line_start) + 1;
    t->p = p;
    t->is_unsigned = false;
    t->decimal_float = false;
    t->id = 0;
    t->ival = 0;
    if (p >= end) {
        t->kind = PTX_TK_EOF;
        t->len = 0;
        return;
    }
    unsigned char c = (unsigned char)*p;
    unsigned cls = ptx_cc[c];
    if (cls & CC_IDSTART) {
        const char *q = p + 1;
        while (q < end && (ptx_cc[(unsigned char)*q] & CC_IDCHAR))
            q++;
        if (c == '%')
            q += ptx_lex_component(q, end);
        if (c == '%' && q == p + 1) {
            t->kind = '%';
            t->len = 1;
            lx->p = q;
            return;
        }
        t->kind = PTX_TK_IDENT;
        t->len = (uint32_t)(q - p);
        t->id = ptx_intern(lx->names, p, t->len);
        lx->p = q;
        return;
    }
    if (cls & CC_DIGIT) {
        ptx_lex_number(lx, t);
        t->len = (uint32_t)(lx->p - p);
        return;
    }
    if (c == '.' && p + 1 < end && (ptx_cc[(unsigned char)p[1]] & CC_IDCHAR)) {
        const char *q = p + 1;
        for (;;) {
            while (q < end && (ptx_cc[(unsigned char)*q] & CC_IDCHAR))
                q++;
            if (q + 2 < end && q[0] == ':' && q[1] == ':' && (ptx_cc[(unsigned char)q[2]] & CC_IDCHAR)) {
                q += 2;
                continue;
            }
            break;
        }
        t->kind = PTX_TK_DOTWORD;
        t->len = (uint32_t)(q - p);
        t->id = ptx_intern(lx->names, p, t->len);
        lx->p = q;
        return;
    }
    if (c == '"') {
        const char *q = p + 1;
        while (q < end && *q != '"' && *q != '\n') {
            if (*q == '\\' && q + 1 < end && q[1] != '\n')
                q++;
            q++;
        }
        if (q >= end || *q != '"') {
            t->kind = PTX_TK_ERROR;
            t->err = "missing terminating '\"' character";
            t->len = (uint32_t)(q - p);
            lx->p = q;
            return;
        }
        t->kind = PTX_TK_STRING;
        t->p = p + 1;
        t->len = (uint32_t)(q - p - 1);
        lx->p = q + 1;
        return;
    }
    if (c == '<' && p + 1 < end && p[1] == '<') {
        t->kind = PTX_TK_SHL;
        t->len = 2;
        lx->p = p + 2;
        return;
    }
    if (c == '>' && p + 1 < end && p[1] == '>') {
        t->kind = PTX_TK_SHR;
        t->len = 2;
        lx->p = p + 2;
        return;
    }
    if (c == ':' && p + 1 < end && p[1] == ':') {
        t->kind = PTX_TK_COLONCOLON;
        t->len = 2;
        lx->p = p + 2;
        return;
    }
    if (strchr(",;:{}[]()<>+-*/@!|=&~^.?", c) && c) {
        t->kind = c;
        t->len = 1;
        lx->p = p + 1;
        return;
    }
    t->kind = PTX_TK_ERROR;
    t->err = "stray character in program";
    t->len = 1;
    lx->p = p + 1;
}
