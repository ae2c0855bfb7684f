"""Debian's Chromium, headless, driving the playground page (tests, screenshot, benchmark).

Never a browser downloaded by a tool: Playwright for Python launches ``/usr/bin/chromium``
(``executable_path``) with a fresh profile, no network services of its own and no sandbox
(root in a container).  ``python benchmarks/playground_browser.py [PATH]`` writes the
screenshot of the page after its first release (default ``docs/playground.png``, the one
in the README); the browser tests run :func:`screenshot` into a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DOCS_SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "playground.png"


def browser_missing() -> str | None:
    """Why no browser can be had here, or ``None`` when one can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    return None


@contextmanager
def chromium_page(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A page of a fresh headless Chromium (its profile removed afterwards)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="emprivacy-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": width, "height": height}, accept_downloads=True)
            try:
                yield context.pages[0] if context.pages else context.new_page()
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def wait_for_release(page: Any, count: int, timeout_ms: int = 60_000) -> None:
    """Wait until the page has shown its ``count``-th answer."""
    page.wait_for_function(f"() => Number(document.body.dataset.released || 0) >= {count}",
                           timeout=timeout_ms)


def screenshot(path: Path, playground: Any = None) -> Path:
    """The page after its first release (the sample text, entities on), as a PNG."""
    from emprivacy.playground import BackgroundServer, Playground

    playground = playground or Playground()
    with BackgroundServer(playground) as server, chromium_page(1280, 1000) as page:
        page.goto(server.url)
        wait_for_release(page, 1)
        page.select_option("#entities", "names,patterns")
        wait_for_release(page, 2)
        page.screenshot(path=str(path), full_page=True)
    return path


if __name__ == "__main__":
    missing = browser_missing()
    if missing:
        sys.exit(f"no browser: {missing}")
    out = screenshot(Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS_SCREENSHOT)
    print(f"wrote {out}")
