"""dapclient.py -- a small Debug Adapter Protocol client (standard library only) that drives
`loom dap` the way an editor does: Content-Length framed JSON on the server's stdin/stdout,
requests answered by responses, events in between."""
import json
import os
import queue
import subprocess
import threading
import time


class DapError(Exception):
    pass


class DapClient:
    def __init__(self, loom, cwd=None, log=None, argv=None, env=None):
        """Starts `loom dap` (or the command line argv, as an editor would)."""
        argv = argv or [loom, "dap"] + (["--log", log] if log else [])
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.seq = 0
        self.inbox = queue.Queue()
        self.events = []          # every event seen, in order
        self.pending = []         # messages read but not yet consumed
        self.closed = False       # the server's output ended
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.inbox.put(json.loads(body))

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, command, arguments=None):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            msg["arguments"] = arguments
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def _next(self, timeout):
        if self.closed:
            raise DapError("the server closed its output")
        msg = self.inbox.get(timeout=timeout)
        if msg is None:
            self.closed = True
            raise DapError("the server closed its output")
        if msg.get("type") == "event":
            self.events.append(msg)
        return msg

    def wait(self, pred, timeout=30):
        """The first message (unconsumed, or arriving within timeout) for which pred holds."""
        for i, m in enumerate(self.pending):
            if pred(m):
                return self.pending.pop(i)
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise DapError("timed out; messages left: %s" % json.dumps(self.pending)[:2000])
            try:
                m = self._next(left)
            except queue.Empty:
                continue
            if pred(m):
                return m
            self.pending.append(m)

    def request(self, command, arguments=None, timeout=30):
        """The response to a request (success or not)."""
        seq = self.send(command, arguments)
        return self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq, timeout)

    def ok(self, command, arguments=None, timeout=30):
        r = self.request(command, arguments, timeout)
        if not r.get("success"):
            raise DapError("%s failed: %s" % (command, r.get("message")))
        return r.get("body", {})

    def event(self, name, timeout=30, pred=lambda m: True):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name and pred(m), timeout)

    def output(self):
        """The text of the output events seen so far, by category."""
        while True:
            try:
                m = self._next(0)
            except (queue.Empty, DapError):
                break
            self.pending.append(m)
        text = {}
        for m in self.events:
            if m.get("event") == "output":
                b = m["body"]
                text[b.get("category", "console")] = text.get(b.get("category", "console"), "") + b["output"]
        return text

    def close(self, timeout=30):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise DapError("loom dap did not end after its input closed")
        err = self.proc.stderr.read().decode(errors="replace")
        if rc != 0:
            # loom dap forwards its own stderr as output events while it runs (a sanitizer's
            # report included): a failure shows them with its exit status
            events = self.output().get("stderr", "")
            err = "exit status %d; stderr: %s; stderr output events: %s" % (rc, err, events[-3000:])
        return rc, err
