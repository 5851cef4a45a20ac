#!/bin/sh
# docs-sync.sh -- `make check` test: the options `loom help COMMAND` lists are the options
# docs/USAGE.md documents in that command's section, and the README's synopsis of `loom exec`
# and its list of `loom run` options name them all, so help and docs cannot drift apart.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=${srcdir:-.}
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "docs-sync.sh: $LOOM not built" >&2; exit 99; }
usage=$srcdir/docs/USAGE.md readme=$srcdir/README.md
fails=0 count=0

# The options of COMMAND: its help's option lines ("  --opt", "  -v, --opt") and its
# "OPTIONS:" paragraph; not options of other tools that its text mentions.
help_options() {
    "$LOOM" help "$1" | awk '/^OPTIONS:/ { p = 1 } /^$/ { p = 0 } p || /^  +(-[a-z], )?--[a-z]/' |
        sed 's/loom info --presets//' | grep -o -- '--[a-z][a-z-]*' | sort -u
}

# The text of USAGE.md's "## `loom COMMAND`" section.
usage_section() {
    awk -v h="## \`loom $1\`" '$0 == h { p = 1; next } /^## / { p = 0 } p' "$usage"
}

for cmd in run exec check info; do
    for opt in $(help_options "$cmd"); do
        count=$((count + 1))
        usage_section "$cmd" | grep -q -e "$opt\\b" ||
            { echo "FAIL: docs/USAGE.md's loom $cmd section does not document $opt"; fails=$((fails + 1)); }
    done
done
exec_synopsis=$(awk '/^loom exec \[/ { p = 1; print; next } p && /^ / { print; next } { p = 0 }' "$readme")
for opt in $(help_options exec); do
    count=$((count + 1))
    echo "$exec_synopsis" | grep -q -e "\\[$opt\\b" ||
        { echo "FAIL: README's loom exec synopsis lacks $opt"; fails=$((fails + 1)); }
done
run_text=$(awk '/^### `loom run`/ { p = 1; next } /^### / { p = 0 } p' "$readme")
for opt in $(help_options run); do
    count=$((count + 1))
    echo "$run_text" | grep -q -e "$opt\\b" ||
        { echo "FAIL: README's loom run section does not name $opt"; fails=$((fails + 1)); }
done
echo "docs-sync.sh: $count options checked, $fails missing"
[ "$fails" -eq 0 ]
