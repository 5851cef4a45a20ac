#!/bin/sh
# gen-man.sh -- writes a man page from `loom help`, so that the pages say what the program
# says: gen-man.sh LOOM OUT.1 (OUT named loom.1 or loom-COMMAND.1).
set -eu
loom=$1 out=$2
page=$(basename "$out" .1)
cmd=${page#loom}
cmd=${cmd#-}
version=$("$loom" --version | sed -n '1s/^loom //p')
if [ -n "$cmd" ]; then
    text=$("$loom" help "$cmd")
    what=$(echo "$text" | sed '1,/^$/d' | sed '/^$/,$d' | tr '\n' ' ' | sed 's/[.:] .*$//; s/[.:]* *$//')
else
    text=$("$loom" --help)
    what="a GPU emulator for multicore CPUs"
fi
# roff: a backslash is \e; a line starting with . or ' is protected by \&
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
title=$(echo "$page" | tr 'a-z' 'A-Z')
{
    echo ".TH $title 1 \"\" \"loom $version\" \"Loom\""
    echo ".SH NAME"
    echo "$page \\- $(echo "$what" | esc)"
    echo ".SH SYNOPSIS"
    echo ".nf"
    echo "$text" | sed -n '1,/^$/p' | sed '/^$/d' | sed 's/^usage: //' | esc
    echo ".fi"
    echo ".SH DESCRIPTION"
    echo ".nf"
    echo "$text" | sed '1,/^$/d' | esc
    echo ".fi"
    echo ".SH SEE ALSO"
    if [ -n "$cmd" ]; then
        echo "loom(1); the full reference is docs/USAGE.md in Loom's sources."
    else
        echo "loom-run(1), loom-exec(1), loom-debug(1), loom-check(1), loom-info(1), loom-dap(1); docs/USAGE.md in Loom's sources."
    fi
} >"$out.tmp"
mv "$out.tmp" "$out"
