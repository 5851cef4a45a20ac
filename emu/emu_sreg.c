/* emu_sreg.c -- special registers that change while a warp runs (%clock,
 * %clock64, %globaltimer); stable ones are rows filled at warp start (emu_exec.c). */
#include "config.h"

#include <time.h>

#include "emu/emu_exec.h"
#include "emu/emu_lanes.h"

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* %clock64 counts "cycles": here the warp's executed instructions plus time,
 * so it is monotonic per warp as on the GPU. */
static uint64_t clock_value(const struct emu_warp *w) { return now_ns() + w->n_inst; }

static int h_clock64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t v = clock_value(w) >> in->sub;
    uint64_t *d = w->r64[in->d];
    EMU_EACH(l) EMU_PUT64(d, m, l, v);
    return EMU_CONTINUE;
}

static int h_clock32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t v = (uint32_t)(clock_value(w) >> in->sub);
    uint32_t *d = w->r32[in->d];
    EMU_EACH(l) EMU_BLEND32(d, m, l, v);
    return EMU_CONTINUE;
}

static int h_timer64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) >> in->sub;
    uint64_t *d = w->r64[in->d];
    EMU_EACH(l) EMU_PUT64(d, m, l, v);
    return EMU_CONTINUE;
}

static int h_timer32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint32_t v = (uint32_t)(((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) >> in->sub);
    uint32_t *d = w->r32[in->d];
    EMU_EACH(l) EMU_BLEND32(d, m, l, v);
    return EMU_CONTINUE;
}

static int h_zero64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint64_t *d = w->r64[in->d];
    EMU_EACH(l) EMU_PUT64(d, m, l, 0);
    return EMU_CONTINUE;
}

/* Emits a helper instruction producing special register s into a scratch row
 * when its value changes over time; returns 0 for stable registers. */
int emu_sreg_dynamic(struct emu_decoder *dc, enum ptx_sreg s, bool wide, uint16_t *out_row);
int emu_sreg_dynamic(struct emu_decoder *dc, enum ptx_sreg s, bool wide, uint16_t *out_row)
{
    emu_fn f32 = NULL, f64 = NULL;
    uint8_t shift = 0;
    switch (s) {
    case PTX_SREG_CLOCK: case PTX_SREG_CLOCK64: f32 = h_clock32; f64 = h_clock64; break;
    case PTX_SREG_CLOCK_HI: f32 = h_clock32; f64 = h_clock64; shift = 32; break;
    case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO: f32 = h_timer32; f64 = h_timer64; break;
    case PTX_SREG_GLOBALTIMER_HI: f32 = h_timer32; f64 = h_timer64; shift = 32; break;
    case PTX_SREG_GRIDID: if (!wide) return 0; f64 = h_zero64; f32 = NULL; break;
    default:
        if (s >= PTX_SREG_PM0 && s <= PTX_SREG_PM7_64) { f32 = h_clock32; f64 = h_zero64; break; }
        return 0;
    }
    uint16_t row = wide ? emu_dec_scratch64(dc) : emu_dec_scratch32(dc);
    struct emu_inst *p = emu_dec_pre(dc);
    p->fn = wide ? f64 : f32;
    p->d = row;
    p->sub = shift;
    *out_row = row;
    return p->fn != NULL;
}
