#!/bin/sh
# tmux.sh -- `make check` test: the debugger's prompt on a terminal, typed the way a person
# does, through tmux: a breakpoint, run, a step, a print, the Up arrow recalling the print
# (readline's history), an empty line repeating the step, Tab completing a command, quit;
# then Ctrl-C pausing a long kernel.
# Each step waits for the screen to show what it should; exits 77 when tmux is missing.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "tmux.sh: $LOOM not built" >&2; exit 99; }
command -v tmux >/dev/null 2>&1 || { echo "tmux.sh: tmux not installed; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-tmux.XXXXXX") || exit 99
sock=$tmp/sock session=loom-debug-$$
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
fails=0

# screen: the pane's text now (tmux writes tabs as blanks and drops trailing blanks)
screen() { t capture-pane -p -t "$session" -S -200; }

# expect TEXT: waits up to 30 s for TEXT (a fixed string) to appear on the screen the
# number of times given (default 1); fails with the screen otherwise.
expect() {
    want=${2:-1}
    i=0
    while [ $i -lt 300 ]; do
        [ "$(screen | grep -cF -- "$1")" -ge "$want" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    echo "FAIL: the screen never showed '$1' ($want times):"
    screen | sed 's/^/    | /'
    fails=$((fails + 1))
    return 1
}

cd "$srcdir" || exit 99
# start SESSION COMMAND: a detached session; tmux's server sometimes fails to start on a
# loaded machine, so it is tried 5 times (then the test is skipped: tmux, not Loom, failed)
start() {
    n=0
    until t -f /dev/null new-session -d -s "$1" -x 120 -y 50 "$2" 2>"$tmp/tmux.err"; do
        n=$((n + 1))
        if [ $n -ge 5 ]; then
            echo "tmux.sh: tmux could not start a session in 5 tries ($(cat "$tmp/tmux.err")); skipped"
            exit 77
        fi
        t kill-server 2>/dev/null
        sleep 1
    done
}
start "$session" \
    "'$LOOM' debug tests/debug/basic.ptx --grid 2 --block 64 s32:100 f32:2 in:f32:100=iota 'out:f32:100>$tmp/y.bin'; echo DEBUGGER-ENDED; sleep 30"
expect "(loom)" || exit 1
t send-keys -t "$session" "break basic.cu:7" Enter
expect "Breakpoint 1 (basic.cu:7) pending"
t send-keys -t "$session" "run" Enter
expect "Breakpoint 1, scale(int, float, float const*, float*) (launch 1)"
expect "y[i] = v + y[i];"
# a typo first: the prompt names the nearest command and goes on
t send-keys -t "$session" "prnt %r1" Enter
expect 'Undefined command: "prnt".  Did you mean "print"?'
t send-keys -t "$session" "print %r1" Enter
expect '$1 = 0'
t send-keys -t "$session" "cuda thread 7" Enter
expect "[Switching focus to block (0,0,0) thread (7,0,0) warp 0 lane 7]"
# Up twice: back past "cuda thread 7" to "print %r1", which now shows lane 7's value
t send-keys -t "$session" Up Up Enter
expect '$2 = 7'
t send-keys -t "$session" "stepi" Enter
expect "basic.ptx:51"
# an empty line repeats stepi
t send-keys -t "$session" Enter
expect "basic.ptx:52"
# Tab completes "bac" to backtrace
t send-keys -t "$session" "bac" Tab Enter
expect "#0  scale(int, float, float const*, float*) at basic.cu:7 (basic.ptx:52)"
t send-keys -t "$session" "quit" Enter
expect "DEBUGGER-ENDED"

# Ctrl-C while a long kernel runs pauses it at the prompt; kill ends it
t kill-session -t "$session"
start "$session" \
    "'$LOOM' debug tests/debug/loop.ptx --grid 64 --block 256 'out:s32:16384>$tmp/o.bin' s32:2000000; echo DEBUGGER-ENDED; sleep 30"
expect "(loom)" || exit 1
t send-keys -t "$session" "run" Enter
sleep 1
t send-keys -t "$session" C-c
expect "Paused, loop(int*, int) (launch 1)"
t send-keys -t "$session" "kill" Enter
expect "[Program exited with code 130]"
t send-keys -t "$session" "quit" Enter
expect "DEBUGGER-ENDED"
[ $fails -eq 0 ] && echo "tmux.sh: the typed session went as expected"
[ $fails -eq 0 ]
