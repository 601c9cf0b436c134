"""Check the kernel's IPython habits with jupyter_client: _ and Out[n],
In[n] and _i,
%load's set_next_input payload, %who, and history across a kernel restart.

Usage: /usr/bin/python3 ipython_habits.py KERNEL_NAME

Each check prints "ok: ..." or raises. The last line is "all checks passed".
Run by jupyter/clients_test.go with JUPYTER_PATH and JUPYTER_DATA_DIR
pointing at a temporary directory (where the kernel keeps its history).
"""

import os
import sys
import tempfile

from jupyter_client.manager import start_new_kernel

TIMEOUT = 30


def check(cond, what, detail=""):
    if not cond:
        raise AssertionError(f"{what}: {detail}")
    print("ok:", what, flush=True)


def run(kc, code):
    """The execute_reply's content and the cell's outputs (msg_type, content)."""
    outputs = []
    reply = kc.execute_interactive(code, timeout=TIMEOUT,
                                   output_hook=lambda m: outputs.append((m["msg_type"], m["content"])))
    return reply["content"], [o for o in outputs if o[0] not in ("status", "execute_input")]


def result(kc, code):
    content, outs = run(kc, code)
    res = [c for t, c in outs if t == "execute_result"]
    assert content["status"] == "ok" and len(res) == 1, (code, content, outs)
    return content["execution_count"], res[0]["data"]["text/plain"]


def main(name):
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
    try:
        n1, _ = result(kc, "i16([1, 2]) * 3")
        n2, _ = result(kc, "u8(200)")
        check(result(kc, "_")[1] == "u8 200", "_ is the last result")
        check(result(kc, "___")[1] == "[3 6]\ni16[2] cpu", "___ is the third-last result")
        check(result(kc, f"Out[{n1}] + 1")[1] == "[4 7]\ni16[2] cpu", "Out[n] is cell n's result")
        check(result(kc, f"_{n2}")[1] == "u8 200", "_n is cell n's result")
        # The input history (IPython/core/history.py, store_inputs): In[n]
        # and _in are cell n's source, _i the cell before the running one.
        check(result(kc, f"In[{n1}]")[1] == '"i16([1, 2]) * 3"', "In[n] is cell n's source")
        check(result(kc, "_i")[1] == f'"In[{n1}]"', "_i is the previous cell's source")
        check(result(kc, f"_i{n2}")[1] == '"u8(200)"', "_in is cell n's source")
        kc.execute_interactive("i8(5)", silent=True, timeout=TIMEOUT)
        check(result(kc, "_iii")[1] == f'"In[{n1}]"', "_iii is the third cell before; silent cells are not recorded")

        with tempfile.NamedTemporaryFile("w", suffix=".tsh", delete=False) as f:
            f.write("z = f16(1.5)\nz * 2\n")
        try:
            content, outs = run(kc, "%load " + f.name)
            check(content["status"] == "ok" and outs == [] and content["payload"] == [
                {"source": "set_next_input", "text": f"# %load {f.name}\nz = f16(1.5)\nz * 2\n", "replace": True}],
                "%load sends the file as the next input", content)
            check(run(kc, "z")[0]["ename"] == "NameError", "%load does not run the file")
            content, outs = run(kc, "%run " + f.name)
            check([c["data"]["text/plain"] for t, c in outs if t == "execute_result"] == ["f16 3.0"],
                  "%run runs the file", outs)
        finally:
            os.unlink(f.name)
        content, outs = run(kc, "%who")
        check(outs == [("stream", {"name": "stdout", "text": "z\n"})], "%who lists the variables", outs)

        # History across a restart: a new process, a new session, the old
        # session's cells still there.
        pid = km.provisioner.pid
        km.restart_kernel(now=False)
        kc.wait_for_ready(timeout=60)
        check(km.provisioner.pid != pid, "restart gives a new process")
        n3, _ = result(kc, "i8(1)")
        h = kc.history(hist_access_type="tail", n=3, reply=True, timeout=TIMEOUT)["content"]["history"]
        check([x[2] for x in h] == ["%run " + f.name, "%who", "i8(1)"] and h[0][0] + 1 == h[2][0],
              "tail spans the kernel sessions", h)
        h = kc.history(hist_access_type="search", pattern="Out*", reply=True, timeout=TIMEOUT)["content"]["history"]
        check([x[2] for x in h] == [f"Out[{n1}] + 1"], "search finds the earlier session's cell", h)
        h = kc.history(hist_access_type="range", session=-1, start=n1, stop=n1 + 1, output=True,
                       reply=True, timeout=TIMEOUT)["content"]["history"]
        check(h == [[h[0][0], n1, ["i16([1, 2]) * 3", "[3 6]\ni16[2] cpu"]]], "range of the previous session", h)
        check(result(kc, "_")[1] == "i8 1", "_ is the new session's result")
        check(run(kc, f"Out[{n1 + 4}]")[0]["ename"] == "KeyError", "a restart forgets Out (cell 5 had a result before)")
        check(result(kc, f"In[{n3}]")[1] == '"i8(1)"' and run(kc, "In[99]")[0]["ename"] == "KeyError",
              "In is the new session's")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
