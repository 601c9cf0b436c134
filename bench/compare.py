#!/usr/bin/python3
"""Time the issue-8 expressions in NumPy; print one JSON object.

Each expression runs on the same inputs the Go benchmarks build
(backend/cpu/bench_test.go, BenchmarkNumpy*): 10^7 float32 elements,
a 1000x10000 matrix for softmax, (1000,1) + (1,10000) for broadcast.
The value is the median of --runs timings, in milliseconds.

Usage: /usr/bin/python3 bench/compare.py [--runs N]
"""
import argparse
import json
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("compare.py: numpy is missing (apt-get install python3-numpy)")

N = 10_000_000


def median_ms(fn, runs):
    fn()  # warm up: first-touch page faults, caches
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    return ts[len(ts) // 2]


def softmax_rows(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    a = rng.random(N, dtype=np.float32)
    b = rng.random(N, dtype=np.float32)
    c = rng.random(N, dtype=np.float32)
    i8 = rng.integers(-128, 128, N, dtype=np.int8)
    m = rng.standard_normal((1000, 10000), dtype=np.float32)
    col = rng.random((1000, 1), dtype=np.float32)
    row = rng.random((1, 10000), dtype=np.float32)
    out = np.empty_like(a)

    def inplace():
        np.multiply(a, b, out=out)
        np.add(out, c, out=out)

    exprs = {
        "copy": lambda: a.copy(),
        "copyto": lambda: np.copyto(out, a),
        "a*b+c": lambda: a * b + c,
        "a*b+c in place": inplace,
        "tanh(a*2+b)*c": lambda: np.tanh(a * 2 + b) * c,
        "i8+f32": lambda: i8 + a,
        "sum(a*b)": lambda: np.sum(a * b),
        "softmax rows": lambda: softmax_rows(m),
        "(1000,1)+(1,10000)": lambda: col + row,
    }
    res = {"numpy": np.__version__, "ms": {}}
    for name, fn in exprs.items():
        res["ms"][name] = median_ms(fn, args.runs)
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
