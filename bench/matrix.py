#!/usr/bin/python3
"""The benchmark matrix: tensorsh against NumPy on every elementwise op,
dtype and layout, the reductions along every axis, softmax, matrix
products, casts, concatenation and counts (see bench/README.md).

One run: builds bench/matrix (the Go side: each case's expression through
eval.Session with the numpy policy, as a user types it), then, for R
rounds, times each group of cases sharing their inputs on the Go side
(bench/matrix -serve, one case per request) and at once on the NumPy
side, so that the two times of a ratio are taken moments apart; it prints
for each case NumPy ms, tensorsh ms and the ratio NumPy / tensorsh (above 1:
tensorsh is faster), the geometric mean per group and over all, and the
worst cases. The load average is printed next to the figures: on a shared
machine only ratios measured in the same run mean anything.

bf16 and the 8-bit floats need ml_dtypes on the NumPy side; without it
those cases are timed on tensorsh's side only and left out of the ratios.

Usage: bench/matrix.sh [--quick] [--filter RE] [--rounds R] [--runs N]
                       [--dry] [--json FILE] [--readme]
  --quick   contiguous layouts only, no 2000x2000 products, 3 runs
  --dry     a few elements per case, one run: checks that every case runs on
            both sides and that both give the same dtype and shape; no timing
  --readme  write the summary and the table into bench/README.md
  --from-json FILE  summarize a run saved by --json FILE (with --readme:
            write it into bench/README.md) without running anything
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

try:
    import numpy as np
except ImportError:
    sys.exit("matrix.py: numpy is missing (apt-get install python3-numpy)")
try:
    import ml_dtypes  # noqa: F401 (bf16, f8 on the NumPy side)
except ImportError:
    ml_dtypes = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "bench", "README.md")
BEGIN, END = "<!-- matrix:begin (bench/matrix.sh --readme writes this section) -->", "<!-- matrix:end -->"

NP_DTYPES = {"bool": "bool_", "i8": "int8", "u8": "uint8", "i32": "int32", "i64": "int64", "f16": "float16",
             "f32": "float32", "f64": "float64", "c64": "complex64"}
ML_DTYPES = {"bf16": "bfloat16", "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
TSH_NAMES = {np.dtype(v).name: k for k, v in NP_DTYPES.items()}
TSH_NAMES.update({"int16": "i16", "uint16": "u16", "uint32": "u32", "uint64": "u64", "complex128": "c128"})
if ml_dtypes is not None:
    TSH_NAMES.update({np.dtype(getattr(ml_dtypes, v)).name: k for k, v in ML_DTYPES.items()})


def np_dtype(d):
    if d in NP_DTYPES:
        return np.dtype(NP_DTYPES[d])
    if ml_dtypes is None:
        return None
    return np.dtype(getattr(ml_dtypes, ML_DTYPES[d]))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def logsoftmax(x, axis):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def make_inputs(inputs, rng):
    """The NumPy inputs of a setup (as tensorsh's: floats in [0.5, 1.5),
    integers in 1..100, bools true with probability 1/2); names whose dtype
    NumPy lacks are left out."""
    ns = {"np": np, "ml_dtypes": ml_dtypes, "softmax": softmax, "logsoftmax": logsoftmax}
    for i in inputs:
        dt = np_dtype(i["dtype"])
        if dt is None:
            continue
        r = rng.random(tuple(i["shape"]))
        if i["dtype"] == "bool":
            ns[i["name"]] = r < 0.5
        elif i["dtype"][0] in "iu":
            ns[i["name"]] = (np.floor(r * 100) + 1).astype(dt)
        else:
            ns[i["name"]] = (r + 0.5).astype(dt)
    return ns


# WARM_TIME and MIN_TIME (seconds) are bench/matrix's warmTime and minTime.
WARM_TIME, MIN_TIME = 0.010, 0.002


def numpy_side(cases, warmup, runs, budget=3.0):
    """{name: (median ms or None, dtype, shape, note)}."""
    out = {}
    rng = np.random.default_rng(1)
    setup, ns = None, None
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c in cases:
            if c["setup"] != setup:
                ns = None
                ns = make_inputs(c["inputs"], rng)
                setup = c["setup"]
            if "ml_dtypes" in c["numpy"] and ml_dtypes is None or any(
                    re.search(r"\b%s\b" % i["name"], c["numpy"]) and i["name"] not in ns for i in c["inputs"]):
                out[c["name"]] = (None, None, None, "no NumPy dtype (ml_dtypes missing)")
                continue
            code = compile(c["numpy"], c["name"], "eval")
            try:
                v = np.asarray(eval(code, ns))
                # As bench/matrix does (warmTime, minTime): at least 10 ms
                # of untimed runs, at least 2 ms of timed ones.
                i, t0 = 0, time.perf_counter()
                while i < warmup or (runs > 1 and time.perf_counter() - t0 < WARM_TIME):
                    eval(code, ns)
                    i += 1
                ts, total = [], 0.0
                while (len(ts) < runs or (runs > 1 and total < MIN_TIME)) and (total < budget or not ts):
                    t0 = time.perf_counter()
                    eval(code, ns)
                    ts.append((time.perf_counter() - t0) * 1e3)
                    total += ts[-1] / 1e3
            except Exception as e:  # a case NumPy refuses: reported, not timed
                out[c["name"]] = (None, None, None, "NumPy: %s: %s" % (type(e).__name__, e))
                continue
            out[c["name"]] = (statistics.median(ts), TSH_NAMES.get(v.dtype.name, v.dtype.name), list(v.shape), "")
    return out


class GoServer:
    """bench/matrix -serve: runs one case per request, so that the Go and
    NumPy times of a case are taken moments apart."""

    def __init__(self, exe, args):
        self.p = subprocess.Popen([exe, "-serve"] + args, cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, name):
        self.p.stdin.write(name + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("matrix.py: bench/matrix -serve ended early (at %s)" % name)
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


# BLAS_SPIN is how long the Go side waits after NumPy's matrix products:
# longer than OpenBLAS's idle threads keep polling for work before they
# sleep (OPENBLAS_THREAD_TIMEOUT in OpenBLAS's README sets that wait; with
# its default, the spinning measured here ends within 0.1-0.2 s).
BLAS_SPIN = 0.3


def interleaved(exe, run_args, cases, warmup, runs):
    """One round, the two sides alternating case by case."""
    srv = GoServer(exe, run_args)
    go, npr = {}, {}
    i = 0
    while i < len(cases):
        j = i
        while j < len(cases) and cases[j]["setup"] == cases[i]["setup"]:
            j += 1
        for c in cases[i:j]:
            go[c["name"]] = srv.run(c["name"])
        # NumPy's inputs of this setup only, then the same cases.
        npr.update(numpy_side(cases[i:j], warmup, runs))
        if any(c["group"] == "matmul" for c in cases[i:j]):
            # OpenBLAS's threads spin after a product before they sleep
            # (measured here: 50-70 ms of CPU time in the 0.1-0.4 s after
            # a 256x256 product), which would take one of the two cores
            # from the Go side's next cases.
            time.sleep(BLAS_SPIN)
        i = j
    srv.close()
    return go, npr


def go_side(exe, args):
    p = subprocess.run([exe] + args, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("matrix.py: %s failed:\n%s" % (" ".join([exe] + args), p.stderr))
    return {r["name"]: r for r in map(json.loads, p.stdout.splitlines())}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def blas_name():
    np.ones((64, 64)) @ np.ones((64, 64))
    try:
        with open("/proc/self/maps") as f:
            maps = f.read()
    except OSError:
        return "unknown BLAS"
    for lib in ("openblas", "mkl", "blis", "atlas"):
        if lib in maps:
            return lib
    return "reference BLAS (libblas3): install libopenblas0-pthread"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="contiguous layouts only, no 2000x2000 products, 3 runs")
    ap.add_argument("--filter", default="", help="only the cases whose name matches this regular expression")
    ap.add_argument("--rounds", type=int, default=1, help="alternating Go/NumPy rounds (median over them)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per case per round")
    ap.add_argument("--warmup", type=int, default=2, help="untimed runs before the timed ones")
    ap.add_argument("--dry", action="store_true", help="tiny inputs, one run: check both sides agree; no timing")
    ap.add_argument("--json", metavar="FILE", help="write every case's numbers to FILE as JSON")
    ap.add_argument("--readme", action="store_true", help="write the results into bench/README.md")
    ap.add_argument("--worst", type=int, default=15, help="how many of the slowest cases to list")
    ap.add_argument("--from-json", metavar="FILE", help="summarize (and with --readme write) a run saved by --json")
    args = ap.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        args.runs, args.rounds, args.quick = saved.get("runs", 0), saved.get("rounds", 0), saved.get("quick", False)
        loads = saved["loads"]
        load = "load average %.1f before, %s during the rounds" % (loads[0], ", ".join("%.1f" % x for x in loads[1:]))
        summary = summarize(saved["rows"], args.worst)
        print(load)
        print("\n".join(summary))
        if args.readme:
            write_readme(saved["rows"], summary, load, args, saved.get("time"))
        return
    flt = args.filter
    quick = None
    if args.quick:
        # Applied here: Go's regexp (RE2) has no lookahead.
        args.runs = min(args.runs, 3)
        quick = re.compile(r"^(?!.*/(trans|strided|bcast|bcast3)$)(?!matmul/.*/2000$)")

    tmp = tempfile.mkdtemp(prefix="tensorsh-matrix-")
    exe = os.path.join(tmp, "matrix")
    b = subprocess.run(["go", "build", "-o", exe, "./bench/matrix"], cwd=ROOT, capture_output=True, text=True)
    if b.returncode != 0:
        sys.exit("matrix.py: go build ./bench/matrix failed:\n" + b.stderr)
    base = ["-dry"] if args.dry else []
    if flt:
        base += ["-filter", flt]
    p = subprocess.run([exe, "-list"] + base, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("matrix.py: %s" % p.stderr)
    cases = json.loads(p.stdout)
    if quick:
        cases = [c for c in cases if quick.match(c["name"])]
    if not cases:
        sys.exit("matrix.py: no case matches the filter")

    if args.dry:
        go = go_side(exe, base)
        npr = numpy_side(cases, 0, 1)
        bad = 0
        for c in cases:
            g, (_, dt, shape, note) = go[c["name"]], npr[c["name"]]
            if g.get("error"):
                print("FAIL %-40s tensorsh: %s" % (c["name"], g["error"]))
                bad += 1
            elif note and "ml_dtypes" not in note:
                print("FAIL %-40s %s" % (c["name"], note))
                bad += 1
            elif dt is not None and (dt != g["dtype"] or shape != g["shape"]):
                print("FAIL %-40s tensorsh %s%s, NumPy %s%s" % (c["name"], g["dtype"], g["shape"], dt, shape))
                bad += 1
        skipped = sum(1 for c in cases if npr[c["name"]][3])
        print("dry run: %d cases, %d disagree, %d without a NumPy side (%s)" % (
            len(cases), bad, skipped, "ml_dtypes missing" if ml_dtypes is None else "-"))
        sys.exit(1 if bad else 0)

    print("%d cases; NumPy %s with %s%s; %d cores; %d round(s) of %d runs" % (
        len(cases), np.__version__, blas_name(), "" if ml_dtypes else ", no ml_dtypes", os.cpu_count(),
        args.rounds, args.runs), flush=True)
    gos, nps, loads = [], [], [os.getloadavg()[0]]
    run_args = base + ["-runs", str(args.runs), "-warmup", str(args.warmup)]
    for r in range(args.rounds):
        t0 = time.time()
        g, n = interleaved(exe, run_args, cases, args.warmup, args.runs)
        gos.append(g)
        nps.append(n)
        loads.append(os.getloadavg()[0])
        print("round %d: %.0f s, load %.1f" % (r + 1, time.time() - t0, loads[-1]), flush=True)

    rows = []
    for c in cases:
        n = c["name"]
        errs = [g[n]["error"] for g in gos if g[n].get("error")]
        gms = [g[n]["ms"] for g in gos if not g[n].get("error")]
        nms = [x[n][0] for x in nps if x[n][0] is not None]
        note = errs[0] if errs else nps[0][n][3]
        gm = statistics.median(gms) if gms else None
        faults = [g[n].get("faults", 0) for g in gos if not g[n].get("error")]
        nm = statistics.median(nms) if nms else None
        ratio = nm / gm if gm and nm else None
        rows.append({"name": n, "group": c["group"], "expr": c["expr"], "numpy_ms": nm, "tensorsh_ms": gm,
                     "ratio": ratio, "note": note,
                     # page faults per tensorsh run (median over the rounds): memory taken fresh
                     "tensorsh_faults": statistics.median(faults) if faults else 0})

    for r in rows:
        print("%-42s %10s %10s %9s  %s" % (
            r["name"], "%.3f" % r["numpy_ms"] if r["numpy_ms"] else "-",
            "%.3f" % r["tensorsh_ms"] if r["tensorsh_ms"] else "-",
            "%.2fx" % r["ratio"] if r["ratio"] else "-", r["note"]))
    summary = summarize(rows, args.worst)
    load = "load average %.1f before, %s during the rounds" % (loads[0], ", ".join("%.1f" % x for x in loads[1:]))
    print()
    print(load)
    print("\n".join(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"numpy": np.__version__, "blas": blas_name(), "loads": loads, "runs": args.runs,
                       "rounds": args.rounds, "quick": args.quick, "time": time.time(), "rows": rows}, f, indent=1)
    if args.readme:
        write_readme(rows, summary, load, args)


def summarize(rows, worst):
    timed = [r for r in rows if r["ratio"]]
    out = ["geometric mean of NumPy / tensorsh over %d cases: %.2fx; %d slower than NumPy" % (
        len(timed), geomean(r["ratio"] for r in timed), sum(1 for r in timed if r["ratio"] < 1))]
    groups = sorted({r["group"] for r in timed})
    out.append("per group: " + ", ".join("%s %.2fx (%d)" % (
        g, geomean(r["ratio"] for r in timed if r["group"] == g), sum(1 for r in timed if r["group"] == g))
        for g in groups))
    out.append("worst %d:" % min(worst, len(timed)))
    for r in sorted(timed, key=lambda r: r["ratio"])[:worst]:
        out.append("  %-42s %-34s %7.2fx  (NumPy %.3f ms, tensorsh %.3f ms)" % (
            r["name"], r["expr"], r["ratio"], r["numpy_ms"], r["tensorsh_ms"]))
    untimed = [r for r in rows if not r["ratio"]]
    if untimed:
        out.append("%d cases without a ratio (%s)" % (len(untimed), "; ".join(sorted({r["note"] for r in untimed}))))
    return out


def write_readme(rows, summary, load, args, when=None):
    with open(README) as f:
        text = f.read()
    lines = [BEGIN, "",
             "Generated by `bench/matrix.sh --readme%s` on %s UTC (%s; %d cores; NumPy %s with %s)." % (
                 " --quick" if args.quick else "", time.strftime("%Y-%m-%d %H:%M", time.gmtime(when)), load,
                 os.cpu_count(), np.__version__, blas_name()),
             "Ratio = NumPy ms / tensorsh ms (above 1: tensorsh is faster); medians of %d runs or more (2 ms of them at least, after 10 ms of warm-up), %d round(s)." % (
                 args.runs, args.rounds),
             "", "```"] + summary + ["```", "", "<details><summary>every case</summary>", "",
                                     "| case | expression | NumPy ms | tensorsh ms | ratio |", "|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append("| %s | `%s` | %s | %s | %s |" % (
            r["name"], r["expr"].replace("|", "\\|"), "%.3f" % r["numpy_ms"] if r["numpy_ms"] else "-",
            "%.3f" % r["tensorsh_ms"] if r["tensorsh_ms"] else "-",
            "%.2f" % r["ratio"] if r["ratio"] else (r["note"] or "-").replace("|", "\\|")))
    lines += ["", "</details>", "", END]
    block = "\n".join(lines)
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## The benchmark matrix\n\n" + block + "\n"
    with open(README, "w") as f:
        f.write(text)
    print("wrote %s" % README)


if __name__ == "__main__":
    main()
