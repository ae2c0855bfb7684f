"""Helpers shared by test modules in different folders (import: ``from .helpers import …``
in ``tests/``, ``from ..helpers import …`` below it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from emprivacy import Embeddings
from emprivacy.cli import main
from emprivacy.text.tokens import tokenize

#: A 10-word embeddings file in the text format (2-D), holding the words of the fault and
#: output-safety texts.
EMBEDDINGS_FILE = "\n".join([
    "cat 0 0", "dog 1 0", "car 10 10", "bus 11 10", "sun -10 5",
    "harbour 0 1", "zeppelin 9 9", "quiet 1 1", "factory 10 9", "drifted -9 5",
]) + "\n"


def input_env(tmp_path: Path, text: str) -> dict[str, Path]:
    """``text`` in ``in/a.txt``, the embeddings file ``in/emb.txt`` and an empty ``out/``."""
    (tmp_path / "in").mkdir()
    text_path = tmp_path / "in" / "a.txt"
    text_path.write_text(text, encoding="utf-8")
    emb = tmp_path / "in" / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    (tmp_path / "out").mkdir()
    return {"text": text_path, "emb": emb, "in": tmp_path / "in", "out": tmp_path / "out",
            "root": tmp_path}


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """The command line in this process: its exit code, stdout and stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def gaps(text: str) -> list[str]:
    """The characters between the tokens of a text: its layout."""
    out, pos = [], 0
    for tok in tokenize(text):
        out.append(text[pos:tok.start])
        pos = tok.end
    out.append(text[pos:])
    return out


def make_embeddings(vectors, name: str = "test") -> Embeddings:
    """Words w0, w1, … at the given (float32) vectors."""
    vectors = np.asarray(vectors, np.float32)
    return Embeddings([f"w{i}" for i in range(len(vectors))], vectors, name=name)


def with_duplicates(gen: np.random.Generator) -> np.ndarray:
    """50 random float32 words in R^4 with exact copies: rows 17 and 49 of row 3 (later in
    the matrix, in other tiles of 7 columns), row 8 of row 40 (earlier)."""
    W = gen.normal(size=(50, 4)).astype(np.float32)
    W[17] = W[3]
    W[49] = W[3]
    W[8] = W[40]
    return W


def integer_grid(seed: int, V: int, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """V words with small integer coordinates in R^n, m half-integer points: distances are
    exact, ties everywhere (exact midpoints, duplicate vectors)."""
    gen = np.random.default_rng(seed)
    W = gen.integers(-2, 3, size=(V, n)).astype(np.float32)
    Z = gen.integers(-4, 5, size=(m, n)) / 2.0
    return W, Z


def spy_batch_path(monkeypatch) -> list[list[int]]:
    """Record the sizes of every ``EarthMoversPrivacy.privatize_batches`` call (one list
    per call, a size per bag) and fail any per-word ``privatize_indices`` call."""
    import pytest

    from emprivacy.mechanisms import EarthMoversPrivacy

    calls: list[list[int]] = []
    original = EarthMoversPrivacy.privatize_batches

    def spy(self, bags):
        calls.append([idx.size for idx, _ in bags])
        return original(self, bags)

    monkeypatch.setattr(EarthMoversPrivacy, "privatize_batches", spy)
    monkeypatch.setattr(EarthMoversPrivacy, "privatize_indices",
                        lambda *a, **k: pytest.fail("a per-word call"))
    return calls
