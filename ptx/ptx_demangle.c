/* ptx_demangle.c -- a small demangler for the kernel names nvcc emits (Itanium C++ ABI),
 * printing what GNU c++filt prints, which is what compute-sanitizer shows. A name is parsed
 * into a tree of nodes from a fixed pool, with the ABI's substitution table, then printed;
 * anything outside the subset below fails the parse and the caller keeps the mangled name.
 *
 *   <mangled-name> ::= _Z <name> [<bare-function-type>]
 *   <name>          ::= N <prefix> E | [St] <unqualified-name> [<template-args>] | <substitution> <template-args>
 *   <type>          ::= <builtin> | P/R/O <type> | r/V/K... <type> | <class-name> | T [n] _ | Dp <type>
 *                     | <substitution> [<template-args>]
 *   <template-arg>  ::= <type> | L <integer or enum type> [n] <digits> E | J <template-arg>* E
 *
 * The rules that decide what enters the substitution table and how packs, empty packs and
 * literals print follow libiberty's cp-demangle.c, so that both print the same text. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_demangle.h"

#define DM_MAX_NODES 512
#define DM_MAX_SUBS 256
#define DM_MAX_DEPTH 64

enum dm_kind {
    DM_NAME,        /* s, len: an identifier or a builtin type */
    DM_QUAL,        /* a::b */
    DM_TEMPLATE,    /* a<b>, b a DM_LIST (or NULL for <>) */
    DM_LIST,        /* a, then the rest b */
    DM_PTR, DM_LREF, DM_RREF, DM_CONST, DM_VOLATILE, DM_RESTRICT,   /* of a */
    DM_LITERAL,     /* an integer template argument: type code `code`, digits s, len, neg */
    DM_PACK,        /* a template argument pack: the DM_LIST a (or NULL) */
    DM_EXPANSION,   /* Dp: the pattern a, printed once per element of the pack it names */
    DM_TPARAM,      /* T_: the template argument a */
};

struct dm_node {
    enum dm_kind kind;
    char code;
    bool neg;
    const char *s;
    size_t len;
    const struct dm_node *a, *b;
};

struct dm {
    const char *p, *end;
    struct dm_node nodes[DM_MAX_NODES];
    unsigned nnodes;
    const struct dm_node *subs[DM_MAX_SUBS];
    unsigned nsubs;
    const struct dm_node *targs;   /* the function's template arguments, for T_ */
    unsigned depth;
    bool in_expansion;             /* parsing the pattern of a Dp */
};

static struct dm_node *dm_new(struct dm *d, enum dm_kind kind, const struct dm_node *a, const struct dm_node *b)
{
    if (d->nnodes == DM_MAX_NODES)
        return NULL;
    struct dm_node *n = &d->nodes[d->nnodes++];
    *n = (struct dm_node){ .kind = kind, .a = a, .b = b };
    return n;
}

static const struct dm_node *dm_text(struct dm *d, const char *s, size_t len)
{
    if (d->nnodes == DM_MAX_NODES)
        return NULL;
    struct dm_node *n = &d->nodes[d->nnodes++];
    *n = (struct dm_node){ .kind = DM_NAME, .s = s, .len = len };
    return n;
}

static const struct dm_node *dm_str(struct dm *d, const char *s) { return dm_text(d, s, strlen(s)); }

static char peek(const struct dm *d) { return d->p < d->end ? *d->p : 0; }
static char peek2(const struct dm *d) { return d->p + 1 < d->end ? d->p[1] : 0; }
static bool eat(struct dm *d, char c)
{
    if (peek(d) != c)
        return false;
    d->p++;
    return true;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

static bool add_sub(struct dm *d, const struct dm_node *n)
{
    if (!n || d->nsubs == DM_MAX_SUBS)
        return false;
    d->subs[d->nsubs++] = n;
    return true;
}

/* A decimal number (source-name lengths, discriminators); false on none or overflow. */
static bool number(struct dm *d, size_t *out)
{
    size_t v = 0;
    if (!is_digit(peek(d)))
        return false;
    while (is_digit(peek(d))) {
        size_t digit = (size_t)(*d->p++ - '0');
        if (v > (SIZE_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *out = v;
    return true;
}

/* <source-name> ::= <length> <identifier>; GCC's and nvcc's anonymous namespace prints as c++filt prints it. */
static const struct dm_node *source_name(struct dm *d)
{
    size_t len;
    if (!number(d, &len) || len == 0 || len > (size_t)(d->end - d->p))
        return NULL;
    const char *s = d->p;
    d->p += len;
    if (len >= 10 && memcmp(s, "_GLOBAL_", 8) == 0 && (s[8] == '.' || s[8] == '_' || s[8] == '$') && s[9] == 'N')
        return dm_str(d, "(anonymous namespace)");
    return dm_text(d, s, len);
}

/* <discriminator> ::= _ <digit> | __ <number> _ (after a local source name) */
static bool discriminator(struct dm *d)
{
    size_t n;
    if (!eat(d, '_'))
        return true;
    if (eat(d, '_'))
        return number(d, &n) && eat(d, '_');
    return number(d, &n);
}

/* <unqualified-name>: a source name, or L <source-name> (internal linkage). Operators,
 * constructors, destructors and unnamed types (lambdas) are not understood. */
static const struct dm_node *unqualified_name(struct dm *d)
{
    if (is_digit(peek(d)))
        return source_name(d);
    if (eat(d, 'L')) {
        const struct dm_node *n = source_name(d);
        return n && discriminator(d) ? n : NULL;
    }
    return NULL;
}

static const struct dm_node *type(struct dm *d);
static const struct dm_node *template_arg(struct dm *d);

/* <substitution> ::= S_ | S <seq-id> _ | St | Sa | Sb | Ss | Si | So | Sd (after the S).
 * *out_std tells a standard abbreviation other than St. */
static const struct dm_node *substitution(struct dm *d, bool *out_std)
{
    static const struct { char c; const char *text; } std_subs[] = {
        /* c++filt's (verbose) expansions */
        { 't', "std" }, { 'a', "std::allocator" }, { 'b', "std::basic_string" },
        { 's', "std::basic_string<char, std::char_traits<char>, std::allocator<char> >" },
        { 'i', "std::basic_istream<char, std::char_traits<char> >" },
        { 'o', "std::basic_ostream<char, std::char_traits<char> >" },
        { 'd', "std::basic_iostream<char, std::char_traits<char> >" },
    };
    *out_std = false;
    if (!eat(d, 'S'))
        return NULL;
    char c = peek(d);
    if (c == '_' || is_digit(c) || is_upper(c)) {
        size_t id = 0;
        if (c != '_') {
            while (is_digit(peek(d)) || is_upper(peek(d))) {
                char x = *d->p++;
                size_t digit = is_digit(x) ? (size_t)(x - '0') : (size_t)(x - 'A' + 10);
                if (id > (SIZE_MAX - digit) / 36)
                    return NULL;
                id = id * 36 + digit;
            }
            id++;
        }
        if (!eat(d, '_') || id >= d->nsubs)
            return NULL;
        return d->subs[id];
    }
    for (size_t i = 0; i < sizeof std_subs / sizeof std_subs[0]; i++)
        if (c == std_subs[i].c) {
            d->p++;
            *out_std = c != 't';
            return dm_str(d, std_subs[i].text);
        }
    return NULL;
}


/* Appends item to the list *head ... *tail; false when out of nodes. */
static bool append(struct dm *d, struct dm_node **head, struct dm_node **tail, const struct dm_node *item)
{
    struct dm_node *l = item ? dm_new(d, DM_LIST, item, NULL) : NULL;
    if (!l)
        return false;
    if (*tail)
        (*tail)->b = l;
    else
        *head = l;
    *tail = l;
    return true;
}

/* <template-args> ::= I <template-arg>* E, and the J ... E of a pack: a DM_LIST (an empty
 * one for none). */
static const struct dm_node *template_args(struct dm *d, char open)
{
    struct dm_node *head = NULL, *tail = NULL;
    if (!eat(d, open))
        return NULL;
    while (!eat(d, 'E'))
        if (!append(d, &head, &tail, template_arg(d)))
            return NULL;
    return head ? head : dm_new(d, DM_LIST, NULL, NULL);
}

/* <template-param> ::= T_ | T <number> _ (after nothing), resolved against the function's arguments. */
static const struct dm_node *template_param(struct dm *d)
{
    size_t i = 0;
    if (!eat(d, 'T'))
        return NULL;
    if (!eat(d, '_')) {
        if (!number(d, &i) || !eat(d, '_'))
            return NULL;
        i++;
    }
    const struct dm_node *l = d->targs;
    while (l && l->kind == DM_LIST && l->a && i--)
        l = l->b;
    if (!l || l->kind != DM_LIST || !l->a)
        return NULL;
    return dm_new(d, DM_TPARAM, l->a, NULL);
}

/* <nested-name> ::= N <prefix> <unqualified-name> E; every prefix but the last enters the
 * substitution table, except a component that came from one. Member functions (cv- and
 * ref-qualifiers) are not understood. */
static const struct dm_node *nested_name(struct dm *d)
{
    if (!eat(d, 'N'))
        return NULL;
    const struct dm_node *ret = NULL;
    for (;;) {
        char c = peek(d);
        const struct dm_node *n;
        bool from_sub = false, tmpl = false, std;
        if (c == 'E') {
            d->p++;
            return ret && ret->kind != DM_NAME ? ret : NULL;   /* one component is no nested name */
        }
        if (is_digit(c) || c == 'L') {
            n = unqualified_name(d);
        } else if (c == 'S' && !ret) {       /* only the first component comes from the table */
            n = substitution(d, &std);
            from_sub = true;
        } else if (c == 'I') {
            if (!ret)
                return NULL;
            n = template_args(d, 'I');
            tmpl = true;
        } else {
            return NULL;
        }
        if (!n)
            return NULL;
        ret = !ret ? n : dm_new(d, tmpl ? DM_TEMPLATE : DM_QUAL, ret, n);
        if (!ret)
            return NULL;
        if (!from_sub && peek(d) != 'E' && !add_sub(d, ret))
            return NULL;
    }
}

/* <name>; *out_std tells a bare standard abbreviation (Sa, Ss, ...), which does not enter
 * the substitution table as a type. */
static const struct dm_node *parse_name(struct dm *d, bool *out_std)
{
    const struct dm_node *n;
    *out_std = false;
    if (peek(d) == 'N')
        return nested_name(d);
    if (peek(d) == 'S') {
        bool sub = peek2(d) != 't';
        if (sub) {
            n = substitution(d, out_std);
        } else {
            d->p += 2;
            const struct dm_node *u = unqualified_name(d);
            n = u ? dm_new(d, DM_QUAL, dm_str(d, "std"), u) : NULL;
        }
        if (!n || peek(d) != 'I')
            return n;
        if (!sub && !add_sub(d, n))
            return NULL;
        *out_std = false;
        const struct dm_node *args = template_args(d, 'I');
        return args ? dm_new(d, DM_TEMPLATE, n, args) : NULL;
    }
    n = unqualified_name(d);
    if (!n || peek(d) != 'I')
        return n;
    if (!add_sub(d, n))
        return NULL;
    const struct dm_node *args = template_args(d, 'I');
    return args ? dm_new(d, DM_TEMPLATE, n, args) : NULL;
}

/* The builtin types: one letter, or D and one letter. */
static const char *builtin_name(char c)
{
    switch (c) {
    case 'v': return "void";
    case 'w': return "wchar_t";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'n': return "__int128";
    case 'o': return "unsigned __int128";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'g': return "__float128";
    case 'z': return "...";
    default: return NULL;
    }
}

static const char *builtin_d_name(char c)
{
    switch (c) {
    case 'd': return "decimal64";
    case 'e': return "decimal128";
    case 'f': return "decimal32";
    case 'h': return "half";
    case 'i': return "char32_t";
    case 's': return "char16_t";
    case 'u': return "char8_t";
    case 'n': return "decltype(nullptr)";
    default: return NULL;
    }
}

static const struct dm_node *type_inner(struct dm *d)
{
    char c = peek(d);
    const struct dm_node *n;
    const char *b = builtin_name(c);
    bool std;
    if (b) {                                  /* builtins never enter the table */
        d->p++;
        return dm_str(d, b);
    }
    switch (c) {
    case 'r': case 'V': case 'K': {           /* the qualifiers, outermost first, then one entry */
        enum dm_kind kinds[3];
        unsigned nq = 0;
        unsigned seen = 0;
        while ((c = peek(d)) == 'r' || c == 'V' || c == 'K') {
            unsigned bit = c == 'r' ? 1u : c == 'V' ? 2u : 4u;
            if (bit <= seen)                  /* the ABI's order is r V K, each once */
                return NULL;
            seen |= bit;
            kinds[nq++] = c == 'r' ? DM_RESTRICT : c == 'V' ? DM_VOLATILE : DM_CONST;
            d->p++;
        }
        if (peek(d) == 'F')
            return NULL;
        n = type(d);
        if (n && n->kind == DM_EXPANSION)
            return NULL;
        /* a qualifier on a type (from the table) that has it already: not what a compiler emits */
        for (const struct dm_node *q = n && n->kind == DM_TPARAM ? n->a : n;
             q && (q->kind == DM_CONST || q->kind == DM_VOLATILE || q->kind == DM_RESTRICT); q = q->a)
            if ((q->kind == DM_RESTRICT && (seen & 1u)) || (q->kind == DM_VOLATILE && (seen & 2u)) ||
                (q->kind == DM_CONST && (seen & 4u)))
                return NULL;
        while (n && nq--)
            n = dm_new(d, kinds[nq], n, NULL);
        return add_sub(d, n) ? n : NULL;
    }
    case 'P': case 'R': case 'O': {
        d->p++;
        n = type(d);
        const struct dm_node *inner = n && n->kind == DM_TPARAM ? n->a : n;
        if (inner && c != 'P' && (inner->kind == DM_LREF || inner->kind == DM_RREF))
            return NULL;                      /* reference collapsing: not in a kernel's name */
        if (inner && inner->kind == DM_EXPANSION)
            return NULL;
        n = n ? dm_new(d, c == 'P' ? DM_PTR : c == 'R' ? DM_LREF : DM_RREF, n, NULL) : NULL;
        return add_sub(d, n) ? n : NULL;
    }
    case 'u':                                 /* vendor extended type */
        d->p++;
        n = source_name(d);
        return add_sub(d, n) ? n : NULL;
    case 'D':
        d->p++;
        c = peek(d);
        if ((b = builtin_d_name(c))) {
            d->p++;
            return dm_str(d, b);
        }
        if (c == 'F') {                       /* DF <bits> _: _Float<bits> */
            static const char *const floatn[] = { "16_", "_Float16", "32_", "_Float32", "64_", "_Float64",
                                                  "128_", "_Float128" };
            d->p++;
            for (size_t i = 0; i < sizeof floatn / sizeof floatn[0]; i += 2) {
                size_t k = strlen(floatn[i]);
                if ((size_t)(d->end - d->p) >= k && memcmp(d->p, floatn[i], k) == 0) {
                    d->p += k;
                    return dm_str(d, floatn[i + 1]);
                }
            }
            return NULL;
        }
        if (c == 'p' && !d->in_expansion) {  /* Dp: a pack expansion, not nested */
            d->p++;
            d->in_expansion = true;
            n = type(d);
            d->in_expansion = false;
            n = n ? dm_new(d, DM_EXPANSION, n, NULL) : NULL;
            return add_sub(d, n) ? n : NULL;
        }
        return NULL;
    case 'T':
        n = template_param(d);
        if (n && peek(d) == 'I') {            /* a template template parameter with arguments */
            const struct dm_node *args;
            if (!add_sub(d, n) || !(args = template_args(d, 'I')))
                return NULL;
            n = dm_new(d, DM_TEMPLATE, n, args);
        }
        return add_sub(d, n) ? n : NULL;
    case 'S': {
        char c2 = peek2(d);
        if (c2 == '_' || is_digit(c2) || is_upper(c2)) {
            n = substitution(d, &std);
            if (!n || peek(d) != 'I')
                return n;                     /* a whole type from the table: no new entry */
            const struct dm_node *args = template_args(d, 'I');
            n = args ? dm_new(d, DM_TEMPLATE, n, args) : NULL;
            return add_sub(d, n) ? n : NULL;
        }
        n = parse_name(d, &std);
        if (n && std)
            return n;
        return add_sub(d, n) ? n : NULL;
    }
    case 'N':
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        n = parse_name(d, &std);
        return add_sub(d, n) ? n : NULL;
    default:                                  /* function, array, member pointer, complex, ... */
        return NULL;
    }
}

static const struct dm_node *type(struct dm *d)
{
    if (d->depth == DM_MAX_DEPTH)
        return NULL;
    d->depth++;
    const struct dm_node *n = type_inner(d);
    d->depth--;
    return n;
}

/* <template-arg>: a type, an integer literal L <builtin> [n] <digits> E, or a pack J ... E. */
static const struct dm_node *template_arg(struct dm *d)
{
    if (eat(d, 'L')) {
        char c = peek(d);
        const struct dm_node *t;
        if (c && strchr("bcahstijlmxynow", c)) {      /* an integer type */
            d->p++;
            t = dm_str(d, builtin_name(c));
        } else if (is_digit(c) || c == 'N' || c == 'S') {   /* an enum, printed (Color)1 */
            c = 0;
            t = type(d);
        } else {
            return NULL;
        }
        struct dm_node *n = t ? dm_new(d, DM_LITERAL, t, NULL) : NULL;
        if (!n)
            return NULL;
        n->code = c;
        n->neg = eat(d, 'n');
        n->s = d->p;
        while (is_digit(peek(d)))
            d->p++;
        n->len = (size_t)(d->p - n->s);
        return n->a && n->len && eat(d, 'E') ? n : NULL;
    }
    if (peek(d) == 'J') {
        const struct dm_node *l;
        if (d->depth == DM_MAX_DEPTH)
            return NULL;
        d->depth++;
        l = template_args(d, 'J');
        d->depth--;
        return l ? dm_new(d, DM_PACK, l->a ? l : NULL, NULL) : NULL;
    }
    return type(d);
}

/* ---- printing, as c++filt prints ---- */

struct dm_out {
    char *buf;
    size_t size, len;
    bool overflow;
    size_t pack_index;    /* the element of a pack a T_ prints (cp-demangle keeps the last one) */
    unsigned depth;
};

static void put(struct dm_out *o, const char *s, size_t n)
{
    if (o->overflow || n >= o->size - o->len) {
        o->overflow = true;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = 0;
}

static void puts_(struct dm_out *o, const char *s) { put(o, s, strlen(s)); }

static void print(struct dm_out *o, const struct dm_node *n);

/* A list: items joined by ", "; the ", " before a rest that prints nothing (empty packs) is
 * taken back, as cp-demangle does. */
static void print_list(struct dm_out *o, const struct dm_node *l)
{
    if (!l || l->kind != DM_LIST)
        return;
    if (l->a)
        print(o, l->a);
    if (!l->b)
        return;
    puts_(o, ", ");
    size_t mark = o->len;
    print_list(o, l->b);
    if (o->len == mark && !o->overflow)
        o->buf[o->len -= 2] = 0;
}

/* The pack a pack expansion's pattern names through one of its template parameters. */
static const struct dm_node *find_pack(const struct dm_node *n, unsigned depth)
{
    if (!n || depth > DM_MAX_DEPTH)
        return NULL;
    switch (n->kind) {
    case DM_NAME: case DM_LITERAL:
        return NULL;
    case DM_TPARAM:
        return n->a && n->a->kind == DM_PACK ? n->a : NULL;
    default: {
        const struct dm_node *p = find_pack(n->a, depth + 1);
        return p ? p : find_pack(n->b, depth + 1);
    }
    }
}

static size_t pack_length(const struct dm_node *pack)
{
    size_t k = 0;
    for (const struct dm_node *l = pack->a; l && l->kind == DM_LIST; l = l->b)
        k++;
    return k;
}

static void print_literal(struct dm_out *o, const struct dm_node *n)
{
    static const char *const suffix[] = { ['i'] = "", ['j'] = "u", ['l'] = "l", ['m'] = "ul", ['x'] = "ll", ['y'] = "ull" };
    unsigned char c = (unsigned char)n->code;
    if (c < sizeof suffix / sizeof suffix[0] && suffix[c]) {
        if (n->neg)
            puts_(o, "-");
        put(o, n->s, n->len);
        puts_(o, suffix[c]);
        return;
    }
    if (c == 'b' && !n->neg && n->len == 1 && (n->s[0] == '0' || n->s[0] == '1')) {
        puts_(o, n->s[0] == '1' ? "true" : "false");
        return;
    }
    puts_(o, "(");
    print(o, n->a);
    puts_(o, ")");
    if (n->neg)
        puts_(o, "-");
    put(o, n->s, n->len);
}

static void print(struct dm_out *o, const struct dm_node *n)
{
    if (!n || o->overflow || o->depth > 4 * DM_MAX_DEPTH) {
        o->overflow = true;
        return;
    }
    o->depth++;
    switch (n->kind) {
    case DM_NAME:
        put(o, n->s, n->len);
        break;
    case DM_QUAL:
        print(o, n->a);
        puts_(o, "::");
        print(o, n->b);
        break;
    case DM_TEMPLATE:
        print(o, n->a);
        puts_(o, "<");
        print_list(o, n->b);
        if (o->len && o->buf[o->len - 1] == '>')
            puts_(o, " ");
        puts_(o, ">");
        break;
    case DM_LIST:
        print_list(o, n);
        break;
    case DM_PTR: print(o, n->a); puts_(o, "*"); break;
    case DM_LREF: print(o, n->a); puts_(o, "&"); break;
    case DM_RREF: print(o, n->a); puts_(o, "&&"); break;
    case DM_CONST: print(o, n->a); puts_(o, " const"); break;
    case DM_VOLATILE: print(o, n->a); puts_(o, " volatile"); break;
    case DM_RESTRICT: print(o, n->a); puts_(o, " restrict"); break;
    case DM_LITERAL:
        print_literal(o, n);
        break;
    case DM_PACK:
        print_list(o, n->a);
        break;
    case DM_EXPANSION: {
        const struct dm_node *pack = find_pack(n->a, 0);
        if (!pack) {                          /* no pack in the pattern: not a kernel's name */
            o->overflow = true;
            break;
        }
        size_t len = pack_length(pack);
        for (size_t i = 0; i < len; i++) {
            o->pack_index = i;
            print(o, n->a);
            if (i + 1 < len)
                puts_(o, ", ");
        }
        break;
    }
    case DM_TPARAM: {
        const struct dm_node *a = n->a;
        if (a->kind == DM_PACK) {
            const struct dm_node *l = a->a;
            for (size_t i = 0; l && i < o->pack_index; i++)
                l = l->b;
            a = l ? l->a : NULL;
        }
        print(o, a);
        break;
    }
    }
    o->depth--;
}

static bool demangle(struct dm *d, struct dm_out *o)
{
    bool std;
    const struct dm_node *fn = parse_name(d, &std), *ret = NULL;
    if (!fn)
        return false;
    if (d->p == d->end) {                     /* a variable */
        print(o, fn);
        return !o->overflow;
    }
    if (fn->kind == DM_TEMPLATE) {            /* a function template: its arguments, then its return type */
        d->targs = fn->b;
        if (!(ret = type(d)))
            return false;
    }
    struct dm_node *params = NULL, *tail = NULL;
    while (d->p < d->end)
        if (!append(d, &params, &tail, type(d)))
            return false;
    if (!params)
        return false;
    if (!params->b && params->a->kind == DM_NAME && params->a->len == 4 && memcmp(params->a->s, "void", 4) == 0)
        params = NULL;                        /* (v): no parameters */
    if (ret) {
        print(o, ret);
        puts_(o, " ");
    }
    print(o, fn);
    puts_(o, "(");
    print_list(o, params);
    puts_(o, ")");
    return !o->overflow;
}

bool ptx_demangle(const char *name, char *out, size_t size)
{
    if (!out || size == 0)
        return false;
    size_t len = name ? strlen(name) : 0;
    if (len > 2 && name[0] == '_' && name[1] == 'Z') {
        struct dm *d = malloc(sizeof *d);     /* some 30 KiB: not on a worker's stack */
        if (d) {
            d->p = name + 2;
            d->end = name + len;
            d->nnodes = d->nsubs = d->depth = 0;
            d->targs = NULL;
            d->in_expansion = false;
            struct dm_out o = { .buf = out, .size = size };
            out[0] = 0;
            bool ok = demangle(d, &o);
            free(d);
            if (ok)
                return true;
        }
    }
    if (!name)
        name = "";
    if (len >= size)
        len = size - 1;
    memcpy(out, name, len);
    out[len] = 0;
    return false;
}
