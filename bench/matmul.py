#!/usr/bin/python3
"""Compare tensorsh's matrix product with NumPy's (OpenBLAS) in one run.

Runs, alternating R rounds on the same machine:
  1. the Go benchmarks BenchmarkMatMulSizes/* of backend/cpu (the plans
     built directly, timed through Backend.Run);
  2. the same products in NumPy (Debian's python3-numpy), run with
     OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from its environment so
     that OpenBLAS picks its kernel for this CPU, as a pip user's would;
and prints, per product, the median over rounds of NumPy ms and tensorsh
ms, the speed-up (NumPy / tensorsh, below 1 = slower than NumPy) with its
lowest and highest value over the rounds (each round's ratio compares two
runs seconds apart), the CPU ms of each side, and the load average
before and after.

NumPy uses OpenBLAS only where libopenblas0-pthread is installed
(apt-get install -y libopenblas0-pthread); with Debian's reference BLAS
(libblas3) its products are many times slower, and the script says which
it found.

Usage: /usr/bin/python3 bench/matmul.py [--rounds R] [--runs N] [--json]
                                       [--coretype NAME] [--filter RE]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (NumPy setup: shapes of the operands and dtype)
CASES = {
    "f32/64": ((64, 64), (64, 64), "float32"),
    "f32/256": ((256, 256), (256, 256), "float32"),
    "f32/1000": ((1000, 1000), (1000, 1000), "float32"),
    "f32/2000": ((2000, 2000), (2000, 2000), "float32"),
    "f64/64": ((64, 64), (64, 64), "float64"),
    "f64/256": ((256, 256), (256, 256), "float64"),
    "f64/1000": ((1000, 1000), (1000, 1000), "float64"),
    "f64/2000": ((2000, 2000), (2000, 2000), "float64"),
    "f32/mv1000": ((1000, 1000), (1000,), "float32"),
    "f32/vm1000": ((1000,), (1000, 1000), "float32"),
    "f32/batch256x64": ((256, 64, 64), (256, 64, 64), "float32"),
    "f16/256": ((256, 256), (256, 256), "float16"),
    "i32/256": ((256, 256), (256, 256), "int32"),
}

NUMPY_SIDE = r'''
import json, sys, time, statistics
import numpy as np
cases, runs = json.loads(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(8)
out = {}
for name, (sa, sb, dt) in cases.items():
    if dt == "int32":
        a = np.arange(np.prod(sa), dtype=np.int32).reshape(sa)
        b = a if sa == sb else np.arange(np.prod(sb), dtype=np.int32).reshape(sb)
    else:
        a = rng.standard_normal(sa).astype(dt)
        b = rng.standard_normal(sb).astype(dt)
    for _ in range(3):
        a @ b
    ts = []
    c0 = time.process_time()
    for _ in range(runs):
        t0 = time.perf_counter()
        a @ b
        ts.append((time.perf_counter() - t0) * 1e3)
    out[name] = (statistics.median(ts), (time.process_time() - c0) * 1e3 / runs)
cfg = np.__config__
blas = "unknown"
try:
    import ctypes, glob
    for line in open("/proc/self/maps"):
        if "openblas" in line:
            blas = line.split()[-1]
            break
        if "libblas" in line:
            blas = line.split()[-1]
    if "openblas" in blas:
        lib = ctypes.CDLL(blas)
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        blas += " (%s, %s)" % (lib.openblas_get_corename().decode(), lib.openblas_get_config().decode())
except Exception as e:
    blas += " (%s)" % e
print(json.dumps({"times": out, "blas": blas, "numpy": np.__version__}))
'''


def runs_for(name, runs):
    """Fewer runs of the 2000s, which take a quarter of a second each."""
    return max(3, runs // 4) if name.endswith("2000") else runs


def numpy_time(name, runs, coretype=None):
    """NumPy's median ms and CPU ms for one product, and what BLAS it used
    (OpenBLAS's choice of kernel, or the one coretype names)."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    p = subprocess.run(["/usr/bin/python3", "-c", NUMPY_SIDE, json.dumps({name: CASES[name]}), str(runs)],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("matmul.py: the NumPy side failed:\n" + p.stderr)
    got = json.loads(p.stdout)
    return got["times"][name], {"blas": got["blas"], "numpy": got["numpy"]}


def build_go():
    """The test binary of backend/cpu, built once."""
    exe = os.path.join(tempfile.mkdtemp(prefix="matmul-bench-"), "cpu.test")
    cmd = ["go", "test", "-c", "-o", exe, "./backend/cpu"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("matmul.py: %s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return exe


def go_time(exe, name, runs):
    """tensorsh's median ms and CPU ms for one product."""
    pat = "^BenchmarkMatMulSizes$/^%s$" % name.replace("/", "$/^")
    cmd = [exe, "-test.run", "^$", "-test.bench", pat, "-test.benchtime", "%dx" % runs]
    p = subprocess.run(cmd, cwd=os.path.join(ROOT, "backend", "cpu"), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("matmul.py: %s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    for line in p.stdout.splitlines():
        m = re.match(r"BenchmarkMatMulSizes/(\S+?)(-\d+)?\s", line)
        metrics = dict((k, float(v)) for v, k in re.findall(r"([\d.]+) (med-ms|cpu-ms)", line))
        if m and m.group(1) == name and "med-ms" in metrics:
            return metrics["med-ms"], metrics.get("cpu-ms", float("nan"))
    sys.exit("matmul.py: no result for BenchmarkMatMulSizes/%s in:\n%s" % (name, p.stdout))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="alternating Go/NumPy rounds")
    ap.add_argument("--runs", type=int, default=21, help="timed runs per product and round")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--coretype", help="OPENBLAS_CORETYPE for NumPy (say Cooperlake, OpenBLAS's AVX-512 "
                    "kernel, where OpenBLAS does not recognise the CPU and picks an older one)")
    ap.add_argument("--filter", help="only the products whose name matches this regular expression")
    args = ap.parse_args()
    names = [n for n in CASES if not args.filter or re.search(args.filter, n)]
    exe = build_go()
    load0 = os.getloadavg()
    rounds = []
    info = {}
    for _ in range(args.rounds):
        # Per product, Go then NumPy, so that both sides of a ratio run
        # seconds apart, under about the same load.
        g, n = {}, {}
        for name in names:
            runs = runs_for(name, args.runs)
            g[name] = go_time(exe, name, runs)
            n[name], info = numpy_time(name, runs, args.coretype)
        rounds.append((g, n))
    load1 = os.getloadavg()
    rows = []
    for name in names:
        ratios = [n[name][0] / g[name][0] for g, n in rounds]
        rows.append({
            "case": name,
            "numpy_ms": statistics.median(n[name][0] for _, n in rounds),
            "tensorsh_ms": statistics.median(g[name][0] for g, _ in rounds),
            "speedup": statistics.median(ratios),
            "speedup_min": min(ratios),
            "speedup_max": max(ratios),
            "numpy_cpu_ms": statistics.median(n[name][1] for _, n in rounds),
            "tensorsh_cpu_ms": statistics.median(g[name][1] for g, _ in rounds),
        })
    if args.json:
        print(json.dumps({"rows": rows, "load_before": load0, "load_after": load1, **info}, indent=1))
        return
    print("NumPy %s, BLAS: %s" % (info.get("numpy"), info.get("blas")))
    print("load average before %.2f %.2f %.2f, after %.2f %.2f %.2f; %d rounds of %d runs" % (
        *load0, *load1, args.rounds, args.runs))
    print()
    hdr = "%-16s %10s %12s %9s %17s %10s %13s" % ("product", "numpy ms", "tensorsh ms", "speed-up",
                                                   "(min-max)", "numpy cpu", "tensorsh cpu")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print("%-16s %10.3f %12.3f %8.2fx %8.2f-%-8.2f %10.3f %13.3f" % (
            r["case"], r["numpy_ms"], r["tensorsh_ms"], r["speedup"], r["speedup_min"], r["speedup_max"],
            r["numpy_cpu_ms"], r["tensorsh_cpu_ms"]))
    print("(ms: medians over rounds of the median wall time per round; speed-up = NumPy / tensorsh, median "
          "and range over rounds; cpu: mean CPU ms per product over all threads)")


if __name__ == "__main__":
    main()
