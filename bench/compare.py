#!/usr/bin/python3
"""Compare tensorsh's CPU backend with NumPy on the issue-8 expressions.

Runs, in one process and on the same machine:
  1. the Go benchmarks BenchmarkIssue8/* of backend/cpu (the plans built
     directly, 10^7 float32 elements), through `go test -bench`;
  2. the same expressions in NumPy (Debian's python3-numpy), on inputs of
     the same shapes and dtypes;
  3. when bin/tensorsh exists (make build), the end-to-end forms through
     `tensorsh --json -e '... :timeit EXPR'`, and the whole-process time of
     `tensorsh -e '1+1'` (skipped, with a note, when the binary is missing
     or its output does not parse);
and prints a table: expression, NumPy ms, tensorsh ms, the speed-up
(NumPy / tensorsh), the memory floor (the bytes the expression must move,
at the speed of a 2-worker copy into warm memory) and tensorsh / floor,
and the read floor (the bytes it must read, at the speed of 2 workers
reading three operands) and tensorsh / read floor.
Every time is the median of the runs of one round; with --rounds R the
rounds alternate Go and NumPy and the table shows the median per
expression over the rounds, which steadies it on a busy machine.

Usage: bench/run.sh [--rounds R] [--runs N] [--no-e2e] [--json]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("compare.py: numpy is missing (apt-get install python3-numpy)")

N = 10_000_000
MB = 4 * N  # bytes of one float32 operand

# name: (Go sub-benchmark, bytes moved: reads + writes of whole operands,
# bytes read)
EXPRS = {
    "a*b+c": ("addmul", 4 * MB, 3 * MB),
    "tanh(a*2+b)*c": ("tanh", 4 * MB, 3 * MB),
    "i8 + f32": ("i8f32", MB // 4 + 2 * MB, MB // 4 + MB),
    "sum(a*b)": ("summul", 2 * MB, 2 * MB),
    "softmax rows 1000x10000": ("softmax", 2 * MB, MB),
    "(1000,1) + (1,10000)": ("broadcast", MB, 0),
}

# End-to-end statements (run after a = rand(…) etc. by tensorsh -e).
E2E_SETUP = "a = rand(10000000)\nb = rand(10000000)\nc = rand(10000000)\n"
E2E = {
    "a*b+c": "a*b+c",
    "tanh(a*2+b)*c": "tanh(a*2+b)*c",
    "sum(a*b)": "sum(a*b)",
    "1 + 2": "1 + 2",
}

# Untimed runs before the timed ones, as in the Go benchmarks (the first
# results of a process land on memory it never touched: slow page faults).
WARMUPS = 6

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def median_ms(fn, runs):
    """The median wall time of fn and its mean CPU time, in ms."""
    for _ in range(WARMUPS):  # first-touch page faults, caches, heap growth
        fn()
    ts = []
    c0 = time.process_time()
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts), (time.process_time() - c0) * 1e3 / runs


def softmax_rows(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def numpy_times(runs):
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

    fns = {
        "copy (a.copy())": lambda: a.copy(),
        "copy into warm memory": lambda: np.copyto(out, a),
        "a*b+c in place": inplace,
        "a*b+c": lambda: a * b + c,
        "tanh(a*2+b)*c": lambda: np.tanh(a * 2 + b) * c,
        "i8 + f32": lambda: i8 + a,
        "sum(a*b)": lambda: np.sum(a * b),
        "softmax rows 1000x10000": lambda: softmax_rows(m),
        "(1000,1) + (1,10000)": lambda: col + row,
    }
    return {k: median_ms(f, runs) for k, f in fns.items()}


def go_times(runs):
    cmd = ["go", "test", "-run", "^$", "-bench", "^BenchmarkIssue8$",
           "-benchtime", f"{runs}x", "./backend/cpu"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("compare.py: %s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"BenchmarkIssue8/(\S+?)(-\d+)?\s", line)
        metrics = dict((k, float(v)) for v, k in re.findall(r"([\d.]+) (med-ms|cpu-ms)", line))
        if m and "med-ms" in metrics:
            res[m.group(1)] = (metrics["med-ms"], metrics.get("cpu-ms", float("nan")))
    for need in ["copy", "copywarm", "read3", "scalar"] + [g for g, _, _ in EXPRS.values()]:
        if need not in res:
            sys.exit("compare.py: no result for BenchmarkIssue8/%s in:\n%s" % (need, p.stdout))
    return res


def e2e_times():
    """End-to-end times through bin/tensorsh, or a note saying why not."""
    exe = os.path.join(ROOT, "bin", "tensorsh")
    if not os.access(exe, os.X_OK):
        return None, "bin/tensorsh not built (make build): end-to-end skipped"
    res = {}
    try:
        for name, expr in E2E.items():
            src = (E2E_SETUP if "a" in expr else "") + ":timeit " + expr
            p = subprocess.run([exe, "--json", "-e", src], capture_output=True, text=True, timeout=600)
            got = None
            for line in p.stdout.splitlines():
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict) and "time_ms" in obj:
                    got = float(obj["time_ms"])
            if got is None:
                return None, "tensorsh --json gave no {\"time_ms\"} for %r (exit %d): end-to-end skipped" % (
                    expr, p.returncode)
            res[name] = got
        ts = []
        for _ in range(11):
            t0 = time.perf_counter()
            p = subprocess.run([exe, "-e", "1+1"], capture_output=True, text=True, timeout=60)
            ts.append((time.perf_counter() - t0) * 1e3)
            if p.returncode != 0:
                return None, "tensorsh -e '1+1' failed: %s" % p.stderr.strip()
        res["process: tensorsh -e '1+1'"] = statistics.median(ts)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "tensorsh: %s: end-to-end skipped" % e
    return res, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1, help="alternating Go/NumPy rounds (median over them)")
    ap.add_argument("--runs", type=int, default=11, help="timed runs per expression per round")
    ap.add_argument("--no-e2e", action="store_true", help="skip the bin/tensorsh measurements")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON instead of a table")
    args = ap.parse_args()

    gos, nps = [], []
    for _ in range(args.rounds):
        gos.append(go_times(args.runs))
        nps.append(numpy_times(args.runs))

    def med(rounds, k, i):
        return statistics.median(r[k][i] for r in rounds)
    go = {k: med(gos, k, 0) for k in gos[0]}
    gocpu = {k: med(gos, k, 1) for k in gos[0]}
    npt = {k: med(nps, k, 0) for k in nps[0]}
    npcpu = {k: med(nps, k, 1) for k in nps[0]}
    e2e, note = (None, "end-to-end skipped (--no-e2e)") if args.no_e2e else e2e_times()

    copy_ms = go["copywarm"]  # 2·MB moved
    read_ms = go["read3"]  # 3·MB read
    rows = []
    for name, (g, nbytes, nread) in EXPRS.items():
        floor = copy_ms * nbytes / (2 * MB)
        rfloor = read_ms * nread / (3 * MB)
        rows.append({"expr": name, "numpy_ms": npt[name], "tensorsh_ms": go[g],
                     "speedup": npt[name] / go[g], "floor_ms": floor, "x_floor": go[g] / floor,
                     "read_floor_ms": rfloor, "x_read_floor": go[g] / rfloor if rfloor else None,
                     "numpy_cpu_ms": npcpu[name], "tensorsh_cpu_ms": gocpu[g]})
    load = os.getloadavg()[0]
    if args.json:
        json.dump({"numpy": np.__version__, "cores": os.cpu_count(), "load1": load, "rows": rows,
                   "go_ms": go, "go_cpu_ms": gocpu, "numpy_ms": npt, "numpy_cpu_ms": npcpu,
                   "e2e_ms": e2e, "e2e_note": note}, sys.stdout, indent=1)
        print()
        return
    print("NumPy %s, %d cores, load average %.2f, %d round(s) of %d runs (medians)" % (
        np.__version__, os.cpu_count(), load, args.rounds, args.runs))
    print("copy of 10^7 float32 (80 MB moved): tensorsh-side Go copy into warm memory %.2f ms, "
          "with a fresh result %.2f ms; NumPy copyto %.2f ms, a.copy() %.2f ms; NumPy a*b+c in place %.2f ms"
          % (go["copywarm"], go["copy"], npt["copy into warm memory"], npt["copy (a.copy())"], npt["a*b+c in place"]))
    print("reading three 10^7 float32 operands (120 MB): %.2f ms (%.1f GB/s; a copy moves %.1f GB/s)"
          % (read_ms, 3 * MB / read_ms / 1e6, 2 * MB / copy_ms / 1e6))
    print("scalar statement 1 + 2 through the backend (Run on two 0-d float32 inputs): %.2f us" % (go["scalar"] * 1e3))
    print()
    hdr = "%-24s %9s %12s %9s %9s %8s %10s %8s   %10s %13s" % (
        "expression", "numpy ms", "tensorsh ms", "speed-up", "floor ms", "x floor", "read floor", "x read",
        "numpy cpu", "tensorsh cpu")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        xr = "%7.2fx" % r["x_read_floor"] if r["x_read_floor"] else "%8s" % "-"
        print("%-24s %9.2f %12.2f %8.2fx %9.2f %7.2fx %10.2f %s   %10.2f %13.2f" % (
            r["expr"], r["numpy_ms"], r["tensorsh_ms"], r["speedup"], r["floor_ms"], r["x_floor"],
            r["read_floor_ms"], xr, r["numpy_cpu_ms"], r["tensorsh_cpu_ms"]))
    print("(ms are medians of wall time; cpu columns are mean CPU ms per run over all threads)")
    print()
    if e2e is None:
        print(note)
    else:
        print("end to end, bin/tensorsh --json -e '...:timeit EXPR' (median ms):")
        for k, v in e2e.items():
            extra = ""
            if k in npt:
                extra = "   (NumPy %.2f ms, speed-up %.2fx)" % (npt[k], npt[k] / v)
            print("  %-30s %10.4f%s" % (k, v, extra))


if __name__ == "__main__":
    main()
