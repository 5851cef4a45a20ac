/* emu_check.h -- the optional deeper checks: initcheck (reads of global memory never
 * written) and racecheck (shared-memory accesses of different threads of a CTA with no
 * barrier between them, at least one a write). Shadow state lives here, not in handlers. */
#ifndef LOOM_EMU_CHECK_H
#define LOOM_EMU_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

struct mem_space;

/* ---- initcheck: one per device ------------------------------------------------------
 * A bitmap of written bytes per device allocation (cudaMalloc memory and the device
 * heap). Module variables (zero-initialised or initialised in the PTX), constant,
 * managed and host memory always count as written: the host writes them directly. */
struct emu_check;
struct emu_check *emu_check_create(struct mem_space *mem);
void emu_check_destroy(struct emu_check *c);
/* Every allocation is gone (device reset). Call when no kernel runs. */
void emu_check_reset(struct emu_check *c);
/* Frees the shadows of allocations that were freed. Call when no kernel runs. */
void emu_check_quiesce(struct emu_check *c);
/* The host wrote [addr, addr + n) (a copy or memset): the bytes of it that lie in
 * device allocations count as written. Addresses outside allocations are ignored. */
void emu_check_host_write(struct emu_check *c, uint64_t addr, uint64_t n);

/* ---- Hooks for emu_mem_ptr (only when the launch enables the check) -----------------
 * Each checks lane l's access; on a finding it records the fault report (emu_fault) and
 * returns NULL / false, else the host pointer / true. */
void *emu_check_global(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t addr, unsigned size,
                       bool write);
bool emu_check_shared(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t off, unsigned size,
                      bool write);

/* ---- racecheck: ordering events and the per-CTA state ------------------------------- */
/* A barrier of the CTA completed: accesses before it are ordered with those after. */
void emu_check_barrier(struct emu_cta *cta);
/* bar.warp.sync: the same, among the lanes of one warp. */
void emu_check_warp_sync(struct emu_warp *w);
/* Frees the CTA context's race shadow (emu_cta_destroy). */
void emu_check_cta_free(struct emu_cta *cta);

#endif
