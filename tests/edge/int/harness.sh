#!/bin/sh
# harness.sh -- builds harness.c with emu_int.c, emu_bits.c and emu_cmp.c and runs
# every form of forms.txt through the handlers (argument: a kernel/form filter).
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../../..
cd "$here"
[ -f expected-model/int_basic.add.u16.bin ] || python3 gen.py
bin=$(mktemp /tmp/loom-int-harness.XXXXXX)
trap 'rm -f "$bin"' EXIT
${CC:-cc} -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -I"$top" -I"$top/include" -o "$bin" \
    harness.c "$top/emu/emu_int.c" "$top/emu/emu_bits.c" "$top/emu/emu_cmp.c" -lm
"$bin" "$@"
