"""Helpers for the mgtlm serve tests: start a server on ephemeral loopback ports,
talk HTTP with urllib, stop the server. Every wait is bounded."""
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

START_TIMEOUT = 20.0


class Server:
    def __init__(self, mgtlm, args, env=None, preexec_fn=None):
        self.log = tempfile.NamedTemporaryFile(prefix="serve-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([mgtlm, "serve"] + args + ["--listen", "127.0.0.1:0"],
                                     stdout=subprocess.DEVNULL, stderr=self.log, env=env,
                                     preexec_fn=preexec_fn)
        self.port = None
        self.pcie_ports = []
        deadline = time.time() + START_TIMEOUT
        while time.time() < deadline:
            text = self.stderr()
            m = re.search(r"on http://127\.0\.0\.1:(\d+)/", text)
            if m:
                self.port = int(m.group(1))
                self.pcie_ports = [int(p) for p in re.findall(
                    r"pcie-ip 127\.0\.0\.1:(\d+): listening", text)]
                return
            if self.proc.poll() is not None:
                raise RuntimeError("server exited %d: %s" % (self.proc.returncode, text))
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("server did not start: " + self.stderr())

    def stderr(self):
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def request(self, method, path, body=None, raw=None, timeout=30.0, headers=None):
        """(status, parsed JSON or text)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url(path), data=data, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body if body is not None else {}, **kw)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()
        rc = self.proc.returncode
        text = self.stderr()
        os.unlink(self.log.name)
        return rc, text


class Checks:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL:", what)

    def report(self, name):
        print("%s: %d passed, %d failed" % (name, self.passed, self.failed))
        return 1 if self.failed else 0
