#!/bin/sh
# progress.sh -- `make check` test, run the way people see it: in a terminal (tmux), a
# kernel that runs for 3.5 s shows "loom: kernel 'spin': N of 3 CTAs, T s" on stderr after
# 2 s, and the line is erased when the kernel ends; with --quiet, and in a pipe, nothing.
# The no-progress watchdog (--watchdog 1) notes once where the warps are, and the kernel
# completes. Exits 77 (skipped) when tmux is not installed.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "progress.sh: $LOOM not built" >&2; exit 99; }
command -v tmux >/dev/null || { echo "progress.sh: tmux not found; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-progress.XXXXXX") || exit 99
n=0
trap 'for s in "$tmp"/tmux.*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run="$LOOM run $srcdir/tests/cli/spin.ptx --grid 3 --block 1 --workers 1 u64:3500000000"

# screen CMD: runs CMD in a fresh 200-column terminal; sets $mid (the screen 3 s in) and
# $end (the screen once CMD has ended, with "EXIT=status").
screen() {
    n=$((n + 1))
    sock=$tmp/tmux.$n.sock          # a server of its own: a new one on a socket just killed may fail
    tmux -S "$sock" -f /dev/null new-session -d -x 200 -y 20 "$1; echo EXIT=\$?; sleep 60" || return 1
    sleep 3
    mid=$(tmux -S "$sock" capture-pane -p)
    for _ in $(seq 1 100); do
        end=$(tmux -S "$sock" capture-pane -p)
        case $end in *EXIT=*) tmux -S "$sock" kill-server 2>/dev/null; return 0 ;; esac
        sleep 0.2
    done
    return 1
}

if screen "$run"; then
    echo "$mid" | grep -q "^loom: kernel 'spin': [0-3] of 3 CTAs, [2-9] s$" ||
        fail "no progress line 3 s in; the screen was:$(echo; echo "$mid" | sed '/^$/d; s/^/    /')"
    echo "$end" | grep -q "loom: kernel" && fail "the progress line stayed after the kernel ended"
    echo "$end" | grep -q "^EXIT=0$" || fail "loom run did not exit 0: $end"
else
    fail "the kernel did not end within 23 s"
fi
if screen "$run --quiet"; then
    echo "$mid" | grep -q "loom: kernel" && fail "--quiet still shows progress"
else
    fail "the kernel did not end within 23 s (--quiet)"
fi
$run 2>"$tmp/err" >/dev/null || fail "loom run in a pipe: exit status $?"
[ -s "$tmp/err" ] && fail "progress written to a pipe: $(cat "$tmp/err")"
$run --watchdog 1 2>"$tmp/err" >/dev/null || fail "loom run --watchdog 1: exit status $?"
[ "$(grep -c '^loom: no CTA has finished for 1 s (kernel .spin. has run 1 s, 0 of 3 CTAs done); it keeps running' \
    "$tmp/err")" = 1 ] || fail "--watchdog 1: not one note: $(cat "$tmp/err")"
[ "$(grep -c '^    warp 0: line 15, pc 2, active 0x00000001, running$' "$tmp/err")" = 3 ] ||
    fail "--watchdog 1: not the three spinning warps: $(cat "$tmp/err")"
$run --watchdog 0 2>"$tmp/err" >/dev/null || fail "loom run --watchdog 0: exit status $?"
[ -s "$tmp/err" ] && fail "--watchdog 0 still notes: $(cat "$tmp/err")"
echo "progress.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
