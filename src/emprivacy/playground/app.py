"""The playground's web application (Starlette): the page, its assets and two endpoints
(``/api/release``, ``/api/audit``).

Safe by default (docs/PLAYGROUND.md):

* **a token**: the page is served only at ``/?token=T`` and the release endpoint answers only
  a request carrying ``X-Emprivacy-Token: T`` (compared in constant time), so other users of
  the machine, and web pages in the user's own browser, cannot drive it;
* **no CORS**: no ``Access-Control-*`` header is ever sent, and the endpoint takes only
  ``application/json`` with a custom header, which a page of another origin cannot send
  without a preflight this server never grants;
* **the Host header** must name one of the server's own addresses (a page that rebinds a
  DNS name to 127.0.0.1 is refused);
* **limits**: a body over :data:`MAX_BODY_BYTES`, a text over
  :data:`~.settings.MAX_TEXT_CHARS` characters and a release or audit over
  :data:`REQUEST_SECONDS` get one clear message; one heavy job (a release, an audit) runs at a
  time (a second request meanwhile is told so);
* **nothing stored**: the text lives in the request and the answer only; no log line
  names it (the server's access log is off), answers are ``Cache-Control: no-store``, and a
  Content-Security-Policy allows only the page's own files.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from emprivacy.playground.audit import TextAudit, audit_text
from emprivacy.playground.command import python_call, record_line, shell_command
from emprivacy.playground.render import asset, audit_results, page, results
from emprivacy.playground.session import Playground, Release
from emprivacy.playground.settings import PageSettings, TooLarge

__all__ = ["MAX_BODY_BYTES", "REQUEST_SECONDS", "TOKEN_HEADER", "create_app"]

#: The largest request body the endpoint reads, in bytes.
MAX_BODY_BYTES = 256 * 1024
#: How long one request's releases may take, in seconds.
REQUEST_SECONDS = 60.0
#: The header that carries the token on the endpoint.
TOKEN_HEADER = "X-Emprivacy-Token"
_ASSETS = {"playground.css": "text/css; charset=utf-8",
           "playground.js": "text/javascript; charset=utf-8"}
_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; form-action 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
}


def create_app(playground: Playground, *, token: str, hosts: Iterable[str] | None,
               seed: Callable[[], int] | None = None,
               request_seconds: float = REQUEST_SECONDS) -> Any:
    """The ASGI application of the page.

    Parameters
    ----------
    playground : Playground
        The embeddings and the releases.
    token : str
        The secret of the page's URL (at least 16 characters).
    hosts : iterable of str or None
        The ``Host`` values the server answers (its own address and port); ``None``: any
        (a server on a wildcard address, ``--host 0.0.0.0``: the token still guards it).
    seed : callable, optional
        The seed the page starts with (default: a fresh random one per page load).
    request_seconds : float
        How long one request's releases may take.
    """
    from emprivacy import import_optional
    from emprivacy.exceptions import EmprivacyError

    import_optional("starlette", extra="web", purpose="the playground")
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    if not isinstance(token, str) or len(token) < 16:
        raise ValueError("token must be a string of at least 16 characters")
    allowed = None if hosts is None else frozenset(h.lower() for h in hosts)
    new_seed = seed or (lambda: secrets.randbelow(2**31))

    def refused(status: int, message: str) -> Response:
        return JSONResponse({"error": message}, status_code=status, headers=_HEADERS)

    def host_ok(request: Request) -> bool:
        return allowed is None or request.headers.get("host", "").lower() in allowed

    def token_ok(given: str | None) -> bool:
        return given is not None and secrets.compare_digest(given.encode(), token.encode())

    async def index(request: Request) -> Response:
        if not host_ok(request):
            return PlainTextResponse("emprivacy playground: unknown Host", 421, headers=_HEADERS)
        if not token_ok(request.query_params.get("token")):
            return PlainTextResponse("emprivacy playground: this page needs the token printed "
                                     "when the server started (…/?token=…)", 403,
                                     headers=_HEADERS)
        return Response(page(seed=new_seed()), media_type="text/html; charset=utf-8",
                        headers=_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if not host_ok(request) or name not in _ASSETS:
            return PlainTextResponse("not found", 404, headers=_HEADERS)
        return Response(asset(name), media_type=_ASSETS[name], headers=_HEADERS)

    async def job(request: Request, work: Callable[[PageSettings], Any],
                  answer: Callable[[PageSettings, Any, float], dict[str, Any]]) -> Response:
        """A heavy request: checked, then ``work`` in a thread, one at a time, timed."""
        if not host_ok(request):
            return refused(421, "unknown Host")
        if not token_ok(request.headers.get(TOKEN_HEADER)):
            return refused(403, "this endpoint needs the page's token")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return refused(415, "the request must be application/json")
        body = await _read_body(request)
        if body is None:
            return refused(413, f"the request is over {MAX_BODY_BYTES // 1024} KiB: the "
                           "playground takes short texts (use 'emprivacy obfuscate' for "
                           "longer ones)")
        try:
            settings = PageSettings.from_payload(json.loads(body))
        except TooLarge as exc:
            return refused(413, str(exc))
        except json.JSONDecodeError:
            return refused(400, "the request is not JSON")
        except (TypeError, ValueError) as exc:
            return refused(400, str(exc))
        if not playground.busy.acquire(blocking=False):
            return refused(429, "another release or audit is running; try again when it "
                           "ends")
        started = time.perf_counter()
        work_done = asyncio.get_running_loop().run_in_executor(None, _locked, playground,
                                                               work, settings)
        try:
            done = await asyncio.wait_for(asyncio.shield(work_done), request_seconds)
        except TimeoutError:
            return refused(503, f"the work took longer than {request_seconds:g} s and was "
                           "given up (shorter text, fewer ε, or the command line)")
        except (TypeError, ValueError) as exc:  # a bad entity option, said by the library
            return refused(400, str(exc))
        except EmprivacyError as exc:  # e.g. a detector whose extra is not installed
            return refused(400, exc.message())
        return JSONResponse(answer(settings, done, time.perf_counter() - started),
                            headers=_HEADERS)

    async def release(request: Request) -> Response:
        return await job(request, playground.releases, _answer)

    async def audit(request: Request) -> Response:
        def answer(settings: PageSettings, audits: list[TextAudit], seconds: float
                   ) -> dict[str, Any]:
            return {"html": audit_results(settings, audits), "seconds": seconds}

        return await job(request, lambda settings: audit_text(playground, settings), answer)

    async def not_found(request: Request) -> Response:
        return PlainTextResponse("not found", 404, headers=_HEADERS)

    return Starlette(routes=[
        Route("/", index, methods=["GET"]),
        Route("/assets/{name}", static, methods=["GET"]),
        Route("/api/release", release, methods=["POST"]),
        Route("/api/audit", audit, methods=["POST"]),
        Route("/{path:path}", not_found, methods=["GET", "POST", "OPTIONS", "PUT", "DELETE"]),
    ])


async def _read_body(request: Any) -> bytes | None:
    """The body, or ``None`` once it passes :data:`MAX_BODY_BYTES` (not read further)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _locked(playground: Playground, work: Callable[[PageSettings], Any],
            settings: PageSettings) -> Any:
    """``work(settings)`` in a worker thread; the playground's lock is released at the end."""
    try:
        return work(settings)
    finally:
        playground.busy.release()


def _answer(settings: PageSettings, releases: list[Release], seconds: float
            ) -> dict[str, Any]:
    """The endpoint's JSON: the HTML of the results, and each release's text and commands."""
    commands = [shell_command(settings, r.epsilon) for r in releases]
    euclidean = all(r.euclidean for r in releases)
    record_id = json.loads(record_line(settings.text))["id"]
    return {
        "html": results(settings, releases, commands, euclidean=euclidean),
        "seconds": seconds,
        "releases": [{"epsilon": r.epsilon, "text": r.text, "command": c,
                      "python": python_call(settings, r.epsilon),
                      "summary": {k: v for k, v in r.summary.items() if k != "guarantee"},
                      "jsonl": json.dumps({"id": record_id, "text": r.text, **r.metadata},
                                          ensure_ascii=False) + "\n"}
                     for r, c in zip(releases, commands, strict=True)],
    }


