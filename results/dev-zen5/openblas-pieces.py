#!/usr/bin/env python3
"""Fits the M x K x 512 lines of openblas-pieces.txt (one thread) as
T = F + n1 c1 + n2 c2 + n4 c4 + n12 c12: the pieces OpenBLAS 0.3.21 cuts our
M into (its driver hands the kernel 12 rows at a time, then 4 while more
than 4 remain, and the kernel covers the rest with 2- and 1-row pieces).
Prints each piece's cost as a share of a whole 12-row piece.
usage: results/dev-zen5/openblas-pieces.py results/dev-zen5/openblas-pieces.txt"""
import sys


def pieces(d):
    p = {1: 0, 2: 0, 4: 0, 12: 0}
    while d >= 12:
        p[12] += 1
        d -= 12
    while d > 4:
        p[4] += 1
        d -= 4
    if d == 4:
        p[4] += 1
        d = 0
    if d >= 2:
        p[2] += 1
        d -= 2
    if d == 1:
        p[1] += 1
    return p


def lstsq(rows, y):
    """Least squares by the normal equations (5 unknowns)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * v for r, v in zip(rows, y))]
         for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * z for x, z in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


for line in open(sys.argv[1]):
    if not line.startswith("M x ") or " x 512:" not in line:
        continue
    k = line.split()[2]
    rows, y = [], []
    for kv in line.split(":", 1)[1].split():
        d, t = kv.split(":")
        p = pieces(int(d))
        rows.append([1, p[1], p[2], p[4], p[12]])
        y.append(float(t))
    f, c1, c2, c4, c12 = lstsq(rows, y)
    worst = max(abs(sum(a * b for a, b in zip(r, (f, c1, c2, c4, c12))) / v - 1) for r, v in zip(rows, y))
    print("K = %s: fixed %.2f us; pieces of 1, 2, 4 rows at %.2f, %.2f, %.2f of a 12-row piece "
          "(%.2f us); worst fit %.0f%%" % (k, f, c1 / c12, c2 / c12, c4 / c12, c12, 100 * worst))
