#!/usr/bin/env python3
# OpenBLAS 0.3.21 one-thread threshold check (docs/accuracy.md, "Round 6 on the development machine"):
# cblas_sgemm called as PyTorch calls it (row-major C = A B as the column-major C^T = B^T A^T),
# best of 7 rounds of 200 calls, on 1 and 2 threads (openblas_set_num_threads).
# usage: python3 results/dev-epyc/openblas-threshold.py (run 2026-12-02 00:27 and 00:32 UTC at plain nice 0)
from blas_timer import t  # results/dev-xeon/*.py import it from there too
if __name__ == '__main__':
    for s in [(64,64,64),(64,64,65),(100,100,100),(101,100,100),(6,1024,64),(16,128,128),(16,128,129)]:
        t1=t(*s,1); t2=t(*s,2)
        print(s, 'mnk=%d'%(s[0]*s[1]*s[2]), '1thr %.2f us  2thr %.2f us  ratio %.2f  GFLOP/s(1) %.1f'%(t1*1e6,t2*1e6,t1/t2,2*s[0]*s[1]*s[2]/t1/1e9))
