#!/bin/sh
# tests/occupancy/ptxas.sh -- recomputes with `ptxas -arch=sm_90 -v` the register count of every
# kernel in tests/occupancy/h100.txt and checks it against the table, so the table stays true to
# the PTX it names (edit a PTX file and this says which counts to record again). Skips (77)
# without ptxas; PTXAS names another one.
top_srcdir=${top_srcdir:-.}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$PTXAS" ] || { echo "ptxas not found: skipped"; exit 77; }
table="$top_srcdir/tests/occupancy/h100.txt"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# one "file kernel regs" line per kernel, two ptxas at a time
grep -v '^#' "$table" | cut -d' ' -f1 | sort -u > "$tmp/files"
while read -r f; do
    case $f in cudaptx/*) p="$top_srcdir/tests/occupancy/$f" ;; *) p="$top_srcdir/$f" ;; esac
    printf '%s %s\n' "$f" "$p"
done < "$tmp/files" | xargs -n 2 -P 2 sh -c '
    "$0" -arch=sm_90 -v "$2" -o /dev/null 2>&1 | awk -v F="$1" "
        /Compiling entry function/ { k = \$0; sub(/.*function '\''/, \"\", k); sub(/'\''.*/, \"\", k) }
        /Used [0-9]+ registers/ && k != \"\" { for (i = 1; i <= NF; i++) if (\$i == \"Used\") print F, k, \$(i + 1); k = \"\" }"
' "$PTXAS" | sort > "$tmp/ptxas"
grep -v '^#' "$table" | sed 's/ regs=\([0-9]*\) .*/ \1/' | sort > "$tmp/table"
if ! cmp -s "$tmp/table" "$tmp/ptxas"; then
    echo "ptxas's register counts differ from tests/occupancy/h100.txt (< table, > ptxas):"
    diff "$tmp/table" "$tmp/ptxas" | grep '^[<>]'
    exit 1
fi
echo "ptxas agrees with tests/occupancy/h100.txt on $(wc -l < "$tmp/table") kernels"
