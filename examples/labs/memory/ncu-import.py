#!/usr/bin/env python3
"""Turns an H100 recording of the memory labs (/work/rec-style: record.sh's OUT) into the kit's files.

    ncu-import.py OUT

reads OUT/ncu.csv (ncu --csv --print-units base, one row per kernel and metric), OUT/GPU.txt and
OUT/outputs/sha256.txt, and writes beside this script ncu-h100.tsv (KERNEL METRIC VALUE),
ncu-h100.txt (a table per lab), h100-sha256.txt, and each lab README's table between its
<!-- h100 --> markers: the counts of expected.tsv beside the H100's. Kernels appear in the
order of the labs' runs.txt.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GROUPS = ["banks", "coalesce", "occupancy", "bench"]
SHORT = [  # (column, metric) for the readable table
    ("sh ld", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("ld wavefr", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("ld confl", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("sh st", "smsp__sass_inst_executed_op_shared_st.sum"),
    ("st wavefr", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("st confl", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("gld req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("gld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gst req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("gst sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("regs", "launch__registers_per_thread"),
    ("lim reg", "launch__occupancy_limit_registers"),
    ("lim smem", "launch__occupancy_limit_shared_mem"),
    ("lim warps", "launch__occupancy_limit_warps"),
    ("lim blocks", "launch__occupancy_limit_blocks"),
    ("theor %", "sm__maximum_warps_per_active_cycle_pct"),
    ("warp inst", "smsp__inst_executed.sum"),
]


def kernels_in_order():
    order = []
    for g in GROUPS:
        for line in open(os.path.join(HERE, g, "runs.txt")):
            line = line.split("#", 1)[0].strip()
            if line:
                args = line.partition(":")[2].split()
                order.append((g, args[args.index("--kernel") + 1]))
    return order


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    rec = sys.argv[1]
    values = {}
    for row in csv.DictReader(open(os.path.join(rec, "ncu.csv"))):
        if row["ID"] == "ID":
            continue
        values.setdefault(row["Kernel Name"], {})[row["Metric Name"]] = row["Metric Value"].replace(",", "")
    gpu = open(os.path.join(rec, "GPU.txt")).read().strip()
    order = kernels_in_order()
    with open(os.path.join(HERE, "ncu-h100.tsv"), "w") as f:
        f.write("# ncu-h100.tsv -- Nsight Compute's counts on an H100 (%s) for every kernel of the\n"
                "# memory lab kit (ncu-import.py from record.sh's ncu.csv): KERNEL <tab> METRIC <tab> VALUE\n" % gpu)
        for _, k in order:
            for m in sorted(values.get(k, {})):
                f.write("%s\t%s\t%s\n" % (k, m, values[k][m]))
    with open(os.path.join(HERE, "ncu-h100.txt"), "w") as f:
        f.write("# Nsight Compute 2025.3 on an H100 (%s), one launch per kernel, the PTX JIT-compiled by\n"
                "# the driver (gpurun, the runs.txt lines). sh ld/st: SASS shared loads/stores executed by at\n"
                "# least one thread (smsp__sass_inst_executed_op_shared_*); wavefronts and conflicts: l1tex\n"
                "# data pipe; gld/gst: global requests and 32-byte sectors at the L1 tag stage; lim: the\n"
                "# launch's occupancy limits in CTAs per SM; theor %%: theoretical occupancy; warp inst: SASS.\n"
                "# Every metric of each kernel is in ncu-h100.tsv.\n" % gpu)
        width = max(len(k) for _, k in order)
        for g in GROUPS:
            f.write("\n## %s\n\n%-*s %s\n" % (g, width, "kernel", " ".join("%10s" % c for c, _ in SHORT)))
            for gg, k in order:
                if gg == g:
                    f.write("%-*s %s\n" % (width, k, " ".join("%10s" % values.get(k, {}).get(m, "-")
                                                               for _, m in SHORT)))
    with open(os.path.join(HERE, "h100-sha256.txt"), "w") as f:
        f.write("# sha256 of every output file of the runs.txt lines, as an H100 wrote them (%s)\n" % gpu)
        f.write(open(os.path.join(rec, "outputs", "sha256.txt")).read())
    readme_tables(values, order)


def readme_tables(values, order):
    expected = {}
    for line in open(os.path.join(HERE, "expected.tsv")):
        if line.strip() and not line.startswith("#"):
            k, counter, value, metric = line.rstrip("\n").split("\t")
            expected.setdefault(k, []).append((counter, value, metric))
    for g in GROUPS:
        path = os.path.join(HERE, g, "README.md")
        text = open(path).read()
        start, end = text.find("<!-- h100 -->"), text.find("<!-- /h100 -->")
        if start < 0 or end < 0:
            continue
        counters = []
        for gg, k in order:
            if gg == g:
                for counter, _, metric in expected.get(k, []):
                    if metric != "-" and (counter, metric) not in counters:
                        counters.append((counter, metric))
        lines = ["| kernel | " + " | ".join("`%s`" % c for c, _ in counters) + " |",
                 "| --- |" + " ---: |" * len(counters)]
        for gg, k in order:
            if gg != g:
                continue
            mine = {c: v for c, v, _ in expected.get(k, [])}
            cells = []
            for c, m in counters:
                h = values.get(k, {}).get(m, "-")
                if c not in mine:
                    cells.append("(%s)" % h)
                elif h == mine[c] or (h != "-" and float(h) == float(mine[c])):
                    cells.append(h)
                else:
                    cells.append("**%s** (hand: %s)" % (h, mine[c]))
            lines.append("| `%s` | %s |" % (k, " | ".join(cells)))
        table = ("<!-- h100 -->\nThe H100's counts (a number alone: the hand count above and the H100 agree; "
                 "in parentheses: no hand count for that kernel):\n\n" + "\n".join(lines) + "\n")
        open(path, "w").write(text[:start] + table + text[end:])


if __name__ == "__main__":
    main()
