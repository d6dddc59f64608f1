# cblas_sgemm timed as PyTorch calls it (row-major C = A B as the
# column-major C^T = B^T A^T): the best of `rounds` rounds of `reps` calls on
# `thr` threads. Shared by openblas-threshold.py here and the timing scripts
# of results/dev-xeon (OpenBLAS, or MKL given library('libmkl_rt.so')).
import ctypes, time


def library(name='libopenblas.so.0'):
    return ctypes.CDLL(name)


OPENBLAS = library()


def set_threads(lib, thr):
    if hasattr(lib, 'openblas_set_num_threads'):
        lib.openblas_set_num_threads(thr)
    else:
        lib.MKL_Set_Num_Threads(thr)


def t(m, k, n, thr, reps=200, rounds=7, lib=OPENBLAS):
    set_threads(lib, thr)
    a, b, c = (ctypes.c_float * (m * k))(), (ctypes.c_float * (k * n))(), (ctypes.c_float * (m * n))()
    best = 1e9
    for r in range(rounds):
        t0 = time.perf_counter()
        for i in range(reps):
            # col-major: C^T(n x m) = B^T(n x k) A^T(k x m)
            lib.cblas_sgemm(102, 111, 111, n, m, k, ctypes.c_float(1.0), b, n, a, k,
                            ctypes.c_float(0.0), c, n)
        best = min(best, (time.perf_counter() - t0) / reps)
    return best
