"""Every record's guarantee names the metric the mechanism actually uses (issue 22, item 1).

With Mahalanobis noise (``mahalanobis``; ``vickrey`` with ``noise=mahalanobis``) the bound
is ``exp(ε·d_RM)``, not ``exp(ε·d₂)``: on a 2-D vocabulary spread along one axis, two
words 0.6 apart across the narrow axis are told apart far more often than ``e^{0.6}``
allows, and always within ``e^{ε·d_RM}``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.io.documents import Document
from emprivacy.mechanisms import MahalanobisPrivacy, VickreyPrivacy, make_mechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE, TEXT_GUARANTEE, text_guarantee

from .helpers import run_cli

#: Spread along x, narrow along y: d_RM across y is much larger than the Euclidean distance.
ANISOTROPIC = [[0, 0], [0, 0.6], [-6, 0], [6, 0], [-3, 0.3], [3, 0.3], [-6, 0.6], [6, 0.6]]
WORDS = ["cat", "dog", "sun", "car", "bus", "sky", "tea", "pen"]


def anisotropic() -> Embeddings:
    return Embeddings(WORDS, np.asarray(ANISOTROPIC, np.float32), name="anisotropic")

#: (mechanism, parameters, whether its guarantee is in d_RM)
MECHANISMS = [
    ("madlib", {}, False),
    ("madlib", {"rank_resample": 0.5, "decoder": "approximate"}, False),
    ("mahalanobis", {"lam": 0.7}, True),
    ("vickrey", {"t": 0.5}, False),
    ("vickrey", {"t": 0.5, "noise": "mahalanobis", "lam": 0.3}, True),
    ("tem", {"beta": 0.1}, False),
    ("santext", {}, False),
]
IDS = ["madlib", "madlib-resampled", "mahalanobis", "vickrey", "vickrey-mhl", "tem", "santext"]


def _text_record(mech) -> dict:
    doc = Document("d", "cat and dog, bus.")
    return next(iter(Obfuscator(mech, ObfuscationConfig(mode="text"), seed=1).obfuscate([doc])))


@pytest.mark.parametrize(("name", "params", "rm"), MECHANISMS, ids=IDS)
def test_text_records_name_the_mechanisms_metric(name, params, rm) -> None:
    pytest.importorskip("faiss") if params.get("decoder") == "approximate" else None
    emb = anisotropic()
    mech = make_mechanism(name, emb, epsilon=1.0, rng=0, **params)
    guarantee = _text_record(mech)["guarantee"]
    assert guarantee == text_guarantee(mech.guarantee_metric())
    if rm:
        lam = params["lam"]
        assert "d_RM(a, b) = ‖Σ_λ^(−1/2)(a − b)‖" in guarantee
        assert f"λ = {lam!r}" in guarantee and "not the Euclidean distance" in guarantee
        assert "E the Earth Mover's distance over this d" in guarantee
        assert EUCLIDEAN_GUARANTEE not in guarantee
    else:  # the Euclidean statement, byte for byte as before
        assert guarantee == TEXT_GUARANTEE
        assert f"d {EUCLIDEAN_GUARANTEE} (" in guarantee


def test_lambda_zero_is_still_stated_in_d_rm() -> None:
    emb = anisotropic()
    # λ = 0 is Madlib's law, and d_RM with λ = 0 is the Euclidean distance: both true
    assert "λ = 0.0" in MahalanobisPrivacy(emb, epsilon=1.0, lam=0.0).guarantee_metric()


def test_command_line_and_corpus_records_carry_it(tmp_path: Path, capsys) -> None:
    emb = tmp_path / "emb.txt"
    emb.write_text("".join(f"{w} {x} {y}\n" for w, (x, y) in zip(WORDS, ANISOTROPIC, strict=True)),
                   encoding="utf-8")
    src = tmp_path / "docs.jsonl"
    src.write_text("".join(json.dumps({"id": f"d{i}", "text": "cat and dog"}) + "\n"
                           for i in range(2)), encoding="utf-8")
    common = ["obfuscate", str(src), "--embeddings", str(emb), "-e", "1", "--readable",
              "-f", "jsonl", "--mechanism", "vickrey", "--param", "noise=mahalanobis",
              "--param", "lam=0.5", "--seed", "3", "-q"]
    code, out, _ = run_cli(common, capsys)
    assert code == 0
    expected = text_guarantee(VickreyPrivacy(anisotropic(), epsilon=1.0,
                                             noise="mahalanobis", lam=0.5).guarantee_metric())
    assert [json.loads(line)["guarantee"] for line in out.splitlines()] == [expected] * 2
    corpus = tmp_path / "out.jsonl"
    assert run_cli([*common, "--resume", "-o", str(corpus)], capsys)[0] == 0
    assert corpus.read_text(encoding="utf-8") == out


@pytest.mark.parametrize("mech", [
    MahalanobisPrivacy(anisotropic(), epsilon=1.0, lam=1.0, rng=11),
    VickreyPrivacy(anisotropic(), epsilon=1.0, t=0.25, noise="mahalanobis",
                   lam=1.0, rng=12),
], ids=["mahalanobis", "vickrey-mhl"])
def test_the_stated_bound_holds_and_the_euclidean_one_does_not(mech) -> None:
    """40,000 seeded draws from "cat" and from "dog" (Euclidean distance 0.6, d_RM 7.36).

    For every output seen at least 100 times from both, ``log(P̂[w | cat] / P̂[w | dog])``
    has standard error about ``√(1/c₀ + 1/c₁)`` (c the counts); within 4 standard errors
    it is at most ``ε·d_RM`` for every output (the stated bound holds), and for some
    output it exceeds ``ε·d₂`` by more than 4 standard errors (the Euclidean bound the
    records used to state is violated).
    """
    n = 40_000
    x, x2 = np.asarray(ANISOTROPIC[0], float), np.asarray(ANISOTROPIC[1], float)
    d_rm, d_2 = float(mech.distance(x, x2)), float(np.linalg.norm(x - x2))
    assert d_rm == pytest.approx(7.3607, abs=1e-3) and d_2 == pytest.approx(0.6)
    c0 = np.bincount(mech.privatize_indices(np.zeros(n, np.int64)), minlength=8)
    c1 = np.bincount(mech.privatize_indices(np.ones(n, np.int64)), minlength=8)
    seen = (c0 >= 100) & (c1 >= 100)
    assert seen.sum() >= 4
    log_ratio = np.abs(np.log(c0[seen] / c1[seen]))
    se = np.sqrt(1.0 / c0[seen] + 1.0 / c1[seen])
    assert np.all(log_ratio - 4 * se <= mech.epsilon * d_rm)
    assert np.any(log_ratio - 4 * se > mech.epsilon * d_2)
