/* emu_report.c -- where every warp of a CTA stands: PC, PTX and CUDA lines,
 * active mask and what it waits on; used for timeouts and interrupts. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "emu/emu_report.h"
#include "include/loom/loom.h"

static const char *wait_name(enum emu_wait_kind k)
{
    switch (k) {
    case EMU_WAIT_BARRIER: return "waits at a barrier";
    case EMU_WAIT_WARPSYNC: return "waits at a warp sync";
    case EMU_WAIT_POLL: return "polls memory";
    case EMU_WAIT_SLEEP: return "sleeps";
    default: return "running";
    }
}

size_t emu_cta_describe(const struct emu_cta *cta, char *buf, size_t size)
{
    const struct emu_program *p = cta->launch->prog;
    size_t used = 0;
    for (uint32_t i = 0; i < cta->nwarps && used + 1 < size; i++) {
        const struct emu_warp *w = &cta->warps[i];
        if (w->done) continue;
        uint32_t pc = w->wait.kind == EMU_WAIT_BARRIER ? w->wait.pc : w->pc;
        const struct emu_loc *loc = pc < p->ncode ? &p->locs[pc] : NULL;
        int n = snprintf(buf + used, size - used, "\n    warp %u: pc %u, line %u, active 0x%08x, %s", w->id, pc,
                         loc ? loc->ptx_line : 0, w->active, wait_name(w->wait.kind));
        if (n < 0) break;
        used += (size_t)n;
        if (w->wait.kind == EMU_WAIT_BARRIER && used + 1 < size) {
            n = snprintf(buf + used, size - used, " %u", w->wait.barrier);
            if (n > 0) used += (size_t)n;
        }
    }
    return used < size ? used : size - 1;
}

void emu_cta_report_hang(struct emu_cta *cta, int status, double seconds)
{
    struct emu_fault *f = &cta->fault_store;
    memset(f, 0, sizeof *f);
    f->status = status;
    char warps[360];
    warps[0] = 0;
    emu_cta_describe(cta, warps, sizeof warps);
    const char *what = status == LOOM_ERR_TIMEOUT ? "ran longer than" : "was interrupted after";
    snprintf(f->msg, sizeof f->msg, "kernel '%s' %s %.3g s\n  block (%u,%u,%u):%s", cta->launch->entry->ir->name, what,
             seconds, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], warps);
    cta->fault = f;
}
