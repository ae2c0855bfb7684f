"""Serving the page: the address, the token, uvicorn, and the line that says where it is.

:func:`serve` binds the socket itself (port 0: a free port the system picks), so the address
it prints is the one listening; only loopback addresses unless the caller names another
host (the command line warns then).  The embeddings are loaded before the server starts: the
page's first release does not wait for them.  :class:`BackgroundServer` runs the same server
in a thread (the tests and ``benchmarks/playground_first_release.py``).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
import time
from typing import Any

from emprivacy.playground.app import create_app
from emprivacy.playground.session import Playground

__all__ = ["LOOPBACK", "BackgroundServer", "bind", "is_loopback", "new_token", "page_url",
           "serve"]

#: The host served by default.
LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A fresh secret for the page's URL (32 URL-safe characters, 192 bits)."""
    return secrets.token_urlsafe(24)


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one).

    Raises
    ------
    OSError
        The address cannot be bound (in use, not an address of this machine).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def page_url(sock: socket.socket, token: str) -> str:
    """The page's address on ``sock``, token included."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def _hosts(sock: socket.socket) -> set[str] | None:
    """The ``Host`` values the server answers: its address, and the loopback names; ``None``
    (any) on a wildcard address (``--host 0.0.0.0``), whose names this process cannot know —
    the token still guards every request."""
    host, port = sock.getsockname()[:2]
    if ipaddress.ip_address(host).is_unspecified:
        return None
    names = {f"[{host}]" if ":" in host else host}
    if is_loopback(host):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return {f"{n}:{port}" for n in names}


def _server(playground: Playground, sock: socket.socket, token: str) -> Any:
    from emprivacy import import_optional

    uvicorn = import_optional("uvicorn", extra="web", purpose="the playground")
    app = create_app(playground, token=token, hosts=_hosts(sock))
    # no access log: a URL holds the token, and nothing of a request is ever logged
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            server_header=False, date_header=False, timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def serve(playground: Playground, sock: socket.socket, token: str) -> None:
    """Serve the page on ``sock`` until Ctrl-C (or SIGTERM)."""
    _server(playground, sock, token).run(sockets=[sock])


class BackgroundServer:
    """The page served from a thread, on a free loopback port (a context manager).

    Attributes
    ----------
    url : str
        The page's address, token included.
    token : str
    """

    def __init__(self, playground: Playground, *, host: str = LOOPBACK) -> None:
        self.token = new_token()
        self._sock = bind(host, 0)
        self.url = page_url(self._sock, self.token)
        self.port = int(self._sock.getsockname()[1])
        self._server = _server(playground, self._sock, self.token)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._sock]}, daemon=True)

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the playground server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)
        self._sock.close()
