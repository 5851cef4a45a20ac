#!/bin/sh
# install.sh -- `make check` test of what `make install` gives users (into a DESTDIR): the
# program, libloom with its header and pkg-config file (a C program builds and runs with
# `pkg-config --cflags --libs loom`), a man page per command that man renders without
# warnings, and bash completion that completes commands and options in a real bash.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
root=$tmp/root
${MAKE:-make} -C "$top_builddir" install DESTDIR="$root" >"$tmp/install.log" 2>&1 ||
    { echo "FAIL: make install DESTDIR=..."; tail -20 "$tmp/install.log"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/loom.pc")
p=$root$prefix
for f in bin/loom include/loom/loom.h lib/pkgconfig/loom.pc share/bash-completion/completions/loom \
         share/man/man1/loom.1 share/man/man1/loom-run.1 share/man/man1/loom-exec.1 \
         share/man/man1/loom-check.1 share/man/man1/loom-info.1 share/man/man1/loom-dap.1; do
    [ -f "$p/$f" ] || fail "$f is not installed"
done
ls "$p"/lib/libloom.so* >/dev/null 2>&1 || fail "libloom.so is not installed"
ls "$p"/lib/loom/libcudart.so.13* >/dev/null 2>&1 || fail "libcudart.so.13 is not installed in lib/loom"

# A program of the C API, built the way loom.pc says.
if command -v pkg-config >/dev/null; then
    flags=$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --define-variable=prefix="$p" --cflags --libs loom) ||
        fail "pkg-config --cflags --libs loom"
    cat >"$tmp/api.c" <<'PROG'
#include <stdio.h>
#include <loom/loom.h>
int main(void)
{
    struct loom_device *dev;
    if (loom_device_create(NULL, &dev) != LOOM_OK) return 1;
    struct loom_device_props p;
    loom_device_props(dev, &p);
    printf("%s %d.%d\n", p.name, p.cc_major, p.cc_minor);
    loom_device_destroy(dev);
    return 0;
}
PROG
    # a sanitizer build's libloom needs its runtime in the program too
    san=$(sed -n 's/^LOOM_LDFLAGS = //p' "$top_builddir/Makefile" | grep -o -- '-fsanitize=[^ ]*' | tr '\n' ' ')
    if ${CC:-cc} $san "$tmp/api.c" -o "$tmp/api" $flags 2>"$tmp/cc.log"; then
        out=$(LD_LIBRARY_PATH=$p/lib "$tmp/api") || fail "the C API program exits $?"
        [ "$out" = "NVIDIA H100 80GB HBM3 9.0" ] || fail "the C API program printed '$out'"
    else
        fail "a C API program does not build with loom.pc's flags: $(cat "$tmp/cc.log")"
    fi
fi

# man pages: each renders, without warnings, with the command's synopsis
if command -v man >/dev/null; then
    for page in loom loom-run loom-exec loom-check loom-info; do
        MANWIDTH=100 man --warnings -l "$p/share/man/man1/$page.1" >"$tmp/man.out" 2>"$tmp/man.err" ||
            fail "man $page does not render"
        [ -s "$tmp/man.err" ] && fail "man $page warns: $(cat "$tmp/man.err")"
        grep -q "^SYNOPSIS" "$tmp/man.out" || fail "man $page has no SYNOPSIS"
    done
    grep -q -- "--watchdog S" "$p/share/man/man1/loom-exec.1" || fail "loom-exec.1 lacks --watchdog"
fi

# bash completion, in bash: commands, options from `loom help`, presets after --device
comp=$(PATH=$p/bin:$PATH LD_LIBRARY_PATH=$p/lib bash -c '. "$1/share/bash-completion/completions/loom"
    COMP_WORDS=(loom ex); COMP_CWORD=1; _loom; echo "${COMPREPLY[*]}"
    COMP_WORDS=(loom exec --wat); COMP_CWORD=2; _loom; echo "${COMPREPLY[*]}"
    COMP_WORDS=(loom run --device am); COMP_CWORD=3; _loom; echo "${COMPREPLY[*]}"' bash "$p")
[ "$comp" = "$(printf 'exec\n--watchdog\nampere')" ] || fail "bash completion gave: $comp"
# ... and as a person uses it: Tab in an interactive bash in a terminal
if command -v tmux >/dev/null; then
    sock=$tmp/tmux.sock
    tmux -S "$sock" -f /dev/null new-session -d -x 120 -y 10 \
        "env PATH=$p/bin:$PATH LD_LIBRARY_PATH=$p/lib PS1='$ ' bash --norc --noprofile" || fail "tmux"
    tmux -S "$sock" send-keys ". $p/share/bash-completion/completions/loom; clear" Enter
    sleep 0.5
    tmux -S "$sock" send-keys "loom ex" Tab
    sleep 0.5
    tmux -S "$sock" send-keys -- "--devi" Tab
    sleep 0.5
    screen=$(tmux -S "$sock" capture-pane -p)
    tmux -S "$sock" kill-server
    echo "$screen" | grep -q '^\$ loom exec --device *$' ||
        fail "Tab in bash did not complete 'loom exec --device': $(echo "$screen" | sed '/^$/d')"
fi
echo "install.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
