/* emu_lanes.h -- lane-loop building blocks shared by the instruction-family files.
 * Masked writes and mask expansion written so that gcc vectorises the lane loops. */
#ifndef LOOM_EMU_LANES_H
#define LOOM_EMU_LANES_H

#include <stdint.h>

#include "emu/emu.h"

/* Bit l of a lane mask, from a table: a load of this table vectorises with
 * baseline SSE2, where the shift `m >> l` needs per-lane variable shifts. */
static const uint32_t emu_lane_bit32[EMU_WARP_SIZE] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};
static const uint64_t emu_lane_bit64[EMU_WARP_SIZE] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* All-ones when lane l is in m, else zero, as a 32-bit and as a 64-bit lane.
 * The 64-bit form avoids a 64-bit compare (SSE2 has none): the masked bit is
 * at most 2^31, so adding 2^32-1 carries into bit 32 exactly when it is set. */
static inline uint32_t emu_lane_k32(emu_mask m, unsigned l)
{
    return 0u - (uint32_t)((m & emu_lane_bit32[l]) != 0);
}
static inline uint64_t emu_lane_k64(emu_mask m, unsigned l)
{
    return (uint64_t)0 - ((((uint64_t)m & emu_lane_bit64[l]) + 0xFFFFFFFFu) >> 32);
}

/* The lane loop of an element-wise handler: lane l reads only lane l of its
 * sources, so a destination row that is also a source row carries no
 * dependence between iterations (ivdep spares the vectoriser's alias checks,
 * which -O2's cheap cost model refuses). Never for cross-lane operations. */
#define EMU_EACH(l) _Pragma("GCC ivdep") for (unsigned l = 0; l < EMU_WARP_SIZE; l++)

/* Masked writes of lane l: the value is computed for every lane, the old one
 * kept where the lane is off (a blend, no branch). */
#define EMU_PUT32(row, m, l, x) do { \
        uint32_t put_x_ = (x), put_o_ = (row)[l]; \
        (row)[l] = ((m) & emu_lane_bit32[l]) ? put_x_ : put_o_; \
    } while (0)
#define EMU_PUT64(row, m, l, x) do { \
        uint64_t put_x_ = (x), put_k_ = emu_lane_k64((m), (l)); \
        (row)[l] = ((row)[l] & ~put_k_) | (put_x_ & put_k_); \
    } while (0)

/* Sign extension of the low 8/16 bits of a 32-bit lane value. */
static inline uint32_t emu_sx8(uint32_t v) { return (uint32_t)(int32_t)(int8_t)(uint8_t)v; }
static inline uint32_t emu_sx16(uint32_t v) { return (uint32_t)(int32_t)(int16_t)(uint16_t)v; }

/* Predicate write: only the bits of lanes in m change. */
static inline void emu_pred_put(struct emu_warp *w, uint16_t row, emu_mask m, emu_mask bits)
{
    w->pred[row] = (w->pred[row] & ~m) | (bits & m);
}

#endif
