#!/usr/bin/env python3
# MKL's cost per row of A (docs/accuracy.md, "Round 14"): Debian's MKL
# 2020.4 on its AVX2 path (the i7's) on this Intel VM's cores, cblas_sgemm
# as PyTorch calls it (row-major C = A B as the column-major C^T = B^T A^T),
# M x 2048 x N on one and two threads, best of 7 rounds (results/dev-epyc/blas_timer.py).
# usage: MKL_ENABLE_INSTRUCTIONS=AVX2 MKL_THREADING_LAYER=GNU python3 results/dev-xeon/mkl-pack.py
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dev-epyc'))
import blas_timer
MKL = blas_timer.library('libmkl_rt.so')


def t(m, k, n, thr, reps):
    return blas_timer.t(m, k, n, thr, reps, lib=MKL)


print(time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime()), 'load', os.getloadavg(),
      'MKL_ENABLE_INSTRUCTIONS', os.environ.get('MKL_ENABLE_INSTRUCTIONS'))
for n in (16, 64, 256):
    for m in (512, 2048, 8192):
        reps = max(3, int(2e9 / (2 * m * 2048 * n)))
        t1 = t(m, 2048, n, 1, reps); t2 = t(m, 2048, n, 2, reps)
        print('%dx2048x%d' % (m, n), '1thr %.1f us (%.1f GFLOP/s, %.1f ns per row)' % (
            t1 * 1e6, 2 * m * 2048 * n / t1 / 1e9, t1 / m * 1e9),
            ' 2thr %.1f us (%.1f GFLOP/s, %.1f ns per row)' % (
            t2 * 1e6, 2 * m * 2048 * n / t2 / 1e9, t2 / m * 1e9))
