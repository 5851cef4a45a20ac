/* rt_fatbin.h -- reads the fatbinaries nvcc embeds in programs: containers of PTX
 * (raw, zstd or LZ4-compressed) and SASS entries; picks the PTX Loom should load. */
#ifndef RT_FATBIN_H
#define RT_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loom/loom.h"

/* The wrapper nvcc places in section .nvFatBinSegment. */
#define RT_FATBIN_WRAPPER_MAGIC 0x466243b1u
#define RT_FATBIN_WRAPPER_V1 1      /* data: one container */
#define RT_FATBIN_WRAPPER_V2 2      /* data: device-link container; extra: NULL-terminated
                                     * array of prelinked containers (-rdc) */
struct rt_fatbin_wrapper {
    int32_t magic;
    int32_t version;
    const void *data;
    void *extra;
};

/* The container in section .nv_fatbin and its entries. */
#define RT_FATBIN_MAGIC 0xba55ed50u
#define RT_FATBIN_HEADER_SIZE 16u
#define RT_FATBIN_ENTRY_MIN_HEADER 64u

enum rt_fatbin_kind { RT_FATBIN_KIND_PTX = 1, RT_FATBIN_KIND_ELF = 2 };

#define RT_FATBIN_FLAG_64BIT 0x1ull
#define RT_FATBIN_FLAG_DEBUG 0x2ull
#define RT_FATBIN_FLAG_LINUX 0x10ull
#define RT_FATBIN_FLAG_LZ4 0x2000ull
#define RT_FATBIN_FLAG_ZSTD 0x8000ull

/* Largest decompressed PTX accepted (a corrupt size must not allocate gigabytes): what
 * libloom takes at all. */
#define RT_FATBIN_MAX_PTX LOOM_MAX_PTX_BYTES

enum rt_fatbin_status {
    RT_FATBIN_OK = 0,
    RT_FATBIN_NO_PTX,       /* SASS only: the program must be rebuilt with a PTX target */
    RT_FATBIN_EMPTY,        /* containers without any entry */
    RT_FATBIN_BAD_MAGIC,    /* not a fatbin container */
    RT_FATBIN_TRUNCATED,    /* a size runs past the end of the buffer */
    RT_FATBIN_CORRUPT,      /* inconsistent header fields */
    RT_FATBIN_DECOMPRESS,   /* zstd / LZ4 payload does not decompress to its stated size */
    RT_FATBIN_NO_SUITABLE,  /* PTX only in ISA versions newer than max_isa */
    RT_FATBIN_NOMEM,
};

struct rt_fatbin_options {
    unsigned max_isa;       /* highest PTX ISA accepted, 10 * major + minor; 0 = any */
    unsigned max_arch;      /* preferred highest target, e.g. 90 for compute_90; 0 = any */
    bool all_containers;    /* read containers back to back until max_len (a whole section) */
    FILE *log;              /* verbose: one line per candidate and the choice; NULL = quiet */
};

/* One chosen PTX text per container that holds PTX. */
struct rt_fatbin_ptx {
    char *text;             /* NUL-terminated, malloc'd */
    size_t len;             /* strlen(text) */
    unsigned isa;           /* 10 * major + minor */
    unsigned arch;          /* compute_XX */
    uint64_t flags;         /* entry flags (compression, debug) */
    size_t offset;          /* of the entry header from the start of the buffer */
    unsigned container;     /* index of its container */
};

struct rt_fatbin_result {
    struct rt_fatbin_ptx *ptx;
    unsigned count;         /* entries in ptx[] */
    unsigned containers;    /* containers read */
    unsigned ptx_entries;   /* PTX entries seen (all versions) */
    unsigned elf_entries;   /* SASS entries seen */
    unsigned elf_arch_max;  /* highest sm_XX among SASS entries */
    size_t consumed;        /* bytes from the start through the last container read */
    char message[320];      /* one line saying what went wrong (empty on success) */
};

/* Extracts PTX from the container at data (or, with all_containers, from every
 * container back to back). max_len bounds every read. Pure: no global state,
 * never reads outside [data, data + max_len). Returns an rt_fatbin_status; on
 * failure out->message holds one line for the user. Free with rt_fatbin_result_free. */
int rt_fatbin_extract_ptx(const void *data, size_t max_len, const struct rt_fatbin_options *opt,
                          struct rt_fatbin_result *out);
void rt_fatbin_result_free(struct rt_fatbin_result *r);

/* Size of the container at data (header + body), or 0 if it is not a valid header within max_len. */
size_t rt_fatbin_container_size(const void *data, size_t max_len);

const char *rt_fatbin_status_string(int status);

#endif
