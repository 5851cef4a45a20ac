/* fuzz_fatbin.c -- libFuzzer harness for the fatbinary reader (runtime/rt_fatbin.c): any
 * bytes, read as one container or as a section of containers back to back, must give a
 * status and well-formed results without a crash, leak, overread or undefined behaviour. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Extracts with one set of options and checks what the reader promises about its results. */
static void extract(const uint8_t *data, size_t size, const struct rt_fatbin_options *opt)
{
    struct rt_fatbin_result r;
    memset(&r, 0xA5, sizeof r);   /* the reader must initialise every field it reports */
    int st = rt_fatbin_extract_ptx(data, size, opt, &r);
    if (strlen(rt_fatbin_status_string(st)) == 0 || memchr(r.message, 0, sizeof r.message) == NULL)
        abort();
    if (st == RT_FATBIN_OK) {
        if (r.consumed > size)
            abort();
        for (unsigned i = 0; i < r.count; i++) {
            const struct rt_fatbin_ptx *p = &r.ptx[i];
            if (!p->text || strlen(p->text) != p->len || p->offset >= size)
                abort();
        }
    }
    rt_fatbin_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;   /* the verbose log's formatting runs too */
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    struct rt_fatbin_options one = { 0 }, all = { .all_containers = true },
                             picky = { .max_isa = 78, .max_arch = 75, .all_containers = true, .log = devnull };
    extract(data, size, &one);
    extract(data, size, &all);
    extract(data, size, &picky);
    size_t c = rt_fatbin_container_size(data, size);
    if (c > size)
        abort();
    return 0;
}
