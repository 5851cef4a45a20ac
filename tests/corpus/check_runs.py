#!/usr/bin/env python3
"""Checks runs.txt files against the PTX they name (stdlib only, no GPU, no Loom needed).

For every line NAME: FILE.ptx --kernel K --grid G --block B [--shared S] ARG...:
  - the PTX file exists and has a .entry K;
  - there is one ARG per .param of K, a buffer (in:/out:/inout:) for each .u64 pointer parameter
    and a scalar of the parameter's size otherwise;
  - input files exist and hold exactly COUNT elements; names are unique;
  - at most 1024 threads per block, at most 48 KiB of dynamic shared memory.
Usage: check_runs.py RUNS.txt...      (exit status 1 when anything is wrong)
"""
import os
import re
import sys

SIZES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4, 'f32': 4,
         'u64': 8, 's64': 8, 'f64': 8}
PARAM_SIZES = {'.u8': 1, '.s8': 1, '.b8': 1, '.u16': 2, '.s16': 2, '.b16': 2, '.u32': 4,
               '.s32': 4, '.b32': 4, '.f32': 4, '.u64': 8, '.s64': 8, '.b64': 8, '.f64': 8}


def entry_params(ptx_text, kernel):
    """The .param declarations of .entry kernel as (type, size) pairs, or None."""
    m = re.search(r'\.entry\s+' + re.escape(kernel) + r'\s*\((.*?)\)', ptx_text, re.S)
    if not m:
        return None
    params = []
    for decl in m.group(1).split(','):
        decl = decl.strip()
        if not decl:
            continue
        arr = re.search(r'\[(\d+)\]\s*$', decl)
        t = re.search(r'\.param\s+(?:\.align\s+\d+\s+)?(\.\w+)', decl).group(1)
        size = PARAM_SIZES[t] * (int(arr.group(1)) if arr else 1)
        params.append((t, size))
    return params


def dims(text):
    d = [int(x) for x in text.split(',')]
    while len(d) < 3:
        d.append(1)
    return d


def check_line(folder, line, cache, errors, names):
    line = line.split('#', 1)[0]          # a trailing comment, e.g. "# approx f32 ulp=2"
    name, _, rest = line.partition(':')
    name = name.strip()
    where = '%s: %s' % (folder, name)
    if name in names:
        errors.append('%s: duplicate name' % where)
    names.add(name)
    words = rest.split()
    ptx, kernel, block, shared, args = None, None, None, 0, []
    i = 0
    while i < len(words):
        w = words[i]
        if w == '--kernel':
            kernel = words[i + 1]
            i += 2
        elif w == '--grid':
            dims(words[i + 1])
            i += 2
        elif w == '--block':
            block = dims(words[i + 1])
            i += 2
        elif w == '--shared':
            shared = int(words[i + 1])
            i += 2
        elif ptx is None:
            ptx = w
            i += 1
        else:
            args.append(w)
            i += 1
    path = os.path.join(folder, ptx)
    if not os.path.exists(path):
        errors.append('%s: no file %s' % (where, ptx))
        return
    if path not in cache:
        with open(path) as f:
            cache[path] = f.read()
    params = entry_params(cache[path], kernel)
    if params is None:
        errors.append('%s: no .entry %s in %s' % (where, kernel, ptx))
        return
    if block[0] * block[1] * block[2] > 1024:
        errors.append('%s: more than 1024 threads per block' % where)
    if shared > 48 * 1024:
        errors.append('%s: --shared above 48 KiB' % where)
    if len(args) != len(params):
        errors.append('%s: %d arguments for %d parameters' % (where, len(args), len(params)))
        return
    for k, (arg, (ptype, psize)) in enumerate(zip(args, params)):
        kind = arg.split(':', 1)[0]
        if kind in ('in', 'out', 'inout'):
            m = re.match(r'(in|out|inout):(\w+):(\d+)(?:=([^>]*))?(?:>(.*))?$', arg)
            if not m or m.group(2) not in SIZES:
                errors.append('%s: bad buffer argument %s' % (where, arg))
                continue
            if psize != 8:
                errors.append('%s: argument %d is a buffer, parameter is %s' % (where, k, ptype))
            count, init, out = int(m.group(3)), m.group(4), m.group(5)
            if kind in ('in', 'inout') and not init:
                errors.append('%s: %s needs =INIT' % (where, arg))
            if kind in ('out', 'inout') and not out:
                errors.append('%s: %s needs >OUT' % (where, arg))
            if init and init.startswith('@'):
                f = os.path.join(folder, init[1:])
                want = count * SIZES[m.group(2)]
                if not os.path.exists(f):
                    errors.append('%s: missing input %s' % (where, init[1:]))
                elif os.path.getsize(f) != want:
                    errors.append('%s: %s has %d bytes, %s needs %d' %
                                  (where, init[1:], os.path.getsize(f), arg, want))
            if out and not out.startswith('OUT/'):
                errors.append('%s: output %s is not under OUT/' % (where, out))
        else:
            t = kind
            if t not in SIZES:
                errors.append('%s: bad scalar %s' % (where, arg))
            elif SIZES[t] != psize:
                errors.append('%s: scalar %s for a %d-byte parameter' % (where, arg, psize))


def main(paths):
    errors = []
    lines = 0
    for runs in paths:
        folder = os.path.dirname(os.path.abspath(runs))
        cache, names = {}, set()
        with open(runs) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                lines += 1
                check_line(folder, line, cache, errors, names)
    for e in errors:
        print(e)
    print('%d lines checked, %d problems' % (lines, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
