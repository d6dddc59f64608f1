# cblas_sgemm timed as PyTorch calls it (row-major C = A B as the
# column-major C^T = B^T A^T): the best of `rounds` rounds of `reps` calls on
# `thr` threads. Shared by openblas-threshold.py here and the timing scripts
# of results/dev-xeon (OpenBLAS, or MKL given library('libmkl_rt.so')).
import ctypes, mmap, time


def library(name='libopenblas.so.0'):
    return ctypes.CDLL(name)


OPENBLAS = library()


def set_threads(lib, thr):
    if hasattr(lib, 'openblas_set_num_threads'):
        lib.openblas_set_num_threads(thr)
    else:
        lib.MKL_Set_Num_Threads(thr)


def buffer(elements):
    """Page-aligned floats, written (as the capture's buffers are: a ctypes
    array or a malloc'd block starts 16 bytes past a page, every 64-byte store
    to C then straddles two cache lines). Returns the mapping (keep it) and
    the array."""
    m = mmap.mmap(-1, max(4 * elements, 4096))
    a = (ctypes.c_float * elements).from_buffer(m)
    for i in range(0, elements, 97):
        a[i] = 1e-3 * (i % 7)
    return m, a


def t(m, k, n, thr, reps=200, rounds=7, lib=OPENBLAS, linear=False):
    """matmul (NN, beta 0) or, with linear, a linear as addmm calls it (B
    transposed as stored, beta 1)."""
    set_threads(lib, thr)
    keep = [buffer(m * k), buffer(k * n), buffer(m * n)]
    a, b, c = (x[1] for x in keep)
    best = 1e9
    for r in range(rounds):
        t0 = time.perf_counter()
        for i in range(reps):
            if linear:  # col-major: C^T(n x m) = B(n x k, stored k-major) A^T(k x m)
                lib.cblas_sgemm(102, 112, 111, n, m, k, ctypes.c_float(1.0), b, k, a, k,
                                ctypes.c_float(1.0), c, n)
            else:  # col-major: C^T(n x m) = B^T(n x k) A^T(k x m)
                lib.cblas_sgemm(102, 111, 111, n, m, k, ctypes.c_float(1.0), b, n, a, k,
                                ctypes.c_float(0.0), c, n)
        best = min(best, (time.perf_counter() - t0) / reps)
    return best
