#!/usr/bin/env python3
# What a call on two threads costs beyond half its one-thread time
# (docs/accuracy.md, "An Emerald Rapids VM"): cblas_sgemm as the capture's
# matmul calls it (row-major, beta 0), best of 7 rounds of 100 calls, on 1
# and 2 threads (openblas_set_num_threads); then the small-matrix kernel on
# one thread for 1024 x 64 x N.
# usage: OPENBLAS_CORETYPE=SkylakeX python3 results/dev-xeon/openblas-two-threads.py
import ctypes, time
L = ctypes.CDLL('libopenblas.so.0')
def buf(n): return (ctypes.c_float * n)()
def t(m, k, n, thr, reps=100, rounds=7):
    L.openblas_set_num_threads(thr)
    a, b, c = buf(m * k), buf(k * n), buf(m * n)
    best = 1e9
    for r in range(rounds):
        t0 = time.perf_counter()
        for i in range(reps):
            # col-major: C^T(n x m) = B^T(n x k) A^T(k x m)
            L.cblas_sgemm(102, 111, 111, n, m, k, ctypes.c_float(1.0), b, n, a, k, ctypes.c_float(0.0), c, n)
        best = min(best, (time.perf_counter() - t0) / reps)
    return best
for s in [(24, 96, 768), (48, 1536, 16), (32, 1536, 96), (192, 4, 384), (8192, 128, 12), (2048, 256, 64), (512, 192, 2048)]:
    t1 = t(*s, 1); t2 = t(*s, 2)
    print('%dx%dx%d' % s, '1thr %.2f us  2thr %.2f us  2thr - 1thr/2 %.2f us' % (t1 * 1e6, t2 * 1e6, (t2 - t1 / 2) * 1e6))
for n in (1, 2, 4, 8, 12, 15):
    print('1024x64x%d' % n, '1thr %.2f us' % (t(1024, 64, n, 1) * 1e6))
