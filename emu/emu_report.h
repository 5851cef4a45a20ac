/* emu_report.h -- reports about a running CTA for people: where every warp
 * stands (hangs, timeouts, interrupts). */
#ifndef LOOM_EMU_REPORT_H
#define LOOM_EMU_REPORT_H

#include <stddef.h>

#include "emu/emu.h"

/* Stops a CTA that ran too long (or was interrupted): fills cta->fault with
 * `status` and a report naming, for each unfinished warp, its PC, PTX line,
 * active mask and what it waits on. */
void emu_cta_report_hang(struct emu_cta *cta, int status, double seconds);

/* Writes the warp-by-warp state of a CTA into buf; returns the length. */
size_t emu_cta_describe(const struct emu_cta *cta, char *buf, size_t size);

#endif
