#!/usr/bin/env python3
"""Two captures of the Zen 5 VM row by row, split by the threads OpenBLAS
runs each GEMM on (one up to M*N*K 262144, two above; vector_add one):
the median |B / A - 1| and how many rows differ by more than 10% and 20%,
and the two-thread rows that differ most (docs/accuracy.md, "Session 16").
usage (from the repository root):
  results/dev-zen5/compare-captures.py results/dev-zen5/baselines-merged results/dev-zen5/baselines-f"""
import csv
import glob
import statistics
import sys


def load(folder):
    rows = {}
    for path in glob.glob(folder + "/*.csv"):
        for r in csv.DictReader(open(path)):
            rows[(r["op"], r["shape"])] = float(r["latency_s"])
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = load(sys.argv[1]), load(sys.argv[2])
    print("# %s against %s" % (sys.argv[2], sys.argv[1]))
    for op in ("matmul", "linear", "vector_add"):
        groups = {"one thread": [], "two threads": []}
        for key in sorted(k for k in a if k in b and k[0] == op):
            dims = [int(d) for d in key[1].split("x")]
            two = op != "vector_add" and dims[0] * dims[1] * dims[2] > 262144
            groups["two threads" if two else "one thread"].append((key[1], a[key], b[key]))
        for name, rows in groups.items():
            if not rows:
                continue
            d = [abs(y / x - 1) for _, x, y in rows]
            print("%-10s %-11s rows %3d  median |B/A-1| %5.1f%%  beyond 10%%: %3d  beyond 20%%: %3d"
                  % (op, name, len(rows), 100 * statistics.median(d),
                     sum(e > 0.1 for e in d), sum(e > 0.2 for e in d)))
        far = sorted(groups["two threads"], key=lambda r: abs(r[2] / r[1] - 1), reverse=True)
        for shape, x, y in far[:4]:
            print("    %-14s A %9.1f us  B %9.1f us  %+6.1f%%" % (shape, x * 1e6, y * 1e6, 100 * (y / x - 1)))


main()
