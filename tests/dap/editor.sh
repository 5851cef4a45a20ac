#!/bin/sh
# editor.sh -- `make check` test: a real editor drives `loom dap`: Emacs's dap-mode
# (tests/dap/dap-mode-session.el) sets a conditional breakpoint in the .cu buffer, stops,
# evaluates a register, steps and continues. Skipped (77) without emacs and dap-mode
# (Debian: apt-get install emacs-nox elpa-dap-mode).
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "editor.sh: $LOOM not built" >&2; exit 99; }
command -v emacs >/dev/null 2>&1 || { echo "editor.sh: no emacs; skipped"; exit 77; }
emacs --batch --eval "(require 'dap-mode)" >/dev/null 2>&1 || { echo "editor.sh: no dap-mode; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
here=$srcdir/tests/dap
mkdir "$tmp/home"   # (Emacs writes its caches under HOME: not the user's)
HOME=$tmp/home timeout 300 emacs --batch -l "$here/dap-mode-session.el" "$LOOM" "$here/dap_kernels.ptx" "$here/dap_kernels.cu" "$tmp" \
    >"$tmp/log" 2>&1
rc=$?
grep -E '^(not )?ok|dap-mode-session' "$tmp/log"
[ $rc -eq 0 ] || { echo "editor.sh: emacs exited $rc; its log:"; grep -v '^Loading' "$tmp/log" | tail -40; }
exit $rc
