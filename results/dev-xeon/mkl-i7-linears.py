#!/usr/bin/env python3
# The i7 reference rows whose times disagree with their bytes and FLOPs
# (docs/accuracy.md, "Session 14"), timed through Debian's MKL 2020.4 on its
# AVX2 path (the i7's) on this VM's cores: a linear as PyTorch's addmm calls
# cblas_sgemm (row-major, B transposed as stored, beta 1 over C holding the
# bias; col-major: C^T = W X^T), on one and two threads, best of 7 rounds of
# calls on page-aligned buffers (results/dev-epyc/blas_timer.py).
# usage: MKL_ENABLE_INSTRUCTIONS=AVX2 MKL_THREADING_LAYER=GNU python3 results/dev-xeon/mkl-i7-linears.py
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dev-epyc'))
import blas_timer
MKL = blas_timer.library('libmkl_rt.so')


def linear(m, k, n, thr):
    reps = max(3, int(0.02 / max(1e-7, 2 * m * k * n / 5e10 + 4 * n * k / 2e10)))
    return blas_timer.t(m, k, n, thr, reps, lib=MKL, linear=True)


print(time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime()), 'load', os.getloadavg(),
      'MKL_ENABLE_INSTRUCTIONS', os.environ.get('MKL_ENABLE_INSTRUCTIONS'))
for s in [(1, 128, 128), (1, 128, 384), (1, 128, 512), (1, 1024, 12288), (1, 1280, 8192),
          (1, 3072, 4096), (2, 384, 12288), (2, 3072, 1536), (4, 768, 3072), (4, 3072, 768)]:
    t1 = linear(*s, 1)
    t2 = linear(*s, 2)
    print('linear %dx%dx%d' % s, '1thr %.2f us  2thr %.2f us  weight %.1f MB' % (
        t1 * 1e6, t2 * 1e6, 4 * s[1] * s[2] / 1e6))
