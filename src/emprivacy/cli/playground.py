"""``emprivacy playground``: a local web page to see what ε does to your own text."""

from __future__ import annotations

from typing import Annotated

import typer

from emprivacy.cli._common import DEFAULT_VOCAB_SIZE, QuietOpt, fail, flag, load, stderr

__all__ = ["playground"]

REMOTE_WARNING = ("emprivacy: warning: serving on {host}, not a loopback address: anyone who "
                  "can reach it and learns the token can use the page, and the connection is "
                  "not encrypted; prefer the default and an SSH port forward "
                  "(docs/PLAYGROUND.md)")


def playground(
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: a free one, "
                                      "printed).")] = 0,
    host: Annotated[str, typer.Option("--host", help="Address to serve on; anything but a "
                                      "loopback address is served with a warning.")
                    ] = "127.0.0.1",
    no_browser: Annotated[bool, flag("--no-browser", "Do not open the page in a browser.")
                          ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Serve a local page: paste a text, move ε, see each word's fate and guarantee.

    Served on 127.0.0.1 with a secret token in its address; nothing typed is stored or
    logged. Needs the web extra of emprivacy (Starlette, uvicorn). docs/PLAYGROUND.md.
    """
    from emprivacy import import_optional
    from emprivacy.playground import Playground, bind, is_loopback, new_token, page_url, serve

    import_optional("uvicorn", extra="web", purpose="emprivacy playground")
    import_optional("starlette", extra="web", purpose="emprivacy playground")
    console = stderr()
    if not is_loopback(host):
        console.print(REMOTE_WARNING.format(host=host), markup=False)
    try:
        sock = bind(host, port)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    with sock:
        session = Playground(load(None, DEFAULT_VOCAB_SIZE, quiet))
        token = new_token()
        url = page_url(sock, token)
        console.print(f"emprivacy: playground at {url} (Ctrl-C to stop)", markup=False)
        if not no_browser:
            import webbrowser

            webbrowser.open(url)
        serve(session, sock, token)
