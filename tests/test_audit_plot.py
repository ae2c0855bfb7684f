"""The audit's plot (emprivacy.protection.leakage.audit_plot): what it draws, and from what.

The figure is checked through its artists (the data of its lines, bands and bars), not
its pixels; the PNG through its bytes (the same on every call, from audits or from their
saved audit.json).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.mechanisms import make_mechanism
from emprivacy.protection import (
    Secrets,
    audit_figure,
    audit_mechanism,
    audit_report,
    load_audit_results,
    plot_audit,
)

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def audits():
    """madlib (sampled) and SanText (exact) at three ε on 6 words of a 2-D cloud."""
    emb = Embeddings([f"w{i}" for i in range(10)],
                     np.random.default_rng(2).normal(size=(10, 2)) * 2.0, name="cloud")
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(6)], weights=[6, 5, 4, 3, 2, 1])
    out = []
    for name in ("madlib", "santext"):
        for eps in (0.5, 2.0, 8.0):
            out.append(audit_mechanism(make_mechanism(name, emb, epsilon=eps), secrets,
                                       draws=200, rng=1))
    return out


def _f(values):
    return np.asarray(values, dtype=np.float64)  # an error bar's data are objects


def _top_lines(fig):
    """The top panel's labelled lines (an error bar's: its data line) by label."""
    ax = fig.axes[0]
    out = {line.get_label(): line for line in ax.get_lines()
           if not line.get_label().startswith("_")}
    out.update({c.get_label(): c.lines[0] for c in ax.containers})
    return out


def test_the_top_panel_draws_each_figure_against_epsilon(audits):
    fig = audit_figure(audits)
    lines = _top_lines(fig)
    madlib, santext = audits[:3], audits[3:]
    post = lines["madlib: V(π▷C) estimate"]
    np.testing.assert_allclose(_f(post.get_xdata()), [0.5, 2.0, 8.0])
    np.testing.assert_allclose(_f(post.get_ydata()),
                               [a.posterior_vulnerability.estimate for a in madlib])
    attack = lines["madlib: attack run (split-half)"]
    np.testing.assert_allclose(_f(attack.get_xdata()), [0.5 * 1.02, 2.0 * 1.02, 8.0 * 1.02])
    np.testing.assert_allclose(_f(attack.get_ydata()), [a.attack_recovery.estimate for a in madlib])
    exact = lines["santext: V(π▷C), exact (= the attack)"]
    np.testing.assert_allclose(_f(exact.get_ydata()),
                               [a.posterior_vulnerability.estimate for a in santext])
    assert "santext: attack run (split-half)" not in lines  # exact: the attack is V(π▷C)
    base = lines["V(π): the best blind guess"]
    assert base.get_ydata()[0] == pytest.approx(6 / 21)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    # the sampled V(π▷C)'s interval: a band from the lower to the upper ends
    band = ax.collections[0].get_paths()[0].vertices
    for a in madlib:
        at = band[np.isclose(band[:, 0], a.epsilon)][:, 1]
        assert min(at) == pytest.approx(a.posterior_vulnerability.lower)
        assert max(at) == pytest.approx(a.posterior_vulnerability.upper)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["madlib: V(π▷C) estimate", "madlib: attack run (split-half)",
                      "santext: V(π▷C), exact (= the attack)", "V(π): the best blind guess"]


@pytest.mark.parametrize(("exposed", "index"), [("lowest", 0), ("highest", 2), (2.0, 1)])
def test_the_exposed_words_panels(audits, exposed, index):
    fig = audit_figure(audits, exposed=exposed, top=4)
    assert len(fig.axes) == 3  # the top panel, then one per mechanism
    for ax, a in zip(fig.axes[1:], (audits[index], audits[3 + index]), strict=True):
        words = a.most_exposed(4)
        assert [t.get_text() for t in ax.get_yticklabels()] == [w["word"] for w in words]
        widths = [p.get_width() for p in ax.patches]
        assert widths == pytest.approx([w["recovery"]["estimate"] for w in words])
        assert ax.get_title() == f"{a.mechanism}, ε = {a.epsilon:g}: most exposed"
        # dashed: the same attacker over all words
        (overall,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert _f(overall.get_xdata()) == pytest.approx([a.attack_recovery.estimate] * 2)


def test_an_epsilon_only_some_mechanisms_have(audits):
    fig = audit_figure([*audits[:3], audits[4]], exposed=8.0)  # santext only at ε = 2
    assert [ax.get_title() for ax in fig.axes[1:]] == ["madlib, ε = 8: most exposed"]
    with pytest.raises(ValueError, match=r"exposed: no result at ε = 3; the results have "
                                         r"ε = 0.5, 2, 8"):
        audit_figure(audits, exposed=3.0)


def test_no_text_is_clipped_or_overlaps(audits):
    """Laid out and drawn, everything the figure draws lies inside it (the title, over the
    top panel and its legend, once ran off the left edge), and the exposed-words panels'
    axis labels do not run into each other."""
    fig = audit_figure(audits)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    drawn, page = fig.get_tightbbox(renderer), fig.bbox_inches
    tol = 0.01  # inches
    assert drawn.x0 >= page.x0 - tol and drawn.y0 >= page.y0 - tol
    assert drawn.x1 <= page.x1 + tol and drawn.y1 <= page.y1 + tol
    labels = [ax.xaxis.label.get_window_extent(renderer) for ax in fig.axes[1:]]
    assert len(labels) == 2 and labels[0].x1 < labels[1].x0
    assert fig.get_suptitle().startswith("How often the adversary recovers")


def test_saved_runs_replot_to_the_same_png(audits, tmp_path):
    """From the audits, from a parsed audit.json, from its path, its directory, or the
    --json lines of two runs: the same bytes."""
    png = plot_audit(audits)
    assert png.startswith(PNG) and plot_audit(audits) == png
    report = json.loads(json.dumps(audit_report(audits)))
    assert plot_audit(report) == png
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "audit.json").write_text(json.dumps(report), encoding="utf-8")
    assert plot_audit(tmp_path / "run" / "audit.json") == png
    assert plot_audit(str(tmp_path / "run")) == png
    lines = tmp_path / "madlib.jsonl"
    lines.write_text("".join(json.dumps(a.summary()) + "\n" for a in audits[:3]),
                     encoding="utf-8")
    other = tmp_path / "santext.jsonl"
    other.write_text("".join(json.dumps(a.summary()) + "\n" for a in audits[3:]),
                     encoding="utf-8")
    assert plot_audit([lines, other]) == png
    assert plot_audit(audits, tmp_path / "a.png") == png
    assert (tmp_path / "a.png").read_bytes() == png


def test_series_of_one_mechanism_are_labelled_by_what_differs():
    emb = Embeddings(["a", "b", "c", "d"], [[0.0], [1.0], [3.0], [4.0]], name="line")
    secrets = Secrets.from_words(emb, ["a", "b", "c"])
    runs = [audit_mechanism(make_mechanism("tem", emb, epsilon=e, beta=beta), secrets)
            for beta in (0.1, 0.3) for e in (1.0, 4.0)]
    labels = sorted(_top_lines(audit_figure(runs)))
    assert labels == ["V(π): the best blind guess",
                      "tem (beta 0.1): V(π▷C), exact (= the attack)",
                      "tem (beta 0.3): V(π▷C), exact (= the attack)"]
    uniform = Secrets.from_words(emb, ["a", "b", "c"], weights=[3, 2, 1])
    mixed = [runs[0], audit_mechanism(make_mechanism("tem", emb, epsilon=1.0, beta=0.1),
                                      uniform)]
    labels = sorted(_top_lines(audit_figure(mixed)))
    assert labels == ["V(π) (prior given, K = 3): the best blind guess",
                      "V(π) (prior uniform, K = 3): the best blind guess",
                      "tem (prior given): V(π▷C), exact (= the attack)",
                      "tem (prior uniform): V(π▷C), exact (= the attack)"]
    with pytest.raises(ValueError, match=r"two results of tem \(beta 0.1\) at ε = 1 with "
                                         "the same settings"):
        audit_figure([*runs, runs[0]])


def test_bad_sources(audits, tmp_path):
    with pytest.raises(InputError, match=r"audit file '.*nope\.json' does not exist"):
        plot_audit(tmp_path / "nope.json")
    with pytest.raises(InputError, match=r"audit directory '.*' holds no audit\.json"):
        plot_audit(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"is not JSON \(audit.json\) or JSON lines "
                                         r"\(emprivacy audit --json\): line 1"):
        plot_audit(bad)
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(InputError, match="holds no audit result"):
        plot_audit(bad)
    with pytest.raises(ValueError, match="a result has no 'attack_recovery'"):
        plot_audit({"mechanism": "madlib", "epsilon": 1.0, "prior_vulnerability": 0.5,
                    "posterior_vulnerability": {"estimate": 1, "lower": 1, "upper": 1}})
    with pytest.raises(ValueError, match="sources hold no audit result"):
        load_audit_results({"results": []})
    with pytest.raises(TypeError, match="sources must be WordAudit objects"):
        plot_audit([3])
    with pytest.raises(ValueError, match="exposed must be 'lowest', 'highest' or an ε"):
        plot_audit(audits, exposed="middle")
    with pytest.raises(ValueError, match="top must be an integer >= 1; got 0"):
        plot_audit(audits, top=0)


def test_without_matplotlib(audits, monkeypatch):
    import sys

    from emprivacy.exceptions import MissingExtraError

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'emprivacy\[evaluation\]'"):
        plot_audit(audits)


def test_one_secret_is_plotted():
    """One secret (issue 30, item 5): its plug-in V(π▷C) summed to 1.0000000000000002 over
    the outputs, above its interval's upper end 1, and matplotlib refused the plot
    ("'yerr' must not contain negative values"): no files were written."""
    gen = np.random.default_rng(0)
    emb = Embeddings([f"w{i}" for i in range(3000)],
                     gen.normal(size=(3000, 20)).astype(np.float32), name="g")
    secrets = Secrets.from_words(emb, ["w0"])
    audit = audit_mechanism(make_mechanism("madlib", emb, epsilon=5.0), secrets, draws=500,
                            rng=1)
    for figure in (audit.posterior_vulnerability, audit.multiplicative_leakage,
                   audit.capacity, audit.attack_recovery):
        assert figure.lower <= figure.estimate <= figure.upper
    assert audit.posterior_vulnerability.estimate == 1.0
    assert plot_audit([audit]).startswith(PNG)


def test_an_estimate_a_rounding_outside_its_interval_is_drawn():
    """A saved result whose estimate lies a rounding above its upper end (an audit.json of
    an earlier version) is drawn, at the end of its interval."""
    result = {"mechanism": "madlib", "parameters": {}, "epsilon": 5.0, "channel": "sampled",
              "draws": 500, "secrets": 1, "prior": "uniform", "prior_vulnerability": 1.0,
              "most_exposed": [{"word": "w0", "prior": 1.0, "recovery": {
                  "estimate": 1.0000000000000002, "lower": 0.99, "upper": 1.0,
                  "kind": "estimate"}}]}
    for key in ("posterior_vulnerability", "attack_recovery"):
        result[key] = {"estimate": 1.0000000000000002, "lower": 0.99, "upper": 1.0,
                       "kind": "estimate"}
    assert plot_audit([result]).startswith(PNG)


@pytest.mark.parametrize("epsilons", [[1.7e308], [1e300, 1.7e308], [5e-324, 1.0]])
def test_epsilons_at_the_ends_of_float64_are_drawn(epsilons):
    """matplotlib's log axis overflows near the float64 maximum ("Axis limits cannot be NaN
    or Inf"): such an ε is drawn at the end of [1e-300, 1e300], and the axis says so."""
    emb = Embeddings([f"w{i}" for i in range(10)],
                     np.random.default_rng(0).normal(size=(10, 2)), name="g")
    secrets = Secrets.from_words(emb, ["w0", "w1"])
    audits = [audit_mechanism(make_mechanism("santext", emb, epsilon=e), secrets)
              for e in epsilons]
    fig = audit_figure(audits)
    assert "is drawn at its end" in fig.axes[0].get_xlabel()
    lo, hi = fig.axes[0].get_xlim()
    assert 0 < lo < hi < float("inf")
    assert plot_audit(audits).startswith(PNG)
