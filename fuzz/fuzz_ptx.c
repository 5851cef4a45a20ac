/* fuzz_ptx.c -- libFuzzer harness for the PTX front end: any input must parse, check,
 * analyse (the uniformity analysis of each kernel too) and have its function names
 * demangled without a crash, leak or undefined behaviour. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ptx/ptx_demangle.h"
#include "ptx/ptx_ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &d);
    if (m) {
        ptx_check(m, &d);
        ptx_analyze(m, &d);
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            char buf[256];
            const struct ptx_func *f = m->funcs[i];
            for (uint32_t k = 0; k < f->ninstrs; k++)
                ptx_instr_name(&f->instrs[k], buf, sizeof buf);
            if (f->name)
                ptx_demangle(f->name, buf, sizeof buf);
            if (f->is_entry && !f->is_decl && f->blocks) {
                bool *uniform = NULL;
                free(ptx_lane_strides(f, &uniform));
                free(uniform);
            }
        }
    }
    ptx_module_free(m);
    ptx_diags_free(&d);
    return 0;
}
