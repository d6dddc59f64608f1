#!/usr/bin/env python3
"""Family-stratified sweeps for the development machine (issue 19).

roofval's `sweep generate` stratifies by regime; LOFO needs every family of
rv_cal_family() (src/model/calibrate.c) in both purposes. This draws, from the
same candidate dims (powers of two and their 1.5x multiples), up to PER
shapes per family for calibration and PER others for validation, seeded, with
no labels: `roofval sweep augment --hw KEY` labels them afterwards.

usage: make-sweeps.py PROFILE.json OUTDIR [SEED]
"""
import json, random, sys, collections

prof = json.load(open(sys.argv[1]))
out = sys.argv[2]
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261201
peak = next(c["peak_flop_per_s"] for c in prof["compute"] if c["dtype"] == "fp32")
bw = prof["memory"][-1]["bw_Bps"]
ov = prof["call_overhead"]["latency_s"]
MAX_FLOP, MAX_WS = 2**32, 256 * 2**20
PER = {"matmul": 3, "linear": 2, "vector_add": 8}

dims = sorted({d for p in range(15) for d in (2**p, 3 * 2**p // 2) if d >= 1})
dims = [d for d in dims if d <= 16384]

def cost(op, s):
    if op == "vector_add":
        return s[0], 12 * s[0]
    M, K, N = s
    f, ws = 2 * M * K * N, 4 * (M * K + K * N + M * N)
    if op == "linear":
        f += M * N; ws += 4 * N
    return f, ws

def family(op, s):
    f, ws = cost(op, s)
    r = max(f / peak, ws / bw) / ov
    size = "launch" if r < 1 else "small" if r < 30 else "large"
    if op == "vector_add":
        return size
    d = "".join("MKN"[i] for i in range(3) if s[i] <= 128) or "-"
    if op == "linear":
        m = s[0]
        rows = "M=1" if m <= 1 else "M=2" if m == 2 else "M=3-7" if m < 8 else "M>=8"
        return f"{rows} small:{d} {size}"
    return f"small:{d} {size}"

for op in ("matmul", "linear", "vector_add"):
    if op == "vector_add":
        cands = [(n,) for n in sorted({d for p in range(25) for d in (2**p, 3 * 2**p // 2)}) if n <= 2**24]
    else:
        cands = [(m, k, n) for m in dims for k in dims for n in dims]
    pool = collections.defaultdict(list)
    for s in cands:
        f, ws = cost(op, s)
        if f <= MAX_FLOP and ws <= MAX_WS:
            pool[family(op, s)].append(s)
    rng = random.Random(f"{seed}-{op}")
    picked = {"calibration": [], "validation": []}
    for fam in sorted(pool):
        ss = pool[fam][:]
        rng.shuffle(ss)
        k = min(PER[op], len(ss) // 2)
        if k == 0:
            continue  # a family of one shape cannot be in both purposes
        picked["calibration"] += ss[:k]
        picked["validation"] += ss[k:2 * k]
    for purpose, ss in picked.items():
        doc = {"op": op, "purpose": purpose, "generator_seed": seed,
               "generated_against_hardware": [prof["key"]],
               "shapes": [{"shape": list(s), "dtype": "fp32", "regime_per_hw": {}} for s in sorted(ss)]}
        with open(f"{out}/{op}_{purpose}.json", "w") as fh:
            json.dump(doc, fh, indent=2); fh.write("\n")
        c = collections.Counter(family(op, s) for s in ss)
        print(op, purpose, len(ss), "shapes,", len(c), "families")
