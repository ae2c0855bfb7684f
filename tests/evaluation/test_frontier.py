"""Every mechanism on the experiment harness, and the privacy–utility frontier (issue 13)."""

from __future__ import annotations

import pytest

from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.frontier import frontier_points, frontier_table, plot_frontier
from emprivacy.evaluation.settings import ExperimentConfig


@pytest.fixture(scope="module")
def runs(synth_corpus, synth_embeddings):
    out = {}
    for name, params in (("madlib", {}), ("tem", {"beta": 0.01}), ("santext", {}),
                         ("vickrey", {"t": 0.5}), ("mahalanobis", {"lam": 0.5})):
        out[name] = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
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


# -- issue 22 item 19: a readable frontier ----------------------------------------------------
def _fake_run(mechanism, author, topic, *, n_authors=20, seed=0, trials=3):
    """A run with given mean fractions per ε (per-trial counts jittered, seeded)."""
    import numpy as np

    from emprivacy.evaluation.results import ExperimentResult, SetResult

    gen = np.random.default_rng(seed)
    eps = (None, 30.0, 20.0, 15.0, 10.0, 7.5, 5.0, 2.5)
    correct = np.zeros((len(eps), trials, 4), dtype=np.int64)
    for i in range(len(eps)):
        for a, frac in ((0, author[i]), (2, author[i]), (1, topic[i]), (3, topic[i])):
            correct[i, :, a] = np.clip(np.rint(frac * n_authors + gen.normal(0, .5, trials)),
                                       0, n_authors)
    s = SetResult(n_authors=n_authors, N=100, doc_ids=[f"d{i}" for i in range(n_authors)],
                  authors=[f"a{i}" for i in range(n_authors)],
                  topics=["x", "y"] * (n_authors // 2), oov_words=0, shortest="d0 (text)",
                  epsilons=list(eps), correct=correct, fasttext_validation=[0.9] * trials,
                  fasttext_docs={}, nearest=[], sample={})
    cfg = ExperimentConfig(authors=(n_authors,), epsilons=eps, trials=trials,
                           mechanism=mechanism)
    return ExperimentResult("fake", cfg, 1, [s])


@pytest.fixture(scope="module")
def narrow():
    """The issue's case: 5 mechanisms × 8 ε in [0.45, 0.72] × [0.02, 0.17]; TEM = SanText."""
    same = ([.17, .17, .17, .17, .17, .17, .16, .04], [.72, .72, .72, .72, .72, .72, .71, .55])
    return [
        _fake_run("madlib", [.17, .17, .16, .15, .12, .09, .05, .03],
                  [.72, .72, .70, .68, .62, .58, .55, .47], seed=1),
        _fake_run("mahalanobis", [.17, .17, .16, .14, .11, .08, .05, .02],
                  [.72, .71, .70, .69, .63, .60, .56, .46], seed=2),
        _fake_run("vickrey", [.17, .12, .10, .09, .08, .06, .04, .02],
                  [.72, .69, .68, .66, .62, .57, .52, .45], seed=3),
        _fake_run("tem", *same, seed=4),
        _fake_run("santext", *same, seed=4),
    ]


def test_frontier_zooms_to_the_points_their_error_bars_and_the_chance_lines(narrow):
    from emprivacy.evaluation.frontier import frontier_figure

    (ax,) = frontier_figure(narrow).axes
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x1 - x0 < 0.6 and y1 - y0 < 0.4  # not 0–1 (1.04): the data fill the panel
    for r in narrow:
        for p in frontier_points(r):
            assert x0 < p["topic_accuracy"] - p["topic_sd"] <= p["topic_accuracy"] + \
                p["topic_sd"] < x1
            assert y0 < p["author_accuracy"] - p["author_sd"] <= p["author_accuracy"] + \
                p["author_sd"] < y1
    lines = {line.get_label(): line for line in ax.lines}
    author = lines["chance (author: 1/#authors)"]
    topic = lines["chance (topic: 1/#topics)"]
    assert list(author.get_ydata()) == [pytest.approx(1 / 20)] * 2
    assert list(topic.get_xdata()) == [pytest.approx(0.5)] * 2
    assert x0 < 0.5 < x1 and y0 < 1 / 20 < y1


def test_frontier_has_error_bars_of_one_sd_and_a_style_per_mechanism(narrow):
    import numpy as np
    from matplotlib.container import ErrorbarContainer

    from emprivacy.evaluation.frontier import frontier_figure

    (ax,) = frontier_figure(narrow).axes
    bars = {c.get_label(): c for c in ax.containers if isinstance(c, ErrorbarContainer)}
    assert list(bars) == [r.config.mechanism for r in narrow]
    styles = set()
    for r in narrow:
        c = bars[r.config.mechanism]
        assert c.has_xerr and c.has_yerr
        data_line, _, (xbars, ybars) = c.lines
        (s,) = r.sets
        sd = s.correct.std(axis=1, ddof=1) / s.n_authors  # over the 3 trials
        mean = s.correct.mean(axis=1) / s.n_authors
        yseg = np.array(ybars.get_segments())  # (points, 2 ends, xy)
        xseg = np.array(xbars.get_segments())
        np.testing.assert_allclose(yseg[:, 1, 1] - yseg[:, 0, 1], 2 * sd[:, 2], atol=1e-12)
        np.testing.assert_allclose(xseg[:, 1, 0] - xseg[:, 0, 0], 2 * sd[:, 3], atol=1e-12)
        np.testing.assert_allclose(data_line.get_xdata(), mean[:, 3])
        styles.add((data_line.get_marker(), data_line.get_linestyle(),
                    data_line.get_markerfacecolor() == "none"))
    assert len(styles) == len(narrow)  # no two mechanisms look alike
    tem, santext = bars["tem"].lines[0], bars["santext"].lines[0]
    assert tem.get_markersize() > santext.get_markersize()  # coinciding: one shows inside
    assert tem.get_zorder() > santext.get_zorder()


def test_frontier_labels_epsilon_sparsely_without_overlap(narrow):
    from emprivacy.evaluation.frontier import frontier_figure

    (ax,) = frontier_figure(narrow).axes
    labels = [t for t in ax.texts if t.get_text().startswith("ε=")]
    n_points = sum(len(frontier_points(r)) for r in narrow)
    assert 5 <= len(labels) < n_points / 2
    fig = ax.figure
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in labels]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)


def test_the_accuracy_plot_legend_covers_no_point(synth_result):
    from emprivacy.evaluation.report import accuracy_figure

    fig = accuracy_figure(synth_result)
    fig.canvas.draw()
    assert all(ax.get_legend() is None for ax in fig.axes)
    (legend,) = fig.legends
    box = legend.get_window_extent()
    for ax in fig.axes:
        assert not box.overlaps(ax.get_window_extent())


def test_the_frontier_legend_covers_no_point(narrow):
    from emprivacy.evaluation.frontier import frontier_figure

    fig = frontier_figure(narrow)
    fig.canvas.draw()
    (legend,) = fig.legends
    assert not legend.get_window_extent().overlaps(fig.axes[0].get_window_extent())


def test_a_tem_run_says_where_its_truncation_is_active(runs, synth_embeddings):
    """issue 22 item 18: the report says at which ε TEM is SanText on the snippet words."""
    from emprivacy.evaluation.report import format_table3
    from emprivacy.mechanisms.tem import truncation_threshold
    from emprivacy.protection.epsilon.mechanism_study import largest_distances

    tem = runs["tem"]
    (found,) = tem.metadata["tem_truncation"]  # one ε besides "none"
    assert found["epsilon"] == 0.005 and found["beta"] == 0.01
    gamma = truncation_threshold(len(synth_embeddings), epsilon=0.005, beta=0.01)
    assert found["gamma"] == gamma
    assert gamma > largest_distances(synth_embeddings).max()  # γ covers the whole vocabulary
    assert found["active"] == 0 and found["words"] > 0
    table = format_table3(tem)
    assert ("TEM and SanText: tem (β = 0.01): γ = " in table
            and "for none at ε = 0.005 (TEM is SanText exactly there)" in table)
    assert "tem_truncation" not in runs["santext"].metadata
