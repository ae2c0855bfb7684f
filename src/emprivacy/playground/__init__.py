"""A local web page to see what ε does to your own text (``emprivacy playground``).

The page (served on 127.0.0.1 with a secret token in its URL) releases a pasted text at a few
ε side by side through :func:`emprivacy.privatize_texts`, shows every word's fate and
guarantee, the run's summary and the cached audit's recovery, and gives the ``emprivacy
obfuscate`` command that reproduces the release byte for byte.  :mod:`.settings` (a request,
checked), :mod:`.session` (the embeddings loaded once, the releases), :mod:`.fates` (each
word's fate), :mod:`.marks` (the audit's cached figures), :mod:`.command` (copy as command),
:mod:`.render` (the HTML), :mod:`.app` (the Starlette application: token, limits, no CORS),
:mod:`.server` (binding, uvicorn).  Needs the ``web`` extra (Starlette and uvicorn);
importing this package imports neither.  docs/PLAYGROUND.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "BackgroundServer": "server",
    "LOOPBACK": "server",
    "PageSettings": "settings",
    "Playground": "session",
    "bind": "server",
    "create_app": "app",
    "is_loopback": "server",
    "new_token": "server",
    "page_url": "server",
    "serve": "server",
    "shell_command": "command",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.playground.app import create_app
    from emprivacy.playground.command import shell_command
    from emprivacy.playground.server import (
        LOOPBACK,
        BackgroundServer,
        bind,
        is_loopback,
        new_token,
        page_url,
        serve,
    )
    from emprivacy.playground.session import Playground
    from emprivacy.playground.settings import PageSettings

__all__ = ["LOOPBACK", "BackgroundServer", "PageSettings", "Playground", "bind", "create_app",
           "is_loopback", "new_token", "page_url", "serve", "shell_command"]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
