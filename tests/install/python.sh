#!/usr/bin/env bash
# The roofval Python package over the build tree's libroofval.so: the
# version, predict, predict_sweep, hardware_keys, validate (the built-in
# model's JSON report as a dict), and the errors it raises: arguments the
# library would take for others (a dimension past 64 bits, a shape of
# another op, a NUL in a key, None) and model names that are paths are
# exceptions, no temporary file is left or named; then the package from
# several threads (python-threads.py).
#   python.sh LIBROOFVAL_SO SOURCE_DIR
set -euo pipefail
command -v python3 >/dev/null || { echo "python: no python3; skipped"; exit 77; }
src=$(cd "$2" && pwd)
export ROOFVAL_LIBRARY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") PYTHONPATH=$src/python
cd "$(mktemp -d)"
trap 'rm -rf "$PWD"' EXIT
python3 - "$src" <<'PY'
import sys
import roofval

src = sys.argv[1]
assert roofval.__version__.count(".") == 2, roofval.__version__
p = roofval.predict("i7_12700k", "matmul", (512, 512, 512))
assert p["latency_s"] > 0 and p["energy_J"] > 0 and p["dtype"] == "fp32", p
assert p["binding"] in ("compute", "overhead", "l1", "l2", "l3", "dram"), p
assert roofval.predict("i7_12700k", "matmul", "512x512x512") == p
v = roofval.predict("i7_12700k", "vector_add", (1 << 20,))
assert v["shape"] == str(1 << 20), v
assert "i7_12700k" in roofval.hardware_keys()
rows = roofval.predict_sweep("i7_12700k", "matmul", "validation")
assert rows and all(r["latency_s"] > 0 for r in rows), len(rows)
report = roofval.validate(baselines=src + "/results/baselines", hw="xeon_amx_2vcpu", op="matmul")
assert report["schema"].startswith("roofval.report/"), report["schema"]
assert report["summary"]["records"] > 0, report["summary"]
# Another model's predictions (here the built-in model's, as dicts, for the
# target the reference baselines are of): a report whose records carry the
# model's name, as many as the built-in model's.
mine = roofval.predict_sweep("xeon_amx_2vcpu", "matmul", "validation")
r = roofval.validate(predictions=mine, baselines=src + "/results/baselines", name="mine",
                     hw="xeon_amx_2vcpu", op="matmul", purpose="validation")
builtin = roofval.validate(baselines=src + "/results/baselines", hw="xeon_amx_2vcpu",
                           op="matmul", purpose="validation")
assert r["schema"].startswith("roofval.report/"), r
assert r["summary"]["records"] == builtin["summary"]["records"] > 0, (r["summary"], builtin["summary"])
assert all(rec["model"] == "mine" for rec in r["records"]), r["records"][0]
# Predictions for a target without baselines score nothing: an error that says so.
try:
    roofval.validate(predictions=rows, baselines=src + "/results/baselines", name="mine")
except roofval.RoofvalError as e:
    assert e.code == -4 and "nothing scored" in str(e), (e.code, str(e))
else:
    raise AssertionError("nothing scored, no error")
for bad, code in ((lambda: roofval.predict("no_such_hw", "matmul", (1, 1, 1)), -4),
                  (lambda: roofval.predict("i7_12700k", "conv", (1, 1, 1)), -5),
                  (lambda: roofval.predict("i7_12700k", "matmul", (0, 1, 1)), -6)):
    try:
        bad()
    except roofval.RoofvalError as e:
        assert e.code == code and str(e), (e.code, str(e))
    else:
        raise AssertionError("no error")

# Arguments that C would read as others are exceptions, never another shape's answer.
def raises(call, exc, words):
    try:
        call()
    except exc as e:
        assert words in str(e), (exc, words, str(e))
    else:
        raise AssertionError("no %s (%s)" % (exc.__name__, words))


raises(lambda: roofval.predict("i7_12700k", "vector_add", (2**64 + 64,)), ValueError, "64 bits")
raises(lambda: roofval.predict("i7_12700k", "matmul", (2**64 + 64, 64, 64)), ValueError, "64 bits")
raises(lambda: roofval.predict("i7_12700k", "vector_add", (1024, 2, 3)), ValueError,
       "vector_add takes 1 dimensions")
raises(lambda: roofval.predict_batch("i7_12700k", "vector_add", [(8,), (1024, 2, 3)]), ValueError,
       "not 3")
raises(lambda: roofval.predict("i7_12700k", "matmul", (64, 64)), ValueError, "takes 3")
raises(lambda: roofval.predict("i7_12700k", "matmul", (64.5, 64, 64)), TypeError, "float")
raises(lambda: roofval.predict("i7_12700k", "matmul", (-1, 64, 64)), ValueError, "-1")
raises(lambda: roofval.predict("i7_12700k\0junk", "matmul", (64, 64, 64)), ValueError, "NUL")
raises(lambda: roofval.predict("i7_12700k", "matmul\0x", (64, 64, 64)), ValueError, "NUL")
raises(lambda: roofval.predict("i7_12700k", "matmul", (64, 64, 64), dtype="fp32\0"), ValueError,
       "NUL")
raises(lambda: roofval.predict(None, "matmul", (64, 64, 64)), TypeError, "None")
raises(lambda: roofval.predict("i7_12700k", None, (64, 64, 64)), TypeError, "None")
raises(lambda: roofval.predict_sweep(None, "matmul"), TypeError, "None")
raises(lambda: roofval.hardware_keys(hardware_dir=src + "/hardware\0/x"), ValueError, "NUL")
assert roofval.predict("i7_12700k", "vector_add", (1 << 20,)) == v  # still the same answer

# validate(name=...): a name, never a path; no temporary file left behind or named.
import os
import tempfile
tmp_root = os.path.abspath("tmp")
os.mkdir(tmp_root)
tempfile.tempdir = tmp_root
os.mkdir("inside")
os.chdir("inside")
victim = os.path.abspath("../victim.csv")
with open(victim, "w") as f:
    f.write("precious\n")
for name in ("../victim", victim[:-4], "../../escape", ".hidden", "", "a/b"):
    raises(lambda: roofval.validate(predictions=mine, baselines=src + "/results/baselines",
                                    name=name), ValueError, "not a name")
assert open(victim).read() == "precious\n", "validate(name=...) overwrote a file"
assert not os.path.exists("../../escape.csv") and not os.path.exists("../escape.csv")
broken = [dict(r) for r in mine]
broken[2]["latency_s"] = -1.0
try:
    roofval.validate(predictions=broken, baselines=src + "/results/baselines", name="mine",
                     hw="xeon_amx_2vcpu", op="matmul")
except roofval.RoofvalError as e:
    assert "predictions[2]" in str(e) and tmp_root not in str(e) and "/tmp" not in str(e), str(e)
else:
    raise AssertionError("a negative latency was accepted")
raises(lambda: roofval.validate(predictions=[{"shape": (1, 1, 1)}], name="mine",
                                baselines=src + "/results/baselines"), KeyError, "latency_s")
assert os.listdir(tmp_root) == [], ("temporary files left", os.listdir(tmp_root))
print("python: ok", roofval.__version__, len(rows), "sweep predictions")
PY
python3 "$src/tests/install/python-threads.py" "$src"
