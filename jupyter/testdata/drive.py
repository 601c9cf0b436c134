"""Drive the tensorsh kernel with jupyter_client's BlockingKernelClient.

Usage: /usr/bin/python3 drive.py KERNEL_NAME

Each check prints "ok: ..." or raises. The last line is "all checks passed".
Run by jupyter/clients_test.go with JUPYTER_PATH pointing at a temporary
kernelspec.
"""

import queue
import re
import signal
import sys
import time

from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

TIMEOUT = 30


def ok(what):
    print("ok:", what, flush=True)


def check(cond, what, detail=""):
    if not cond:
        raise AssertionError(f"{what}: {detail}")
    ok(what)


def iopub_until_idle(kc, msg_id):
    """The IOPub messages of one request, as 'type' or 'status:state'."""
    seen = []
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        t = msg["msg_type"]
        if t == "status":
            t += ":" + msg["content"]["execution_state"]
        seen.append((t, msg))
        if t == "status:idle":
            return seen


def run(kc, code, **kw):
    msg_id = kc.execute(code, **kw)
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["parent_header"]["msg_id"] == msg_id, reply
    return reply, iopub_until_idle(kc, msg_id)


def main(name):
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
    try:
        drive(km, kc)
    finally:
        kc.stop_channels()
        if km.is_alive():
            km.shutdown_kernel(now=True)
    print("all checks passed", flush=True)


def drive(km, kc):
    info = kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]
    check(info["language_info"]["name"] == "tensorsh" and info["language_info"]["file_extension"] == ".tsh"
          and info["protocol_version"] >= "5.3" and info["status"] == "ok", "kernel_info", info)

    reply, io = run(kc, "i16([1, 2, 3]) + 1.5")
    kinds = [t for t, _ in io]
    check(kinds == ["status:busy", "execute_input", "execute_result", "status:idle"], "execute order", kinds)
    data = io[2][1]["content"]["data"]
    check(data["text/plain"] == "[2.5 3.5 4.5]\nf32?[3] cpu" and "<table" in data["text/html"], "execute_result", data)
    check(reply["content"]["status"] == "ok" and reply["content"]["execution_count"] == 1, "execute_reply", reply["content"])

    # execute_interactive, as console front ends use it.
    outs = []
    r = kc.execute_interactive("y = u8([250, 5])\ny + 10", timeout=TIMEOUT, output_hook=outs.append)
    res = [m for m in outs if m["msg_type"] == "execute_result"]
    check(r["content"]["status"] == "ok" and res and res[0]["content"]["data"]["text/plain"] == "[ 4 15]\nu8[2] cpu",
          "execute_interactive (u8 wraps)", outs)

    reply, io = run(kc, "y + f16(1) + zeros((3,))")
    err = [m for t, m in io if t == "error"]
    check(reply["content"]["status"] == "error" and reply["content"]["ename"] == "BroadcastError"
          and err and err[0]["content"]["traceback"] == reply["content"]["traceback"], "error", reply["content"])
    # Coloured as IPython's tracebacks (IPython/core/ultratb.py, SyntaxTB):
    # where, the source line, the caret line, the name in red.
    tb = reply["content"]["traceback"]
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in tb]
    check(tb[-1].startswith("\x1b[0;31mBroadcastError\x1b[0m: ")
          and plain[0] == "Cell In[3], line 1, column 12"
          and plain[1] == "  y + f16(1) + zeros((3,))"
          and plain[2] == "             ^"
          and plain[3] == "BroadcastError: " + reply["content"]["evalue"], "coloured traceback", tb)

    reply = kc.complete("sq", reply=True, timeout=TIMEOUT)["content"]
    check({"sqrt", "squeeze"} <= set(reply["matches"]) and reply["cursor_start"] == 0 and reply["cursor_end"] == 2,
          "complete", reply)
    reply = kc.complete("%policy nu", reply=True, timeout=TIMEOUT)["content"]
    check(reply["matches"] == ["numpy", "numpy1"] and reply["cursor_start"] == 8, "complete policies", reply)

    reply = kc.inspect("sqrt(y)", cursor_pos=6, reply=True, timeout=TIMEOUT)["content"]
    check(reply["found"] and "y: u8[2]" in reply["data"]["text/plain"], "inspect a variable", reply)

    kc.is_complete("i16([1, 2")
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check(reply["status"] == "incomplete" and reply["indent"].strip() == "", "is_complete", reply)

    reply = kc.history(hist_access_type="tail", n=2, output=True, reply=True, timeout=TIMEOUT)["content"]
    check([h[2][0] for h in reply["history"]] == ["y = u8([250, 5])\ny + 10", "y + f16(1) + zeros((3,))"],
          "history", reply)

    reply = kc.comm_info(reply=True, timeout=TIMEOUT)["content"]
    check(reply == {"status": "ok", "comms": {}}, "comm_info", reply)

    # A request signed with the wrong key is never executed.
    forger = Session(key=b"wrong key", session=kc.session.session)
    forger.send(kc.shell_channel.socket, "execute_request",
                {"code": "forged = 1", "silent": False, "store_history": True,
                 "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
    try:
        m = kc.get_shell_msg(timeout=1)
        raise AssertionError(f"a forged request was answered: {m}")
    except queue.Empty:
        pass
    reply, _ = run(kc, "forged")
    check(reply["content"]["ename"] == "NameError", "bad signature dropped", reply["content"])

    # interrupt_mode "message": km sends interrupt_request on control.
    msg_id = kc.execute("%timeit sum(rand(10**7))")
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
            break
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    check(reply["parent_header"]["msg_id"] == msg_id and reply["content"]["ename"] == "KeyboardInterrupt",
          "interrupt", reply["content"])
    reply, io = run(kc, "y")
    check(reply["content"]["status"] == "ok", "state kept after interrupt", reply["content"])

    # interrupt_mode "signal": SIGINT to the kernel's process group.
    msg_id = kc.execute("%timeit sum(rand(10**7))")
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
            break
    km.signal_kernel(signal.SIGINT)
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    check(reply["parent_header"]["msg_id"] == msg_id and reply["content"]["ename"] == "KeyboardInterrupt",
          "SIGINT interrupts", reply["content"])
    check(km.is_alive(), "SIGINT leaves the kernel running")

    # Restart: a new process, a fresh session.
    pid = km.provisioner.pid
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=60)
    check(km.provisioner.pid != pid, "restart gives a new process", (pid, km.provisioner.pid))
    reply, _ = run(kc, "y")
    check(reply["content"]["ename"] == "NameError" and reply["content"]["execution_count"] == 1,
          "restart forgets the session", reply["content"])

    # Shutdown: the kernel exits by itself, with status 0.
    process = km.provisioner.process
    km.shutdown_kernel(now=False)
    deadline = time.time() + 30
    while process.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    check(process.returncode == 0, "shutdown exits cleanly", process.returncode)


if __name__ == "__main__":
    main(sys.argv[1])
