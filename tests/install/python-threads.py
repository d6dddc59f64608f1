# SPDX-License-Identifier: MIT
"""The roofval Python package from several threads at once: threads that
predict every profile together, on folders no thread has opened yet, share
one data handle and one profile handle per key, and each gets the numbers
one thread alone gets; validate() and predict_sweep() from threads give one
thread's reports. Run by tests/install/python.sh, and under ThreadSanitizer
by .ci/run (LD_PRELOAD of libtsan with a libroofval built with
-DRV_SANITIZE=thread).
    python3 python-threads.py SOURCE_DIR      (ROOFVAL_LIBRARY, PYTHONPATH set)"""
import os
import sys
import threading

import roofval

src = sys.argv[1]
hw_dir = os.path.join(src, "hardware")
N_THREADS = 6
keys = roofval.hardware_keys(hardware_dir=hw_dir)
assert len(keys) >= 4, keys
shapes = [(64, 64, 64), (512, 256, 1024), (3, 5, 7)]
alone = {k: roofval.predict_batch(k, "matmul", shapes, hardware_dir=hw_dir) for k in keys}


def run(target, n=N_THREADS):
    """target(i) in n threads started together; their results, or the first exception."""
    start = threading.Barrier(n)
    out, errors = [None] * n, []

    def body(i):
        try:
            start.wait()
            out[i] = target(i)
        except BaseException as e:  # noqa: B902 - reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


for rnd in range(6):
    # Another spelling of the folder each round: a handle no thread has opened.
    dirs = {"hardware_dir": hw_dir + "/." * (rnd + 1)}

    def predict_all(i):
        got, handles = {}, {}
        for j in range(len(keys)):
            k = keys[(i + j) % len(keys)]
            got[k] = roofval.predict_batch(k, "matmul", shapes, **dirs)
            handles[k] = (id(roofval._cached(**dirs)), roofval._cached(**dirs).hw(k).value)
        return got, handles

    results = run(predict_all)
    for got, handles in results:
        assert got == alone, "a thread's predictions differ from one thread's"
        # One data handle for the folders, one profile handle per key.
        assert handles == results[0][1], (handles, results[0][1])

base = os.path.join(src, "results", "baselines")
one = roofval.validate(baselines=base, hw="xeon_amx_2vcpu", op="vector_add", hardware_dir=hw_dir)
sweep = roofval.predict_sweep("xeon_amx_2vcpu", "linear", "validation", hardware_dir=hw_dir)
for r in run(lambda i: (roofval.validate(baselines=base, hw="xeon_amx_2vcpu", op="vector_add",
                                         hardware_dir=hw_dir),
                        roofval.predict_sweep("xeon_amx_2vcpu", "linear", "validation",
                                              hardware_dir=hw_dir + "/."))):
    assert r == (one, sweep), "a thread's report or sweep differs from one thread's"
print("python threads: ok,", N_THREADS, "threads,", len(keys), "profiles")
