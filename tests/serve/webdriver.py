"""The W3C WebDriver calls the headless-Chromium tests share (the dashboard test and
the Perfetto trace check in tests/tools): a free loopback port for chromedriver, and
one WebDriver command returning its "value"."""
import json
import socket
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wd(base, method, path, body=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read().decode())["value"]
