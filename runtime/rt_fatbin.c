/* rt_fatbin.c -- the fatbinary reader: walks containers and entries with bounds
 * checks on every field, decompresses PTX (zstd, LZ4 raw block) and picks one per container. */
#include "runtime/rt_fatbin.h"

#include <lz4.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Entry header fields (offsets in bytes). */
enum {
    ENT_KIND = 0,           /* u16 */
    ENT_HEADER_SIZE = 4,    /* u32 */
    ENT_PAYLOAD_SIZE = 8,   /* u64, padded */
    ENT_COMPRESSED = 16,    /* u32 */
    ENT_MINOR = 24,         /* u16 */
    ENT_MAJOR = 26,         /* u16 */
    ENT_ARCH = 28,          /* u32 */
    ENT_FLAGS = 40,         /* u64 */
    ENT_DECOMPRESSED = 56,  /* u64, includes the trailing NUL */
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static const char *const status_strings[] = {
    [RT_FATBIN_OK] = "success",
    [RT_FATBIN_NO_PTX] = "no PTX in the fatbinary",
    [RT_FATBIN_EMPTY] = "empty fatbinary",
    [RT_FATBIN_BAD_MAGIC] = "not a fatbinary container",
    [RT_FATBIN_TRUNCATED] = "truncated fatbinary",
    [RT_FATBIN_CORRUPT] = "corrupt fatbinary",
    [RT_FATBIN_DECOMPRESS] = "PTX payload does not decompress",
    [RT_FATBIN_NO_SUITABLE] = "PTX ISA version too new",
    [RT_FATBIN_NOMEM] = "out of memory",
};

const char *rt_fatbin_status_string(int status)
{
    if (status < 0 || (size_t)status >= sizeof status_strings / sizeof status_strings[0])
        return "unknown fatbinary status";
    return status_strings[status];
}

static int fail(struct rt_fatbin_result *out, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
    return status;
}

size_t rt_fatbin_container_size(const void *data, size_t max_len)
{
    const uint8_t *p = data;
    if (!p || max_len < RT_FATBIN_HEADER_SIZE || rd32(p) != RT_FATBIN_MAGIC)
        return 0;
    uint16_t hs = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hs < RT_FATBIN_HEADER_SIZE || hs > max_len || body > max_len - hs)
        return 0;
    return hs + (size_t)body;
}

/* One PTX entry found while walking a container. */
struct cand {
    const uint8_t *hdr;
    const uint8_t *payload;
    uint64_t payload_size;
    unsigned isa, arch;
    uint64_t flags;
};

/* Returns the PTX text of a candidate, decompressed and NUL-terminated. */
static int cand_text(const struct cand *c, struct rt_fatbin_result *out, char **out_text, size_t *out_len)
{
    uint32_t csize = rd32(c->hdr + ENT_COMPRESSED);
    uint64_t dsize = rd64(c->hdr + ENT_DECOMPRESSED);
    bool lz4 = c->flags & RT_FATBIN_FLAG_LZ4, zstd = c->flags & RT_FATBIN_FLAG_ZSTD;
    char *text;
    size_t n;

    if (!lz4 && !zstd) {
        n = strnlen((const char *)c->payload, (size_t)c->payload_size);
        if (n > RT_FATBIN_MAX_PTX)
            return fail(out, RT_FATBIN_CORRUPT, "PTX entry of %zu bytes is too large", n);
        if (!(text = malloc(n + 1)))
            return fail(out, RT_FATBIN_NOMEM, "out of memory reading PTX");
        memcpy(text, c->payload, n);
    } else {
        if (lz4 && zstd)
            return fail(out, RT_FATBIN_CORRUPT, "PTX entry claims both LZ4 and zstd compression");
        if (csize == 0 || csize > c->payload_size || csize > INT32_MAX)
            return fail(out, RT_FATBIN_CORRUPT, "compressed size %u does not fit the payload of %llu bytes",
                        csize, (unsigned long long)c->payload_size);
        if (dsize == 0 || dsize > RT_FATBIN_MAX_PTX)
            return fail(out, RT_FATBIN_CORRUPT, "implausible decompressed PTX size %llu",
                        (unsigned long long)dsize);
        if (!(text = malloc((size_t)dsize + 1)))
            return fail(out, RT_FATBIN_NOMEM, "out of memory decompressing PTX");
        if (zstd) {
            size_t r = ZSTD_decompress(text, (size_t)dsize, c->payload, csize);
            if (ZSTD_isError(r) || r != dsize) {
                free(text);
                return fail(out, RT_FATBIN_DECOMPRESS, "zstd PTX payload is corrupt (%s)",
                            ZSTD_isError(r) ? ZSTD_getErrorName(r) : "size mismatch");
            }
        } else {
            int r = LZ4_decompress_safe((const char *)c->payload, text, (int)csize, (int)dsize);
            if (r < 0 || (uint64_t)r != dsize) {
                free(text);
                return fail(out, RT_FATBIN_DECOMPRESS, "LZ4 PTX payload is corrupt");
            }
        }
        n = strnlen(text, (size_t)dsize);
    }
    text[n] = '\0';
    *out_text = text;
    *out_len = n;
    return RT_FATBIN_OK;
}

/* Orders candidates: within the ISA limit first, then within the preferred
 * arch, then the highest ISA version, then the highest arch. */
static bool cand_better(const struct cand *a, const struct cand *b, const struct rt_fatbin_options *o)
{
    bool a_isa = !o->max_isa || a->isa <= o->max_isa, b_isa = !o->max_isa || b->isa <= o->max_isa;
    bool a_arch = !o->max_arch || a->arch <= o->max_arch, b_arch = !o->max_arch || b->arch <= o->max_arch;
    if (a_isa != b_isa)
        return a_isa;
    if (a_arch != b_arch)
        return a_arch;
    if (a->isa != b->isa)
        return a->isa > b->isa;
    return a->arch > b->arch;
}

static int push_ptx(struct rt_fatbin_result *out, const struct rt_fatbin_ptx *p)
{
    struct rt_fatbin_ptx *v = realloc(out->ptx, (out->count + 1) * sizeof *v);
    if (!v)
        return fail(out, RT_FATBIN_NOMEM, "out of memory");
    out->ptx = v;
    v[out->count++] = *p;
    return RT_FATBIN_OK;
}

/* Reads one container at base + pos; adds its chosen PTX to out. */
static int read_container(const uint8_t *base, size_t max_len, size_t pos, unsigned index,
                          const struct rt_fatbin_options *o, struct rt_fatbin_result *out, size_t *out_end)
{
    const uint8_t *c = base + pos;
    size_t avail = max_len - pos;
    if (avail < RT_FATBIN_HEADER_SIZE)
        return fail(out, RT_FATBIN_TRUNCATED, "fatbin container header truncated at offset %zu", pos);
    if (rd32(c) != RT_FATBIN_MAGIC)
        return fail(out, RT_FATBIN_BAD_MAGIC, "no fatbin container at offset %zu (magic 0x%08x)", pos, rd32(c));
    uint16_t hs = rd16(c + 6);
    uint64_t body = rd64(c + 8);
    if (hs < RT_FATBIN_HEADER_SIZE || hs > avail)
        return fail(out, RT_FATBIN_CORRUPT, "fatbin container header size %u is invalid", hs);
    if (body > avail - hs)
        return fail(out, RT_FATBIN_TRUNCATED, "fatbin container body of %llu bytes runs past the end (%zu left)",
                    (unsigned long long)body, avail - hs);
    *out_end = pos + hs + (size_t)body;

    struct cand best = { 0 };
    bool have = false;
    unsigned min_isa = ~0u;
    const uint8_t *e = c + hs, *end = c + hs + body;
    while (e < end) {
        size_t left = (size_t)(end - e);
        if (left < RT_FATBIN_ENTRY_MIN_HEADER)
            return fail(out, RT_FATBIN_TRUNCATED, "fatbin entry header truncated at offset %zu",
                        (size_t)(e - base));
        uint32_t ehs = rd32(e + ENT_HEADER_SIZE);
        uint64_t psize = rd64(e + ENT_PAYLOAD_SIZE);
        if (ehs < RT_FATBIN_ENTRY_MIN_HEADER || ehs > left)
            return fail(out, RT_FATBIN_CORRUPT, "fatbin entry header size %u is invalid at offset %zu",
                        ehs, (size_t)(e - base));
        if (psize > left - ehs)
            return fail(out, RT_FATBIN_TRUNCATED, "fatbin entry payload of %llu bytes runs past its container",
                        (unsigned long long)psize);
        struct cand k = {
            .hdr = e, .payload = e + ehs, .payload_size = psize,
            .isa = 10u * rd16(e + ENT_MAJOR) + rd16(e + ENT_MINOR),
            .arch = rd32(e + ENT_ARCH), .flags = rd64(e + ENT_FLAGS),
        };
        uint16_t kind = rd16(e + ENT_KIND);
        if (kind == RT_FATBIN_KIND_PTX) {
            out->ptx_entries++;
            if (o->log)
                fprintf(o->log, "loom: fatbin: container %u: PTX ISA %u.%u for compute_%u (%s)\n", index,
                        k.isa / 10, k.isa % 10, k.arch,
                        k.flags & RT_FATBIN_FLAG_ZSTD ? "zstd" : k.flags & RT_FATBIN_FLAG_LZ4 ? "lz4" : "raw");
            if (!have || cand_better(&k, &best, o))
                best = k;
            if (k.isa < min_isa)
                min_isa = k.isa;
            have = true;
        } else if (kind == RT_FATBIN_KIND_ELF) {
            out->elf_entries++;
            if (k.arch > out->elf_arch_max)
                out->elf_arch_max = k.arch;
        }
        e += ehs + psize;
    }
    if (!have)
        return RT_FATBIN_OK;
    if (o->max_isa && best.isa > o->max_isa)
        return fail(out, RT_FATBIN_NO_SUITABLE,
                    "the program's PTX is ISA %u.%u or newer; Loom reads PTX up to ISA %u.%u (rebuild it with an older CUDA)",
                    min_isa / 10, min_isa % 10, o->max_isa / 10, o->max_isa % 10);
    struct rt_fatbin_ptx p = { .isa = best.isa, .arch = best.arch, .flags = best.flags,
                               .offset = (size_t)(best.hdr - base), .container = index };
    int st = cand_text(&best, out, &p.text, &p.len);
    if (st != RT_FATBIN_OK)
        return st;
    if (o->log)
        fprintf(o->log, "loom: fatbin: container %u: chose PTX ISA %u.%u for compute_%u (%zu bytes)\n", index,
                p.isa / 10, p.isa % 10, p.arch, p.len);
    if ((st = push_ptx(out, &p)) != RT_FATBIN_OK)
        free(p.text);
    return st;
}

int rt_fatbin_extract_ptx(const void *data, size_t max_len, const struct rt_fatbin_options *opt,
                          struct rt_fatbin_result *out)
{
    static const struct rt_fatbin_options defaults;
    const struct rt_fatbin_options *o = opt ? opt : &defaults;
    const uint8_t *base = data;
    memset(out, 0, sizeof *out);
    if (!base)
        return fail(out, RT_FATBIN_BAD_MAGIC, "no fatbinary (NULL)");

    size_t pos = 0;
    int st = RT_FATBIN_OK;
    for (;;) {
        size_t end = pos;
        st = read_container(base, max_len, pos, out->containers, o, out, &end);
        if (st != RT_FATBIN_OK)
            break;
        out->containers++;
        out->consumed = pos = end;
        if (!o->all_containers || max_len - pos < RT_FATBIN_HEADER_SIZE || rd32(base + pos) != RT_FATBIN_MAGIC)
            break;
    }
    if (st != RT_FATBIN_OK) {
        rt_fatbin_result_free(out);
        return st;
    }
    if (out->count == 0) {
        if (out->elf_entries) {
            unsigned a = out->elf_arch_max;
            return fail(out, RT_FATBIN_NO_PTX,
                        "the program holds only SASS (sm_%u), no PTX: rebuild it with "
                        "-gencode arch=compute_%u,code=compute_%u so that Loom can run its kernels", a, a, a);
        }
        return fail(out, RT_FATBIN_EMPTY, "the fatbinary holds no PTX and no SASS");
    }
    return RT_FATBIN_OK;
}

void rt_fatbin_result_free(struct rt_fatbin_result *r)
{
    for (unsigned i = 0; i < r->count; i++)
        free(r->ptx[i].text);
    free(r->ptx);
    r->ptx = NULL;
    r->count = 0;
}
