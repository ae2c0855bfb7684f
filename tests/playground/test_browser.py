"""The playground driven in a real headless Chromium (Debian's ``/usr/bin/chromium`` through
Playwright; ``benchmarks/playground_browser.py`` launches it): paste, move ε, the release is
``privatize_texts``'s; entity slots coloured; "copy as command" reproduces the release byte
for byte in the CLI; the oversized request's message; no token, no page; the screenshot."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from emprivacy import Embeddings, privatize_texts

ROOT = Path(__file__).resolve().parents[2]


def _browser_module() -> Any:
    spec = importlib.util.spec_from_file_location("playground_browser",
                                                  ROOT / "benchmarks" / "playground_browser.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


browser = _browser_module()
_MISSING = browser.browser_missing()
if _MISSING is not None:
    pytest.skip(f"no browser: {_MISSING}", allow_module_level=True)

from emprivacy.playground import BackgroundServer, Playground  # noqa: E402

TEXT = ("Alice Moreno met Tom in Lyon on 12 March to sign the new contract; the weather was "
        "cold and the trains were late, so they talked about music and old friends.")
SEED = 12345


@pytest.fixture(scope="module")
def server(default_embeddings: Embeddings) -> Iterator[Any]:
    with BackgroundServer(Playground(default_embeddings)) as srv:
        yield srv


@pytest.fixture
def page(server: Any) -> Iterator[Any]:
    with browser.chromium_page() as pg:
        pg.goto(server.url)
        browser.wait_for_release(pg, 1)  # the sample text, released on load
        yield pg


def _released(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.released || 0)"))


def _release(page: Any, *, text: str = TEXT, compare: str = "", entities: str = "none") -> None:
    before = _released(page)
    page.fill("#text", text)
    page.fill("#seed", str(SEED))
    page.fill("#compare", compare)
    page.select_option("#entities", entities)
    page.click("#release-button")
    browser.wait_for_release(page, before + 1)
    page.wait_for_function("() => !document.getElementById('status').textContent"
                           ".startsWith('Releasing')")


def _column(page: Any, index: int) -> str:
    return str(page.text_content(f'article[data-index="{index}"] pre.release'))


def _expected(epsilon: float, **options: Any) -> str:
    release = next(privatize_texts([TEXT], epsilon=epsilon, seed=SEED, **options)).release
    assert isinstance(release, str)
    return release


def test_paste_move_epsilon_and_match_privatize_texts(page: Any) -> None:
    _release(page)
    at_10 = _column(page, 0)
    assert at_10 == _expected(10.0)
    before = _released(page)
    page.focus("#epsilon")
    for _ in range(8):  # the slider's step is 0.5: ε 10 → 6, by keyboard
        page.keyboard.press("ArrowLeft")
    browser.wait_for_release(page, before + 1)
    page.wait_for_selector('article[data-index="0"][data-epsilon="6"]')
    at_6 = _column(page, 0)
    assert page.text_content("#epsilon-value") == "6"
    assert at_6 == _expected(6.0)
    assert at_6 != at_10


def test_several_epsilons_side_by_side(page: Any) -> None:
    _release(page, compare="5, 20")
    eps = page.eval_on_selector_all("article[data-epsilon]", "els => els.map(e => e.dataset"
                                    ".epsilon)")
    assert eps == ["10", "5", "20"]
    for k, e in enumerate((10.0, 5.0, 20.0)):
        assert _column(page, k) == _expected(e)
    changed = [int(str(page.text_content(f'article[data-index="{k}"] .words-changed')))
               for k in range(3)]
    assert changed[1] >= changed[0] >= changed[2]  # same seed: fewer changes as ε grows


def test_entity_slots_are_coloured(page: Any) -> None:
    _release(page, entities="names,patterns")
    assert _column(page, 0) == _expected(10.0, entities="names,patterns")
    slots = page.query_selector_all("pre.release .w.entity")
    assert slots, "no entity slot shown"
    colour = page.eval_on_selector("pre.release .w.entity",
                                   "el => getComputedStyle(el).backgroundColor")
    plain = page.eval_on_selector("pre.release", "el => getComputedStyle(el).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", plain)
    assert "slot" in str(slots[0].get_attribute("title"))
    border = page.eval_on_selector("pre.release .w.entity",
                                   "el => getComputedStyle(el).borderTopStyle")
    assert border == "double"  # not colour alone
    assert page.query_selector_all("pre.release .w.entity-placeholder")  # 12 March: [DATE]


def test_copy_as_command_reproduces_the_release(page: Any, tmp_path: Path) -> None:
    _release(page, compare="5", entities="names,patterns")
    shown = _column(page, 1)
    command = str(page.text_content('article[data-index="1"] pre.command'))
    with page.expect_download() as download:
        page.click('article[data-index="1"] button.download-text')
    saved = tmp_path / "release.txt"
    download.value.save_as(saved)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == (shown + "\n").encode("utf-8")
    assert saved.read_bytes() == done.stdout


def test_oversized_request_gets_the_message(page: Any) -> None:
    page.eval_on_selector("#text", "el => { el.value = 'word '.repeat(5000); }")
    page.click("#release-button")
    page.wait_for_selector("#error:not([hidden])")
    message = str(page.text_content("#error"))
    assert "25,000 characters" in message and "at most 20,000 per request" in message


def test_without_the_token_no_page(server: Any) -> None:
    with browser.chromium_page() as pg:
        response = pg.goto(server.url.split("?")[0])
        assert response is not None and response.status == 403
        assert "needs the token" in str(pg.text_content("body"))
        assert not pg.query_selector("#text")


def test_every_control_has_a_label_and_slots_take_focus(page: Any) -> None:
    unlabelled = page.eval_on_selector_all(
        "input, select, textarea",
        "els => els.filter(e => !(e.labels && e.labels.length)).map(e => e.id)")
    assert unlabelled == []
    page.focus("pre.release .w[tabindex='0']")
    focused = page.evaluate("() => document.activeElement.getAttribute('title')")
    assert "Guarantee" in focused or "slot" in focused


def test_screenshot(tmp_path: Path, default_embeddings: Embeddings) -> None:
    path = browser.screenshot(tmp_path / "playground.png", Playground(default_embeddings))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_audit_my_text(page: Any) -> None:
    page.select_option("#mechanism", "tem")
    _release(page)
    before = int(page.evaluate("() => Number(document.body.dataset.audited || 0)"))
    page.click("#audit-button")
    page.wait_for_function(f"() => Number(document.body.dataset.audited || 0) > {before}",
                           timeout=120_000)
    rows = page.query_selector_all("#audit tbody tr")
    assert [r.get_attribute("data-epsilon") for r in rows] == ["10"]
    assert "exact" in str(page.text_content("#audit tbody"))
    assert "content words of your text" in str(page.text_content("#audit"))
