#!/usr/bin/env python3
# Packing as core time (docs/accuracy.md, "Round 14"): cblas_sgemm as the
# capture's matmul calls it, timed by results/dev-epyc/blas_timer.py's
# t() (best of 7 rounds) on 2 threads (the capture's) and 1, for M x 2048 x N:
# a narrow N copies all of A (8 KiB per row of M) for few FLOPs per row, so
# the time per row of M grows with N far less than the FLOPs do.
# usage: OPENBLAS_CORETYPE=SkylakeX python3 results/dev-xeon/openblas-pack.py
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dev-epyc'))
from blas_timer import t
print(time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime()), 'load', os.getloadavg())
for n in (16, 64, 256):
    for m in (512, 2048, 8192):
        reps = max(3, int(2e9 / (2 * m * 2048 * n)))
        t2 = t(m, 2048, n, 2, reps=reps); t1 = t(m, 2048, n, 1, reps=reps)
        print('%dx2048x%d' % (m, n), '2thr %.1f us (%.1f GFLOP/s, %.1f ns per row)' % (
            t2 * 1e6, 2 * m * 2048 * n / t2 / 1e9, t2 / m * 1e9),
            ' 1thr %.1f us (%.1f GFLOP/s)' % (t1 * 1e6, 2 * m * 2048 * n / t1 / 1e9))
