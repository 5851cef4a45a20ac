#!/bin/sh
# simt.sh -- `make check` test of --simt as people type it (issue 16): an unknown policy or
# option is one line that names it and lists the valid ones, with exit 2, for loom run,
# loom exec and LOOM_SIMT; --stats prints the issue model's lines for the policy; trace=N
# draws N slots; a lock contended within a warp ends at --timeout with a report of each
# warp's groups of lanes under frontier, and completes under its.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "simt.sh: $LOOM not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-simt.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
lab=$srcdir/examples/labs/simt
ifelse="$lab/ifelse/ifelse.ptx --kernel ifelse --grid 1 --block 32 out:u32:32>$tmp/o.bin s32:32"

# expect STATUS LINE -- COMMAND...: exit status and the whole of stderr
expect() {
    want_rc=$1 want=$2
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = "$want_rc" ] || fail "$*: exit $rc, want $want_rc"
    [ "$(cat "$tmp/err")" = "$want" ] || fail "$*: stderr is '$(cat "$tmp/err")', want '$want'"
}
expect 2 "loom run: unknown SIMT policy 'dfw' (valid: pdom, its, frontier, dwf, sbi, swi, sbi+swi)" -- \
    "$LOOM" run --simt dfw $ifelse
expect 2 "loom run: SIMT policy dwf: bad option 'las=maybe' (valid: policy=majority|minority|time|pc|pdom-priority, las=on|off, swizzle=on|off, split=on|off, pool=N (warps), age=N (slots; 0: off), trace=N (slots))" -- \
    "$LOOM" run --simt dwf:las=maybe $ifelse
expect 2 "loom run: SIMT policy pdom: bad option 'trace=5' (valid: none)" -- "$LOOM" run --simt pdom:trace=5 $ifelse
expect 2 "loom run: --simt given twice" -- "$LOOM" run --simt its --simt dwf $ifelse
expect 2 "loom exec: unknown SIMT policy 'stack' (valid: pdom, its, frontier, dwf, sbi, swi, sbi+swi)" -- \
    "$LOOM" exec --simt stack /bin/true
LOOM_SIMT=sbi+swi:x=1 "$LOOM" run $ifelse >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^loom run: SIMT policy sbi+swi: bad option 'x=1' (valid: trace=N (slots))$" "$tmp/err" ||
    fail "LOOM_SIMT=sbi+swi:x=1: exit $rc, $(cat "$tmp/err")"

# --stats: the policy's line, the histogram, SBI's co-issued slots; the output unchanged.
"$LOOM" run -q --stats $ifelse 2>"$tmp/pdom" && cp "$tmp/o.bin" "$tmp/pdom.bin" || fail "pdom run"
"$LOOM" run -q --stats --simt sbi $ifelse 2>"$tmp/sbi" || fail "sbi run"
cmp -s "$tmp/o.bin" "$tmp/pdom.bin" || fail "sbi's output differs from pdom's"
grep -q "^loom run: stats: SIMT (pdom): 27 issue slots, SIMD efficiency 74.1%, 1 divergent branches, 1 reconvergences, max depth 3$" "$tmp/pdom" ||
    fail "pdom stats: $(grep SIMT "$tmp/pdom")"
grep -q "^loom run: stats: SIMT (sbi): 20 issue slots, SIMD efficiency 100.0%" "$tmp/sbi" || fail "sbi stats: $(grep SIMT "$tmp/sbi")"
grep -q "^loom run: stats:   co-issued slots 7 (35.0% of slots)$" "$tmp/sbi" || fail "sbi co-issue: $(grep co-issued "$tmp/sbi")"
grep -q "^loom run: stats:   slots by active lanes: W1-4 0.0% .* W13-16 51.9% .* W29-32 48.1%$" "$tmp/pdom" ||
    fail "pdom histogram: $(grep 'active lanes' "$tmp/pdom")"

# trace=N: N lines, the pair's second group as letters.
"$LOOM" run -q --simt sbi:trace=12 $ifelse 2>"$tmp/trace" || fail "sbi trace run"
[ "$(grep -c '^loom: simt trace: slot' "$tmp/trace")" = 12 ] || fail "trace=12 printed $(grep -c 'simt trace' "$tmp/trace") lines"
grep -q '^loom: simt trace: slot     8  a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0  w0@40 + w0@43$' "$tmp/trace" ||
    fail "trace slot 8: $(sed -n 9p "$tmp/trace")"

# The intra-warp lock: a report of lane groups under frontier; done, with the H100's counts, under its.
lock="$lab/warplock/warplock.ptx --kernel warplock_naive --grid 1 --block 32 in:u32:1=zero out:u32:2>$tmp/c.bin out:u32:32>$tmp/g.bin"
"$LOOM" run -q --timeout 1 --simt frontier $lock 2>"$tmp/lock"
rc=$?
[ $rc = 1 ] || fail "warplock_naive under frontier: exit $rc, want 1"
grep -q "^    warp 0: lanes 0x00000001 at line 44 (pc [0-9]*) waits to reconverge with lanes it diverged from; lanes 0xfffffffe at line 4[01] (pc [0-9]*) ready;$" "$tmp/lock" ||
    fail "warplock_naive report under frontier: $(cat "$tmp/lock")"
"$LOOM" run -q --simt its $lock 2>"$tmp/its" || fail "warplock_naive under its: $(cat "$tmp/its")"
[ "$(od -An -tu4 "$tmp/c.bin" | tr -s ' ')" = " 32 528" ] || fail "warplock_naive under its counted $(od -An -tu4 "$tmp/c.bin")"
# Two halves of a warp at two shfl.sync naming the whole warp: PDOM refuses with a hint; its
# runs them as the H100 did (tests/simt/halfwarp).
hw="$srcdir/tests/simt/halfwarp/halfwarp.ptx --kernel halfwarp_shfl --grid 1 --block 64 in:u32:64=iota out:u32:64>$tmp/hw.bin"
"$LOOM" run -q $hw 2>"$tmp/hw"
rc=$?
[ $rc = 1 ] && grep -q "shfl.sync member mask 0xffffffff names lanes 0x0000ffff that are not converged here (sm_70 and later GPUs let them meet at another instruction: --simt its runs that)" "$tmp/hw" ||
    fail "halfwarp_shfl under pdom: exit $rc, $(cat "$tmp/hw")"
"$LOOM" run -q --simt its $hw 2>"$tmp/hw" && cmp -s "$tmp/hw.bin" "$srcdir/tests/simt/halfwarp/expected/shfl.bin" ||
    fail "halfwarp_shfl under its: $(cat "$tmp/hw")"
[ $fails = 0 ] && echo "simt.sh: all checks passed"
exit $((fails != 0))
