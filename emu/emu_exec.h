/* emu_exec.h -- running CTAs: what the scheduler (sched/) calls, and the SIMT
 * helpers control-flow handlers use. */
#ifndef LOOM_EMU_EXEC_H
#define LOOM_EMU_EXEC_H

#include "emu/emu_internal.h"
#include "emu/simt/emu_simt.h"

enum emu_cta_state { EMU_CTA_DONE, EMU_CTA_YIELD, EMU_CTA_FAULT };

struct emu_cta *emu_cta_create(const struct emu_launch *L);
void emu_cta_destroy(struct emu_cta *cta);
void emu_cta_begin(struct emu_cta *cta, const uint32_t ctaid[3], uint32_t smid);
enum emu_cta_state emu_cta_run(struct emu_cta *cta, uint64_t budget);

#endif
