"""Out-of-range ``--param`` values are one line and exit 2, before any work, in every command
(issue 22, item 7), and the library checks them the same way (``make_mechanism``,
``parse_params``, ``WordMechanism.check_parameters``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from emprivacy import embeddings as embeddings_module  # the face the commands load through
from emprivacy.mechanisms import MECHANISMS, make_mechanism, parse_params

from .helpers import EMBEDDINGS_FILE, make_embeddings, run_cli

#: (mechanism, NAME=VALUE, the one error line the user sees)
BAD = [
    ("tem", "beta=2", "beta must be a number in (0, 1); got 2.0"),
    ("tem", "beta=0", "beta must be a number in (0, 1); got 0.0"),
    ("tem", "beta=nan", "beta must be a number in (0, 1); got nan"),
    *[(m, f"rank_resample={v}", f"rank_resample must be None or a finite number > 0; got {g}")
      for m in ("madlib", "mahalanobis", "vickrey")
      for v, g in (("0", "0.0"), ("-1", "-1.0"), ("nan", "nan"), ("inf", "inf"))],
    *[(m, f"lam={v}", f"lam must be a finite number in [0, 1]; got {g}")
      for m in ("mahalanobis", "vickrey")
      for v, g in (("-1", "-1.0"), ("1.5", "1.5"), ("nan", "nan"))],
    *[("vickrey", f"t={v}", f"t must be a finite number in [0, 1]; got {g}")
      for v, g in (("-0.1", "-0.1"), ("1.1", "1.1"), ("nan", "nan"))],
    ("vickrey", "noise=foo", "noise must be one of 'euclidean', 'mahalanobis'; got 'foo'"),
    *[(m, f"{k}={v}", f"{k} must be an integer >= 1; got {v}")
      for m in ("tem", "santext") for k in ("block_cols", "n_threads") for v in ("0", "-1")],
    ("tem", "block_cols=wide", "block_cols must be an integer; got 'wide'"),
    ("vickrey", "t=high", "t must be a number; got 'high'"),
]
IDS = [f"{m}-{p}" for m, p, _ in BAD]


@pytest.fixture
def no_loading(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Loading embeddings is recorded (and fails): a bad value must stop the run before."""
    calls: list[object] = []

    def load(*args: object, **kwargs: object) -> None:
        calls.append(args)
        raise RuntimeError("embeddings loaded before the parameters were checked")

    monkeypatch.setattr(embeddings_module, "load_embeddings", load)
    return calls


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "in").mkdir()
    doc = tmp_path / "in" / "a.txt"
    doc.write_text("The cat and the dog drifted to the harbour.", encoding="utf-8")
    emb = tmp_path / "in" / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    data = tmp_path / "in" / "corpus.csv"
    data.write_text("author,topic,text\na,t,the cat\nb,u,the dog\n", encoding="utf-8")
    return {"doc": doc, "emb": emb, "data": data, "out": tmp_path / "out"}


def _commands(name: str, pair: str, f: dict[str, Path]) -> dict[str, list[str]]:
    return {
        "obfuscate": ["obfuscate", str(f["doc"]), "--embeddings", str(f["emb"]), "-e", "1",
                      "--mechanism", name, "--param", pair, "-o", str(f["out"])],
        "calibrate": ["calibrate", "--embeddings", str(f["emb"]), "--mechanism", name,
                      "--param", pair, "--epsilons", "1"],
        "evaluate": ["evaluate", "--dataset", str(f["data"]), "--embeddings", str(f["emb"]),
                     "--mechanisms", name, "--param", f"{name}.{pair}", "--authors", "2",
                     "--epsilons", "1", "--out", str(f["out"])],
    }


@pytest.mark.parametrize("command", ["obfuscate", "calibrate", "evaluate"])
@pytest.mark.parametrize(("name", "pair", "message"), BAD, ids=IDS)
def test_bad_value_is_one_line_before_any_work(command, name, pair, message, files,
                                               no_loading, capsys) -> None:
    code, out, err = run_cli(_commands(name, pair, files)[command], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"emprivacy: error: {message}"]
    assert no_loading == []
    assert not files["out"].exists()


@pytest.mark.parametrize(("name", "pair", "message"), BAD, ids=IDS)
def test_the_library_says_the_same(name, pair, message) -> None:
    with pytest.raises(ValueError) as caught:
        parse_params(name, [pair])
    assert str(caught.value) == message
    if "=nan" in pair or pair.endswith(("=wide", "=high")):
        return  # the strings were checked above; the values below are typed
    key, value = pair.split("=")
    typed = value if key == "noise" else (int(value) if key in ("block_cols", "n_threads")
                                          else float(value))
    emb = make_embeddings([[0, 0], [1, 0], [0, 1]])
    with pytest.raises(ValueError) as made:
        make_mechanism(name, emb, epsilon=1.0, **{key: typed})
    assert str(made.value) == message
    with pytest.raises(ValueError) as built:
        MECHANISMS[name](emb, epsilon=1.0, **{key: typed})
    assert str(built.value) == message


def test_good_values_pass() -> None:
    assert parse_params("tem", ["beta=0.5", "block_cols=8", "n_threads=1"]) == \
        {"beta": 0.5, "block_cols": 8, "n_threads": 1}
    assert parse_params("vickrey", ["t=0", "lam=1", "noise=mahalanobis",
                                    "rank_resample=none"]) == \
        {"t": 0.0, "lam": 1.0, "noise": "mahalanobis", "rank_resample": None}
