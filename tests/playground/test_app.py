"""The playground's application without a browser: token, Host, limits, no CORS, one job at
a time, the labels of a release, on tiny embeddings (Starlette's test client)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from emprivacy import Embeddings, privatize_texts
from emprivacy.playground import PageSettings, Playground, create_app

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from emprivacy.playground.app import MAX_BODY_BYTES, TOKEN_HEADER
from emprivacy.playground.settings import MAX_TEXT_CHARS

TOKEN = "t" * 32
HOST = "127.0.0.1:8765"
WORDS = ("cat", "dog", "car", "bus", "sun", "met", "walked", "ran")
VECTORS = np.array([[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5], [5, -5], [6, -5], [6, -6]],
                   dtype=np.float32)


@pytest.fixture(scope="module")
def playground() -> Playground:
    return Playground(Embeddings(WORDS, VECTORS, name="toy"))


@pytest.fixture
def client(playground: Playground) -> TestClient:
    app = create_app(playground, token=TOKEN, hosts=[HOST], seed=lambda: 7)
    return TestClient(app, base_url=f"http://{HOST}")


def _post(client: TestClient, body: object, **headers: str):
    return client.post("/api/release", json=body,
                       headers={TOKEN_HEADER: TOKEN, **headers})


def test_page_needs_the_token(client: TestClient) -> None:
    assert client.get("/").status_code == 403
    assert client.get("/?token=" + "x" * 32).status_code == 403
    ok = client.get("/?token=" + TOKEN)
    assert ok.status_code == 200
    assert 'id="epsilon"' in ok.text and 'value="7"' in ok.text  # the seed of the page


def test_release_needs_the_token(client: TestClient) -> None:
    body = {"text": "the cat met the dog", "epsilons": [10], "seed": 1}
    refused = client.post("/api/release", json=body)
    assert refused.status_code == 403
    assert "token" in refused.json()["error"]
    assert _post(client, body, **{TOKEN_HEADER: "y" * 32}).status_code == 403
    assert _post(client, body).status_code == 200


def test_other_hosts_are_refused(playground: Playground) -> None:
    """A page that rebinds a DNS name to 127.0.0.1 sends its own Host: refused."""
    app = create_app(playground, token=TOKEN, hosts=[HOST])
    evil = TestClient(app, base_url="http://evil.example:8765")
    assert evil.get("/?token=" + TOKEN).status_code == 421
    assert _post(evil, {"text": "cat", "epsilons": [10], "seed": 1}).status_code == 421


def test_a_wildcard_server_takes_any_host_but_still_the_token(playground: Playground) -> None:
    """``--host 0.0.0.0``: the server cannot know the names it is reached by."""
    app = create_app(playground, token=TOKEN, hosts=None)
    anywhere = TestClient(app, base_url="http://192.0.2.7:8765")
    assert anywhere.get("/?token=" + TOKEN).status_code == 200
    assert anywhere.get("/").status_code == 403
    assert anywhere.post("/api/release", json={"text": "cat", "epsilons": [10],
                                                "seed": 1}).status_code == 403


def test_no_cors(client: TestClient) -> None:
    """No Access-Control header, ever: a preflight from another origin is not granted."""
    pre = client.options("/api/release", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": TOKEN_HEADER})
    assert pre.status_code in (404, 405)
    answer = _post(client, {"text": "cat", "epsilons": [10], "seed": 1},
                   Origin="http://evil.example")
    for response in (pre, answer):
        assert not [h for h in response.headers if h.lower().startswith("access-control")]
    assert answer.headers["cache-control"] == "no-store"
    assert "script-src 'self'" in answer.headers["content-security-policy"]


def test_only_json_is_taken(client: TestClient) -> None:
    refused = client.post("/api/release", content=b"text=cat",
                          headers={TOKEN_HEADER: TOKEN,
                                   "Content-Type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 415


def test_oversized_requests_get_the_message(client: TestClient) -> None:
    big = _post(client, {"text": "cat " * (MAX_BODY_BYTES // 4 + 10), "epsilons": [10],
                         "seed": 1})
    assert big.status_code == 413
    assert big.json()["error"].startswith(f"the request is over {MAX_BODY_BYTES // 1024} KiB")
    long = _post(client, {"text": "c" * (MAX_TEXT_CHARS + 1), "epsilons": [10], "seed": 1})
    assert long.status_code == 413
    assert f"at most {MAX_TEXT_CHARS:,} per request" in long.json()["error"]
    many = _post(client, {"text": "cat", "epsilons": [1, 2, 3, 4, 5], "seed": 1})
    assert many.status_code == 413


@pytest.mark.parametrize(("body", "message"), [
    ({"text": "cat", "epsilons": [-1], "seed": 1},
     "epsilon must be a finite number > 0; got -1.0"),
    ({"text": "cat", "epsilons": [10], "seed": -3}, "seed must be an integer from 0"),
    ({"text": "cat", "epsilons": [10], "seed": 1, "mechanism": "nope"},
     "mechanism must be one of madlib"),
    ({"text": 5, "epsilons": [10], "seed": 1}, "text must be a string; got int"),
    ({"text": "cat", "epsilons": [10], "seed": 1, "entities": "capitalised",
      "entity_policy": ["PERSON=shred"]}, "PERSON"),
])
def test_bad_fields_get_one_line(client: TestClient, body: dict, message: str) -> None:
    refused = _post(client, body)
    assert refused.status_code == 400
    assert message in refused.json()["error"]


def test_one_release_at_a_time(client: TestClient, playground: Playground) -> None:
    assert playground.busy.acquire(blocking=False)
    try:
        busy = _post(client, {"text": "cat", "epsilons": [10], "seed": 1})
    finally:
        playground.busy.release()
    assert busy.status_code == 429
    assert "another release or audit is running" in busy.json()["error"]
    assert _post(client, {"text": "cat", "epsilons": [10], "seed": 1}).status_code == 200


def test_a_release_over_the_time_limit_is_given_up(playground: Playground,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = Playground.releases

    def slow(self: Playground, settings: PageSettings) -> list:
        gate.wait(5)
        return real(self, settings)

    monkeypatch.setattr(Playground, "releases", slow)
    app = create_app(playground, token=TOKEN, hosts=[HOST], request_seconds=0.2)
    answer = _post(TestClient(app, base_url=f"http://{HOST}"),
                   {"text": "cat", "epsilons": [10], "seed": 1})
    gate.set()
    assert answer.status_code == 503
    assert "took longer than 0.2 s" in answer.json()["error"]
    deadline = time.monotonic() + 10  # the worker ends and frees the playground
    while playground.busy.locked() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not playground.busy.locked()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_release_is_privatize_texts(client: TestClient, playground: Playground,
                                    seed: int) -> None:
    text = "The cat met the dog.\nA bus ran, 3 suns walked."
    answer = _post(client, {"text": text, "epsilons": [0.5, 3], "seed": seed}).json()
    for got, eps in zip(answer["releases"], [0.5, 3], strict=True):
        want = next(privatize_texts([text], epsilon=eps, seed=seed,
                                    embeddings=playground.embeddings)).release
        assert got["text"] == want
        assert got["epsilon"] == eps
    assert answer["html"].count('class="column"') == 2


def test_every_word_is_labelled(playground: Playground) -> None:
    """The labelled pieces put back together are the release, slot by slot."""
    text = "The cat met Snape at 10 and ran to http://x.org."
    settings = PageSettings.from_payload({"text": text, "epsilons": [0.3, 50], "seed": 5})
    noisy, calm = playground.releases(settings)
    for rel in (noisy, calm):
        assert rel.segments is not None
        assert "".join(s.text for s in rel.segments) == rel.text
        fates = [s.fate for s in rel.segments if s.fate != "layout"]
        assert fates.count("oov") == 1  # Snape
        assert fates.count("placeholder") == 2  # 10 and the URL
        assert fates.count("function") >= 2  # the, at, and, to
        slots = [s for s in rel.segments if s.fate in ("changed", "kept")]
        assert [s.original for s in slots] == ["cat", "met", "ran"]
        for s in slots:
            assert (s.fate == "kept") == (s.text.lower() == s.original)
    assert calm.summary["words_changed"] == sum(s.fate == "changed" for s in calm.segments)
    assert calm.summary["epsilon_total"] == pytest.approx(
        calm.metadata["epsilon_total"])


def test_neighbours_are_the_nearest_words(playground: Playground) -> None:
    near = playground.neighbours(["cat", "car"])
    assert [w for w, _ in near["cat"]] == ["dog", "met", "walked"]
    assert near["cat"][0][1] == pytest.approx(1.0)
    assert near["car"][0] == ("bus", pytest.approx(1.0))


def test_an_error_of_the_library_is_one_line(playground: Playground,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from emprivacy.exceptions import MissingExtraError

    def missing(self: Playground, settings: PageSettings) -> list:
        raise MissingExtraError("spaCy needs the optional dependency 'spacy'; install it "
                                "with: pip install 'emprivacy[ner]'")

    monkeypatch.setattr(Playground, "releases", missing)
    app = create_app(playground, token=TOKEN, hosts=[HOST])
    answer = _post(TestClient(app, base_url=f"http://{HOST}"),
                   {"text": "cat", "epsilons": [10], "seed": 1, "entities": "spacy"})
    assert answer.status_code == 400
    assert answer.json()["error"].endswith("pip install 'emprivacy[ner]'")
    assert not playground.busy.locked()


def test_audit_of_the_text(client: TestClient) -> None:
    """The text's content words are the secrets: V(π▷C) per ε, exact for TEM, at least the
    prior and growing with ε (seeded draws, common to both ε: tolerance 0.05)."""
    text = "the cat met the dog; a cat ran to the car"
    for mechanism in ("tem", "madlib"):
        answer = client.post("/api/audit", json={"text": text, "epsilons": [0.5, 20],
                                                 "seed": 2, "mechanism": mechanism},
                             headers={TOKEN_HEADER: TOKEN})
        assert answer.status_code == 200, answer.text
        html = answer.json()["html"]
        assert "The 5 content words of your text" in html  # cat, met, dog, ran, car
        shares = [float(part.split(" %")[0]) for part in
                  html.split('class="recovered">')[1:]]
        assert len(shares) == 2
        assert shares[1] >= shares[0] - 5
        assert shares[1] >= 40  # prior 2/6 (cat twice): at ε = 20 the words come back
        assert ("exact" in html) == (mechanism == "tem")
    refused = client.post("/api/audit", json={"text": "zzz qqq", "epsilons": [1], "seed": 1},
                          headers={TOKEN_HEADER: TOKEN})
    assert refused.status_code == 400
    assert "no content word in the vocabulary" in refused.json()["error"]
    assert client.post("/api/audit", json={"text": "cat", "epsilons": [1],
                                           "seed": 1}).status_code == 403
