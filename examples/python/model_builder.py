#!/usr/bin/env python3
# A model builder's use of roofval: compare your own cost model with
# roofval's built-in one over a validation sweep, then score the built-in
# model against measured baselines (a folder; default: roofval's own).
#   PYTHONPATH=<prefix>/lib/python3/dist-packages python3 model_builder.py [BASELINE_DIR]
import sys

import roofval

def my_model(m, k, n):  # a naive roofline: 2*M*N*K FLOPs at 1 TFLOP/s
    return 2.0 * m * n * k / 1e12

print("roofval", roofval.__version__)
for p in roofval.predict_sweep("i7_12700k", "matmul", "validation")[:5]:
    m, k, n = map(int, p["shape"].split("x"))
    print(f"{p['shape']:>16} roofval {p['latency_s']:.3g} s ({p['binding']}), mine {my_model(m, k, n):.3g} s")
report = roofval.validate(baselines=sys.argv[1] if len(sys.argv) > 1 else None)
print("records:", report["summary"]["records"], "passed:", report["summary"]["passed"])
