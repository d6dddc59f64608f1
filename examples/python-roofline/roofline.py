#!/usr/bin/env python3
"""A roofline model as a roofval adapter (standard library only).

roofval validate --model-cmd 'python3 examples/python-roofline/roofline.py'
writes the entries to predict on standard input (hardware,op,shape,dtype,
profile) and reads this program's predictions CSV from standard output
(hardware,op,shape,dtype,latency_s,energy_j,regime).
"""
import csv
import json
import sys

BITS = {"fp64": 64, "fp32": 32, "tf32": 32, "fp16": 16, "bf16": 16, "fp8_e4m3": 8,
        "fp8_e5m2": 8, "int64": 64, "int32": 32, "int16": 16, "int8": 8, "int4": 4, "fp4": 4}


def footprint(op, dims, bits):
    """FLOPs and the bytes an op must move at least (each operand once)."""
    e = bits / 8
    if op == "matmul":
        m, k, n = dims
        return 2 * m * k * n, (m * k + k * n + m * n) * e
    if op == "linear":
        b, i, o = dims
        return 2 * b * i * o + b * o, (b * i + i * o + o + b * o) * e
    (n,) = dims
    return n, 3 * n * e


def predict(profile, op, dims, dtype):
    compute = next(c for c in profile["compute"] if c["dtype"] == dtype)
    dram = next(t for t in profile["memory"] if t["name"] == "dram")
    flop, moved_B = footprint(op, dims, BITS[dtype])
    compute_s = flop / compute["effective_flop_per_s"]
    memory_s = moved_B / dram["effective_bw_Bps"]
    overhead_s = profile["call_overhead"]["latency_s"]
    latency_s = overhead_s + max(compute_s, memory_s)
    power = profile["power"]
    energy_j = power["static_W"] * latency_s
    energy_j += power["energy_per_flop_J"].get(dtype, 0.0) * flop
    energy_j += power.get("energy_per_byte_J", {}).get("dram", 0.0) * moved_B
    if overhead_s > max(compute_s, memory_s):
        regime = "launch_bound"
    else:
        regime = "alu_bound" if compute_s >= memory_s else "dram_bound"
    return latency_s, energy_j, regime


def main():
    profiles = {}
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["hardware", "op", "shape", "dtype", "latency_s", "energy_j", "regime"])
    for row in csv.DictReader(sys.stdin):
        path = row["profile"]
        if path not in profiles:
            with open(path, encoding="utf-8") as f:
                profiles[path] = json.load(f)
        dims = [int(d) for d in row["shape"].split("x")]
        latency_s, energy_j, regime = predict(profiles[path], row["op"], dims, row["dtype"])
        out.writerow([row["hardware"], row["op"], row["shape"], row["dtype"],
                      repr(latency_s), repr(energy_j), regime])


if __name__ == "__main__":
    main()
