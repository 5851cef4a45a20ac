#!/usr/bin/env python3
"""dap_session.py -- `loom dap` driven the way an editor drives it (issue 18).

Sessions over tests/dap/dap_kernels.ptx (nvcc -lineinfo, so the CUDA lines are known):
  1. a conditional breakpoint on a .cu line, threads, stackTrace, scopes, variables (values
     derived from the kernel), evaluate (registers, expressions, memory), next, stepIn into
     a .func, stepOut, stepBack, continue to the end: the output file as without debugging;
  2. stopOnEntry, a breakpoint moved to the next line with code, a shared-memory data
     breakpoint, a breakpoint on a PTX line, disconnect (detach): the kernel completes;
  3. a fault: the exception stop with its report, exceptionInfo, stepBack, terminate; a
     kernel that never ends: a breakpoint set while it runs, pause, terminate; kernel
     printf as output events (tests/dap/dap_printf.cu);
  4. malformed messages and requests, each answered with success: false, the session going
     on; a launch whose loom run line is wrong; a bad header ends the session;
  5. noDebug runs straight through; EOF ends the server;
  6. editors/vscode's manifest: the command line VS Code runs starts `loom dap`.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dapclient import DapClient, DapError  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
LOOM = os.environ.get("LOOM", os.path.join(os.environ.get("top_builddir", TOP), "loom"))
PTX = os.path.join(HERE, "dap_kernels.ptx")
CU = os.path.join(HERE, "dap_kernels.cu")

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok %d - %s" % (passed + failed, what))
    else:
        failed += 1
        print("not ok %d - %s%s" % (passed + failed, what, (": " + str(detail)[:6000]) if detail else ""))
    return cond


def fill_args(out, k=2):
    return ["--kernel", "fill", "--grid", "2", "--block", "64", "out:s32:128>" + out, "s32:%d" % k]


def read_ints(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack("<%di" % (len(data) // 4), data))


def start(tmp):
    c = DapClient(LOOM, cwd=tmp, log=os.path.join(tmp, "dap.log") if os.environ.get("DAP_LOG") else None)
    caps = c.ok("initialize", {"clientID": "dap_session.py", "adapterID": "loom", "linesStartAt1": True,
                               "columnsStartAt1": True, "pathFormat": "path"})
    c.event("initialized")
    return c, caps


def stopped(c, timeout=60):
    return c.event("stopped", timeout)["body"]


def top_frame(c, tid):
    return c.ok("stackTrace", {"threadId": tid})["stackFrames"]


def var_map(c, ref):
    return {v["name"]: v for v in c.ok("variables", {"variablesReference": ref})["variables"]}


def scopes(c, frame_id):
    return {s["name"].split(" (")[0]: s for s in c.ok("scopes", {"frameId": frame_id})["scopes"]}


def final_breakpoints(c, answered):
    """Each breakpoint as the response gave it, updated by later 'changed' events."""
    state = {b["id"]: b for b in answered if "id" in b}
    for e in c.events + [m for m in c.pending if m.get("type") == "event"]:
        if e.get("event") == "breakpoint":
            b = e["body"]["breakpoint"]
            if b.get("id") in state:
                state[b["id"]] = b
    return state


def session_steps(tmp):
    """1: a conditional breakpoint, reading the state, every kind of step, continue."""
    out = os.path.join(tmp, "steps.bin")
    c, caps = start(tmp)
    for cap in ("supportsConfigurationDoneRequest", "supportsConditionalBreakpoints", "supportsStepBack",
                "supportsEvaluateForHovers", "supportsTerminateRequest", "supportsDataBreakpoints"):
        check(caps.get(cap) is True, "initialize: " + cap, caps)
    c.ok("launch", {"ptx": PTX, "args": fill_args(out), "cwd": tmp})
    bps = c.ok("setBreakpoints", {"source": {"path": CU},
                                  "breakpoints": [{"line": 16, "condition": "blockIdx.x == 1 && threadIdx.x == 37"},
                                                  {"line": 40}]})["breakpoints"]
    check(len(bps) == 2, "setBreakpoints answers each breakpoint", bps)
    c.ok("setExceptionBreakpoints", {"filters": ["fault"]})
    c.ok("configurationDone")
    st = stopped(c)
    bpstate = final_breakpoints(c, bps)
    b16, b40 = bpstate.get(bps[0].get("id")), bpstate.get(bps[1].get("id"))
    check(b16 and b16["verified"] and b16["line"] == 16, "the breakpoint on line 16 is verified there", bpstate)
    check(b40 and not b40["verified"] and b40.get("message"), "a line without code: not verified, with a message",
          bpstate)
    check(st["reason"] == "breakpoint" and st.get("hitBreakpointIds") == [bps[0]["id"]],
          "stopped at the conditional breakpoint", st)
    tid = st["threadId"]
    threads = {t["id"]: t["name"] for t in c.ok("threads")["threads"]}
    check(threads.get(tid) == "block (1,0,0) warp 1", "the stopped thread is block (1,0,0) warp 1", threads)
    check(all(n.startswith("block (") and " warp " in n for n in threads.values()) and len(threads) >= 2,
          "threads: one per warp of the running blocks", threads)
    started = {e["body"]["threadId"] for e in c.events if e.get("event") == "thread"
               and e["body"]["reason"] == "started"}
    check(started == set(threads), "a thread event (started) for each warp", (started, threads))
    frames = top_frame(c, tid)
    f0 = frames[0]
    check(len(frames) == 1 and f0["line"] == 16 and f0["source"]["name"] == "dap_kernels.cu"
          and os.path.samefile(f0["source"]["path"], CU) and f0["name"].startswith("fill"),
          "stackTrace: fill at dap_kernels.cu:16", frames)
    sc = scopes(c, f0["id"])
    check(set(sc) >= {"Registers", "Lanes", "Warp", "Shared memory", "Parameters"}, "scopes", list(sc))
    check("lane 5" in sc["Registers"]["name"], "the Registers scope is the focused lane's (5)", sc["Registers"])
    regs = var_map(c, sc["Registers"]["variablesReference"])
    # i = blockIdx.x * blockDim.x + threadIdx.x = 1 * 64 + 37 (%r5); %r1 = k; %r2..%r4 the special registers
    check(regs.get("%r5", {}).get("value") == "101 (0x65)", "%r5 (i) is 101", regs.get("%r5"))
    check(regs.get("%r1", {}).get("value") == "2 (0x2)", "%r1 (k) is 2", regs.get("%r1"))
    check(regs.get("%r4", {}).get("value") == "37 (0x25)" and regs.get("%tid.x", {}).get("value") == "37",
          "%r4 and %tid.x are 37", (regs.get("%r4"), regs.get("%tid.x")))
    check(regs.get("%r5", {}).get("type") == "b32", "registers typed by their PTX type", regs.get("%r5"))
    lanes = var_map(c, regs["%r5"]["variablesReference"])
    check(len(lanes) == 32 and lanes["lane 0"]["value"] == "96 (0x60)" and lanes["lane 31"]["value"] == "127 (0x7f)",
          "%r5 expands to its 32 lanes (i = 96 .. 127)", lanes)
    lane_list = var_map(c, sc["Lanes"]["variablesReference"])
    check(lane_list.get("lane 5", {}).get("value", "").startswith("thread (37,0,0)"), "Lanes: lane 5 is thread 37",
          lane_list.get("lane 5"))
    warp = var_map(c, sc["Warp"]["variablesReference"])
    check(warp.get("block", {}).get("value") == "(1,0,0)" and warp.get("warp", {}).get("value") == "1",
          "Warp scope: block and warp", warp)
    params = var_map(c, sc["Parameters"]["variablesReference"])
    k, out_p = params.get("fill_param_1", {}), params.get("fill_param_0", {})
    check(k.get("value") == "2" and k.get("type") == "u32", "Parameters: fill_param_1 (k) is u32 2", params)
    check(out_p.get("type") == "ptr" and out_p.get("variablesReference", 0) > 0, "Parameters: fill_param_0 a pointer",
          out_p)
    rows = var_map(c, out_p["variablesReference"])
    first = min(rows, key=lambda n: int(n, 16)) if rows else "0"
    # (block 0 has finished when block 1 reaches line 16: out[0..3] = 6i + 1)
    check(len(rows) == 16 and int(first, 16) == int(out_p["value"], 16) and rows[first]["value"] ==
          "00000001 00000007 0000000d 00000013", "the pointer expands to the output buffer: block 0's results", rows)
    ev = c.ok("evaluate", {"expression": "%r5", "frameId": f0["id"], "context": "hover"})
    check(ev["result"] == "101 (0x65)" and ev["variablesReference"] > 0, "evaluate %r5 (hover)", ev)
    ev = c.ok("evaluate", {"expression": "blockIdx.x * 1000 + threadIdx.x", "frameId": f0["id"], "context": "repl"})
    check(ev["result"] == "1037", "evaluate an expression", ev)
    ev = c.ok("evaluate", {"expression": "x/1dw param 8", "frameId": f0["id"], "context": "repl"})
    check(ev["result"].endswith(" 2"), "evaluate x/1dw param 8 (k)", ev)
    bad = c.request("evaluate", {"expression": "%nosuch", "frameId": f0["id"]})
    check(not bad["success"] and bad.get("message"), "evaluate a register that does not exist: an error", bad)

    c.ok("next", {"threadId": tid})
    st = stopped(c)
    f0 = top_frame(c, tid)[0]
    check(st["reason"] == "step" and f0["line"] == 17, "next: line 17", (st, f0))
    ev = c.ok("evaluate", {"expression": "%r6", "frameId": f0["id"]})
    check(ev["result"] == "303 (0x12f)", "%r6 (v = 3i) is 303", ev)

    c.ok("stepIn", {"threadId": tid})
    st = stopped(c)
    frames = top_frame(c, tid)
    check(len(frames) == 2 and frames[0]["name"].startswith("scale") and frames[1]["line"] == 17
          and frames[0]["line"] in (5, 8), "stepIn: in scale(), called from line 17", frames)
    if frames[0]["line"] == 5:
        c.ok("next", {"threadId": tid})
        stopped(c)
        frames = top_frame(c, tid)
    check(frames[0]["line"] == 8, "scale's body: line 8", frames)
    ev = c.ok("evaluate", {"expression": "%r1", "frameId": frames[0]["id"]})
    check(ev["result"] == "303 (0x12f)", "in scale, %r1 (v) is 303", ev)

    c.ok("stepOut", {"threadId": tid})
    st = stopped(c)
    frames = top_frame(c, tid)
    check(len(frames) == 1 and frames[0]["name"].startswith("fill") and frames[0]["line"] in (17, 18),
          "stepOut: back in fill", frames)
    while frames[0]["line"] == 17:
        c.ok("next", {"threadId": tid})
        stopped(c)
        frames = top_frame(c, tid)
    check(frames[0]["line"] == 18, "next: line 18", frames)
    ev = c.ok("evaluate", {"expression": "%r7", "frameId": frames[0]["id"]})
    check(ev["result"] == "607 (0x25f)", "%r7 (w = 303 * 2 + 1) is 607", ev)

    c.ok("stepBack", {"threadId": tid})
    st = stopped(c)
    frames = top_frame(c, tid)
    check(frames[0]["line"] == 17, "stepBack: back to line 17", (st, frames))

    r = c.ok("continue", {"threadId": tid})
    ex = c.event("exited", 60)
    c.event("terminated")
    check(ex["body"]["exitCode"] == 0, "continue: the kernel runs to its end (exit 0)", ex)
    ended = {e["body"]["threadId"] for e in c.events if e.get("event") == "thread" and e["body"]["reason"] == "exited"}
    check(tid in ended, "a thread event (exited) for the warps at the end", ended)
    c.ok("disconnect", {})
    rc, err = c.close()
    check(rc == 0, "loom dap exits 0 after disconnect", err)
    want = [6 * i + 1 for i in range(128)]
    check(os.path.exists(out) and read_ints(out) == want, "the output is what the kernel computes (6i + 1)")


def session_watch(tmp):
    """2: stopOnEntry, a moved breakpoint, a shared-memory watch, a PTX-line breakpoint, detach."""
    out = os.path.join(tmp, "watch.bin")
    c, _ = start(tmp)
    c.ok("launch", {"ptx": PTX, "args": fill_args(out, k=3), "cwd": tmp, "stopOnEntry": True})
    c.ok("configurationDone")
    st = stopped(c)
    check(st["reason"] == "entry", "stopOnEntry: stopped at the entry", st)
    bad = c.ok("setBreakpoints", {"source": {"path": CU},
                                  "breakpoints": [{"line": 16, "condition": "threadIdx.x =="}]})["breakpoints"]
    check(bad and not bad[0]["verified"] and bad[0].get("message"), "a bad condition: unverified, with a message", bad)
    ev = c.ok("evaluate", {"expression": "cuda block (1,0,0) thread (40,0,0)", "context": "repl"})
    check(ev["result"] == "focus: block (1,0,0) thread (40,0,0), warp 1 lane 8", "evaluate cuda block ... thread ...",
          ev)
    bad = c.request("evaluate", {"expression": "cuda block (9,0,0) thread (0,0,0)", "context": "repl"})
    check(not bad["success"] and bad.get("message"), "a focus outside the grid: an error", bad)
    c.ok("evaluate", {"expression": "cuda block (0,0,0) thread (0,0,0)", "context": "repl"})
    bps = c.ok("setBreakpoints", {"source": {"path": CU}, "breakpoints": [{"line": 7}]})["breakpoints"]
    check(bps and bps[0]["verified"] and bps[0]["line"] == 8, "a breakpoint on line 7 (no code) moves to line 8", bps)
    c.ok("continue", {"threadId": st["threadId"]})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(st["reason"] == "breakpoint" and frames[0]["line"] == 8 and len(frames) == 2,
          "stopped in scale() at line 8", (st, frames))
    ev = c.ok("evaluate", {"expression": "%r1@lanes", "frameId": frames[0]["id"]})
    check(ev["result"].startswith("[0 (0x0), 3 (0x3), 6 (0x6)"), "%r1@lanes: v = 3i in every lane", ev)
    c.ok("setBreakpoints", {"source": {"path": CU}, "breakpoints": []})
    info = c.ok("dataBreakpointInfo", {"name": "shared 0x94"})
    check(info.get("dataId") and "write" in info.get("accessTypes", []), "dataBreakpointInfo: shared 0x94", info)
    dbs = c.ok("setDataBreakpoints", {"breakpoints": [{"dataId": info["dataId"], "accessType": "write"}]})
    check(dbs["breakpoints"][0]["verified"], "setDataBreakpoints: verified", dbs)
    c.ok("continue", {"threadId": st["threadId"]})
    st = stopped(c)
    tid = st["threadId"]
    threads = {t["id"]: t["name"] for t in c.ok("threads")["threads"]}
    # tile[37] = w of thread 37 of block 0 = 3 * 37 * 3 + 1 = 334 = 0x14e
    check(st["reason"] == "data breakpoint" and "0x14e" in st.get("description", "")
          and threads.get(tid) == "block (0,0,0) warp 1", "the watch stops when thread 37 writes tile[37]",
          (st, threads.get(tid)))
    frames = top_frame(c, tid)
    check(frames[0]["line"] == 18, "... at line 18", frames)
    sc = scopes(c, frames[0]["id"])
    shared = var_map(c, sc["Shared memory"]["variablesReference"])
    # tile[36..39] = 9i + 1
    check(shared.get("0x0090", {}).get("value") == "00000145 0000014e 00000157 00000160",
          "Shared memory: tile[36..39] as written", shared.get("0x0090"))
    c.ok("setDataBreakpoints", {"breakpoints": []})
    bps = c.ok("setBreakpoints", {"source": {"path": PTX}, "breakpoints": [{"line": 81}]})["breakpoints"]
    check(bps and bps[0]["verified"] and bps[0]["line"] == 81, "a breakpoint on PTX line 81 (st.global)", bps)
    c.ok("continue", {"threadId": tid})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(st["reason"] == "breakpoint" and frames[0]["line"] == 20 and "PTX 81" in frames[0]["name"],
          "stopped at PTX line 81, shown as dap_kernels.cu:20", frames)
    check(c.request("pause", {"threadId": st["threadId"]})["success"], "pause while stopped is harmless")
    # a global watch on out[32], 128 bytes past what the stopped lane 0 stores to (%rd4 = &out[0]):
    # warp 1 of block 0 writes it later, 9 * 32 + 1 = 0x121
    c.ok("setBreakpoints", {"source": {"path": PTX}, "breakpoints": []})
    info = c.ok("dataBreakpointInfo", {"name": "global %rd4 + 128", "frameId": frames[0]["id"]})
    dbs = c.ok("setDataBreakpoints", {"breakpoints": [{"dataId": info.get("dataId"), "accessType": "write"}]})
    check(info.get("dataId", "").startswith("global:") and dbs["breakpoints"][0]["verified"],
          "a data breakpoint on 'global %rd4 + 128'", (info, dbs))
    c.ok("continue", {"threadId": st["threadId"]})
    st = stopped(c)
    check(st["reason"] == "data breakpoint" and "thread (32,0,0)" in st.get("description", "")
          and "0x0 -> 0x121" in st.get("description", ""), "it stops after thread 32 stores out[32] (0x121)", st)
    c.ok("disconnect", {})
    ex = [e for e in c.events if e.get("event") == "exited"]
    check(ex and ex[0]["body"]["exitCode"] == 0, "disconnect detaches: the kernel completes (exit 0)", ex)
    rc, err = c.close()
    check(rc == 0, "loom dap exits 0", err)
    check(os.path.exists(out) and read_ints(out) == [9 * i + 1 for i in range(128)],
          "after detaching the output is the kernel's (9i + 1)")
    plain = os.path.join(tmp, "plain.bin")
    r = subprocess.run([LOOM, "run", PTX] + fill_args(plain, k=3), cwd=tmp, capture_output=True)
    with open(plain, "rb") as a, open(out, "rb") as b:
        check(r.returncode == 0 and a.read() == b.read(), "... the same bytes as loom run without the debugger")


def session_fault(tmp):
    """3: the fault stop, its report, going back from it, terminate."""
    out = os.path.join(tmp, "fault.bin")
    c, _ = start(tmp)
    c.ok("launch", {"ptx": PTX, "cwd": tmp, "args": ["--kernel", "spill", "--grid", "1", "--block", "64",
                                                      "out:s32:64>" + out, "s32:64"]})
    c.ok("setExceptionBreakpoints", {"filters": []})
    c.ok("configurationDone")
    st = stopped(c)
    check(st["reason"] == "exception" and "out-of-bounds global write of 4 bytes" in st.get("text", ""),
          "a fault stops with the report (reason exception)", st)
    check("block (0,0,0), thread (0,0,0)" in st.get("text", ""), "the report names the thread", st.get("text"))
    info = c.ok("exceptionInfo", {"threadId": st["threadId"]})
    check(info.get("description", "").startswith("loom run: out-of-bounds") or
          "out-of-bounds" in info.get("description", ""), "exceptionInfo: the report's first line", info)
    frames = top_frame(c, st["threadId"])
    check(frames[0]["line"] == 27, "the fault is at dap_kernels.cu:27", frames)
    ev = c.ok("evaluate", {"expression": "%r6", "frameId": frames[0]["id"]})
    check(ev["result"] == "64 (0x40)", "%r6 (i + shift) of thread 0 is 64", ev)
    # the faulting st.global is the last instruction of line 27: going back, the start of
    # line 27 (as gdb's reverse-step), then line 26
    c.ok("stepBack", {"threadId": st["threadId"]})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(frames[0]["line"] == 27 and "PTX 106" in frames[0]["name"],
          "stepBack from the fault: the start of line 27 (PTX 106)", (st, frames))
    c.ok("stepIn", {"threadId": st["threadId"], "granularity": "instruction"})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(frames[0]["line"] == 27 and "PTX 107: mul.wide.s32" in frames[0]["name"],
          "stepIn by instruction: PTX 107", frames)
    c.ok("stepBack", {"threadId": st["threadId"], "granularity": "instruction"})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check("PTX 106: add.s32" in frames[0]["name"], "stepBack by instruction: PTX 106", frames)
    c.ok("stepBack", {"threadId": st["threadId"]})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(frames[0]["line"] == 26, "stepBack again: line 26", (st, frames))
    ev = c.ok("evaluate", {"expression": "%r6", "frameId": frames[0]["id"]})
    check(ev["result"] == "0 (0x0)", "... where %r6 is not written yet", ev)
    c.ok("reverseContinue", {"threadId": st["threadId"]})
    st = stopped(c)
    check(st["reason"] == "step" and "first instruction" in st.get("description", ""),
          "reverseContinue: back at the launch's start", st)
    c.ok("continue", {"threadId": st["threadId"]})
    st = stopped(c)
    check(st["reason"] == "exception" and "block (0,0,0), thread (0,0,0)" in st.get("text", ""),
          "continue: the same fault again (deterministic)", st)
    c.ok("terminate", {})
    ex = c.event("exited", 60)
    c.event("terminated")
    check(ex["body"]["exitCode"] != 0, "terminate ends the kernel (nonzero exit)", ex)
    c.ok("disconnect", {})
    rc, err = c.close()
    check(rc == 0, "loom dap exits 0", err)


def session_running(tmp):
    """3b: a kernel that never ends: a breakpoint set while it runs, pause, terminate."""
    c, _ = start(tmp)
    c.ok("launch", {"ptx": PTX, "cwd": tmp, "args": ["--kernel", "spin", "--grid", "1", "--block", "32",
                                                      "in:s32:1=zero"]})
    c.ok("configurationDone")
    time.sleep(0.5)
    threads = c.ok("threads")["threads"]
    check(len(threads) == 1 and threads[0]["name"] == "kernel (running)", "threads while it runs", threads)
    bps = c.ok("setBreakpoints", {"source": {"path": PTX}, "breakpoints": [{"line": 130}]})["breakpoints"]
    check(bps and bps[0]["verified"] and bps[0]["line"] == 130, "setBreakpoints while the kernel runs", bps)
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(st["reason"] == "breakpoint" and frames[0]["line"] == 33 and "ld.volatile" in frames[0]["name"],
          "... and it stops there (the loop's load, dap_kernels.cu:33)", (st, frames))
    c.ok("setBreakpoints", {"source": {"path": PTX}, "breakpoints": []})
    c.ok("continue", {"threadId": st["threadId"]})
    time.sleep(0.3)
    c.ok("pause", {"threadId": st["threadId"]})
    st = stopped(c)
    frames = top_frame(c, st["threadId"])
    check(st["reason"] == "pause" and frames[0]["line"] == 33, "pause stops the spinning warp", (st, frames))
    ev = c.ok("evaluate", {"expression": "%r1@lanes", "frameId": frames[0]["id"]})
    check(ev["result"].startswith("[0 (0x0), 0 (0x0)"), "the flag it reads is 0", ev)
    c.ok("terminate", {})
    ex = c.event("exited", 60)
    check(ex["body"]["exitCode"] == 130, "terminate: loom run exits 130 (interrupted)", ex)
    c.ok("disconnect", {})
    rc, err = c.close()
    check(rc == 0, "loom dap exits 0", err)


def session_printf(tmp):
    """3c: kernel printf reaches the editor as output events: what was printed before a
    stop, at that stop; all of it once, as loom run prints it."""
    ptx = os.path.join(HERE, "dap_printf.ptx")
    args = ["--grid", "1", "--block", "2", "s32:3"]
    c, _ = start(tmp)
    c.ok("launch", {"ptx": ptx, "cwd": tmp, "args": args})
    c.ok("setBreakpoints", {"source": {"path": os.path.join(HERE, "dap_printf.cu")}, "breakpoints": [{"line": 9}]})
    c.ok("configurationDone")
    st = stopped(c)
    out = c.output().get("stdout", "")
    check(st["reason"] == "breakpoint" and out == "thread 0 says 0\nthread 1 says 3\n",
          "at the stop on line 9 the first printf's text has arrived", (st, out))
    c.ok("stepBack", {"threadId": st["threadId"]})   # (going back re-runs the first printf)
    st = stopped(c)
    c.ok("continue", {"threadId": st["threadId"]})
    st = stopped(c)
    out = c.output().get("stdout", "")
    check(st["reason"] == "breakpoint" and out == "thread 0 says 0\nthread 1 says 3\n",
          "back, then at line 9 again: nothing printed twice", (st, out))
    c.ok("continue", {"threadId": st["threadId"]})
    c.event("exited")
    plain = subprocess.run([LOOM, "run", ptx] + args, cwd=tmp, capture_output=True, text=True)
    out = c.output().get("stdout", "")
    check(out == plain.stdout and out.endswith("thread 1 again\n"),
          "all of it, once, as loom run prints it",
          (out, plain.stdout))
    c.ok("disconnect", {})
    rc, err = c.close()
    check(rc == 0, "loom dap exits 0", err)


def session_malformed(tmp):
    """4: malformed messages get an error response and the session goes on."""
    c = DapClient(LOOM, cwd=tmp)
    body = b"{bad json"
    c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    r = c.wait(lambda m: m.get("type") == "response")
    check(not r["success"] and "not JSON" in r.get("message", ""), "bad JSON: an error response", r)
    body = b'{"seq": 1, "type": "event", "event": "x"}'
    c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    r = c.wait(lambda m: m.get("type") == "response")
    check(not r["success"] and "malformed" in r.get("message", ""), "a message that is no request: an error", r)
    r = c.request("frobnicate", {})
    check(not r["success"] and "unknown request 'frobnicate'" in r.get("message", ""), "unknown command", r)
    caps = c.ok("initialize", {"adapterID": "loom"})
    check(caps.get("supportsStepBack"), "initialize after the errors works")
    for cmd, args, want in [("setBreakpoints", {}, "source.path"),
                            ("stackTrace", {}, ""),
                            ("evaluate", {}, "expression"),
                            ("variables", {"variablesReference": 99}, ""),
                            ("continue", {"threadId": 1}, "not stopped"),
                            ("launch", {}, "'ptx'"),
                            ("launch", {"program": "./a.out"}, "launching a CUDA program is not supported yet"),
                            ("launch", {"ptx": PTX, "args": "--grid 1"}, "array"),
                            ("setBreakpoints", {"source": {"path": CU}, "breakpoints": [{"line": "x"}]}, None)]:
        r = c.request(cmd, args)
        if want is None:
            b = r.get("body", {}).get("breakpoints", [{}])
            check(r["success"] and not b[0].get("verified") and b[0].get("message"),
                  "setBreakpoints with a bad line: that breakpoint unverified, with a message", r)
        else:
            check(not r["success"] and want in r.get("message", ""), "%s %s: error '%s'" % (cmd, args, want), r)
    r = c.request("launch", {"ptx": PTX, "args": ["--kernel", "fill", "--grid", "1"], "cwd": tmp})
    check(r["success"], "a launch is accepted (its loom run line is checked as it runs)", r)
    c.ok("configurationDone")
    ex = c.event("exited")
    c.event("terminated")
    err = c.output().get("stderr", "")
    check(ex["body"]["exitCode"] == 2 and "loom run:" in err, "a wrong loom run line: its message, exit 2",
          (ex, err))
    c.send_raw(b"Content-Length: lots\r\n\r\n{}")
    rc, err = c.close()
    check(rc == 0, "a bad Content-Length header ends the session cleanly", err)


def session_nodebug(tmp):
    """5: noDebug runs straight through; the end of input ends the server."""
    out = os.path.join(tmp, "nodebug.bin")
    c, _ = start(tmp)
    c.ok("launch", {"ptx": PTX, "args": fill_args(out), "cwd": tmp, "noDebug": True})
    c.ok("configurationDone")
    ex = c.event("exited")
    check(ex["body"]["exitCode"] == 0 and read_ints(out) == [6 * i + 1 for i in range(128)],
          "noDebug: the kernel's output", ex)
    rc, err = c.close()
    check(rc == 0, "end of input ends loom dap (exit 0)", err)
    c, _ = start(tmp)
    rc, err = c.close()
    check(rc == 0, "end of input right after initialize", err)


def vscode_manifest(tmp):
    """6: editors/vscode: the debugger VS Code would start (runtime sh, program loom-dap.sh)
    answers initialize; its launch attributes are the ones loom dap reads."""
    folder = os.path.join(TOP, "editors", "vscode")
    with open(os.path.join(folder, "package.json")) as f:
        pkg = json.load(f)
    dbg = pkg["contributes"]["debuggers"][0]
    props = dbg["configurationAttributes"]["launch"]["properties"]
    check(dbg["type"] == "loom" and set(props) == {"ptx", "args", "cwd", "stopOnEntry"}
          and dbg["configurationAttributes"]["launch"]["required"] == ["ptx"],
          "the VS Code manifest contributes the debugger type loom with launch's attributes", dbg)
    argv = [dbg["runtime"], os.path.join(folder, dbg["program"])]
    c = DapClient(None, cwd=tmp, argv=argv, env=dict(os.environ, LOOM=LOOM))
    caps = c.ok("initialize", {"adapterID": "loom"})
    check(caps.get("supportsStepBack") is True, "VS Code's command line (sh loom-dap.sh) starts loom dap")
    rc, err = c.close()
    check(rc == 0, "... which ends at EOF", err)


def main():
    if not os.access(LOOM, os.X_OK):
        print("dap_session.py: %s not built" % LOOM)
        return 99
    r = subprocess.run([LOOM, "help", "dap"], capture_output=True)
    if r.returncode != 0:
        print("dap_session.py: this loom has no dap command; skipped")
        return 77
    sessions = (session_steps, session_watch, session_fault, session_running, session_printf,
                session_malformed, session_nodebug, vscode_manifest)
    only = os.environ.get("DAP_SESSIONS")   # (to repeat some: DAP_SESSIONS=session_running,...)
    if only:
        sessions = [f for f in sessions if f.__name__ in only.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for session in sessions:
            try:
                session(tmp)
            except (DapError, KeyError, IndexError, TypeError, OSError) as e:
                check(False, "%s ended early" % session.__name__, repr(e))
    print("dap_session.py: %d checks passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
