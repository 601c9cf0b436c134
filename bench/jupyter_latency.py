"""Execute round-trip latency of the tensorsh Jupyter kernel against ipykernel.

    /usr/bin/python3 bench/jupyter_latency.py [--tensorsh BIN] [-n 300] [--code '1 + 1']

Starts each kernel with jupyter_client, as a notebook does, runs the cell
`1 + 1` n times after a warm-up, and reports for each kernel the time from
sending execute_request to having both the execute_reply (shell) and the
status idle (IOPub): what a front end waits for before the next cell. The
last line is the median ratio tensorsh / ipykernel.

--tensorsh BIN installs the kernelspec of that binary (BIN kernel install)
into a temporary JUPYTER_PATH; without it the kernelspec "tensorsh" must be
installed. The baseline is Debian's python3-ipykernel (kernelspec python3);
it is skipped with a note if missing. Use Debian's /usr/bin/python3, which
sees the Debian Jupyter packages.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def measure(name, code, n, warmup):
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
    try:
        times = []
        for i in range(warmup + n):
            t0 = time.perf_counter()
            msg_id = kc.execute(code)
            got_reply = got_idle = False
            while not got_reply:
                reply = kc.get_shell_msg(timeout=30)
                got_reply = reply["parent_header"].get("msg_id") == msg_id
            if reply["content"]["status"] != "ok":
                raise SystemExit(f"{name}: {code!r} failed: {reply['content']}")
            while not got_idle:
                m = kc.get_iopub_msg(timeout=30)
                got_idle = (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                            and m["content"]["execution_state"] == "idle")
            dt = time.perf_counter() - t0
            if i >= warmup:
                times.append(dt)
        return times
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def have_kernel(name):
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec(name)
        return True
    except NoSuchKernel:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--tensorsh", help="tensorsh binary whose kernelspec to install in a temporary JUPYTER_PATH")
    ap.add_argument("-n", type=int, default=300, help="measured round trips per kernel")
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--code", default="1 + 1")
    args = ap.parse_args()

    tmp = None
    if args.tensorsh:
        tmp = tempfile.mkdtemp(prefix="tensorsh-bench-")
        subprocess.run([args.tensorsh, "kernel", "install", "--prefix", tmp], check=True, stdout=subprocess.DEVNULL)
        os.environ["JUPYTER_PATH"] = os.path.join(tmp, "share", "jupyter")
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")

    results = {}
    for name in ("tensorsh", "python3"):
        if not have_kernel(name):
            print(f"{name}: no kernelspec, skipped", flush=True)
            continue
        t = measure(name, args.code, args.n, args.warmup)
        t.sort()
        med = statistics.median(t)
        results[name] = med
        print(f"{name:9s} median {med * 1e3:.3f} ms  p10 {t[len(t) // 10] * 1e3:.3f} ms  "
              f"p90 {t[len(t) * 9 // 10] * 1e3:.3f} ms  ({len(t)} round trips of {args.code!r})", flush=True)
    if len(results) == 2:
        print(f"median ratio tensorsh/ipykernel: {results['tensorsh'] / results['python3']:.3f}")


if __name__ == "__main__":
    sys.exit(main())
