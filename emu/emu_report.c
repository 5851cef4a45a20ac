/* emu_report.c -- where every warp of a CTA stands: PC, PTX and CUDA lines,
 * active mask and what it waits on; used for timeouts and interrupts. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "emu/emu_report.h"
#include "emu/simt/emu_simt.h"
#include "include/loom/loom.h"
#include "ptx/ptx_demangle.h"

static const char *wait_name(enum emu_wait_kind k)
{
    switch (k) {
    case EMU_WAIT_BARRIER: return "waits at barrier";
    case EMU_WAIT_WARPSYNC: return "waits at a warp sync";
    case EMU_WAIT_POLL: return "polls memory";
    case EMU_WAIT_SLEEP: return "sleeps";
    default: return "running";
    }
}

static uint32_t warp_pc(const struct emu_warp *w)
{
    return emu_wait_kind(w) == EMU_WAIT_BARRIER ? w->wait.pc : w->pc;
}

/* Whether two unfinished warps stand at the same place in the same way. */
static bool same_state(const struct emu_warp *a, const struct emu_warp *b)
{
    enum emu_wait_kind ka = emu_wait_kind(a);
    return warp_pc(a) == warp_pc(b) && a->active == b->active && ka == emu_wait_kind(b) &&
           (ka != EMU_WAIT_BARRIER || a->wait.barrier == b->wait.barrier);
}

/* The CUDA file of a location, without its folders (reports are short). */
static const char *cu_file(const struct emu_program *p, const struct emu_loc *loc)
{
    for (uint32_t i = 0; i < p->ir->nfiles; i++)
        if (p->ir->files[i].index == loc->cu_file) {
            const char *path = p->ir->files[i].path, *slash = path ? strrchr(path, '/') : NULL;
            return slash ? slash + 1 : path ? path : "?";
        }
    return "?";
}

/* One line per run of consecutive warps in the same state:
 *   warps 2-7: line 35 (spin.cu:7), pc 4, active 0xffffffff, running */
size_t emu_cta_describe(const struct emu_cta *cta, char *buf, size_t size)
{
    if (cta->steps) return emu_steps_describe(cta, buf, size);   /* per-lane pcs (emu/simt/steps.c) */
    const struct emu_program *p = cta->launch->prog;
    size_t used = 0;
    if (size) buf[0] = 0;
    for (uint32_t i = 0; i < cta->nwarps && used + 1 < size;) {
        const struct emu_warp *w = &cta->warps[i];
        if (w->done) { i++; continue; }
        uint32_t j = i + 1;
        while (j < cta->nwarps && !cta->warps[j].done && same_state(w, &cta->warps[j])) j++;
        uint32_t pc = warp_pc(w);
        const struct emu_loc *loc = pc < p->ncode ? &p->locs[pc] : NULL;
        char who[32], cu[96] = "", wait[48];
        if (j - i == 1) snprintf(who, sizeof who, "warp %u", i);
        else snprintf(who, sizeof who, "warps %u-%u", i, j - 1);
        if (loc && loc->cu_line) snprintf(cu, sizeof cu, " (%s:%u)", cu_file(p, loc), loc->cu_line);
        enum emu_wait_kind kind = emu_wait_kind(w);
        if (kind == EMU_WAIT_BARRIER) snprintf(wait, sizeof wait, "%s %u", wait_name(kind), w->wait.barrier);
        else snprintf(wait, sizeof wait, "%s", wait_name(kind));
        /* Lanes that the PDOM stack holds back (a split path, or a reconvergence point
         * they wait at): an intra-warp livelock shows as lanes that can never go on. */
        char held[160] = "";
        size_t hu = 0;
        emu_mask shown = w->active;
        for (uint32_t e = w->sp; e-- > 0 && hu + 48 < sizeof held;) {
            emu_mask lanes = w->stack[e].mask & ~shown & ~w->exited;
            if (!lanes || w->stack[e].pc >= p->ncode) continue;
            shown |= lanes;
            hu += (size_t)snprintf(held + hu, sizeof held - hu, "; lanes 0x%08x wait at line %u", lanes,
                                   p->locs[w->stack[e].pc].ptx_line);
        }
        char line[384];
        int n = snprintf(line, sizeof line, "\n    %s: line %u%s, pc %u, active 0x%08x, %s%s", who,
                         loc ? loc->ptx_line : 0, cu, pc, w->active, wait, held);
        if (n < 0) break;
        if (used + (size_t)n + 1 > size) {   /* no room: say how many are left out */
            uint32_t rest = 0;
            for (uint32_t k = i; k < cta->nwarps; k++) rest += !cta->warps[k].done;
            n = snprintf(line, sizeof line, "\n    ... %u more warp%s", rest, rest == 1 ? "" : "s");
            if (n > 0 && used + (size_t)n + 1 <= size) { memcpy(buf + used, line, (size_t)n + 1); used += (size_t)n; }
            break;
        }
        memcpy(buf + used, line, (size_t)n + 1);
        used += (size_t)n;
        i = j;
    }
    return used;
}

void emu_cta_report_hang(struct emu_cta *cta, int status, double seconds)
{
    struct emu_fault *f = &cta->fault_store;
    memset(f, 0, sizeof *f);
    f->status = status;
    const struct emu_launch *L = cta->launch;
    const char *what = status == LOOM_ERR_TIMEOUT ? "ran longer than" : "was interrupted after";
    char kernel[1024];
    ptx_demangle(L->entry->ir->name, kernel, sizeof kernel);
    int head = snprintf(f->msg, sizeof f->msg, "kernel '%s' %s %.3g s; unfinished warps of block (%u,%u,%u), lines of %s:",
                        kernel, what, seconds, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2],
                        L->prog->ir->path ? L->prog->ir->path : "<ptx>");
    if (head > 0 && (size_t)head < sizeof f->msg)
        emu_cta_describe(cta, f->msg + head, sizeof f->msg - (size_t)head);
    cta->fault = f;
}
