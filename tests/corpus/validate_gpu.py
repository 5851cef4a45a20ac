#!/usr/bin/env python3
"""Vets runs.txt lines on a real GPU before their outputs become expectations (device machine).

    python3 tests/corpus/validate_gpu.py MODES [NAME,NAME...]      from the top of the tree

GPURUN (environment; default /tmp/gpurun, built from .tools/gpurun.c when missing) runs each line
of tests/corpus/runs.txt and examples/*/runs.txt. MODES is any of
  A  run once, keep the outputs ($OUT/rec.tar.gz)      B  run again: outputs must be identical
  C  pre-fill out buffers with a sentinel: slots that change were never written
  V  corpus only: the other PTX files (-lineinfo, -G, sm_80, sm_90) must give the same outputs
  M  compute-sanitizer memcheck   R  racecheck   S  synccheck
The report goes to stdout and $OUT/report_MODES.txt.
"""
import concurrent.futures as cf
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.getcwd()
GPURUN = os.environ.get('GPURUN', '/tmp/gpurun')
OUT = os.environ.get('OUT', '/tmp/out')
MODE = sys.argv[1] if len(sys.argv) > 1 else 'ABCV'
ONLY = sys.argv[2].split(',') if len(sys.argv) > 2 else None
SIZES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4, 'f32': 4, 'u64': 8, 's64': 8, 'f64': 8}


def lines():
    files = ['tests/corpus/runs.txt'] + sorted(glob.glob('examples/*/runs.txt'))
    for f in files:
        folder = os.path.dirname(os.path.join(ROOT, f))
        group = 'corpus' if 'corpus' in f else os.path.basename(folder)
        for line in open(f):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, _, rest = line.partition(':')
            yield group, folder, name.strip(), rest.split()


def run(folder, words, outdir, ptx=None, sentinel=False, sanitize=False, tool='memcheck'):
    os.makedirs(outdir, exist_ok=True)
    args, outs = [], []
    for w in words:
        if ptx and w.endswith('.ptx'):
            w = ptx
        m = re.match(r'(out|inout):(\w+):(\d+)(=[^>]*)?>OUT/(.*)$', w)
        if m:
            path = os.path.join(outdir, m.group(5))
            outs.append((path, m.group(2)))
            if sentinel and m.group(1) == 'out':
                fill = '-12345.5' if m.group(2)[0] == 'f' else '-12345'
                w = 'inout:%s:%s=fill:%s>%s' % (m.group(2), m.group(3), fill, path)
            else:
                w = w.replace('>OUT/', '>' + outdir + '/')
        args.append(w)
    cmd = [GPURUN] + args
    if sanitize:
        cmd = ['compute-sanitizer', '--tool', tool, '--error-exitcode', '99'] + cmd
    try:
        p = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=60)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, so, se = 124, '', 'timeout'
    with open(os.path.join(outdir, 'stdout.txt'), 'w') as f:
        f.write(so)
    return rc, so, se, outs


def diff(outs_a, dir_b):
    res = []
    for path, t in outs_a:
        pb = os.path.join(dir_b, os.path.basename(path))
        a = open(path, 'rb').read() if os.path.exists(path) else b''
        b = open(pb, 'rb').read() if os.path.exists(pb) else b''
        es = SIZES[t]
        n = sum(1 for k in range(0, max(len(a), len(b)), es) if a[k:k + es] != b[k:k + es])
        if n:
            res.append('%s: %d/%d elements differ' % (os.path.basename(path), n, len(a) // es))
    return res


def job(item):
    group, folder, name, words = item
    rep = []
    base = os.path.join(OUT, 'rec', group, name)
    tmp = os.path.join('/tmp/val', group, name)
    if 'A' in MODE:
        rc, so, se, outs = run(folder, words, base)
        rep.append('A rc=%d %s' % (rc, se.strip()[-300:]))
        if 'B' in MODE:
            rc2, so2, _, _ = run(folder, words, tmp + '/B')
            d = diff(outs, tmp + '/B')
            rep.append('B rc=%d %s%s' % (rc2, 'DETERMINISM: ' + '; '.join(d) if d else 'same',
                                         '' if so == so2 else ' STDOUT DIFFERS'))
        if 'C' in MODE:
            rc3, _, _, _ = run(folder, words, tmp + '/C', sentinel=True)
            d = diff(outs, tmp + '/C')
            rep.append('C rc=%d %s' % (rc3, 'UNWRITTEN: ' + '; '.join(d) if d else 'all written'))
        if 'V' in MODE and group == 'corpus':
            ptx = [w for w in words if w.endswith('.ptx')][0]
            stem = ptx.rsplit('.sm_', 1)[0]
            for v in ['sm_75.lineinfo', 'sm_75.G', 'sm_80', 'sm_80.G', 'sm_90', 'sm_90.lineinfo', 'sm_90.G']:
                alt = '%s.%s.ptx' % (stem, v)
                if alt == ptx:
                    continue
                rcv, _, sev, _ = run(folder, words, tmp + '/' + v, ptx=alt)
                d = diff(outs, tmp + '/' + v)
                rep.append('V %s rc=%d %s %s' % (v, rcv, '; '.join(d) if d else 'same', sev.strip()[-200:] if rcv else ''))
    if 'M' in MODE:
        rc, so, se, _ = run(folder, words, tmp + '/M', sanitize=True)
        errs = [l for l in (so + se).splitlines() if 'ERROR SUMMARY' in l or 'Invalid' in l][:3]
        rep.append('M rc=%d %s' % (rc, ' | '.join(errs)))
    for tool in ('racecheck', 'synccheck'):
        if tool[0].upper() in MODE:
            rc, so, se, _ = run(folder, words, tmp + '/' + tool, sanitize=True, tool=tool)
            lines = [l for l in (so + se).splitlines() if 'ERROR SUMMARY' in l or 'hazard' in l.lower()
                     or 'RACECHECK SUMMARY' in l][:4]
            rep.append('%s rc=%d %s' % (tool, rc, ' | '.join(lines)))
    return '%s/%s\n  ' % (group, name) + '\n  '.join(rep)


def main():
    if not os.path.exists(GPURUN):
        subprocess.run(['gcc', '-O2', os.path.join(ROOT, '.tools', 'gpurun.c'), '-I/usr/local/cuda/include',
                        '-L/usr/local/cuda/lib64/stubs', '-lcuda', '-o', GPURUN], check=True)
    items = [x for x in lines() if not ONLY or x[2] in ONLY]
    with cf.ThreadPoolExecutor(4 if 'M' not in MODE else 3) as ex:
        reports = list(ex.map(job, items))
    text = '\n'.join(reports) + '\n'
    os.makedirs(OUT, exist_ok=True)
    open(os.path.join(OUT, 'report_%s.txt' % MODE), 'w').write(text)
    print(text)
    if 'A' in MODE:
        shutil.make_archive(os.path.join(OUT, 'rec'), 'gztar', OUT, 'rec')
        shutil.rmtree(os.path.join(OUT, 'rec'))


if __name__ == '__main__':
    main()
