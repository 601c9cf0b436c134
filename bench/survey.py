#!/usr/bin/python3
"""Everyday expressions outside the benchmark matrix, against NumPy.

The matrix (bench/matrix.sh) times every elementwise op, reduction, cast,
softmax, product and concat on fixed layouts. This survey times what else
a NumPy user types at the prompt: constructors (arange, linspace, ones,
eye), scans, count_nonzero, dot, transposes of 3-d arrays, norms,
standardisation, clip, integer division by a constant, mixed chains. Each
expression runs through `tensorsh -e ':timeit EXPR'` (its median) and,
in this process, through NumPy's timeit (the median of five repeats), on
the same kind of inputs: floats in [0.5, 1.5), integers 1..100, bools
half true, 1000x1000 or 100x100x100 or 10^6 elements.

Usage: bench/survey.sh [--filter RE]
"""
import argparse
import re
import subprocess
import sys
import time
import timeit

import numpy as np

SETUP = """x = cast(rand((1000, 1000), dtype=f64) + 0.5, f32)
y = cast(rand((1000, 1000), dtype=f64) + 0.5, f32)
d = rand((1000, 1000), dtype=f64) + 0.5
i = cast(floor(rand((1000, 1000), dtype=f64) * 100) + 1, i32)
b = rand((1000, 1000), dtype=f64) < 0.5
v = cast(rand((1000000,), dtype=f64) + 0.5, f32)
m3 = cast(rand((100, 100, 100), dtype=f64), f32)
h = cast(i - 50, i16)
z = cast(d, c128) + cast(rand((1000, 1000), dtype=f64), c128) * 1j
"""

# (tensorsh, NumPy): each pair gives one dtype (the constructors make
# float64 on both sides, the numpy policy's default float and NumPy's).
CASES = [
    ("arange(1000000)", "np.arange(1000000)"),
    ("arange(0.5, 100000, 0.1)", "np.arange(0.5, 100000, 0.1)"),
    ("linspace(0, 1, 1000000)", "np.linspace(0, 1, 1000000)"),
    ("ones((1000, 1000))", "np.ones((1000, 1000))"),
    ("zeros((1000, 1000))", "np.zeros((1000, 1000))"),
    ("eye(1000)", "np.eye(1000)"),
    ("cumsum(v)", "np.cumsum(v)"),
    ("cumsum(x, axis=0)", "np.cumsum(x, axis=0)"),
    ("cumsum(x, axis=1)", "np.cumsum(x, axis=1)"),
    ("cumprod(d, axis=1)", "np.cumprod(d, axis=1)"),
    ("count_nonzero(b)", "np.count_nonzero(b)"),
    ("count_nonzero(b, axis=0)", "np.count_nonzero(b, axis=0)"),
    ("dot(v, v)", "np.dot(v, v)"),
    ("x @ v[:1000]", "x @ v[:1000]"),
    # transpose(m3) alone is a view on both sides (tensorsh keeps an
    # elementwise result, and a transpose, in its operand's order, as NumPy
    # does): a reshape makes both copy the elements into the new order.
    ("reshape(transpose(m3), (1000000,))", "m3.T.reshape(-1)"),
    ("transpose(m3) + 1", "m3.T + 1"),
    ("transpose(m3, (0, 2, 1)) + 1", "m3.transpose(0, 2, 1) + 1"),
    ("sum(m3, axis=(0, 2))", "np.sum(m3, axis=(0, 2))"),
    ("std(x)", "np.std(x)"),
    ("var(x, axis=0)", "np.var(x, axis=0)"),
    ("std(d, axis=1)", "np.std(d, axis=1)"),
    ("(x - mean(x)) / std(x)", "(x - np.mean(x)) / np.std(x)"),
    ("x - mean(x, axis=0)", "x - np.mean(x, axis=0)"),
    ("x - max(x, axis=1, keepdims=true)", "x - np.max(x, axis=1, keepdims=True)"),
    ("sqrt(sum(x ** 2, axis=1))", "np.sqrt(np.sum(x ** 2, axis=1))"),
    ("log(sum(exp(x), axis=1))", "np.log(np.sum(np.exp(x), axis=1))"),
    ("sum(x * y, axis=1)", "np.sum(x * y, axis=1)"),
    ("clip(x, 0.7, 1.2)", "np.clip(x, 0.7, 1.2)"),
    ("where(x > 1, x, 0)", "np.where(x > 1, x, 0)"),
    ("(x > 0.7) & (x < 1.2)", "(x > 0.7) & (x < 1.2)"),
    ("mean(x > 1)", "np.mean(x > 1)"),
    ("x[:, :1] * x[:1, :]", "x[:, :1] * x[:1, :]"),
    ("x ** 4", "x ** 4"),
    ("x ** -1", "x ** -1"),
    ("d ** -1", "d ** -1"),
    ("2 ** x", "2 ** x"),
    ("i // 7", "i // 7"),
    ("i % 7", "i % 7"),
    ("sign(i)", "np.sign(i)"),
    ("round(x * 10)", "np.round(x * 10)"),
    ("cast(x * 100, i32)", "(x * 100).astype(np.int32)"),
    ("argmax(b, axis=0)", "np.argmax(b, axis=0)"),
    ("argmax(v)", "np.argmax(v)"),
    ("log10(d)", "np.log10(d)"),
    ("cosh(d)", "np.cosh(d)"),
    ("expm1(x)", "np.expm1(x)"),
    ("arctan2(x, y)", "np.arctan2(x, y)"),
    ("arcsin(x - 1)", "np.arcsin(x - 1)"),
    ("cast(x, f16)", "x.astype(np.float16)"),
    ("tanh(transpose(cast(x, f16)))", "np.tanh(x.astype(np.float16).T)"),
    # Stop 36: more of what a NumPy user types (slices of both axes and of
    # one column, methods, mixed chains, reductions of every kind along
    # rows, broadcasting a row and a column, products with a transposed
    # operand).
    ("transpose(x) @ x", "x.T @ x"),
    ("d @ d[:, :10]", "d @ d[:, :10]"),
    ("x[100:900, 100:900] + 1", "x[100:900, 100:900] + 1"),
    ("x[::2, ::2] * 2", "x[::2, ::2] * 2"),
    ("x[::-1] + 0", "x[::-1] + 0"),
    ("x[:, 0] * 2", "x[:, 0] * 2"),
    ("sum(x[:, 0])", "np.sum(x[:, 0])"),
    ("x + v[:1000]", "x + v[:1000]"),
    ("x + reshape(v[:1000], (1000, 1))", "x + v[:1000].reshape(1000, 1)"),
    ("abs(x - y) < 0.01", "np.abs(x - y) < 0.01"),
    ("max(x) - min(x)", "np.max(x) - np.min(x)"),
    ("maximum(x, y)", "np.maximum(x, y)"),
    ("x * (x > 1)", "x * (x > 1)"),
    ("x / sum(x, axis=1, keepdims=true)", "x / np.sum(x, axis=1, keepdims=True)"),
    ("floor(x * 10) / 10", "np.floor(x * 10) / 10"),
    ("hypot(x, y)", "np.hypot(x, y)"),
    ("sin(x) ** 2 + cos(x) ** 2", "np.sin(x) ** 2 + np.cos(x) ** 2"),
    ("i * 1.5", "i * 1.5"),
    ("i & 0xF", "i & 0xF"),
    ("sum(i)", "np.sum(i)"),
    ("mean(i, axis=1)", "np.mean(i, axis=1)"),
    ("sum(b, axis=1)", "np.sum(b, axis=1)"),
    ("any(x > 1.4, axis=1)", "np.any(x > 1.4, axis=1)"),
    ("argmin(x, axis=1)", "np.argmin(x, axis=1)"),
    ("var(d)", "np.var(d)"),
    ("arange(1000000) % 7 == 0", "np.arange(1000000) % 7 == 0"),
    ("full((1000, 1000), 7.0)", "np.full((1000, 1000), 7.0)"),
    ("x.T + 1", "x.T + 1"),
    ("x.sum(axis=0)", "x.sum(axis=0)"),
    ("x.astype(f64)", "x.astype(np.float64)"),
    ("cast(d, f32)", "d.astype(np.float32)"),
    # Stop 37: NumPy's matrix and repetition helpers (matrices.go).
    ("tril(x)", "np.tril(x)"),
    ("triu(d, 1)", "np.triu(d, 1)"),
    ("diag(v[:1000])", "np.diag(v[:1000])"),
    ("diagonal(x)", "np.diagonal(x).copy()"),
    ("trace(d)", "np.trace(d)"),
    ("outer(v[:1000], v[:1000])", "np.outer(v[:1000], v[:1000])"),
    ("tile(v[:1000], (1000, 1))", "np.tile(v[:1000], (1000, 1))"),
    ("repeat(v[:1000], 1000)", "np.repeat(v[:1000], 1000)"),
    ("repeat(x, 2, axis=0)", "np.repeat(x, 2, axis=0)"),
    ("logical_xor(x > 1, y > 1)", "np.logical_xor(x > 1, y > 1)"),
    ("nan_to_num(x)", "np.nan_to_num(x)"),
    ("sort(v)", "np.sort(v)"),
    ("sort(x)", "np.sort(x)"),
    ("sort(x, axis=0)", "np.sort(x, axis=0)"),
    ("sort(d)", "np.sort(d)"),
    ("sort(i, axis=None)", "np.sort(i, axis=None)"),
    ("argsort(v)", "np.argsort(v)"),
    ("argsort(x, axis=1)", "np.argsort(x, axis=1)"),
    ("median(v)", "np.median(v)"),
    ("median(x, axis=1)", "np.median(x, axis=1)"),
    ("percentile(v, [95])", "np.percentile(v, [95])"),
    ("quantile(v, [0.25, 0.5, 0.75])", "np.quantile(v, [0.25, 0.5, 0.75])"),
    ("percentile(x, [90], axis=1)", "np.percentile(x, [90], axis=1)"),
    ("sort(v)[-10:]", "np.sort(v)[-10:]"),
    ("around(x, 2)", "np.round(x, 2)"),
    ("nansum(x)", "np.nansum(x)"),
    ("nanmean(x, axis=0)", "np.nanmean(x, axis=0)"),
    ("nanmax(x, axis=1)", "np.nanmax(x, axis=1)"),
    ("roll(x, 1, axis=1)", "np.roll(x, 1, axis=1)"),
    ("diff(x, axis=0)", "np.diff(x, axis=0)"),
    ("hstack([x, y])", "np.hstack([x, y])"),
    ("ptp(x, axis=0)", "np.ptp(x, axis=0)"),
    ("isin(i, [3, 50, 97])", "np.isin(i, [3, 50, 97])"),
    ("average(x, axis=0, weights=v[:1000])", "np.average(x, axis=0, weights=v[:1000])"),
    ("cross(reshape(v[:999999], (333333, 3)), reshape(v[1:], (333333, 3)))", "np.cross(v[:999999].reshape(333333, 3), v[1:].reshape(333333, 3))"),
    ("isclose(x, y)", "np.isclose(x, y)"),
    ("allclose(d, d + 1e-9)", "np.allclose(d, d + 1e-9)"),
    # Stop 40: functions of arguments outside their domain in part (log of
    # numbers half of them negative, arcsin beyond 1, exp underflowing to
    # 0, negative bases), NaN where NumPy warns; x ** -0.5; log2 either
    # side of 1/2.
    ("log(x - 1)", "np.log(x - 1)"),
    ("arcsin(d * 4 - 4)", "np.arcsin(d * 4 - 4)"),
    ("arctanh(x * 4 - 4)", "np.arctanh(x * 4 - 4)"),
    ("exp(-x * 800)", "np.exp(-x * 800)"),
    ("(d - 1) ** 0.3", "(d - 1) ** 0.3"),
    ("d ** -0.5", "d ** -0.5"),
    ("log2(d - 0.5)", "np.log2(d - 0.5)"),
    # Dtypes outside the matrix (stop 54): int16, uint32, complex128.
    ("cast(h, i8)", "h.astype(np.int8)"),
    ("cast(i, u32)", "i.astype(np.uint32)"),
    ("cast(h, f16)", "h.astype(np.float16)"),
    ("h // 7", "h // 7"),
    ("h + h", "h + h"),
    ("sum(z)", "np.sum(z)"),
    ("sum(z, axis=0)", "np.sum(z, axis=0)"),
    ("cast(d, c128)", "d.astype(np.complex128)"),
    ("z * z", "z * z"),
    ("z @ z[:, :10]", "z @ z[:, :10]"),
]


def tensorsh_ms(binary, expr):
    """(median ms, result dtype, error)."""
    out = subprocess.run([binary, "-policy", "numpy", "-e", SETUP, "-e", ":timeit " + expr, "-e", "dtype(%s)" % expr],
                         capture_output=True, text=True)
    lines = [l for l in (out.stdout + out.stderr).splitlines() if l.strip()]
    if len(lines) < 2:
        return None, None, lines[-1].strip() if lines else "no output"
    m = re.match(r"\s*([\d.]+) (ns|µs|ms|s) \(median", lines[-2])
    if not m:
        return None, None, lines[-2].strip()
    scale = {"ns": 1e-6, "µs": 1e-3, "ms": 1.0, "s": 1e3}[m.group(2)]
    return float(m.group(1)) * scale, lines[-1].strip(), ""


# TSH_DTYPES names NumPy's dtypes as tensorsh does.
TSH_DTYPES = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
              "uint16": "u16", "uint32": "u32", "uint64": "u64",
              "float16": "f16", "float32": "f32", "float64": "f64", "complex64": "c64", "complex128": "c128"}


def numpy_ms(expr, ns):
    t = timeit.Timer(expr, globals=ns)
    with np.errstate(all="ignore"):  # as bench/matrix.py: NaN of log(x - 1) unreported
        n, _ = t.autorange()
        n = max(1, n // 2)
        return sorted(t.repeat(5, n))[2] / n * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True, help="the tensorsh binary")
    ap.add_argument("--filter", default="", help="only the expressions matching this regular expression")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    ns = {
        "np": np,
        "x": (rng.random((1000, 1000)) + 0.5).astype(np.float32),
        "y": (rng.random((1000, 1000)) + 0.5).astype(np.float32),
        "d": rng.random((1000, 1000)) + 0.5,
        "i": np.floor(rng.random((1000, 1000)) * 100 + 1).astype(np.int32),
        "b": rng.random((1000, 1000)) < 0.5,
        "v": (rng.random(10**6) + 0.5).astype(np.float32),
        "m3": rng.random((100, 100, 100)).astype(np.float32),
    }
    ns["h"] = (ns["i"] - 50).astype(np.int16)
    ns["z"] = ns["d"] + 1j * rng.random((1000, 1000))
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print("NumPy %s, load %s; NumPy ms / tensorsh ms (medians)" % (np.__version__, load))
    ratios = []
    for te, ne in CASES:
        if args.filter and not re.search(args.filter, te):
            continue
        t, dt, err = tensorsh_ms(args.binary, te)
        if t is None:
            print("%-38s tensorsh failed: %s" % (te, err))
            continue
        with np.errstate(all="ignore"):
            ndt = np.asarray(eval(ne, ns)).dtype.name
        if TSH_DTYPES.get(ndt, ndt) != dt.rstrip("?"):  # a ratio of different work ("?": weak)
            print("%-38s dtypes differ: tensorsh %s, NumPy %s" % (te, dt, ndt))
            continue
        n = numpy_ms(ne, ns)
        if "@" in ne or "dot(" in ne or "matmul(" in ne:
            # OpenBLAS's threads poll for work for a while after a
            # product, taking a core from the next tensorsh run (as
            # bench/matrix.py's BLAS_SPIN): x.T + 1 right after x @ v
            # took 82 µs, 46-54 otherwise.
            time.sleep(0.3)
        ratios.append(n / t)
        print("%-38s %9.3f %9.3f %7.2fx%s" % (te, n, t, n / t, "  slower" if n < t else ""))
    if ratios:
        import math
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("geometric mean over %d expressions: %.2fx; %d slower than NumPy" % (len(ratios), g, sum(r < 1 for r in ratios)))


if __name__ == "__main__":
    sys.exit(main())
