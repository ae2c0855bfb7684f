"""``emprivacy calibrate --target-recovery P``: its JSON, its text, its one-line errors
(the 10-word embeddings file of the fault tests)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from emprivacy.protection.epsilon import scale, search

from .helpers import EMBEDDINGS_FILE, input_env, run_cli

TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")
#: The content words of TEXT with their counts: cat 3, dog 2, and five words once.
COUNTS = {"cat": 3, "dog": 2, "harbour": 1, "quiet": 1, "bus": 1, "drifted": 1, "factory": 1}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    return input_env(tmp_path, TEXT)


def _calibrate(env: dict[str, Path], *args: str) -> list[str]:
    return ["calibrate", "--embeddings", str(env["emb"]), "-q", *args]


def santext_v(epsilon: float) -> float:
    """V(π▷C) of SanText over the file's 10 words, π the corpus counts, by hand."""
    rows = [line.split() for line in EMBEDDINGS_FILE.splitlines()]
    words = [r[0] for r in rows]
    vec = np.array([[float(v) for v in r[1:]] for r in rows])
    d = np.linalg.norm(vec[:, None, :] - vec[None, :, :], axis=2)
    c = np.exp(-0.5 * epsilon * d)
    c /= c.sum(axis=1, keepdims=True)
    pi = np.array([COUNTS.get(w, 0) for w in words], dtype=float)
    pi /= pi.sum()
    return float((pi[:, None] * c).max(axis=0).sum())


def test_json_exact_channel_meets_the_target(env, capsys):
    code, out, err = run_cli(_calibrate(env, str(env["text"]), "--target-recovery", "0.6",
                                        "--mechanism", "santext", "--json", "--seed", "1",
                                        "--rtol", "0.01"), capsys)
    assert code == 0 and err == ""
    o = json.loads(out)
    assert o["target_recovery"] == 0.6 and o["mechanism"] == "santext"
    assert o["channel"] == "exact" and o["draws"] is None and o["search_draws"] is None
    assert o["prior"] == "corpus" and o["secrets"] == 7 and o["seed"] == 1
    assert o["prior_vulnerability"] == pytest.approx(0.3)
    assert o["corpus"] == [str(env["text"])] and o["embeddings"]["vocab_size"] == 10
    post = o["posterior_vulnerability"]
    assert set(post) == {"estimate", "lower", "upper", "kind"} and post["kind"] == "exact"
    eps, above = o["epsilon"], o["above"]["epsilon"]
    assert post["upper"] == pytest.approx(santext_v(eps), abs=1e-12)
    assert santext_v(eps) <= 0.6 < santext_v(above) and above / eps - 1 <= 0.01
    assert o["above"]["posterior_vulnerability"]["upper"] > 0.6
    assert o["monotone"] is True and o["rtol"] == 0.01
    assert {p["stage"] for p in o["points"]} == {"fine"}
    assert o["confidence_per_point"] == o["confidence"] == 0.95
    assert o["points_covered"] is None
    assert eps in [p["epsilon"] for p in o["points"]]


def test_json_sampled_channel_is_seeded(env, capsys):
    args = _calibrate(env, "--target-recovery", "0.8", "--draws", "200", "--secrets", "5",
                      "--prior", "uniform", "--json", "--seed", "2")
    code, out, _ = run_cli(args, capsys)
    assert code == 0
    o = json.loads(out)
    assert o["channel"] == "sampled" and o["draws"] == 200 and o["search_draws"] == 50
    # each measurement Bonferroni-corrected over the ε the search can measure in full
    assert o["confidence"] == 0.95 and o["points_covered"] == search.reachable_points()
    assert o["confidence_per_point"] == 1 - 0.05 / o["points_covered"]
    assert o["secrets"] == 5 and o["prior"] == "uniform" and o["corpus"] == []
    post = o["posterior_vulnerability"]
    assert post["kind"] == "estimate" and post["lower"] <= post["upper"] <= 0.8
    assert o["above"]["posterior_vulnerability"]["upper"] > 0.8
    assert set(o["attack_recovery"]) == {"estimate", "lower", "upper", "kind"}
    fine = sorted((p for p in o["points"] if p["stage"] == "fine"),
                  key=lambda p: p["epsilon"])
    assert [p["value"] for p in fine] == sorted(p["value"] for p in fine)
    code, again, _ = run_cli(args, capsys)
    assert code == 0 and json.loads(again) == o


def test_text_output(env, capsys):
    code, out, err = run_cli(_calibrate(env, str(env["text"]), "--target-recovery", "0.6",
                                        "--mechanism", "madlib", "--draws", "100", "--seed",
                                        "4"), capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("emb.txt (10 words, n = 2): mechanism madlib; 7 secret words, "
                               "prior corpus; 100 releases per word (25 on the coarse grid)")
    assert "at most P = 0.6 of the words" in lines[1]
    n = search.reachable_points()
    assert (f"interval at {1 - 0.05 / n:.7g}, Bonferroni over the {n:,} ε the search can "
            "measure: 95% at the ε returned" in lines[1])
    assert any(line.startswith("ε = ") and "at or below 0.6" in line for line in lines)
    assert "more --draws make it less so" in out


@pytest.mark.parametrize(("extra", "message"), [
    (["--target-recovery", "1.5"], "--target-recovery must be a number in (0, 1); got 1.5"),
    (["--target-recovery", "0"], "--target-recovery must be a number in (0, 1); got 0.0"),
    (["--target-recovery", "nan"], "--target-recovery must be a number in (0, 1); got nan"),
    (["--target-recovery", "abc"], "Invalid value for '--target-recovery'"),
    (["--target-recovery", "0.5", "--target-unchanged", "0.5"],
     "--target-recovery and --target-unchanged are exclusive: give one"),
    (["{text}", "--target-unchanged", "0.5"], "CORPUS applies to --target-recovery"),
    (["--secrets", "5"], "--secrets applies to --target-recovery"),
    (["--draws", "50", "--epsilons", "1"], "--draws applies to --target-recovery"),
    (["--target-recovery", "0.5", "--words", "{text}"],
     "--words applies to the N_w study, not to --target-recovery"),
    (["--target-recovery", "0.5", "--trials", "100"],
     "--trials applies to the N_w study, not to --target-recovery"),
    (["--target-recovery", "0.5", "-N", "100"],
     "--size applies to the N_w study, not to --target-recovery"),
    (["--target-recovery", "0.5", "--prior", "corpus"],
     "--prior corpus needs a CORPUS to count words in"),
    (["{text}", "--target-recovery", "0.1"],
     "--target-recovery must be at least the prior vulnerability V(pi) = 0.3 (the best blind "
     "guess: no epsilon recovers less); got 0.1"),
    (["--target-recovery", "0.95", "--mechanism", "tem", "--param", "beta=0.5", "--prior",
      "uniform"], "the target does not constrain epsilon"),
    (["--target-recovery", "0.5", "--rtol", "0"], "--rtol must be a finite number > 0; got 0.0"),
    (["{text}", "--target-recovery", "0.3000001", "--draws", "4", "--seed", "1"],
     "the upper end of the optimal adversary's recovery V(pi|>C) (4 draws) is above 0.3000001 "
     "at every epsilon tried, from 2.828 down to 4.316e-05 (0.3003 there)"),
    (["--target-recovery", "0.5", "--mechanism", "nope"], "mechanism must be one of"),
    (["--target-recovery", "0.5", "--mechanism", "tem", "--param", "beta=2"], "beta"),
    (["--target-recovery", "0.5", "--epsilons", "1,x"],
     "epsilons must be numbers separated by commas or spaces; got 'x'"),
])
def test_bad_input_is_one_line(env, capsys, extra, message):
    extra = [a.format(text=env["text"]) for a in extra]
    code, out, err = run_cli(_calibrate(env, *extra), capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: ")
    assert message in lines[0]
    assert "harbour" not in err  # no word of the corpus


def test_a_figure_not_monotone_is_one_line_and_no_epsilon(env, capsys, monkeypatch):
    def fake_audit(mech, secrets, **kwargs):
        e = mech.epsilon
        upper = 0.35 if 2.2 <= e <= 2.8 else min(0.99, 0.3 + e / 20)
        return SimpleNamespace(posterior_vulnerability=SimpleNamespace(upper=upper))

    monkeypatch.setattr(scale, "audit_mechanism", fake_audit)
    code, out, err = run_cli(_calibrate(env, str(env["text"]), "--target-recovery", "0.42",
                                        "--mechanism", "santext", "--epsilons", "1",
                                        "--rtol", "0.001", "--json"), capsys)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("emprivacy: error: the optimal adversary's recovery V(pi|>C) is "
                           "not monotone in epsilon over the points measured: ")
    assert "no epsilon is returned" in line
