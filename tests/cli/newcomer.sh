#!/bin/sh
# newcomer.sh -- `make check` test: what a newcomer types from the README works as the README
# says. The quick start's "by hand" example (from `cd examples/saxpy` on) runs, on a copy of
# the examples, and prints the values its comment promises; the `loom run` and `loom check`
# examples of the README's Commands section run. (The other frictions of issue 24 have tests
# of their own in tests/cli: docs-sync, exec-libs, progress, dump-ptx, install, run-args.)
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "newcomer.sh: $LOOM not built" >&2; exit 99; }
command -v python3 >/dev/null || { echo "newcomer.sh: python3 not found; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-newcomer.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cp -r "$srcdir/examples" "$tmp/examples"

# The block after "The same by hand:", from its `cd examples/...` line on; ../../loom is the
# built program.
awk '/^The same by hand:/ { f = 1 } f && /^```sh$/ { c = 1; next } c && /^```$/ { exit } c' "$srcdir/README.md" |
    sed -n '/^cd examples\//,$p' | sed "s|\.\./\.\./loom|\"$LOOM\"|" >"$tmp/by-hand.sh"
[ -s "$tmp/by-hand.sh" ] || fail "README: no 'cd examples/...' in the by-hand quick start"
promise=$(sed -n 's/.*# .*: \([0-9][0-9 ]*[0-9]\) \.\.\.$/\1/p' "$tmp/by-hand.sh")
[ -n "$promise" ] || fail "README: the by-hand example's comment promises no values"
(cd "$tmp" && sh "$tmp/by-hand.sh") >"$tmp/out" 2>"$tmp/err" || fail "the by-hand example exits $?: $(cat "$tmp/err")"
got=$(tr -s ' \n' '  ' <"$tmp/out")
case " $got " in
*" $promise "*) ;;
*) fail "the by-hand example printed '$got', not the README's '$promise ...'" ;;
esac
echo "newcomer.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
