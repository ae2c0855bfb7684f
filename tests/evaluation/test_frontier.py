"""Every mechanism on the experiment harness, and the privacy–utility frontier (issue 13)."""

from __future__ import annotations

import pytest

from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.frontier import frontier_points, frontier_table, plot_frontier
from emprivacy.evaluation.results import ExperimentConfig


@pytest.fixture(scope="module")
def runs(synth_corpus, synth_embeddings):
    out = {}
    for name, params in (("madlib", {}), ("tem", {"beta": 0.01}), ("santext", {}),
                         ("vickrey", {"t": 0.5}), ("mahalanobis", {"lam": 0.5})):
        out[name] = run_experiment(synth_corpus, embeddings=synth_embeddings, authors=6,
                                   epsilons=(None, 0.005), trials=1, seed=7, mechanism=name,
                                   mechanism_params=params)
    return out


def test_every_mechanism_runs_on_the_harness(runs) -> None:
    for name, r in runs.items():
        (s,) = r.sets
        assert r.config.mechanism == name
        # unmodified snippets: every attack recognises every synthetic author and topic
        assert s.correct[0, 0].tolist() == [6, 6, 6, 6], name
        # strong noise: the same-representation author attack loses most authors
        assert s.correct[1, 0, 0] < 6, name
        assert r.to_dict()["config"]["mechanism"] == name


def test_madlib_through_the_registry_is_the_default_run(synth_result, runs) -> None:
    """mechanism="madlib" without parameters is exactly the paper's run (same draws)."""
    assert (runs["madlib"].sets[0].correct == synth_result.sets[0].correct[:, :1]).all()


def test_frontier_points_table_and_plot(runs) -> None:
    pts = frontier_points(runs["tem"])
    assert [p["epsilon"] for p in pts] == ["none", "0.005"]
    assert pts[0]["author_accuracy"] == 1.0 and pts[0]["topic_accuracy"] == 1.0
    assert pts[0]["author_chance"] == pytest.approx(1 / 6)
    assert pts[0]["topic_chance"] == pytest.approx(0.5)
    table = frontier_table(list(runs.values()))
    assert table.count("\n") == 2 + 2 * len(runs)
    assert "| tem | 6 | 0.005 |" in table
    png = plot_frontier(list(runs.values()))
    assert png.startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="author must be one of"):
        frontier_points(runs["tem"], author="nope")
    with pytest.raises(ValueError, match="results must hold at least one run"):
        plot_frontier([])


def test_config_checks_the_mechanism() -> None:
    with pytest.raises(ValueError, match="mechanism must be one of 'madlib'"):
        ExperimentConfig(mechanism="nope")
    with pytest.raises(ValueError, match="unknown parameter 'beta' for mechanism 'madlib'"):
        ExperimentConfig(mechanism="madlib", mechanism_params={"beta": 0.1})
