"""``emprivacy playground``: loopback only by default, the token in the printed address, one
line for a port that cannot be had, and nothing of the web stack in ``emprivacy --help``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from emprivacy.playground import bind, is_loopback

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _own_address() -> str | None:
    """A non-loopback IPv4 address of this machine, if it has one."""
    candidates = set()
    try:
        candidates |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                                 socket.AF_INET)}
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent (UDP, nothing written)
            candidates.add(probe.getsockname()[0])
        except OSError:
            pass
    return next((a for a in sorted(candidates) if not is_loopback(a) and a != "0.0.0.0"), None)


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.3.4.5", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("192.168.1.4", False), ("example.org", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def _start(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "emprivacy", "playground", "--no-browser",
                             *args], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, env=_env())
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if "playground at " in line:
            return proc, line.split("playground at ", 1)[1].split()[0]
        if not line and proc.poll() is not None:
            break
    proc.kill()
    proc.wait(20)
    proc.stderr.close()
    raise AssertionError("the playground did not print its address")


def test_cli_serves_loopback_only_with_a_token() -> None:
    proc, url = _start("--quiet")
    try:
        assert url.startswith("http://127.0.0.1:")
        base, token = url.split("/?token=")
        assert len(token) >= 32
        assert httpx.get(url).status_code == 200
        assert httpx.get(base + "/").status_code == 403
        assert httpx.post(base + "/api/release", json={"text": "a cat", "epsilons": [10],
                                                        "seed": 1}).status_code == 403
        port = int(base.rsplit(":", 1)[1])
        other = _own_address()
        if other is not None:  # the machine has another address: nothing listens there
            with pytest.raises(OSError), socket.create_connection((other, port), timeout=2):
                pass
    finally:
        proc.terminate()
        proc.wait(20)
        if proc.stderr is not None:
            proc.stderr.close()


def test_cli_port_in_use_is_one_line() -> None:
    with bind("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "emprivacy", "playground", "--no-browser",
                               "--port", str(port)], capture_output=True, text=True,
                              env=_env(), timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"emprivacy: error: cannot serve on 127.0.0.1:{port}: Address already in use"]


def test_cli_other_host_warns() -> None:
    """A host that is not loopback: the warning line first (here the address is not one of
    the machine's, so nothing is served)."""
    done = subprocess.run([sys.executable, "-m", "emprivacy", "playground", "--no-browser",
                           "--host", "192.0.2.1"], capture_output=True, text=True, env=_env(),
                          timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2
    assert lines[0].startswith("emprivacy: warning: serving on 192.0.2.1, not a loopback")
    assert lines[1].startswith("emprivacy: error: cannot serve on 192.0.2.1:0:")


def test_help_imports_no_web_stack() -> None:
    code = ("import sys, contextlib, io\n"
            "from emprivacy.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['playground', '--help'])\n"
            "print(sorted(m for m in ('numpy', 'starlette', 'uvicorn') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
