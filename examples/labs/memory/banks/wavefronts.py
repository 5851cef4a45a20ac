#!/usr/bin/env python3
"""The H100's shared-memory wavefront rule, as the banks lab's recordings show it, checked against them.

    wavefronts.py          prints, per kernel of the lab, the rule's wavefronts and conflicts per
                           load request beside the H100's (ncu-h100.tsv); exits 1 on a difference

The rule, for one warp-wide request of SIZE-byte words (4, 8 or 16), given the byte address of
each active lane:
  - 4 bytes: the whole warp at once; wavefronts = the largest number of different 4-byte words
    that the active lanes address in any one bank (32 banks, bank = address / 4 mod 32).
  - 8 and 16 bytes: the warp is served in passes of 256 bytes of lane data (8 bytes: one pass of
    32 lanes; 16 bytes: two passes, lanes 0-15 and 16-31), each pass in two sub-groups of 128
    bytes (8 bytes: half-warps; 16 bytes: quarter-warps). A sub-group needs wavefronts as a
    4-byte request over the words it touches. The two sub-groups of a pass share one wavefront
    when each needs one, their distinct words add up to at most 128 bytes (counted per
    sub-group: the same word read by both counts twice) and no bank holds two different words
    of them; otherwise their wavefronts add up. Passes never share a wavefront.
  - bank conflicts = wavefronts - the wavefronts the same request would need if every sub-group
    (or the warp, for 4 bytes) with an active lane needed one.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def bank_words(addrs, size):
    """bank -> the set of 4-byte words the addresses touch in it."""
    banks = {}
    for a in addrs:
        for w in range(a // 4, (a + size) // 4):
            banks.setdefault(w % 32, set()).add(w)
    return banks


def group_need(addrs, size, ideal):
    if not addrs:
        return 0
    return 1 if ideal else max(len(s) for s in bank_words(addrs, size).values())


def wavefronts(lanes, size, ideal=False):
    """lanes: 32 byte addresses, None for an inactive lane."""
    if size == 4:
        return group_need([a for a in lanes if a is not None], 4, ideal)
    sub, per_pass = (16, 32) if size == 8 else (8, 16)
    total = 0
    for first in range(0, 32, per_pass):
        g0, g1 = ([a for a in lanes[g:g + sub] if a is not None] for g in (first, first + sub))
        need = [group_need(g0, size, ideal), group_need(g1, size, ideal)]
        share = (need == [1, 1] and (len(set(g0)) + len(set(g1))) * size <= 128
                 and all(len(s) == 1 for s in bank_words(g0 + g1, size).values()))
        total += 1 if share else sum(need)
    return total


def pattern(index, size, active=lambda lane: True):
    return [size * index(lane) if active(lane) else None for lane in range(32)]


# The load of each kernel of banks.cu, for one warp (the others are alike); element indices.
KERNELS = {
    "bank_s1": pattern(lambda l: l ^ 1, 4), "bank_s2": pattern(lambda l: 2 * (l ^ 1), 4),
    "bank_s32": pattern(lambda l: 32 * (l ^ 1), 4),
    "transpose_32": pattern(lambda l: 32 * l + 5, 4), "transpose_33": pattern(lambda l: 33 * l + 5, 4),
    "bank_f64_s1": pattern(lambda l: l ^ 1, 8), "bank_f64_s2": pattern(lambda l: 2 * (l ^ 1), 8),
    "bank_f64_halves": pattern(lambda l: 16 * l if l < 16 else 256 + 16 * (l - 16) + 1, 8),
    "bank_f4_s1": pattern(lambda l: l ^ 1, 16), "bank_f4_s2": pattern(lambda l: 2 * (l ^ 1), 16),
    "bank_f4_quarters": pattern(lambda l: 8 * (l % 8) + 65 * (l // 8), 16),
    "pick64_all_same": pattern(lambda l: 0, 8), "pick64_halves_same": pattern(lambda l: l % 16, 8),
    "pick64_pairs": pattern(lambda l: l // 2, 8),
    "pick64_half_active": pattern(lambda l: l, 8, lambda l: l < 16),
    "pick64_two_lanes": pattern(lambda l: l, 8, lambda l: l in (0, 31)),
    "pick128_all_same": pattern(lambda l: 0, 16), "pick128_halves_bcast": pattern(lambda l: l // 16, 16),
    "pick128_quarters_bcast": pattern(lambda l: l // 8, 16),
    "pick128_q01_same": pattern(lambda l: l % 8 + 8 * (l // 16), 16),
    "pick128_q02_same": pattern(lambda l: l % 8 + 8 * (l // 8 % 2), 16),
    "pick128_quarter_active": pattern(lambda l: l, 16, lambda l: l < 8),
    "pick128_two_lanes": pattern(lambda l: l, 16, lambda l: l in (0, 31)),
}
WARPS = {"transpose_32": 128, "transpose_33": 128}   # load requests of the launch; the others 8


def main():
    h100 = {}
    for line in open(os.path.join(HERE, "..", "ncu-h100.tsv")):
        if not line.startswith("#") and line.strip():
            k, metric, value = line.rstrip("\n").split("\t")
            h100[(k, metric)] = value
    bad = 0
    print("%-24s %6s %6s %9s %9s" % ("kernel", "wavefr", "H100", "conflicts", "H100"))
    for k, lanes in KERNELS.items():
        size = 4 if k.startswith(("bank_s", "transpose")) else 8 if "64" in k else 16
        n = WARPS.get(k, 8)
        w, i = n * wavefronts(lanes, size), n * wavefronts(lanes, size, ideal=True)
        hw = h100.get((k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), "-")
        hc = h100.get((k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), "-")
        ok = hw == str(w) and hc == str(w - i)
        bad += not ok
        print("%-24s %6d %6s %9d %9s%s" % (k, w, hw, w - i, hc, "" if ok else "  DIFFERS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
