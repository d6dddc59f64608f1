#!/usr/bin/env python3
# What a call on two threads costs beyond half its one-thread time
# (docs/accuracy.md, "An Emerald Rapids VM"): cblas_sgemm as the capture's
# matmul calls it, timed by results/dev-epyc/blas_timer.py's t()
# (best of 7 rounds, on 1 and 2 threads); then the small-matrix kernel on
# one thread for 1024 x 64 x N.
# usage: OPENBLAS_CORETYPE=SkylakeX python3 results/dev-xeon/openblas-two-threads.py
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dev-epyc'))
from blas_timer import t
for s in [(24, 96, 768), (48, 1536, 16), (32, 1536, 96), (192, 4, 384), (8192, 128, 12), (2048, 256, 64), (512, 192, 2048)]:
    t1 = t(*s, 1, reps=100); t2 = t(*s, 2, reps=100)
    print('%dx%dx%d' % s, '1thr %.2f us  2thr %.2f us  2thr - 1thr/2 %.2f us' % (t1 * 1e6, t2 * 1e6, (t2 - t1 / 2) * 1e6))
for n in (1, 2, 4, 8, 12, 15):
    print('1024x64x%d' % n, '1thr %.2f us' % (t(1024, 64, n, 1, reps=100) * 1e6))
